// The adaptive pause before a blocking wait: on while the recent waits are short, off after long
// ones, back on when they are short again; never with pause_ns = 0.
#include "agent/engines/wait_pause.h"

#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr WaitPauseOptions kOptions{.pause_ns = 2000, .short_wait_ns = 20000};

TEST(WaitPauseTest, PausesBeforeTheFirstWait) {
  WaitPause pause(kOptions);
  EXPECT_TRUE(pause.ShouldPause());
  EXPECT_EQ(pause.pause_ns(), 2000u);
  EXPECT_EQ(pause.average_wait_ns(), 0u);
}

TEST(WaitPauseTest, ZeroPauseNeverPauses) {
  WaitPause pause({.pause_ns = 0, .short_wait_ns = 20000});
  EXPECT_FALSE(pause.ShouldPause());
  for (int i = 0; i < 100; ++i) pause.RecordWait(100);
  EXPECT_FALSE(pause.ShouldPause());
}

TEST(WaitPauseTest, AverageWeighsEachWaitOneEighth) {
  WaitPause pause(kOptions);
  pause.RecordWait(80000);
  EXPECT_EQ(pause.average_wait_ns(), 10000u);
  pause.RecordWait(80000);
  EXPECT_EQ(pause.average_wait_ns(), 10000u - 1250u + 10000u);
}

TEST(WaitPauseTest, ShortWaitsKeepPausing) {
  WaitPause pause(kOptions);
  for (int i = 0; i < 1000; ++i) {
    pause.RecordWait(3000);
    ASSERT_TRUE(pause.ShouldPause()) << "after wait " << i;
  }
  // The average converges to the waits (within the integer rounding of 1/8 steps).
  EXPECT_NEAR(static_cast<double>(pause.average_wait_ns()), 3000.0, 8.0);
}

TEST(WaitPauseTest, DiskLikeWaitsTurnItOffAfterTheFirst) {
  WaitPause pause(kOptions);
  pause.RecordWait(200000);  // 200 us: average 25 us
  EXPECT_FALSE(pause.ShouldPause());
  for (int i = 0; i < 1000; ++i) {
    pause.RecordWait(100000);
    ASSERT_FALSE(pause.ShouldPause()) << "after wait " << i;
  }
}

TEST(WaitPauseTest, OneSlowWaitAmongShortOnesDoesNotTurnItOff) {
  WaitPause pause(kOptions);
  for (int i = 0; i < 100; ++i) pause.RecordWait(2000);
  pause.RecordWait(100000);  // average ~2 us -> ~14.25 us, still under 20 us
  EXPECT_TRUE(pause.ShouldPause());
}

TEST(WaitPauseTest, ShortWaitsTurnItBackOn) {
  WaitPause pause(kOptions);
  pause.RecordWait(240000);  // average 30 us: off
  EXPECT_FALSE(pause.ShouldPause());
  // 1 us waits: 30000 -> 26375 -> 23204 -> 20429 -> 18001 ns.
  for (int i = 0; i < 3; ++i) {
    pause.RecordWait(1000);
    EXPECT_FALSE(pause.ShouldPause()) << "after short wait " << i;
  }
  pause.RecordWait(1000);
  EXPECT_TRUE(pause.ShouldPause());
  EXPECT_EQ(pause.average_wait_ns(), 18001u);
}

TEST(WaitPauseTest, HugeWaitsDoNotOverflow) {
  WaitPause pause(kOptions);
  for (int i = 0; i < 100; ++i) pause.RecordWait(UINT64_MAX);
  EXPECT_FALSE(pause.ShouldPause());
  EXPECT_GT(pause.average_wait_ns(), UINT64_MAX / 2);
}

}  // namespace
}  // namespace azbench
