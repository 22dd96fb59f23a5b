#include "agent/workloads/visibility/trial_scheduler.h"

#include <gtest/gtest.h>

#include <vector>

namespace azbench {
namespace {

// Time advances only when the scheduler sleeps (and by `poll_cost` per poll).
class FakeProbeClock : public ProbeClock {
 public:
  absl::Time Now() override { return now_; }
  void SleepUntil(absl::Time when) override { now_ = std::max(now_, when); }
  void Advance(absl::Duration d) { now_ += d; }

 private:
  absl::Time now_ = absl::FromUnixSeconds(1'800'000'000);
};

TEST(TrialSchedulerTest, OverlappingTrialsStartOnScheduleAndLatencyIsFirstVisiblePoll) {
  FakeProbeClock clock;
  const absl::Time origin = clock.Now();
  const TrialSchedule schedule{3, absl::Seconds(1), absl::Milliseconds(500), absl::Seconds(30)};
  std::vector<absl::Time> started(3);
  TrialCallbacks cb;
  cb.start = [&](int i) -> absl::StatusOr<absl::Time> {
    started[i] = clock.Now();
    return clock.Now();
  };
  // Becomes visible 2.2 s after the write: first seen by the poll at 2.5 s.
  cb.poll = [&](int i) -> absl::StatusOr<bool> {
    return clock.Now() - started[i] >= absl::Milliseconds(2200);
  };
  absl::StatusOr<std::vector<TrialOutcome>> out = RunOverlappingTrials(schedule, clock, cb);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 3u);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(started[i] - origin, absl::Seconds(i));
    EXPECT_EQ((*out)[i].state, TrialState::kVisible);
    EXPECT_EQ((*out)[i].latency, absl::Milliseconds(2500));
    EXPECT_EQ((*out)[i].last_miss_latency, absl::Milliseconds(2000));
    EXPECT_EQ((*out)[i].polls, 6);  // at 0, 0.5, ..., 2.5 s
  }
}

TEST(TrialSchedulerTest, TimedOutAndFailedTrialsAreKeptNotDropped) {
  FakeProbeClock clock;
  const TrialSchedule schedule{3, absl::Seconds(1), absl::Seconds(1), absl::Seconds(4)};
  TrialCallbacks cb;
  cb.start = [&](int i) -> absl::StatusOr<absl::Time> {
    if (i == 1) return absl::InternalError("disk full");
    return clock.Now();
  };
  cb.poll = [&](int i) -> absl::StatusOr<bool> {
    if (i == 2) return absl::UnavailableError("flaky");
    return false;
  };
  absl::StatusOr<std::vector<TrialOutcome>> out = RunOverlappingTrials(schedule, clock, cb);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 3u);
  EXPECT_EQ((*out)[0].state, TrialState::kTimedOut);
  EXPECT_EQ((*out)[0].polls, 5);  // 0..4 s
  EXPECT_EQ((*out)[1].state, TrialState::kFailed);
  EXPECT_EQ((*out)[1].error, "disk full");
  EXPECT_EQ((*out)[2].state, TrialState::kTimedOut);
  EXPECT_EQ((*out)[2].poll_errors, 5);
  EXPECT_EQ((*out)[2].error, "flaky");
}

TEST(TrialSchedulerTest, CancellationEndsPendingTrialsAsTimedOut) {
  FakeProbeClock clock;
  int polls = 0;
  TrialCallbacks cb;
  cb.start = [&](int) -> absl::StatusOr<absl::Time> { return clock.Now(); };
  cb.poll = [&](int) -> absl::StatusOr<bool> {
    ++polls;
    return false;
  };
  cb.cancelled = [&] { return polls >= 3; };
  absl::StatusOr<std::vector<TrialOutcome>> out =
      RunOverlappingTrials({2, absl::Seconds(10), absl::Seconds(1), absl::Seconds(100)}, clock, cb);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ((*out)[0].state, TrialState::kTimedOut);
  EXPECT_EQ((*out)[0].error, "cancelled");
  EXPECT_EQ((*out)[1].state, TrialState::kFailed);
}

TEST(TrialSchedulerTest, RejectsNonsenseSchedules) {
  FakeProbeClock clock;
  TrialCallbacks cb;
  EXPECT_FALSE(
      RunOverlappingTrials({0, absl::Seconds(1), absl::Seconds(1), absl::Seconds(1)}, clock, cb)
          .ok());
  EXPECT_FALSE(
      RunOverlappingTrials({1, absl::Seconds(1), absl::ZeroDuration(), absl::Seconds(1)}, clock, cb)
          .ok());
}

}  // namespace
}  // namespace azbench
