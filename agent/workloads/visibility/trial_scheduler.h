// Runs visibility trials that overlap in time, as study D did (20 trials 5 s apart, each waiting
// ~60 s): trial i starts at first_start + i * spacing; every pending trial is polled every
// poll_interval until it is visible or its timeout passes. One thread; the poll functions are
// expected to be quick (a stat, a HeadObject).
//
// Latency resolution: a trial's latency is the instant of the first poll that saw it visible minus
// the instant its start() returned, so it over-states the true latency by at most one poll interval
// (plus the poll's own duration); `last_miss_latency` is the lower bound (the last poll that did
// not see it). Timed-out and failed trials are kept, never dropped.
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_TRIAL_SCHEDULER_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_TRIAL_SCHEDULER_H_

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/workloads/visibility/probe_clock.h"

namespace azbench {

struct TrialSchedule {
  int trials = 20;
  absl::Duration spacing = absl::Seconds(5);
  absl::Duration poll_interval = absl::Milliseconds(500);
  // Per trial, counted from its start.
  absl::Duration timeout = absl::Seconds(180);
};

enum class TrialState { kVisible, kTimedOut, kFailed };
const char* TrialStateName(TrialState state);

struct TrialOutcome {
  int index = 0;
  TrialState state = TrialState::kFailed;
  absl::Time started;                // when start() returned: the instant latency counts from
  absl::Time visible_at;             // first poll that saw it (kVisible only)
  absl::Duration latency;            // visible_at - started (kVisible only)
  absl::Duration last_miss_latency;  // last poll that did not see it - started (0 if none)
  int polls = 0;
  int poll_errors = 0;
  std::string error;  // start() failure, or the last poll error
};

// start(i) does the write and returns the instant latency counts from (usually clock.Now() after
// the write returned). poll(i) answers whether trial i is visible; an error is counted in
// poll_errors and polling goes on. `cancelled` (optional) ends the run early: pending trials are
// recorded as timed out with error "cancelled".
struct TrialCallbacks {
  std::function<absl::StatusOr<absl::Time>(int trial)> start;
  std::function<absl::StatusOr<bool>(int trial)> poll;
  std::function<bool()> cancelled;
};

// Errors: InvalidArgument for trials < 1, negative spacing, or a non-positive poll
// interval/timeout.
absl::StatusOr<std::vector<TrialOutcome>> RunOverlappingTrials(const TrialSchedule& schedule,
                                                               ProbeClock& clock,
                                                               const TrialCallbacks& callbacks);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_TRIAL_SCHEDULER_H_
