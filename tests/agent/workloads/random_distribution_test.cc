#include "agent/workloads/random_distribution.h"

#include <algorithm>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "agent/workloads/offset_generator.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

RandomDistributionSpec Parsed(std::string_view value) {
  JobSpec job;
  EXPECT_TRUE(ApplyJobOption(job, "random_distribution", value).ok()) << value;
  return job.random_distribution;
}

// fio-genzipf's table: `blocks` draws over `blocks` blocks, the blocks that were hit sorted by
// hits, and the share of all hits that fell in the top `percent`% of them.
std::vector<double> TopShares(RandomDistribution& dist, uint64_t blocks,
                              const std::vector<int>& percents) {
  std::vector<uint32_t> hits(blocks, 0);
  for (uint64_t i = 0; i < blocks; ++i) {
    const uint64_t b = dist.Next();
    EXPECT_LT(b, blocks);
    ++hits[b];
  }
  std::vector<uint32_t> hit;
  for (uint32_t h : hits) {
    if (h != 0) hit.push_back(h);
  }
  std::sort(hit.begin(), hit.end(), std::greater<>());
  std::vector<double> shares;
  for (int percent : percents) {
    const size_t top = (hit.size() * percent + 99) / 100;
    uint64_t sum = 0;
    for (size_t i = 0; i < top; ++i) sum += hit[i];
    shares.push_back(100.0 * static_cast<double>(sum) / static_cast<double>(blocks));
  }
  return shares;
}

// `fio-genzipf -t <type> -i <value> -g 1 -b 16384` (fio 3.33, Debian 12): 65536 blocks; the
// "Sum %" column at 5, 10, 20 and 50% of the rows.
constexpr uint64_t kGenzipfBlocks = 65536;
const std::vector<int> kRows = {5, 10, 20, 50};

TEST(RandomDistributionTest, ZipfHitsMatchFioGenzipf) {
  RandomDistribution dist(Parsed("zipf:1.2"), false, kGenzipfBlocks, 16384, 11);
  const std::vector<double> expected = {81.77, 85.75, 89.40, 94.16};
  const std::vector<double> got = TopShares(dist, kGenzipfBlocks, kRows);
  for (size_t i = 0; i < kRows.size(); ++i) EXPECT_NEAR(got[i], expected[i], 3) << kRows[i];
}

TEST(RandomDistributionTest, ParetoHitsMatchFioGenzipf) {
  RandomDistribution dist(Parsed("pareto:0.3"), false, kGenzipfBlocks, 16384, 12);
  const std::vector<double> expected = {34.19, 43.32, 55.41, 77.20};
  const std::vector<double> got = TopShares(dist, kGenzipfBlocks, kRows);
  for (size_t i = 0; i < kRows.size(); ++i) EXPECT_NEAR(got[i], expected[i], 3) << kRows[i];
}

TEST(RandomDistributionTest, ZipfSpreadsItsHotBlocksOverTheRegion) {
  // The hash: the 100 hottest blocks are not the first 100.
  RandomDistribution dist(Parsed("zipf:1.2"), false, kGenzipfBlocks, 16384, 13);
  std::vector<uint32_t> hits(kGenzipfBlocks, 0);
  for (int i = 0; i < 200000; ++i) ++hits[dist.Next()];
  std::vector<uint64_t> order(kGenzipfBlocks);
  for (uint64_t i = 0; i < kGenzipfBlocks; ++i) order[i] = i;
  std::partial_sort(order.begin(), order.begin() + 100, order.end(),
                    [&](uint64_t a, uint64_t b) { return hits[a] > hits[b]; });
  const uint64_t highest = *std::max_element(order.begin(), order.begin() + 100);
  EXPECT_GT(highest, kGenzipfBlocks / 2);
}

TEST(RandomDistributionTest, NormalCentresItsBell) {
  RandomDistribution dist(Parsed("normal:10:0.25"), false, 10000, 4096, 14);
  // The mean of 12 uniform draws over 10000 blocks: a bell of standard deviation ~830 blocks,
  // here around block 2500.
  uint64_t near = 0;
  double sum = 0;
  for (int i = 0; i < 100000; ++i) {
    const uint64_t b = dist.Next();
    near += b >= 1000 && b < 4000;
    sum += static_cast<double>(b);
  }
  EXPECT_GT(near, 85000u);
  EXPECT_NEAR(sum / 100000, 2500, 100);
}

TEST(RandomDistributionTest, ZonedSharesGoToTheirZones) {
  // 60% of accesses to the first 10% of blocks, 30% to the next 20%, 10% to the last 70%.
  RandomDistribution dist(Parsed("zoned:60/10:30/20:10/70"), false, 10000, 4096, 15);
  double zone[3] = {0, 0, 0};
  const int draws = 200000;
  for (int i = 0; i < draws; ++i) {
    const uint64_t b = dist.Next();
    ASSERT_LT(b, 10000u);
    zone[b < 1000 ? 0 : b < 3000 ? 1 : 2] += 100.0 / draws;
  }
  EXPECT_NEAR(zone[0], 60, 1);
  EXPECT_NEAR(zone[1], 30, 1);
  EXPECT_NEAR(zone[2], 10, 1);
}

