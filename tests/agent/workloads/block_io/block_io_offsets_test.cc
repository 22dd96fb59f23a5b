// Where a block-I/O job's ops land and how large they are, read back from its op log: fio's rw
// modifiers, block-size mixes and distributions as a running job applies them.
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::kTmpfsBase;
using testing::TempDir;

// A job over one file of `size` bytes in `dir`, from fio-style options.
JobSpec Job(const std::string& dir, uint64_t size,
            const std::vector<std::pair<std::string, std::string>>& options) {
  JobSpec job;
  job.name = "t";
  job.directory = dir;
  job.size_bytes = size;
  for (const auto& [key, value] : options) {
    EXPECT_TRUE(ApplyJobOption(job, key, value).ok()) << key << "=" << value;
  }
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  return job;
}

std::vector<OpRecord> Ops(JobSpec spec) {
  spec.op_log = true;
  spec.op_log_rate = 1'000'000;
  std::vector<OpRecord> records;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return records;
  RunControl control;
  control.on_op_log = [&](int, std::vector<OpRecord>&& batch) {
    records.insert(records.end(), batch.begin(), batch.end());
  };
  absl::StatusOr<JobResult> result = (*job)->Run(control);
  EXPECT_TRUE(result.ok()) << result.status();
  return records;
}

TEST(BlockIoOffsetsTest, ReadWithANegativeModifierReadsBackwardsFromTheEnd) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  // fio's examples/backwards-read.fio: bs=4k, rw=read:-8k. The first read is at 0; each next
  // one starts 8k before the previous one's end, wrapping to the end below the start.
  const std::vector<OpRecord> ops =
      Ops(Job(dir.path(), 64 << 10, {{"rw", "read:-8k"}, {"bs", "4k"}, {"io_size", "64k"}}));
  std::vector<uint64_t> offsets;
  for (const OpRecord& r : ops) offsets.push_back(r.offset_bytes / 1024);
  EXPECT_EQ(offsets,
            (std::vector<uint64_t>{0, 56, 52, 48, 44, 40, 36, 32, 28, 24, 20, 16, 12, 8, 4, 0}));
}

TEST(BlockIoOffsetsTest, ASequenceVisitsItsBlocksInTurnAndAStrideMovesItOn) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  // fio's examples/sequence-distribution.fio (fio after 3.33): 48k of 4k blocks, io_size=24k.
  for (const auto& [stride, expected] : std::vector<std::pair<const char*, std::vector<uint64_t>>>{
           {"0", {2, 0, 1, 2, 0, 1}}, {"1", {2, 0, 1, 5, 3, 4}}}) {
    SCOPED_TRACE(stride);
    // The stride is its own option, given before or after the list.
    const std::vector<OpRecord> ops = Ops(Job(dir.path(), 48 << 10,
                                              {{"random_sequence_stride", stride},
                                               {"rw", "randread"},
                                               {"bs", "4k"},
                                               {"io_size", "24k"},
                                               {"random_distribution", "sequence:2,0,1"}}));
    std::vector<uint64_t> blocks;
    for (const OpRecord& r : ops) blocks.push_back(r.offset_bytes / 4096);
    EXPECT_EQ(blocks, expected);
  }
}

TEST(BlockIoOffsetsTest, ASequenceReachingPastTheRegionIsRefusedBeforeItRuns) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  // Block 12 of a 12-block file; and a stride that passes block 11 within io_size.
  for (const auto& options : std::vector<std::vector<std::pair<std::string, std::string>>>{
           {{"rw", "randread"}, {"random_distribution", "sequence:12"}},
           {{"rw", "randread"},
            {"random_distribution", "sequence:2,0,1"},
            {"random_sequence_stride", "1"},
            {"io_size", "64k"}}}) {
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job =
        BlockIoJob::Prepare(Job(dir.path(), 48 << 10, options));
    ASSERT_FALSE(job.ok());
    EXPECT_EQ(job.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_NE(job.status().message().find("whose region has 12 blocks"), std::string::npos)
        << job.status();
  }
  EXPECT_TRUE(std::filesystem::is_empty(dir.path())) << "nothing is left behind";
}

TEST(BlockIoOffsetsTest, ReadWithAPositiveModifierSkipsAHoleAfterEachRead) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::vector<OpRecord> ops =
      Ops(Job(dir.path(), 64 << 10, {{"rw", "read:4k"}, {"bs", "4k"}, {"io_size", "32k"}}));
  std::vector<uint64_t> offsets;
  for (const OpRecord& r : ops) offsets.push_back(r.offset_bytes / 1024);
  EXPECT_EQ(offsets, (std::vector<uint64_t>{0, 8, 16, 24, 32, 40, 48, 56}));
}

TEST(BlockIoOffsetsTest, RandomModifierDrawsEveryNthOffsetAndRunsSequentiallyBetween) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::vector<OpRecord> ops =
      Ops(Job(dir.path(), 4 << 20, {{"rw", "randread:4"}, {"bs", "4k"}, {"io_size", "256k"}}));
  ASSERT_EQ(ops.size(), 64u);
  // As fio 3.33 (its iolog for the same job): I/Os 0, 4, 8, ... are random, the others follow the
  // previous one (rw_sequencer=sequential) or repeat it (identical).
  for (size_t i = 1; i < ops.size(); ++i) {
    if (i % 4 == 0) continue;
    EXPECT_EQ(ops[i].offset_bytes, ops[i - 1].offset_bytes + 4096) << i;
  }
  JobSpec identical =
      Job(dir.path(), 4 << 20,
          {{"rw", "randread:4"}, {"rw_sequencer", "identical"}, {"bs", "4k"}, {"io_size", "256k"}});
  const std::vector<OpRecord> same = Ops(identical);
  ASSERT_EQ(same.size(), 64u);
  for (size_t i = 1; i < same.size(); ++i) {
    if (i % 4 == 0) continue;
    EXPECT_EQ(same[i].offset_bytes, same[i - 1].offset_bytes) << i;
  }
}

TEST(BlockIoOffsetsTest, BssplitSizesStayInsideTheFileAndSequentialOnesFollowEachOther) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const uint64_t size = 1 << 20;
  const std::vector<OpRecord> ops =
      Ops(Job(dir.path(), size, {{"rw", "read"}, {"bssplit", "4k/50:16k/50"}}));
  std::set<uint64_t> sizes;
  uint64_t expected = 0;
  for (const OpRecord& r : ops) {
    sizes.insert(r.bytes);
    EXPECT_EQ(r.offset_bytes, expected);
    EXPECT_LE(r.offset_bytes + r.bytes, size);
    expected = r.offset_bytes + r.bytes;
  }
  EXPECT_EQ(sizes, (std::set<uint64_t>{4096, 16384}));
}

TEST(BlockIoOffsetsTest, ZonedRandomReadsKeepToTheirZones) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::vector<OpRecord> ops = Ops(Job(dir.path(), 4 << 20,
                                            {{"rw", "randread"},
                                             {"bs", "4k"},
                                             {"random_distribution", "zoned:90/10:10/90"},
                                             {"io_size", "16m"}}));
  ASSERT_EQ(ops.size(), 4096u);
  size_t first_zone = 0;
  for (const OpRecord& r : ops) first_zone += r.offset_bytes < (4u << 20) / 10;
  EXPECT_NEAR(first_zone * 100.0 / ops.size(), 90, 3);
}

}  // namespace
}  // namespace azbench
