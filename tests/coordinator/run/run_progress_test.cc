// The live progress line's totals and rates (coordinator/run/run_progress.h): each agent's rate
// comes from its own counters over its own report instants, whenever the reports arrive.
#include "coordinator/run/run_progress.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr int64_t kMs = 1'000'000;  // nanoseconds

// An agent doing 1000 ops/s of 4096 bytes: at `at_ms` of its run it has done `at_ms` ops.
ProgressReport Steady(int64_t clock_ns, int64_t at_ms) {
  return {clock_ns + at_ms * kMs, static_cast<uint64_t>(at_ms),
          static_cast<uint64_t>(at_ms) * 4096};
}

TEST(ProgressMeterTest, ALateOrBunchedReportShowsNeitherADipNorASpike) {
  ProgressMeter meter(1, /*start_ns=*/0);
  meter.Started(0, 0);
  meter.Report(0, Steady(0, 250));
  meter.Report(0, Steady(0, 500));
  LiveProgress p;
  meter.Sample(500 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 1000);
  EXPECT_DOUBLE_EQ(p.bytes_per_s, 4096 * 1000);
  // The report of 750 ms is late: the line at 750 ms shows the same rate, not 0.
  meter.Sample(750 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 1000);
  EXPECT_DOUBLE_EQ(p.bytes_per_s, 4096 * 1000);
  // It arrives with the next two at once: not three reports' work in one period.
  meter.Report(0, Steady(0, 750));
  meter.Report(0, Steady(0, 1000));
  meter.Report(0, Steady(0, 1250));
  meter.Sample(1250 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 1000);
  EXPECT_DOUBLE_EQ(p.bytes_per_s, 4096 * 1000);
  EXPECT_EQ(p.ops, 1250u);
  EXPECT_EQ(p.bytes, 1250u * 4096);
  EXPECT_DOUBLE_EQ(p.elapsed_s, 1.25);
}

TEST(ProgressMeterTest, AChangeOfPaceShowsFullyOneWindowLater) {
  ProgressMeter meter(1, 0);
  meter.Started(0, 0);
  for (int64_t ms = 250; ms <= 1000; ms += 250) meter.Report(0, Steady(0, ms));
  // From 1 s on, 3000 ops/s (of 4096 bytes, as before).
  auto faster = [](int64_t ms) {
    const auto ops = static_cast<uint64_t>(1000 + 3 * (ms - 1000));
    return ProgressReport{ms * kMs, ops, ops * 4096};
  };
  LiveProgress p;
  meter.Report(0, faster(1500));
  meter.Sample(1500 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, (2500.0 - 500.0) / 1.0);  // half a window of each pace
  EXPECT_DOUBLE_EQ(p.bytes_per_s, (2500.0 - 500.0) * 4096);
  meter.Report(0, faster(1750));
  meter.Report(0, faster(2000));
  meter.Sample(2000 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 3000);
  EXPECT_DOUBLE_EQ(p.bytes_per_s, 3000 * 4096);
}

TEST(ProgressMeterTest, AgentsAddUpEachOnItsOwnClockAndAnEndedAgentAddsNoRate) {
  ProgressMeter meter(2, 0);
  const int64_t ahead_ns = 7'000 * kMs;  // agent 1's clock is 7 s ahead of agent 0's
  meter.Started(0, 0);
  meter.Started(1, ahead_ns);
  for (int64_t ms = 250; ms <= 1000; ms += 250) {
    meter.Report(0, Steady(0, ms));
    meter.Report(1, {ahead_ns + ms * kMs, static_cast<uint64_t>(ms / 2), 0});  // 500 ops/s
  }
  LiveProgress p;
  meter.Sample(1000 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 1500);
  EXPECT_EQ(p.ops, 1500u);
  meter.Ended(1);
  meter.Sample(1100 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 1000);
  EXPECT_EQ(p.ops, 1500u) << "an ended agent's work stays in the totals";
}

TEST(ProgressMeterTest, CountersThatGoBackBeginANewWindow) {
  ProgressMeter meter(1, 0);
  meter.Started(0, 0);
  meter.Report(0, Steady(0, 250));
  meter.Report(0, Steady(0, 500));
  meter.Report(0, {750 * kMs, 10, 0});  // a count that started again
  LiveProgress p;
  meter.Sample(750 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 0) << "one report of the new count is no rate yet";
  EXPECT_EQ(p.ops, 10u);
  meter.Report(0, {1000 * kMs, 260, 0});
  meter.Sample(1000 * kMs, p);
  EXPECT_DOUBLE_EQ(p.ops_per_s, 1000);
}

TEST(ProgressMeterTest, NothingIsMeasuredBeforeTheStartOrFromOneReport) {
  ProgressMeter meter(1, /*start_ns=*/1000 * kMs);
  LiveProgress p;
  meter.Sample(500 * kMs, p);
  EXPECT_EQ(p.elapsed_s, 0);
  EXPECT_EQ(p.ops_per_s, 0);
  meter.Report(0, {1250 * kMs, 100, 4096});  // no Started seen: no base to count from
  meter.Sample(1500 * kMs, p);
  EXPECT_DOUBLE_EQ(p.elapsed_s, 0.5);
  EXPECT_EQ(p.ops_per_s, 0);
  EXPECT_EQ(p.ops, 100u);
}

}  // namespace
}  // namespace azbench
