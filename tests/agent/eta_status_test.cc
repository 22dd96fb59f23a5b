#include "agent/eta_status.h"

#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr uint64_t kSecond = 1'000'000'000;
constexpr uint64_t kGenesis = 100 * kSecond;

JobEtaProfile TimeBasedRandRw(absl::Duration runtime) {
  JobSpec spec;
  spec.rw = RwPattern::kRandRw;
  spec.size_bytes = 64 << 20;
  spec.runtime = runtime;
  spec.time_based = true;
  return EtaProfileOf(spec);
}

CloneProgressSample Running(uint64_t epoch_ns, uint64_t read_bytes, uint64_t write_bytes) {
  CloneProgressSample s;
  s.state = CloneRunState::kRunning;
  s.epoch_monotonic_ns = epoch_ns;
  s.bytes = {read_bytes, write_bytes, 0};
  s.ops = {read_bytes / 4096, write_bytes / 4096, 0};
  return s;
}

TEST(CloneEtaSecondsTest, TimeBasedCountsTheRuntimeDown) {
  const JobEtaProfile p = TimeBasedRandRw(absl::Seconds(5));
  EXPECT_EQ(CloneEtaSeconds(p, Running(0, 1 << 30, 1 << 30), 3 * kSecond, 0), 2u);
  // Part of a second is a whole one, as fio rounds elapsed time up.
  EXPECT_EQ(CloneEtaSeconds(p, Running(0, 1 << 30, 1 << 30), 3 * kSecond + 1'000'000, 0), 1u);
}

TEST(CloneEtaSecondsTest, ASizedJobExtrapolatesItsBytes) {
  JobSpec spec;
  spec.rw = RwPattern::kRead;
  spec.size_bytes = 100 << 20;
  const JobEtaProfile p = EtaProfileOf(spec);
  EXPECT_EQ(CloneEtaSeconds(p, Running(0, 25 << 20, 0), kSecond, 0), 3u);
  EXPECT_EQ(CloneEtaSeconds(p, Running(0, 100 << 20, 0), kSecond, 0), 0u);
}

TEST(CloneEtaSecondsTest, APendingJobGuessesFromItsRuntimeOrItsRate) {
  JobEtaProfile p = TimeBasedRandRw(absl::Seconds(3));
  p.ramp_time = absl::Seconds(2);
  CloneProgressSample pending;
  EXPECT_EQ(CloneEtaSeconds(p, pending, kSecond, 0), 5u);
  CloneProgressSample ramp;
  ramp.state = CloneRunState::kRamp;
  ramp.epoch_monotonic_ns = 0;
  EXPECT_EQ(CloneEtaSeconds(p, ramp, kSecond, 0), 4u);
  JobSpec spec;
  spec.rw = RwPattern::kWrite;
  spec.size_bytes = 8 << 20;
  spec.rate_bytes_per_s = {0, 1 << 20};
  EXPECT_EQ(CloneEtaSeconds(EtaProfileOf(spec), pending, kSecond, 0), 8u);
  pending.state = CloneRunState::kDone;
  EXPECT_EQ(CloneEtaSeconds(p, pending, kSecond, 0), 0u);
}

