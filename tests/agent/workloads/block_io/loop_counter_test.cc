#include "agent/workloads/block_io/loop_counter.h"

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(LoopCounterTest, ALoopEndsAtItsBytesAndTheLastIoIsCutToFit) {
  LoopCounter loops(/*loop_bytes=*/10'000, /*loop_ops=*/0, /*loops=*/2, /*unbounded=*/false);
  loops.Issued(4096);
  loops.Issued(4096);
  EXPECT_EQ(loops.BytesLeftInLoop(), 10'000u - 8192);
  loops.Issued(loops.BytesLeftInLoop());
  EXPECT_EQ(loops.loop(), 1u);
  EXPECT_EQ(loops.BytesLeftInLoop(), 10'000u);
  EXPECT_FALSE(loops.done());
  loops.Issued(10'000);
  EXPECT_TRUE(loops.done());
}

TEST(LoopCounterTest, NumberIosEndsALoopBeforeItsBytesWhateverTheSizes) {
  LoopCounter loops(1 << 20, /*loop_ops=*/3, /*loops=*/2, false);
  for (uint64_t bytes : {4096u, 65536u, 8192u}) {
    EXPECT_EQ(loops.loop(), 0u);
    loops.Issued(bytes);
  }
  EXPECT_EQ(loops.loop(), 1u);
  EXPECT_EQ(loops.BytesLeftInLoop(), uint64_t{1} << 20);
  for (int i = 0; i < 3; ++i) loops.Issued(512);
  EXPECT_TRUE(loops.done());
}

TEST(LoopCounterTest, UnissueTakesBackTheLastIoEvenAcrossALoopsEnd) {
  LoopCounter loops(8192, 0, 2, false);
  loops.Issued(4096);
  loops.Issued(4096);
  ASSERT_EQ(loops.loop(), 1u);
  loops.Unissue();
  EXPECT_EQ(loops.loop(), 0u);
  EXPECT_EQ(loops.BytesLeftInLoop(), 4096u);
  loops.Issued(4096);
  loops.Issued(4096);
  loops.Unissue();
  EXPECT_EQ(loops.loop(), 1u);
  EXPECT_EQ(loops.BytesLeftInLoop(), 8192u);
}

TEST(LoopCounterTest, ATimeBasedCloneNeverEndsItsLoopButStopEndsIt) {
  LoopCounter loops(4096, 1, 1, /*unbounded=*/true);
  for (int i = 0; i < 10; ++i) loops.Issued(4096);
  EXPECT_FALSE(loops.done());
  EXPECT_EQ(loops.loop(), 0u);
  EXPECT_EQ(loops.BytesLeftInLoop(), LoopCounter::kNoLimit);
  loops.Stop();
  EXPECT_TRUE(loops.done());
}

TEST(LoopCounterTest, NothingToDoIsDoneAtOnce) { EXPECT_TRUE(LoopCounter(0, 0, 3, false).done()); }

}  // namespace
}  // namespace azbench
