// A block-I/O job's live progress (agent/workloads/job_progress.h), as fio's status line reads it.
#include <fstream>
#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

// Random 4 KiB reads and writes with the null engine: no file is ever opened.
JobSpec NullRandRw(int numjobs) {
  JobSpec spec;
  spec.name = "null";
  spec.filename = "/nonexistent/never-opened";
  spec.ioengine = "null";
  spec.rw = RwPattern::kRandRw;
  spec.size_bytes = 64 << 20;
  spec.block_size_bytes = 4096;
  spec.numjobs = numjobs;
  return spec;
}

uint64_t Bytes(const JobResult& result, OpKind kind) {
  const OpStats* stats = result.Find(kind);
  return stats == nullptr ? 0 : stats->bytes;
}

TEST(BlockIoProgressTest, EveryCloneEndsDoneWithTheBytesItsResultCounts) {
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(NullRandRw(2));
  ASSERT_TRUE(job.ok()) << job.status();
  const JobProgress* progress = (*job)->progress();
  ASSERT_NE(progress, nullptr);
  ASSERT_EQ(progress->clones.size(), 2u);
  EXPECT_EQ(progress->profiles[0].running_char, 'm');
  EXPECT_EQ(progress->clones[0]->Sample().state, CloneRunState::kPending);
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  PerDirection bytes{}, ops{};
  for (const auto& clone : progress->clones) {
    const CloneProgressSample s = clone->Sample();
    EXPECT_EQ(s.state, CloneRunState::kDone);
    EXPECT_GT(s.end_monotonic_ns, s.epoch_monotonic_ns);
    for (int d = 0; d < kProgressDirections; ++d) {
      bytes[d] += s.bytes[d];
      ops[d] += s.ops[d];
    }
  }
  EXPECT_EQ(bytes[0], Bytes(*result, OpKind::kRead));
  EXPECT_EQ(bytes[1], Bytes(*result, OpKind::kWrite));
  EXPECT_EQ(bytes[0] + bytes[1], 2u * (64 << 20));
  EXPECT_EQ(ops[0] + ops[1], 2u * (64 << 20) / 4096);
  EXPECT_EQ(bytes[2], 0u);
}

TEST(BlockIoProgressTest, OpsOfTheRampAreNotCounted) {
  JobSpec spec = NullRandRw(1);
  spec.ramp_time = absl::Milliseconds(100);
  spec.runtime = absl::Milliseconds(100);
  spec.time_based = true;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  const CloneProgressSample s = (*job)->progress()->clones[0]->Sample();
  EXPECT_EQ(s.bytes[0], Bytes(*result, OpKind::kRead));
  EXPECT_EQ(s.bytes[1], Bytes(*result, OpKind::kWrite));
}

TEST(BlockIoProgressTest, EachCloneIsDoneWhenItsOwnRegionIs) {
  // Clones at different offsets of a 1 MiB file each take the rest of the file (as fio): 1 MiB and
  // 768 KiB. The status line's percentage and ETA of each come from its own total.
  testing::TempDir dir(testing::kTmpfsBase);
  const std::string path = dir.path() + "/f";
  std::ofstream(path) << std::string(1 << 20, 'x');
  JobSpec spec;
  spec.name = "regions";
  spec.filename = path;
  spec.ioengine = "psync";
  spec.rw = RwPattern::kRead;
  spec.block_size_bytes = 4096;
  spec.numjobs = 2;
  spec.offset_increment_bytes = 256 << 10;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  const JobProgress* progress = (*job)->progress();
  ASSERT_EQ(progress->profiles.size(), 2u);
  EXPECT_EQ(progress->profiles[0].total_io_bytes, 1u << 20);
  EXPECT_EQ(progress->profiles[1].total_io_bytes, 768u << 10);
  ASSERT_TRUE((*job)->Run(RunControl{}).ok());
  for (size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(progress->clones[i]->Sample().bytes[0], progress->profiles[i].total_io_bytes)
        << "clone " << i;
  }
}

}  // namespace
}  // namespace azbench