TEST(EtaCalculatorTest, NoEtaInTheFirstThreeSecondsThenPercentFromElapsed) {
  const JobEtaProfile p = TimeBasedRandRw(absl::Seconds(5));
  EtaCalculator calc(absl::Seconds(1), kGenesis);
  std::vector<CloneEtaInput> clones = {{&p, true, Running(kGenesis, 1 << 20, 0)},
                                       {&p, false, Running(kGenesis, 0, 0)}};
  std::optional<JobsEta> je = calc.Calc(clones, kGenesis + kSecond);
  ASSERT_TRUE(je.has_value());
  EXPECT_EQ(je->eta_sec, JobsEta::kEtaUnknown);
  EXPECT_EQ(je->run_str, "m(2)");
  EXPECT_EQ(je->nr_running, 2);
  EXPECT_EQ(je->files_open, 2);
  clones[0].sample = Running(kGenesis, 4 << 20, 1 << 20);
  je = calc.Calc(clones, kGenesis + 3 * kSecond);
  ASSERT_TRUE(je.has_value());
  EXPECT_EQ(je->elapsed_sec, 3u);
  EXPECT_EQ(je->eta_sec, 2u);
  // Over the 2 s since the last line (before any bytes, fio counts from genesis).
  EXPECT_EQ(je->rate_kib_per_s[0], 1536u);
  EXPECT_EQ(je->rate_kib_per_s[1], 512u);
  EXPECT_EQ(je->iops[0], 384u);
}

TEST(EtaCalculatorTest, ALineIsDueOnce95PercentOfTheIntervalPassed) {
  const JobEtaProfile p = TimeBasedRandRw(absl::Seconds(60));
  EtaCalculator calc(absl::Seconds(1), kGenesis);
  std::vector<CloneEtaInput> clones = {{&p, true, Running(kGenesis, 1 << 20, 0)}};
  EXPECT_FALSE(calc.Calc(clones, kGenesis + 900'000'000).has_value());
  ASSERT_TRUE(calc.Calc(clones, kGenesis + 960'000'000).has_value());
  EXPECT_FALSE(calc.Calc(clones, kGenesis + 1'900'000'000).has_value());
  EXPECT_TRUE(calc.Calc(clones, kGenesis + 1'920'000'000).has_value());
}

TEST(EtaCalculatorTest, AWaitingStonewalledJobAddsItsEta) {
  const JobEtaProfile first = TimeBasedRandRw(absl::Seconds(5));
  JobEtaProfile second = TimeBasedRandRw(absl::Seconds(4));
  second.stonewall = true;
  EtaCalculator calc(absl::Seconds(1), kGenesis);
  std::vector<CloneEtaInput> clones = {{&first, true, Running(kGenesis, 1 << 20, 0)},
                                       {&second, true, CloneProgressSample{}},
                                       {&second, false, CloneProgressSample{}}};
  std::optional<JobsEta> je = calc.Calc(clones, kGenesis + 3 * kSecond);
  ASSERT_TRUE(je.has_value());
  // The second job's 4 s come after the first's 2 s. fio marks only a job's first clone
  // stonewall: the other clone's 4 s count as running alongside the first job, as in fio.
  EXPECT_EQ(je->eta_sec, 8u);
  EXPECT_EQ(je->run_str, "m(1),P(2)");
}

TEST(EtaCalculatorTest, NothingRunningOrPendingPrintsNothing) {
  const JobEtaProfile p = TimeBasedRandRw(absl::Seconds(5));
  EtaCalculator calc(absl::Seconds(1), kGenesis);
  CloneProgressSample done;
  done.state = CloneRunState::kDone;
  EXPECT_FALSE(calc.Calc({{&p, true, done}}, kGenesis + 2 * kSecond).has_value());
}

TEST(EtaCalculatorTest, ARampingCloneCountsAsRunningWithoutRates) {
  const JobEtaProfile p = TimeBasedRandRw(absl::Seconds(5));
  EtaCalculator calc(absl::Seconds(1), kGenesis);
  CloneProgressSample ramp;
  ramp.state = CloneRunState::kRamp;
  ramp.epoch_monotonic_ns = kGenesis;
  std::optional<JobsEta> je = calc.Calc({{&p, true, ramp}}, kGenesis + 2 * kSecond);
  ASSERT_TRUE(je.has_value());
  EXPECT_EQ(je->nr_running, 1);
  EXPECT_EQ(je->nr_ramp, 1);
  EXPECT_EQ(je->files_open, 0);
  EXPECT_EQ(je->run_str, "/(1)");
}

}  // namespace
}  // namespace azbench
