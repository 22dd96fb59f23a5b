#include "agent/workloads/offset_generator.h"

#include <set>
#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

class RandomMapTest : public ::testing::TestWithParam<uint64_t> {};

TEST_P(RandomMapTest, EveryBlockIsVisitedExactlyOncePerPass) {
  const uint64_t blocks = GetParam();
  OffsetGenerator gen(8192, blocks * 4096, 4096, /*random=*/true, /*with_replacement=*/false, 7);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<int> seen(blocks, 0);
    for (uint64_t i = 0; i < blocks; ++i) {
      const uint64_t off = gen.Next();
      ASSERT_GE(off, 8192u);
      ASSERT_EQ((off - 8192) % 4096, 0u);
      const uint64_t block = (off - 8192) / 4096;
      ASSERT_LT(block, blocks);
      ++seen[block];
    }
    for (uint64_t b = 0; b < blocks; ++b)
      ASSERT_EQ(seen[b], 1) << "block " << b << " pass " << pass;
    EXPECT_EQ(gen.passes(), static_cast<uint64_t>(pass + 1));
  }
}

INSTANTIATE_TEST_SUITE_P(BlockCounts, RandomMapTest,
                         ::testing::Values(1, 2, 3, 7, 1000, 1024, 1025, 65537));

TEST(OffsetGeneratorTest, RandomOrderIsNotSequential) {
  OffsetGenerator gen(0, 1024 * 4096, 4096, true, false, 1);
  int ascending = 0;
  uint64_t prev = gen.Next();
  for (int i = 1; i < 1024; ++i) {
    const uint64_t off = gen.Next();
    if (off == prev + 4096) ++ascending;
    prev = off;
  }
  EXPECT_LT(ascending, 50);
}

TEST(OffsetGeneratorTest, SameSeedGivesTheSameSequence) {
  OffsetGenerator a(0, 1 << 20, 4096, true, false, 99);
  OffsetGenerator b(0, 1 << 20, 4096, true, false, 99);
  OffsetGenerator c(0, 1 << 20, 4096, true, false, 100);
  int differ = 0;
  for (int i = 0; i < 256; ++i) {
    const uint64_t x = a.Next();
    EXPECT_EQ(x, b.Next());
    if (x != c.Next()) ++differ;
  }
  EXPECT_GT(differ, 0);
}

TEST(OffsetGeneratorTest, SequentialWrapsAroundTheRegion) {
  OffsetGenerator gen(4096, 3 * 4096, 4096, false, false, 0);
  const std::vector<uint64_t> expected = {4096, 8192, 12288, 4096, 8192};
  for (uint64_t e : expected) EXPECT_EQ(gen.Next(), e);
}

TEST(OffsetGeneratorTest, SequentialPassesStartAtTheFirstBlockAndWrapAroundToIt) {
  OffsetGenerator gen(4096, 4 * 4096, 4096, false, false, 0, /*first_block=*/2);
  const std::vector<uint64_t> expected = {12288, 16384, 4096, 8192, 12288};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(gen.Next(), expected[i]) << i;
    EXPECT_EQ(gen.passes(), i >= 3 ? 1u : 0u) << i;
  }
}

TEST(OffsetGeneratorTest, NoRandomMapStaysInsideTheRegion) {
  OffsetGenerator gen(0, 100 * 512, 512, true, true, 3);
  std::set<uint64_t> distinct;
  for (int i = 0; i < 1000; ++i) {
    const uint64_t off = gen.Next();
    ASSERT_LT(off, 100u * 512);
    distinct.insert(off);
  }
  EXPECT_GT(distinct.size(), 50u);
}

}  // namespace
}  // namespace azbench
