// The JSON pieces of one stored scenario that both JSON layouts write (json_report.h, in its
// "scenarios" entries, and fio_json_report.h, in each document's "azbench" object), so the two
// say the same thing in the same words.
//
// Example:
//   json entry = ScenarioIdentityJson(result);
//   entry["key"] = result.scenario.key;
//   if (json passes = StreamPassesJson(result); !passes.empty()) entry["passes"] = passes;
#ifndef AZBENCH_COORDINATOR_REPORT_SCENARIO_JSON_H_
#define AZBENCH_COORDINATOR_REPORT_SCENARIO_JSON_H_

#include "coordinator/scenario.h"
#include "nlohmann/json.hpp"

namespace azbench {

// Which scenario this is and how it ended: {"index", "target", "workload", "repeat", "repeats",
// "status" (ScenarioStatusName), "status_detail"}. Each layout adds its own name for the key
// ("key" / "scenario") and its own form of the parameters.
nlohmann::json ScenarioIdentityJson(const ScenarioResult& result);

// large_stream's passes (stream_passes.h), one entry per large_stream job:
//   [{"job", "passes": n,
//     "agents": [{"agent_id", "passes": [{"pass", "bytes", "runtime_ns", "errors", "mib_s"} or
//                 null when the agent did not report that pass], "mean_mib_s" (null: none)}],
//     "all_agents": {"mib_s": [per pass, null when missing], "mean_mib_s"}}]
// An empty array for a scenario without large_stream jobs.
nlohmann::json StreamPassesJson(const ScenarioResult& result);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_SCENARIO_JSON_H_
