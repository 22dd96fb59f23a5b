// fio 3.33's steady-state test (agent/workloads/steady_state_detector.h) on synthetic series, each
// expected value worked out by hand from fio's formulas: mean deviation max|y - mean|, slope
// (sum_xy - sum_x sum_y / n) / (sum_x2 - sum_x^2 / n) with x = 0 .. n-1, a percentage over the
// window's integer mean.
#include "agent/workloads/steady_state_detector.h"

#include <vector>

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

SteadyStateSpec Spec(bool iops, bool slope, bool percent, double limit, int window_s) {
  SteadyStateSpec spec;
  spec.iops = iops;
  spec.slope = slope;
  spec.percent = percent;
  spec.limit = limit;
  spec.duration = absl::Seconds(window_s);
  return spec;
}

TEST(SteadyStateDetectorTest, AFlatSeriesIsSteadyAsSoonAsTheWindowFills) {
  SteadyStateDetector detector(Spec(/*iops=*/true, /*slope=*/false, /*percent=*/true, 10, 3));
  EXPECT_FALSE(detector.Add(100, 409600));
  EXPECT_FALSE(detector.Add(100, 409600));
  EXPECT_TRUE(detector.Add(100, 409600));
  const SteadyStateResult r = detector.Result();
  EXPECT_TRUE(r.attained);
  EXPECT_EQ(r.criterion, 0.0);
  EXPECT_EQ(r.max_deviation, 0.0);
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{100, 100, 100}));
  EXPECT_EQ(r.bw, (std::vector<uint64_t>{409600, 409600, 409600}));
  EXPECT_EQ(r.IopsMean(), 100u);
  EXPECT_EQ(r.BwMean(), 409600u);
}

TEST(SteadyStateDetectorTest, ARisingSeriesKeepsItsSlopeAndIsNeverSteady) {
  // 100, 110, 120: sum_y 330, sum_xy 0*100 + 1*110 + 2*120 = 350, sum_x 3, sum_x2 5:
  // slope (350 - 3*330/3) / (5 - 9/3) = 10 per second; 100 * 10 / 110 = 9.0909% of the mean.
  SteadyStateDetector detector(Spec(/*iops=*/true, /*slope=*/true, /*percent=*/true, 1, 3));
  EXPECT_FALSE(detector.Add(100, 0));
  EXPECT_FALSE(detector.Add(110, 0));
  EXPECT_FALSE(detector.Add(120, 0));
  SteadyStateResult r = detector.Result();
  EXPECT_DOUBLE_EQ(r.slope, 10.0);
  EXPECT_DOUBLE_EQ(r.criterion, 1000.0 / 110.0);
  // Slid by one: 110, 120, 130, the sums updated in place: slope 10, 100 * 10 / 120 = 8.333%.
  EXPECT_FALSE(detector.Add(130, 0));
  r = detector.Result();
  EXPECT_FALSE(r.attained);
  EXPECT_DOUBLE_EQ(r.slope, 10.0);
  EXPECT_DOUBLE_EQ(r.criterion, 1000.0 / 120.0);
  // A window that never was steady lists its samples oldest first, as fio's JSON does.
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{110, 120, 130}));
}

TEST(SteadyStateDetectorTest, ANoisySeriesIsSteadyOnceEverySampleIsWithinTheLimitOfTheMean) {
  // An absolute limit of 15 IOPS over 4 samples.
  SteadyStateDetector detector(Spec(/*iops=*/true, /*slope=*/false, /*percent=*/false, 15, 4));
  for (uint64_t iops : {100, 120, 90}) EXPECT_FALSE(detector.Add(iops, 0));
  // 100, 120, 90, 110: mean 105, largest distance 15, not below 15.
  EXPECT_FALSE(detector.Add(110, 0));
  EXPECT_DOUBLE_EQ(detector.Result().max_deviation, 15.0);
  // 120, 90, 110, 105: mean 106.25, largest distance 16.25.
  EXPECT_FALSE(detector.Add(105, 0));
  EXPECT_DOUBLE_EQ(detector.Result().criterion, 16.25);
  // 90, 110, 105, 100: mean 101.25, largest distance 11.25: steady.
  EXPECT_TRUE(detector.Add(100, 0));
  const SteadyStateResult r = detector.Result();
  EXPECT_TRUE(r.attained);
  EXPECT_DOUBLE_EQ(r.criterion, 11.25);
  EXPECT_DOUBLE_EQ(r.max_deviation, 11.25);
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{90, 110, 105, 100}));
  EXPECT_EQ(r.IopsMean(), 101u);  // fio's integer mean
  // Steady is final: later samples change nothing.
  EXPECT_TRUE(detector.Add(1, 0));
  EXPECT_EQ(detector.Result().iops, r.iops);
}

TEST(SteadyStateDetectorTest, APercentSlopeIsOverTheIntegerMeanOfTheWindow) {
  // Bandwidth 1000, 1001: slope (1001 - 1*2001/2) / (1 - 1/2) = 1 byte/s per second; fio divides
  // by the integer mean 2001 / 2 = 1000, so 0.1% (not 0.09995%).
  SteadyStateDetector detector(Spec(/*iops=*/false, /*slope=*/true, /*percent=*/true, 1, 2));
  EXPECT_FALSE(detector.Add(7, 1000));
  EXPECT_TRUE(detector.Add(9, 1001));
  const SteadyStateResult r = detector.Result();
  EXPECT_DOUBLE_EQ(r.slope, 1.0);
  EXPECT_DOUBLE_EQ(r.criterion, 0.1);
  EXPECT_EQ(r.bw, (std::vector<uint64_t>{1000, 1001}));
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{7, 9}));
}

TEST(SteadyStateDetectorTest, AFallingSlopeCountsByItsSize) {
  // 130, 120, 110: slope -10; |100 * -10 / 120| = 8.333% is below 9%.
  SteadyStateDetector detector(Spec(/*iops=*/true, /*slope=*/true, /*percent=*/true, 9, 3));
  EXPECT_FALSE(detector.Add(130, 0));
  EXPECT_FALSE(detector.Add(120, 0));
  EXPECT_TRUE(detector.Add(110, 0));
  EXPECT_DOUBLE_EQ(detector.Result().criterion, -1000.0 / 120.0);
}

TEST(SteadyStateDetectorTest, AWindowThatNeverFilledListsItsSamplesAndZeros) {
  SteadyStateDetector detector(Spec(/*iops=*/true, /*slope=*/true, /*percent=*/true, 1, 3));
  EXPECT_FALSE(detector.Add(50, 5));
  EXPECT_FALSE(detector.Add(60, 6));
  const SteadyStateResult r = detector.Result();
  EXPECT_FALSE(r.attained);
  EXPECT_EQ(r.criterion, 0.0);
  EXPECT_EQ(r.iops, (std::vector<uint64_t>{50, 60, 0}));
  EXPECT_EQ(r.bw, (std::vector<uint64_t>{5, 6, 0}));
}

}  // namespace
}  // namespace azbench
