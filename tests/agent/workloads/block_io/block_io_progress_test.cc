// A block-I/O job's live progress (agent/workloads/job_progress.h), as fio's status line reads it.
#include <memory>

#include "agent/workloads/block_io/block_io.h"
#include "gtest/gtest.h"

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
  EXPECT_EQ(progress->profile.running_char, 'm');
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

}  // namespace
}  // namespace azbench
