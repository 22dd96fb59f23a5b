// The clock visibility probes schedule and time trials with. Wall-clock (absl::Time) because a
// writer on one host and a reader on another compare instants; the coordinator corrects each
// agent's offset. Tests use a fake whose SleepUntil advances time instantly. The real clock reads
// common/clock.h's RealtimeNanos (so the fault tests' simulated clock offset applies to probes as
// to every other realtime reading of the agent).
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CLOCK_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CLOCK_H_

#include "absl/time/clock.h"
#include "absl/time/time.h"
#include "common/clock.h"

namespace azbench {

class ProbeClock {
 public:
  virtual ~ProbeClock() = default;
  virtual absl::Time Now() = 0;
  // Returns at or after `when` (at once when `when` has passed).
  virtual void SleepUntil(absl::Time when) = 0;
};

class RealProbeClock : public ProbeClock {
 public:
  absl::Time Now() override { return absl::FromUnixNanos(RealtimeNanos()); }
  void SleepUntil(absl::Time when) override {
    const absl::Duration left = when - Now();
    if (left > absl::ZeroDuration()) absl::SleepFor(left);
  }
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_CLOCK_H_
