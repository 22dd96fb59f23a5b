#include "agent/engines/op_clock.h"

#include <time.h>

#include <cstdint>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

constexpr TscSupport kUsable{.invariant = true, .kernel_clocksource = true};
constexpr TscSupport kNotInvariant{.invariant = false, .kernel_clocksource = true};
constexpr TscSupport kNotListed{.invariant = true, .kernel_clocksource = false};

TEST(ChooseTscTest, AutoUsesTheTscOnlyWhenTheCpuAndTheKernelBothVouchForIt) {
  EXPECT_EQ(ChooseTsc(ClockSource::kAuto, kUsable).value(), true);
  EXPECT_EQ(ChooseTsc(ClockSource::kAuto, kNotInvariant).value(), false);
  EXPECT_EQ(ChooseTsc(ClockSource::kAuto, kNotListed).value(), false);
}

TEST(ChooseTscTest, ClockGettimeIsNeverTheTsc) {
  EXPECT_EQ(ChooseTsc(ClockSource::kClockGettime, kUsable).value(), false);
  EXPECT_EQ(ChooseTsc(ClockSource::kClockGettime, kNotInvariant).value(), false);
}

TEST(ChooseTscTest, CpuOnAMachineWithoutAUsableTscIsAnErrorSayingWhatIsMissing) {
  EXPECT_EQ(ChooseTsc(ClockSource::kCpu, kUsable).value(), true);
  absl::StatusOr<bool> no_invariant = ChooseTsc(ClockSource::kCpu, kNotInvariant);
  ASSERT_FALSE(no_invariant.ok());
  EXPECT_EQ(no_invariant.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(no_invariant.status().message(), HasSubstr("invariant TSC"));
  EXPECT_THAT(no_invariant.status().message(), HasSubstr("clocksource=clock_gettime"));
  absl::StatusOr<bool> not_listed = ChooseTsc(ClockSource::kCpu, kNotListed);
  ASSERT_FALSE(not_listed.ok());
  EXPECT_THAT(not_listed.status().message(), HasSubstr("does not list tsc"));
}

// A fake counter at `ghz` ticks per nanosecond, started at an arbitrary value.
struct FakeCounter {
  double ghz;
  uint64_t ticks_at_zero = 123'456'789'000ULL;
  uint64_t now_ns = 5'000'000'000ULL;
  ClockPair Read() const {
    return {ticks_at_zero + static_cast<uint64_t>(static_cast<double>(now_ns) * ghz), now_ns};
  }
};

TEST(CalibrateTest, TheRateFromTwoPairsConvertsTicksToNanosecondsWithinAPartPerMillion) {
  for (double ghz : {1.0, 2.1, 2.595, 3.7}) {
    FakeCounter counter{.ghz = ghz};
    absl::StatusOr<uint64_t> q32 = CalibrateNanosPerTickQ32([&] { return counter.Read(); },
                                                            [&] { counter.now_ns += 10'000'000; });
    ASSERT_TRUE(q32.ok()) << q32.status();
    const ClockPair anchor = counter.Read();
    const OpClockAnchor a{
        .tsc = true, .ticks0 = anchor.ticks, .ns0 = anchor.ns, .ns_per_tick_q32 = *q32};
    // One second and one hour after the anchor.
    for (uint64_t later_ns : {1'000'000'000ULL, 3'600'000'000'000ULL}) {
      counter.now_ns = anchor.ns + later_ns;
      const uint64_t converted = TicksToNanos(a, counter.Read().ticks);
      const double error = static_cast<double>(converted) - static_cast<double>(counter.now_ns);
      EXPECT_LE(std::abs(error), 1e-6 * static_cast<double>(later_ns) + 2)
          << ghz << " GHz, " << later_ns << " ns after the anchor";
    }
  }
}

TEST(CalibrateTest, ACounterThatDoesNotAdvanceIsAnError) {
  FakeCounter counter{.ghz = 0.0};
  absl::StatusOr<uint64_t> q32 = CalibrateNanosPerTickQ32([&] { return counter.Read(); },
                                                          [&] { counter.now_ns += 10'000'000; });
  ASSERT_FALSE(q32.ok());
  EXPECT_EQ(q32.status().code(), absl::StatusCode::kFailedPrecondition);
}

TEST(TicksToNanosTest, ACounterReadingBeforeTheAnchorGivesTheAnchorTime) {
  const OpClockAnchor a{
      .tsc = true, .ticks0 = 1'000'000, .ns0 = 777, .ns_per_tick_q32 = 1ULL << 31};
  EXPECT_EQ(TicksToNanos(a, 999'000), 777u);
  EXPECT_EQ(TicksToNanos(a, 1'000'000 + 2'000), 777u + 1'000);  // 0.5 ns per tick
}

TEST(OpClockTest, ReadingsNeverGoBackOnAThread) {
  OpClockScope scope(OpClockSource{.tsc = true, .ns_per_tick_q32 = 1ULL << 32});
  const uint64_t first = OpClockNanos();
  // A counter that is behind (another CPU's, slightly out of step) must not move time back.
  tls_op_clock_anchor.ticks0 += 1'000'000'000'000ULL;
  EXPECT_GE(OpClockNanos(), first);
}

TEST(OpClockTest, AThreadWithoutAScopeReadsClockGettime) {
  ASSERT_FALSE(tls_op_clock_anchor.tsc);
  const uint64_t before = MonotonicNanos();
  const uint64_t now = OpClockNanos();
  const uint64_t after = MonotonicNanos();
  EXPECT_GE(now, before);
  EXPECT_LE(now, after);
}

TEST(OpClockTest, TheScopeRestoresTheThreadsPreviousClock) {
  {
    OpClockScope scope(OpClockSource{.tsc = true, .ns_per_tick_q32 = 1ULL << 32});
    EXPECT_TRUE(tls_op_clock_anchor.tsc);
  }
  EXPECT_FALSE(tls_op_clock_anchor.tsc);
}

// The machine's own clock: when the TSC is usable, op timestamps stay on the CLOCK_MONOTONIC
// timeline (bracketed by two clock_gettime reads) 50 ms after anchoring; when it is not, `cpu` is
// refused and the default falls back to clock_gettime.
TEST(OpClockTest, TheResolvedClockStaysOnTheMonotonicTimeline) {
  const TscSupport support = ProbeTscSupport();
  const bool usable = support.invariant && support.kernel_clocksource;
  absl::StatusOr<OpClockSource> cpu = ResolveOpClock(ClockSource::kCpu);
  absl::StatusOr<OpClockSource> automatic = ResolveOpClock(ClockSource::kAuto);
  ASSERT_TRUE(automatic.ok()) << automatic.status();
  EXPECT_EQ(automatic->tsc, usable);
  EXPECT_EQ(cpu.ok(), usable);
  absl::StatusOr<OpClockSource> gettime = ResolveOpClock(ClockSource::kClockGettime);
  ASSERT_TRUE(gettime.ok());
  EXPECT_FALSE(gettime->tsc);
  if (usable) {
    const double ghz = 4294967296.0 / static_cast<double>(cpu->ns_per_tick_q32);
    EXPECT_GT(ghz, 0.1);
    EXPECT_LT(ghz, 10.0);
    EXPECT_THAT(cpu->Describe(), HasSubstr("cpu (TSC at "));
  }
  const uint64_t anchored_ns = MonotonicNanos();
  OpClockScope scope(*automatic);
  const timespec pause{0, 50'000'000};
  nanosleep(&pause, nullptr);
  // The narrowest of a few brackets, so that a preemption inside one does not widen it.
  uint64_t best_width = UINT64_MAX, before = 0, op = 0, after = 0;
  for (int i = 0; i < 20; ++i) {
    const uint64_t b = MonotonicNanos();
    const uint64_t o = OpClockNanos();
    const uint64_t a = MonotonicNanos();
    if (a - b < best_width) {
      best_width = a - b;
      before = b, op = o, after = a;
    }
  }
  // Allowed: the anchor's reading error and 0.1% of the time since anchoring (NTP slew), as
  // long as the sleep really took (a loaded machine oversleeps).
  const uint64_t slack_ns = 20'000 + (after - anchored_ns) / 1000;
  EXPECT_GE(op + slack_ns, before);
  EXPECT_LE(op, after + slack_ns);
}

}  // namespace
}  // namespace azbench
