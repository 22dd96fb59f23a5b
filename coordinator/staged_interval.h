// One streamed interval on its way to the results database while its scenario still runs
// (coordinator/run/interval_spool.h writes them, Store::SaveScenario attaches them to their
// results), and the interface an AgentStream hands such intervals to.
//
// Example (coordinator/run/agent_stream.cc):
//   sink->Add({agent_id, job_index, result_name, std::move(interval)});
#ifndef AZBENCH_COORDINATOR_STAGED_INTERVAL_H_
#define AZBENCH_COORDINATOR_STAGED_INTERVAL_H_

#include <cstdint>
#include <string>

#include "common/job_result.h"

namespace azbench {

// job_index kFoldedLatency: the agent's folded interval latency (interval_fold.h) for the slot
// `interval.index` (slot 0 began at the agent's first series start); it goes to the agent's
// carrier result at index max(0, slot - StagedSeries::fold_shift) when the scenario is saved.
inline constexpr int kFoldedLatency = -1;

struct StagedInterval {
  std::string agent_id;
  int job_index = 0;
  std::string result_name;  // empty for kFoldedLatency
  IntervalStats interval;
};

// Where a result's interval series waits in the results database (ScenarioResult::staged).
struct StagedSeries {
  int job_index = -1;         // -1: nothing staged; the result's `intervals` are all it has
  bool fold_carrier = false;  // it receives the agent's kFoldedLatency rows
  int64_t fold_shift = 0;     // slot of its start
  // false: none of its staged rows holds latency, so the store sums them in SQL.
  bool latency_staged = true;
};

// Takes streamed intervals off an AgentStream. Thread-safe: every agent's stream thread calls it.
class IntervalSink {
 public:
  virtual ~IntervalSink() = default;
  virtual void Add(StagedInterval interval) = 0;
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_STAGED_INTERVAL_H_
