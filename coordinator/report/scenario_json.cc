#include "coordinator/report/scenario_json.h"

#include <optional>

#include "coordinator/report/stream_passes.h"

namespace azbench {

namespace {

using nlohmann::json;

json OptionalJson(const std::optional<double>& v) { return v ? json(*v) : json(); }

}  // namespace

json ScenarioIdentityJson(const ScenarioResult& result) {
  const Scenario& s = result.scenario;
  return {{"index", s.index},
          {"target", s.target},
          {"workload", s.workload},
          {"repeat", s.repeat},
          {"repeats", s.repeats},
          {"status", ScenarioStatusName(result.status)},
          {"status_detail", result.status_detail}};
}

json StreamPassesJson(const ScenarioResult& result) {
  json out = json::array();
  for (const StreamPasses& job : BuildStreamPasses(result)) {
    json agents = json::array();
    for (const AgentStreamPasses& a : job.agents) {
      json passes = json::array();
      for (size_t i = 0; i < a.passes.size(); ++i) {
        const auto& p = a.passes[i];
        passes.push_back(p ? json{{"pass", i + 1},
                                  {"bytes", p->bytes},
                                  {"runtime_ns", p->runtime_ns},
                                  {"errors", p->errors},
                                  {"mib_s", p->mib_s}}
                           : json());
      }
      agents.push_back({{"agent_id", a.agent_id},
                        {"passes", passes},
                        {"mean_mib_s", OptionalJson(a.mean_mib_s)}});
    }
    json aggregate = json::array();
    for (const auto& v : job.aggregate_mib_s) aggregate.push_back(OptionalJson(v));
    out.push_back(
        {{"job", job.job},
         {"passes", job.passes},
         {"agents", agents},
         {"all_agents",
          {{"mib_s", aggregate}, {"mean_mib_s", OptionalJson(job.aggregate_mean_mib_s)}}}});
  }
  return out;
}

}  // namespace azbench
