// The live totals and rates of a running scenario's agents (LiveProgress, RunOptions::on_progress),
// from the progress reports their streams carry (agent.proto Progress: cumulative ops and bytes at
// an instant of the agent's own clock).
//
// An agent's rate is the increase of its counters over the last kProgressRateWindow of its own
// reports, divided by the time between the two reports' own instants: from the report at or before
// (newest - window), or the agent's start, to its newest one. When a report reaches the coordinator
// (late, or several at once) does not enter it, so a late or bunched report shows neither a dip nor
// a spike; the window smooths the counters' own steps (a report every progress interval, 250 ms by
// default). The fleet's rate is the sum of its running agents' rates; an agent that finished or was
// lost adds nothing to it, and an agent's clock is never compared with another's.
//
//   ProgressMeter meter(/*agents=*/2, start_ns);
//   meter.Report(0, {agent_realtime_ns, ops, bytes});  // as each report arrives
//   LiveProgress p;
//   meter.Sample(RealtimeNanos(), p);                    // ops, bytes, elapsed_s, rates
#ifndef AZBENCH_COORDINATOR_RUN_RUN_PROGRESS_H_
#define AZBENCH_COORDINATOR_RUN_RUN_PROGRESS_H_

#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

#include "absl/time/time.h"
#include "coordinator/run/run.h"

namespace azbench {

// The span of an agent's own time its rate is measured over (at least; see above).
inline constexpr absl::Duration kProgressRateWindow = absl::Seconds(1);

// One progress report of an agent: its cumulative ops and bytes since its run started, counted at
// `agent_realtime_ns` of its own clock.
struct ProgressReport {
  int64_t agent_realtime_ns = 0;
  uint64_t ops = 0;
  uint64_t bytes = 0;
};

// Not thread-safe: the run calls it under the lock that guards its agents' state.
class ProgressMeter {
 public:
  // `agents`: the agents are numbered 0 .. agents - 1. `start_ns`: the run's common start, in the
  // coordinator's clock (elapsed_s counts from it).
  ProgressMeter(size_t agents, int64_t start_ns);

  // The agent started its run at `agent_realtime_ns` (its clock); its counters were 0 then.
  void Started(size_t agent, int64_t agent_realtime_ns);
  // A report of the agent, in the order it sent them. Counters lower than its last report's, or an
  // instant not after it, begin its window again (a count that restarted, a clock stepped back).
  void Report(size_t agent, const ProgressReport& report);
  // The agent finished or was lost: its counters stay in the totals, it adds nothing to the rates.
  void Ended(size_t agent);

  // Fills p.ops and p.bytes (every agent's latest counters), p.elapsed_s (since the start, 0
  // before it) and p.ops_per_s, p.bytes_per_s (the running agents' rates, summed) as of `now_ns`
  // (coordinator clock).
  void Sample(int64_t now_ns, LiveProgress& p) const;

 private:
  struct Agent {
    std::deque<ProgressReport> window;  // oldest first; the newest is the agent's latest counters
    bool ended = false;
  };

  std::vector<Agent> agents_;
  int64_t start_ns_;
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_RUN_PROGRESS_H_
