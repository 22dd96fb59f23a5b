// One streamed interval on its way to its final row in the results database while its scenario
// still runs (coordinator/run/interval_spool.h writes them; Store::SaveScenario hands each series'
// rows to its result), and the interface an AgentStream hands such intervals to.
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
// `interval.index` (slot 0 began at the agent's first series start); it is stored by slot, and
// loading adds it to the agent's carrier result at index max(0, slot - StagedSeries::fold_shift).
inline constexpr int kFoldedLatency = -1;

struct StagedInterval {
  std::string agent_id;
  int job_index = 0;
  std::string result_name;  // empty for kFoldedLatency
  IntervalStats interval;
};

// Where a result's interval series is in the results database (ScenarioResult::staged).
struct StagedSeries {
  int job_index = -1;         // -1: nothing staged; the result's `intervals` are all it has
  bool fold_carrier = false;  // it receives the agent's kFoldedLatency rows
  int64_t fold_shift = 0;     // slot of its start
  // false: none of its streamed rows holds latency (for tests; the store does not need it).
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
