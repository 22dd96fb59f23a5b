#include "agent/workloads/block_size_picker.h"

#include <cstdint>
#include <map>

#include "common/job_spec.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr uint64_t kNoLimit = UINT64_MAX;

JobSpec Parsed(std::string_view key, std::string_view value) {
  JobSpec job;
  EXPECT_TRUE(ApplyJobOption(job, key, value).ok()) << key << "=" << value;
  return job;
}

// Shares of each size over `draws` picks, in percent.
std::map<uint64_t, double> Shares(BlockSizePicker& picker, int draws) {
  std::map<uint64_t, double> shares;
  for (int i = 0; i < draws; ++i) shares[picker.Next(kNoLimit)] += 100.0 / draws;
  return shares;
}

TEST(BlockSizePickerTest, BssplitDrawsEachSizeAtItsShareAndSplitsTheRemainder) {
  // 1m has no share: it gets what 4k and 64k leave of 100 (20).
  const JobSpec job = Parsed("bssplit", "4k/50:64k/30:1m/");
  BlockSizePicker picker(job.BlockSizes(/*write=*/false), 42);
  std::map<uint64_t, double> shares = Shares(picker, 200000);
  ASSERT_EQ(shares.size(), 3u);
  EXPECT_NEAR(shares[4096], 50, 2);
  EXPECT_NEAR(shares[65536], 30, 2);
  EXPECT_NEAR(shares[1 << 20], 20, 2);
}

TEST(BlockSizePickerTest, BssplitPerDirectionAndTheLargestShareTakesWhatIsLeft) {
  // Shares adding up to 90: the entry with the largest share takes the rest, as in fio.
  const JobSpec job = Parsed("bssplit", "4k/10:8k/80,16k/40:32k/60");
  BlockSizePicker reads(job.BlockSizes(false), 1);
  std::map<uint64_t, double> shares = Shares(reads, 200000);
  EXPECT_NEAR(shares[4096], 10, 2);
  EXPECT_NEAR(shares[8192], 90, 2);
  BlockSizePicker writes(job.BlockSizes(true), 2);
  shares = Shares(writes, 200000);
  EXPECT_NEAR(shares[16384], 40, 2);
  EXPECT_NEAR(shares[32768], 60, 2);
}

TEST(BlockSizePickerTest, BsrangeDrawsMultiplesOfTheLowEndWithinTheRange) {
  const JobSpec job = Parsed("bsrange", "4k-16k");
  BlockSizePicker picker(job.BlockSizes(false), 3);
  std::map<uint64_t, double> shares = Shares(picker, 100000);
  // fio's draw: low + high * u, rounded down to a multiple of low, capped at high. So 4k, 8k,
  // 12k take a quarter each and 16k the rest (u >= 3/4 and the cap).
  ASSERT_EQ(shares.size(), 4u);
  EXPECT_NEAR(shares[4096], 25, 2);
  EXPECT_NEAR(shares[8192], 25, 2);
  EXPECT_NEAR(shares[12288], 25, 2);
  EXPECT_NEAR(shares[16384], 25, 2);
}

TEST(BlockSizePickerTest, UnalignedRangeDrawsSizesBetweenMultiples) {
  JobSpec job = Parsed("bsrange", "1000-3000");
  ASSERT_TRUE(ApplyJobOption(job, "bs_unaligned", "1").ok());
  BlockSizePicker picker(job.BlockSizes(false), 4);
  bool off_multiple = false;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t len = picker.Next(kNoLimit);
    ASSERT_GE(len, 1000u);
    ASSERT_LE(len, 3000u);
    off_multiple |= len % 1000 != 0;
  }
  EXPECT_TRUE(off_multiple);
}

TEST(BlockSizePickerTest, DrawsOnlySizesThatFitTheRoomLeft) {
  const JobSpec job = Parsed("bssplit", "4k/10:64k/90");
  BlockSizePicker picker(job.BlockSizes(false), 5);
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(picker.Next(16384), 4096u);
  EXPECT_EQ(picker.Next(1024), 1024u);  // not even the smallest fits: a short I/O
}

TEST(BlockSizeOptionsTest, BsTakesReadWriteAndTrimValues) {
  JobSpec job = Parsed("bs", "4k,64k,8k");
  EXPECT_EQ(job.BlockSizes(false).min_bytes, 4096u);
  EXPECT_EQ(job.BlockSizes(true).min_bytes, 65536u);
  EXPECT_EQ(job.MaxBlockSizeBytes(), 65536u);
  job = Parsed("bs", ",16k");
  EXPECT_EQ(job.BlockSizes(false).min_bytes, 4096u);
  EXPECT_EQ(job.BlockSizes(true).max_bytes, 16384u);
  job = Parsed("bs", "8k");
  EXPECT_EQ(job.BlockSizes(true).min_bytes, 8192u);
}

TEST(BlockSizeOptionsTest, BssplitWinsOverBsrangeAndBsrangeOverBs) {
  JobSpec job = Parsed("bssplit", "8k/50:32k/50");
  ASSERT_TRUE(ApplyJobOption(job, "bsrange", "1k-2k").ok());
  ASSERT_TRUE(ApplyJobOption(job, "bs", "128k").ok());
  BlockSizeChoice sizes = job.BlockSizes(false);
  EXPECT_EQ(sizes.min_bytes, 8192u);
  EXPECT_EQ(sizes.max_bytes, 32768u);
  EXPECT_EQ(sizes.align_bytes, 8192u);  // blockalign defaults to the smallest size
  ASSERT_TRUE(ApplyJobOption(job, "ba", "4k").ok());
  EXPECT_EQ(job.BlockSizes(true).align_bytes, 4096u);
}

TEST(BlockSizeOptionsTest, RefusesBadValuesNamingWhatIsAllowed) {
  JobSpec job;
  absl::Status st = ApplyJobOption(job, "bssplit", "4k/60:8k/60");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("more than 100"), std::string::npos) << st;
  st = ApplyJobOption(job, "bsrange", "64k-4k");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  st = ApplyJobOption(job, "bsrange", "64k");
  EXPECT_NE(st.message().find("low-high"), std::string::npos) << st;
  st = ApplyJobOption(job, "bs", "4k,8k,8k,8k");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument) << st;
  job = Parsed("bssplit", "4k/50:1000/50");
  job.size_bytes = 1 << 20;
  job.direct = true;
  st = ValidateJobSpec(job);
  EXPECT_NE(st.message().find("bssplit"), std::string::npos) << st;
}

}  // namespace
}  // namespace azbench
