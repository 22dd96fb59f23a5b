// The live totals and rates of a running scenario's agents (LiveProgress, RunOptions::on_progress),
// from the progress reports their streams carry (agent.proto Progress).
//
//   ProgressMeter meter(/*agents=*/2, start_ns);
//   meter.Report(0, {agent_realtime_ns, ops, bytes});  // as each report arrives
//   LiveProgress p;
//   meter.Sample(RealtimeNanos(), p);                    // ops, bytes, elapsed_s, rates
#ifndef AZBENCH_COORDINATOR_RUN_PROGRESS_H_
#define AZBENCH_COORDINATOR_RUN_PROGRESS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "coordinator/run.h"

namespace azbench {

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
  // A report of the agent, in the order it sent them.
  void Report(size_t agent, const ProgressReport& report);
  // The agent finished or was lost: its counters stay in the totals.
  void Ended(size_t agent);

  // Fills p.ops and p.bytes (every agent's latest counters), p.elapsed_s (since the start, 0
  // before it) and p.ops_per_s, p.bytes_per_s, as of `now_ns` (coordinator clock).
  void Sample(int64_t now_ns, LiveProgress& p);

 private:
  std::vector<ProgressReport> latest_;
  int64_t start_ns_;
  int64_t last_sample_ns_;
  uint64_t last_ops_ = 0;
  uint64_t last_bytes_ = 0;
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_PROGRESS_H_
