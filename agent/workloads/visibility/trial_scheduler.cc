#include "agent/workloads/visibility/trial_scheduler.h"

#include <algorithm>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace azbench {

const char* TrialStateName(TrialState state) {
  switch (state) {
    case TrialState::kVisible:
      return "visible";
    case TrialState::kTimedOut:
      return "timed_out";
    case TrialState::kFailed:
      return "failed";
  }
  return "unknown";
}

absl::StatusOr<std::vector<TrialOutcome>> RunOverlappingTrials(const TrialSchedule& schedule,
                                                               ProbeClock& clock,
                                                               const TrialCallbacks& callbacks) {
  if (schedule.trials < 1) {
    return absl::InvalidArgumentError(absl::StrCat("trials must be >= 1, got ", schedule.trials));
  }
  if (schedule.spacing < absl::ZeroDuration()) {
    return absl::InvalidArgumentError("trial spacing must not be negative");
  }
  if (schedule.poll_interval <= absl::ZeroDuration() || schedule.timeout <= absl::ZeroDuration()) {
    return absl::InvalidArgumentError("poll interval and timeout must be positive");
  }
  std::vector<TrialOutcome> outcomes(schedule.trials);
  std::vector<bool> pending(schedule.trials, false);
  std::vector<absl::Time> next_poll(schedule.trials);
  const absl::Time first_start = clock.Now();
  int next_trial = 0;
  int open_trials = 0;
  while (next_trial < schedule.trials || open_trials > 0) {
    const bool cancelled = callbacks.cancelled && callbacks.cancelled();
    absl::Time now = clock.Now();
    if (!cancelled && next_trial < schedule.trials &&
        now >= first_start + schedule.spacing * next_trial) {
      TrialOutcome& o = outcomes[next_trial];
      o.index = next_trial;
      absl::StatusOr<absl::Time> started = callbacks.start(next_trial);
      if (started.ok()) {
        o.started = *started;
        next_poll[next_trial] = *started;  // first poll right away
        pending[next_trial] = true;
        ++open_trials;
      } else {
        o.state = TrialState::kFailed;
        o.error = std::string(started.status().message());
      }
      ++next_trial;
      continue;
    }
    if (cancelled) {
      for (int i = 0; i < schedule.trials; ++i) {
        if (i >= next_trial) {
          outcomes[i].index = i;
          outcomes[i].state = TrialState::kFailed;
          outcomes[i].error = "cancelled before it started";
        } else if (pending[i]) {
          outcomes[i].state = TrialState::kTimedOut;
          outcomes[i].error = "cancelled";
          pending[i] = false;
        }
      }
      break;
    }
    for (int i = 0; i < next_trial; ++i) {
      if (!pending[i] || now < next_poll[i]) continue;
      TrialOutcome& o = outcomes[i];
      absl::StatusOr<bool> visible = callbacks.poll(i);
      const absl::Time polled = clock.Now();
      ++o.polls;
      if (visible.ok() && *visible) {
        o.state = TrialState::kVisible;
        o.visible_at = polled;
        o.latency = polled - o.started;
        pending[i] = false;
        --open_trials;
        continue;
      }
      if (!visible.ok()) {
        ++o.poll_errors;
        o.error = std::string(visible.status().message());
      } else {
        o.last_miss_latency = polled - o.started;
      }
      if (polled - o.started >= schedule.timeout) {
        o.state = TrialState::kTimedOut;
        pending[i] = false;
        --open_trials;
        continue;
      }
      next_poll[i] += schedule.poll_interval;
      if (next_poll[i] < polled) next_poll[i] = polled;  // a slow poll does not cause a burst
    }
    absl::Time wake = absl::InfiniteFuture();
    if (next_trial < schedule.trials) wake = first_start + schedule.spacing * next_trial;
    for (int i = 0; i < next_trial; ++i) {
      if (pending[i]) wake = std::min(wake, next_poll[i]);
    }
    if (wake == absl::InfiniteFuture()) break;
    clock.SleepUntil(wake);
  }
  return outcomes;
}

}  // namespace azbench