TEST(RandomDistributionTest, ZonedZoneWithoutASizeTakesTheRest) {
  // fio's examples/rand-zones.fio.
  const RandomDistributionSpec spec = Parsed("zoned:50/5:30/15:20/");
  ASSERT_EQ(spec.zones[0].size(), 3u);
  EXPECT_EQ(spec.zones[0][2].size_percent, 80u);
}

TEST(RandomDistributionTest, ZonedAbsCountsBytesAndWritesHaveTheirOwnZones) {
  const RandomDistributionSpec spec = Parsed("zoned_abs:50/4m:50/36m,100/1m");
  // 4 KiB blocks: the first zone is blocks [0, 1024).
  RandomDistribution reads(spec, false, 10240, 4096, 16);
  int first = 0;
  for (int i = 0; i < 100000; ++i) first += reads.Next() < 1024;
  EXPECT_NEAR(first / 1000.0, 50, 1);
  RandomDistribution writes(spec, true, 10240, 4096, 17);
  for (int i = 0; i < 10000; ++i) ASSERT_LT(writes.Next(), 256u);
}

TEST(RandomDistributionTest, RefusesValuesFioRefuses) {
  JobSpec job;
  EXPECT_FALSE(ApplyJobOption(job, "random_distribution", "zipf:1").ok());
  EXPECT_FALSE(ApplyJobOption(job, "random_distribution", "pareto:1.5").ok());
  EXPECT_FALSE(ApplyJobOption(job, "random_distribution", "normal:10:2").ok());
  EXPECT_FALSE(ApplyJobOption(job, "random_distribution", "zoned:60/10:30/20").ok());
  EXPECT_FALSE(ApplyJobOption(job, "random_distribution", "poisson").ok());
  EXPECT_TRUE(ApplyJobOption(job, "random_distribution", "zipf").ok());
  EXPECT_DOUBLE_EQ(job.random_distribution.value, 1.1);  // fio's default theta
}

TEST(RandomDistributionTest, SequenceListsAreFiosAndTheStrideHasItsOwnOption) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "random_sequence_stride", "1").ok());
  ASSERT_TRUE(ApplyJobOption(job, "random_distribution", "sequence:2, 0,1").ok());
  EXPECT_EQ(job.random_distribution.kind, RandomDistributionKind::kSequence);
  EXPECT_EQ(job.random_distribution.sequence, (std::vector<uint64_t>{2, 0, 1}));
  EXPECT_TRUE(job.random_distribution.sequence_stride) << "kept when the list comes after it";
  for (const char* bad : {"sequence", "sequence:", "sequence:1,-2", "sequence:1,x", "sequence:1,,2",
                          "sequence:3000000000"}) {
    EXPECT_FALSE(ApplyJobOption(job, "random_distribution", bad).ok()) << bad;
  }
  std::string many = "sequence:0";
  for (int i = 1; i < 65; ++i) many += ",0";
  const absl::Status status = ApplyJobOption(job, "random_distribution", many);
  EXPECT_NE(status.message().find("at most 64"), std::string::npos) << status;
  // One file and only random I/Os: fio counts the list's place over every I/O of a direction.
  job = JobSpec();
  job.name = "j";
  job.size_bytes = 1 << 20;
  ASSERT_TRUE(ApplyJobOption(job, "random_distribution", "sequence:1").ok());
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  job.nrfiles = 2;
  EXPECT_FALSE(ValidateJobSpec(job).ok());
}

TEST(RandomDistributionTest, SequenceReachesItsLargestBlockOrMovesOnByItsLength) {
  RandomDistributionSpec spec = Parsed("sequence:2,0,1");
  RandomDistribution dist(spec, false, 100, 4096, 1);
  std::vector<uint64_t> blocks;
  for (int i = 0; i < 7; ++i) blocks.push_back(dist.Next());
  EXPECT_EQ(blocks, (std::vector<uint64_t>{2, 0, 1, 2, 0, 1, 2}));
  EXPECT_EQ(RandomDistribution::SequenceReachesBlock(spec, 2), 2u);
  EXPECT_EQ(RandomDistribution::SequenceReachesBlock(spec, 1000), 2u);
  spec.sequence_stride = true;
  RandomDistribution strided(spec, false, 100, 4096, 1);
  blocks.clear();
  for (int i = 0; i < 7; ++i) blocks.push_back(strided.Next());
  EXPECT_EQ(blocks, (std::vector<uint64_t>{2, 0, 1, 5, 3, 4, 8}));
  EXPECT_EQ(RandomDistribution::SequenceReachesBlock(spec, 6), 5u);
  EXPECT_EQ(RandomDistribution::SequenceReachesBlock(spec, 7), 8u);
  EXPECT_EQ(RandomDistribution::SequenceReachesBlock(spec, 1), 2u);
}

TEST(RandomGeneratorTest, LfsrVisitsEveryBlockOncePerPassEvenWithNorandommap) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "random_generator", "lfsr").ok());
  ASSERT_TRUE(ApplyJobOption(job, "norandommap", "1").ok());
  EXPECT_EQ(job.random_generator, RandomGenerator::kLfsr);
  // What agent/workloads/block_io/block_io.cc builds for it: no replacement.
  const bool with_replacement = job.norandommap && job.random_generator != RandomGenerator::kLfsr;
  OffsetGenerator gen(0, 1000 * 4096, 4096, /*random=*/true, with_replacement, 5);
  std::set<uint64_t> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(gen.Next());
  EXPECT_EQ(seen.size(), 1000u);
}

}  // namespace
}  // namespace azbench
