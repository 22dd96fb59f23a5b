// fio's steadystate_check over a run's jobs (agent/runner/steady_state_monitor.h), driven by hand
// with explicit instants: each job's rate from its own counters, a reporting group judged on the
// sum, the ramp, and which jobs end.
#include "agent/runner/steady_state_monitor.h"

#include <atomic>
#include <set>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr uint64_t kSecond = 1'000'000'000;
constexpr uint64_t kStart = 1'000 * kSecond;

// A job whose measured ops and bytes the test sets.
class CountingWorkload final : public Workload {
 public:
  const std::string& name() const override { return name_; }
  absl::StatusOr<std::vector<JobResult>> Run(const RunControl&) override {
    return std::vector<JobResult>{};
  }
  absl::Status RemoveCreatedFiles() override { return absl::OkStatus(); }
  const std::vector<LaidOutFile>& files() const override { return files_; }
  const std::vector<std::string>& warnings() const override { return warnings_; }
  uint64_t ops_done() const override { return ops; }
  uint64_t bytes_done() const override { return ops * 4096; }

  std::atomic<uint64_t> ops{0};

 private:
  std::string name_ = "job";
  std::vector<LaidOutFile> files_;
  std::vector<std::string> warnings_;
};

SteadyStatePolicy Policy(int group, bool group_reporting, absl::Duration ss_ramp = {}) {
  SteadyStatePolicy policy;
  policy.spec.iops = true;
  policy.spec.slope = false;
  policy.spec.percent = true;
  policy.spec.limit = 10;
  policy.spec.duration = absl::Seconds(2);
  policy.spec.ramp = ss_ramp;
  policy.group_reporting = group_reporting;
  policy.group_id = group;
  return policy;
}

struct Fixture {
  CountingWorkload a, b;
  std::set<size_t> ended;
  std::set<size_t> gone;  // jobs that no longer run
  SteadyStateMonitor Monitor(SteadyStatePolicy pa, SteadyStatePolicy pb) {
    return SteadyStateMonitor(
        {{0, &a, pa}, {1, &b, pb}}, [this](size_t i) { ended.insert(i); },
        [this](size_t i) { return !gone.contains(i); });
  }
};

TEST(SteadyStateMonitorTest, AReportingGroupIsJudgedOnTheSumOfItsJobsRates) {
  Fixture f;
  SteadyStateMonitor monitor = f.Monitor(Policy(0, true), Policy(0, true));
  monitor.Arm(kStart);  // the test samples by hand
  f.a.ops = 100;
  f.b.ops = 300;
  monitor.Check(kStart + kSecond);
  EXPECT_TRUE(f.ended.empty());
  // 1.5 s later: job a did 150 more (100/s), b 450 more (300/s); fio's integer rates per job.
  f.a.ops = 250;
  f.b.ops = 750;
  monitor.Check(kStart + 2 * kSecond + kSecond / 2);
  EXPECT_EQ(f.ended, (std::set<size_t>{0, 1}));
  const std::optional<SteadyStateResult> r = monitor.Result(1);
  ASSERT_TRUE(r.has_value());
  EXPECT_TRUE(r->attained);
  EXPECT_EQ(r->iops, (std::vector<uint64_t>{400, 400}));
  EXPECT_EQ(r->bw, (std::vector<uint64_t>{400 * 4096, 400 * 4096}));
  EXPECT_EQ(monitor.Result(0), r) << "every job of the group reports the group's verdict";
}

TEST(SteadyStateMonitorTest, WithoutGroupReportingEachJobIsJudgedAndEndedAlone) {
  Fixture f;
  SteadyStateMonitor monitor = f.Monitor(Policy(0, false), Policy(0, false));
  monitor.Arm(kStart);
  f.a.ops = 100;
  f.b.ops = 100;
  monitor.Check(kStart + kSecond);
  f.a.ops = 200;  // steady
  f.b.ops = 400;  // 100 then 300: not steady
  monitor.Check(kStart + 2 * kSecond);
  EXPECT_EQ(f.ended, (std::set<size_t>{0}));
  EXPECT_EQ(monitor.Result(0)->iops, (std::vector<uint64_t>{100, 100}));
  EXPECT_EQ(monitor.Result(1)->iops, (std::vector<uint64_t>{100, 300}));
  EXPECT_FALSE(monitor.Result(1)->attained);
}

TEST(SteadyStateMonitorTest, SamplingBeginsOneSecondAfterTheSteadyStateRamp) {
  Fixture f;
  SteadyStateMonitor monitor =
      f.Monitor(Policy(0, false, absl::Seconds(1)), Policy(1, false, absl::Seconds(1)));
  monitor.Arm(kStart);
  f.a.ops = 5000;  // the ramp's burst is not sampled
  monitor.Check(kStart + kSecond);
  f.a.ops = 5100;
  monitor.Check(kStart + 2 * kSecond);  // ss_ramp + 1 s: the first sample, 100 IOPS
  f.a.ops = 5200;
  monitor.Check(kStart + 3 * kSecond);
  EXPECT_TRUE(f.ended.contains(0));
  EXPECT_EQ(monitor.Result(0)->iops, (std::vector<uint64_t>{100, 100}));
}

TEST(SteadyStateMonitorTest, AGroupWhoseLastJobEndedIsNoLongerJudged) {
  Fixture f;
  SteadyStateMonitor monitor = f.Monitor(Policy(0, true), Policy(0, true));
  monitor.Arm(kStart);
  f.gone.insert(1);  // fio keeps a group's window in its last job
  f.a.ops = 100;
  monitor.Check(kStart + kSecond);
  f.a.ops = 200;
  monitor.Check(kStart + 2 * kSecond);
  EXPECT_TRUE(f.ended.empty());
  EXPECT_EQ(monitor.Result(0)->iops, (std::vector<uint64_t>{0, 0}));
}

TEST(SteadyStateMonitorTest, JobsWithoutSteadyStateAreLeftAlone) {
  Fixture f;
  SteadyStatePolicy off;
  SteadyStateMonitor monitor = f.Monitor(off, off);
  EXPECT_FALSE(monitor.active());
  EXPECT_FALSE(monitor.Result(0).has_value());
}

}  // namespace
}  // namespace azbench
