#include "agent/eta_line.h"

#include "gtest/gtest.h"

namespace azbench {
namespace {

// The expected texts below are what fio 3.33 printed for the same figures (fio --eta=always
// --eta-newline=1 ... | cat -A).

TEST(FioNum2StrTest, RatesInKibPerSecondScaleAsFios) {
  EXPECT_EQ(FioNum2Str(1024, 4, 1024, true, Num2StrUnit::kBytesPerSecond), "1024KiB/s");
  EXPECT_EQ(FioNum2Str(104 * 1024, 4, 1024, true, Num2StrUnit::kBytesPerSecond), "104MiB/s");
  EXPECT_EQ(FioNum2Str(71885, 4, 1024, true, Num2StrUnit::kBytesPerSecond), "70.2MiB/s");
  EXPECT_EQ(FioNum2Str(1201 * 1024, 4, 1024, true, Num2StrUnit::kBytesPerSecond), "1201MiB/s");
  // kb_base=1000: the number is still KiB/s, only the prefix is decimal (fio's own quirk).
  EXPECT_EQ(FioNum2Str(400, 4, 1024, false, Num2StrUnit::kBytesPerSecond), "400kB/s");
}

TEST(FioNum2StrTest, IopsAndLimitsAsFioPrintsThem) {
  EXPECT_EQ(FioNum2Str(256, 4, 1, false, Num2StrUnit::kNone), "256");
  EXPECT_EQ(FioNum2Str(26600, 4, 1, false, Num2StrUnit::kNone), "26.6k");
  EXPECT_EQ(FioNum2Str(270123, 4, 1, false, Num2StrUnit::kNone), "270k");
  EXPECT_EQ(FioNum2Str(0, 4, 1, true, Num2StrUnit::kBytesPerSecond), "0B/s");
  EXPECT_EQ(FioNum2Str(3 << 20, 4, 1, true, Num2StrUnit::kBytesPerSecond), "3072KiB/s");
  // A fraction that rounds up carries into the whole part, keeping its decimal as fio's does.
  EXPECT_EQ(FioNum2Str(99999, 4, 1, false, Num2StrUnit::kNone), "100.0k");
}

TEST(FioEtaToStrTest, HoursAndDaysAppearOnlyWhenNeeded) {
  EXPECT_EQ(FioEtaToStr(0), "00m:00s");
  EXPECT_EQ(FioEtaToStr(6), "00m:06s");
  EXPECT_EQ(FioEtaToStr(3723), "01h:02m:03s");
  EXPECT_EQ(FioEtaToStr(86405), "01d:00h:00m:05s");
  // Two unknown ETAs added (a stonewalled job waiting in the first 3 s), as fio prints it.
  EXPECT_EQ(FioEtaToStr(2 * uint64_t{JobsEta::kEtaUnknown}), "49710d:06h:28m:14s");
}

TEST(CondenseRunStringTest, RunsOfOneStateBecomeCounts) {
  EXPECT_EQ(CondenseRunString("mm"), "m(2)");
  EXPECT_EQ(CondenseRunString("/P"), "/(1),P(1)");
  EXPECT_EQ(CondenseRunString("RRmm_"), "R(2),m(2),_(1)");
  EXPECT_EQ(CondenseRunString(""), "");
}

JobsEta TwoMixedClones() {
  JobsEta je;
  je.nr_running = 2;
  je.files_open = 2;
  je.elapsed_sec = 3;
  je.eta_sec = 2;
  je.rate_kib_per_s = {104 * 1024, 105 * 1024, 0};
  je.iops = {26600, 26800, 0};
  je.run_str = "m(2)";
  return je;
}

TEST(EtaLineDisplayTest, PrintsFiosLine) {
  EtaLineDisplay display;
  EXPECT_EQ(display.Render(TwoMixedClones(), absl::UnixEpoch()),
            "Jobs: 2 (f=2): [m(2)][60.0%][r=104MiB/s,w=105MiB/s][r=26.6k,w=26.8k IOPS]"
            "[eta 00m:02s]\r");
}

TEST(EtaLineDisplayTest, BeforeTheEtaIsKnownOnlyTheJobCountShows) {
  JobsEta je = TwoMixedClones();
  je.eta_sec = JobsEta::kEtaUnknown;
  EtaLineDisplay display;
  EXPECT_EQ(display.Render(je, absl::UnixEpoch()), "Jobs: 2 (f=2)\r");
}

TEST(EtaLineDisplayTest, RateLimitsFollowTheJobCount) {
  JobsEta je;
  je.nr_running = 1;
  je.files_open = 1;
  je.elapsed_sec = 3;
  je.eta_sec = 1;
  je.rate_max_bytes_per_s = {1 << 20, 2 << 20, 0};
  je.rate_kib_per_s = {1024, 2048, 0};
  je.iops = {256, 512, 0};
  je.run_str = "m(1)";
  EtaLineDisplay bytes;
  EXPECT_EQ(bytes.Render(je, absl::UnixEpoch()),
            "Jobs: 1 (f=1), 0B/s-3072KiB/s: [m(1)][75.0%][r=1024KiB/s,w=2048KiB/s]"
            "[r=256,w=512 IOPS][eta 00m:01s]\r");
  je.rate_max_bytes_per_s = {};
  je.rate_min_iops = {10, 0, 0};
  je.rate_max_iops = {100, 0, 0};
  je.rate_kib_per_s = {400, 0, 0};
  je.iops = {100, 0, 0};
  je.run_str = "R(1)";
  EtaLineDisplay iops;
  EXPECT_EQ(iops.Render(je, absl::UnixEpoch()),
            "Jobs: 1 (f=1), 10-100 IOPS: [R(1)][75.0%][r=400KiB/s][r=100 IOPS][eta 00m:01s]\r");
}

TEST(EtaLineDisplayTest, RampShowsNoPercentageAndAShorterLineBlanksTheLongerOne) {
  JobsEta je;
  je.nr_running = 1;
  je.nr_ramp = 1;
  je.elapsed_sec = 3;
  je.eta_sec = 2 * uint64_t{JobsEta::kEtaUnknown};
  je.run_str = "/(1),P(1)";
  EtaLineDisplay display;
  EXPECT_EQ(display.Render(je, absl::UnixEpoch()),
            "Jobs: 1 (f=0): [/(1),P(1)][-.-%][eta 49710d:06h:28m:14s]\r");
  je.eta_sec = 6;
  EXPECT_EQ(display.Render(je, absl::UnixEpoch()),
            "Jobs: 1 (f=0): [/(1),P(1)][-.-%][eta 00m:06s]           \r");
}

TEST(EtaLineDisplayTest, EtaNewlineStartsTheNextLineOnceItsTimeHasPassed) {
  EtaLineDisplay display(absl::Seconds(1));
  const JobsEta je = TwoMixedClones();
  const absl::Time t0 = absl::UnixEpoch();
  EXPECT_EQ(display.Render(je, t0).front(), 'J');
  EXPECT_EQ(display.Render(je, t0 + absl::Seconds(1)).front(), 'J');  // not more than 1 s yet
  EXPECT_EQ(display.Render(je, t0 + absl::Milliseconds(2001)).front(), 'J');
  const std::string next = display.Render(je, t0 + absl::Seconds(3));
  EXPECT_EQ(next.substr(0, 6), "\nJobs:");
  EXPECT_EQ(next.back(), '\r');
}

TEST(EtaLineDisplayTest, WithoutEtaNewlineTheLineIsAlwaysRewritten) {
  EtaLineDisplay display;
  const JobsEta je = TwoMixedClones();
  for (int s = 0; s < 5; ++s) {
    EXPECT_EQ(display.Render(je, absl::UnixEpoch() + absl::Seconds(2 * s)).front(), 'J');
  }
}

}  // namespace
}  // namespace azbench
