#include "coordinator/plan/plan.h"

#include <algorithm>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/status_macros.h"
#include "coordinator/campaign/campaign_matrix.h"

namespace azbench {
namespace {

// Shown per scenario line before "+N more".
constexpr size_t kMaxAgentsShown = 4;

// Keeps keys unambiguous: a value can hold neither the separators nor spaces.
std::string EscapeKeyValue(const std::string& value) {
  std::string out;
  for (char c : value) {
    if (c == '%' || c == '/' || c == '=' || c == ' ' || c == '\t' || c == '\n') {
      absl::StrAppendFormat(&out, "%%%02X", static_cast<unsigned char>(c));
    } else {
      out.push_back(c);
    }
  }
  return out;
}

// A duration as a job option value, exact to the microsecond: "10s", "1500ms", "250us".
std::string DurationOption(absl::Duration d) {
  const int64_t us = absl::ToInt64Microseconds(d);
  if (us % 1'000'000 == 0) return absl::StrCat(us / 1'000'000, "s");
  if (us % 1'000 == 0) return absl::StrCat(us / 1'000, "ms");
  return absl::StrCat(us, "us");
}

std::string CellKey(const std::string& workload, const MatrixCell& cell) {
  std::string key = absl::StrCat("workload=", workload);
  for (const auto& [axis, value] : cell) {
    absl::StrAppend(&key, "/", axis, "=", EscapeKeyValue(value));
  }
  return key;
}

// The count an agent axis asks for: nullopt for `all`; 0 (with `reason` set) when not a count.
std::optional<size_t> AxisCount(const std::string& axis, const std::string& value,
                                std::string* reason) {
  if (value == kNodesAll) return std::nullopt;
  int64_t n = 0;
  if (!absl::SimpleAtoi(value, &n) || n < 1) {
    *reason = absl::StrCat(axis, "=", value, " is not a count of agents");
    return 0;
  }
  return static_cast<size_t>(n);
}

// The agents for a cell, in the balanced order: every agent; with `nodes_per_az: M`, the first M
// of every AZ group (AZ order and agent_id order as BalancedAgentOrder); then with `nodes: N`, the
// first N of that. nullopt when there are too few (the reason goes to `reason`).
// `pool` describes `ordered` in the reason ("the fleet has 3", "2 are cross-az to 'fsx'").
std::optional<std::vector<std::string>> ChooseAgents(const std::vector<AgentInfo>& ordered,
                                                     const MatrixCell& cell, std::string* reason,
                                                     const std::string& pool = "") {
  std::vector<const AgentInfo*> chosen;
  for (const AgentInfo& agent : ordered) chosen.push_back(&agent);
  std::optional<size_t> per_az, total;
  for (const auto& [axis, value] : cell) {
    if (axis != kNodesAxis && axis != kNodesPerAzAxis) continue;
    const std::optional<size_t> n = AxisCount(axis, value, reason);
    if (n.has_value() && *n == 0) return std::nullopt;
    (axis == kNodesAxis ? total : per_az) = n;
  }
  if (per_az.has_value()) {
    std::map<std::string, size_t> taken;  // AZ -> agents taken ("" = no AZ, one group)
    std::vector<const AgentInfo*> kept;
    for (const AgentInfo* agent : chosen) {
      if (taken[agent->availability_zone]++ < *per_az) kept.push_back(agent);
    }
    for (const auto& [az, count] : taken) {
      if (count < *per_az) {
        *reason = absl::StrCat("nodes_per_az=", *per_az, " needs ", *per_az, " agents in ",
                               az.empty() ? "the group without an AZ" : absl::StrCat("AZ ", az),
                               "; it has ", count);
        return std::nullopt;
      }
    }
    chosen = std::move(kept);
  }
  if (total.has_value()) {
    if (*total > chosen.size()) {
      *reason =
          absl::StrCat("nodes=", *total, " needs ", *total, " agents; ",
                       per_az.has_value() ? absl::StrCat("nodes_per_az selects ", chosen.size())
                       : pool.empty()     ? absl::StrCat("the fleet has ", chosen.size())
                                          : pool);
      return std::nullopt;
    }
    chosen.resize(*total);
  }
  std::vector<std::string> ids;
  ids.reserve(chosen.size());
  for (const AgentInfo* agent : chosen) ids.push_back(agent->agent_id);
  return ids;
}

// The agents of `ordered` whose placement to `target` is `wanted`, in the same order. Empty, with
// the reason, when there are none.
std::vector<AgentInfo> FilterByPlacement(const std::vector<AgentInfo>& ordered,
                                         const std::string& target, const std::string& wanted,
                                         const PlacementTable* placements, std::string* reason) {
  if (placements == nullptr) {
    *reason = absl::StrCat("placement=", wanted, ": the agents' placement to '", target,
                           "' is known only once they are described (azbench run)");
    return {};
  }
  std::vector<AgentInfo> out;
  std::map<std::string, std::vector<std::string>> others;  // placement -> agents
  for (const AgentInfo& agent : ordered) {
    const PlacementEvidence* e = placements->Find(agent.agent_id, target);
    const std::string_view got = e == nullptr ? "unknown" : PlacementName(e->placement);
    if (got == wanted) {
      out.push_back(agent);
    } else {
      others[std::string(got)].push_back(agent.agent_id);
    }
  }
  if (out.empty()) {
    std::vector<std::string> parts;
    for (const auto& [p, ids] : others) {
      parts.push_back(absl::StrCat(p, ": ", absl::StrJoin(ids, ",")));
    }
    *reason = absl::StrCat("placement=", wanted, ": no agent is ", wanted, " to target '", target,
                           "' (", absl::StrJoin(parts, "; "), ")");
  }
  return out;
}

absl::Status CheckAgents(const std::vector<AgentInfo>& agents) {
  if (agents.empty()) {
    return absl::FailedPreconditionError("the fleet has no agents: nothing can run");
  }
  std::set<std::string> ids;
  for (const AgentInfo& agent : agents) {
    if (agent.agent_id.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("an agent at '", agent.address, "' has an empty agent_id"));
    }
    if (!ids.insert(agent.agent_id).second) {
      return absl::InvalidArgumentError(
          absl::StrCat("agent_id '", agent.agent_id, "' is used by two agents"));
    }
  }
  return absl::OkStatus();
}

std::string AgentSummary(const Scenario& s) {
  if (s.agent_ids.empty()) return "-";
  std::vector<std::string> shown(
      s.agent_ids.begin(), s.agent_ids.begin() + std::min(s.agent_ids.size(), kMaxAgentsShown));
  std::string summary = absl::StrCat(s.agent_ids.size(), ": ", absl::StrJoin(shown, ","));
  if (s.agent_ids.size() > kMaxAgentsShown) {
    absl::StrAppend(&summary, ",+", s.agent_ids.size() - kMaxAgentsShown, " more");
  }
  return summary;
}

}  // namespace

std::vector<AgentInfo> BalancedAgentOrder(const std::vector<AgentInfo>& agents) {
  // AZ name -> agents; the empty AZ (unknown) sorts last.
  std::map<std::string, std::vector<AgentInfo>> by_az;
  std::vector<AgentInfo> no_az;
  for (const AgentInfo& agent : agents) {
    if (agent.availability_zone.empty()) {
      no_az.push_back(agent);
    } else {
      by_az[agent.availability_zone].push_back(agent);
    }
  }
  std::vector<std::vector<AgentInfo>> groups;
  for (auto& [az, members] : by_az) groups.push_back(std::move(members));
  if (!no_az.empty()) groups.push_back(std::move(no_az));
  size_t longest = 0;
  for (std::vector<AgentInfo>& group : groups) {
    std::sort(group.begin(), group.end(),
              [](const AgentInfo& a, const AgentInfo& b) { return a.agent_id < b.agent_id; });
    longest = std::max(longest, group.size());
  }
  std::vector<AgentInfo> ordered;
  ordered.reserve(agents.size());
  for (size_t round = 0; round < longest; ++round) {
    for (const std::vector<AgentInfo>& group : groups) {
      if (round < group.size()) ordered.push_back(group[round]);
    }
  }
  return ordered;
}

absl::StatusOr<std::vector<Scenario>> ExpandCampaign(const Campaign& campaign,
                                                     const std::vector<AgentInfo>& agents,
                                                     const PlacementTable* placements) {
  RETURN_IF_ERROR(CheckAgents(agents));
  RETURN_IF_ERROR(campaign_internal::CheckScenarioCount(campaign));  // a campaign built by hand
  const std::vector<AgentInfo> ordered = BalancedAgentOrder(agents);
  const bool with_warmup = campaign.warmup > absl::ZeroDuration();
  const double cooldown_s = absl::ToDoubleSeconds(campaign.cooldown);
  const std::string warmup_runtime = DurationOption(campaign.warmup);

  std::vector<Scenario> scenarios;
  std::set<std::string> keys;
  // A parsed campaign's jobs were checked in every cell; a warmup's (with its runtime) were not,
  // and a campaign built or changed by hand is checked here. Each job once per cell, whatever the
  // targets and repeats.
  const bool checked_at_parse = JobsCheckedAtParse(campaign);
  std::set<std::string> checked_here;  // "<warmup|measured>/<cell key>/<job index>"
  for (const Workload& workload : campaign.workloads) {
    // Axes of options the workload's family lacks do not multiply its scenarios; small_files
    // gets one scenario per file size (campaign.h, WorkloadAxes).
    const std::vector<MatrixCell> workload_cells =
        MatrixCells(WorkloadAxes(workload, campaign.matrix));
    for (const MatrixCell& cell : workload_cells) {
      std::string placement;
      for (const auto& [axis, value] : cell) {
        if (axis == kPlacementAxis) placement = value;
      }
      std::string cell_skip_reason;
      const std::optional<std::vector<std::string>> cell_chosen =
          ChooseAgents(ordered, cell, &cell_skip_reason);
      const std::string cell_key = CellKey(workload.name, cell);
      for (int repeat = with_warmup ? 0 : 1; repeat <= campaign.repeats; ++repeat) {
        for (const CampaignTarget& target : campaign.targets) {
          std::string skip_reason = cell_skip_reason;
          std::optional<std::vector<std::string>> chosen = cell_chosen;
          if (!placement.empty()) {
            const std::vector<AgentInfo> candidates =
                FilterByPlacement(ordered, target.name, placement, placements, &skip_reason);
            chosen.reset();
            if (!candidates.empty()) {
              chosen = ChooseAgents(
                  candidates, cell, &skip_reason,
                  absl::StrCat(candidates.size(), candidates.size() == 1 ? " is " : " are ",
                               placement, " to '", target.name, "'"));
            }
          }
          Scenario s;
          s.index = static_cast<int>(scenarios.size());
          s.target = target.name;
          s.workload = workload.name;
          s.parameters = cell;
          s.repeat = repeat;
          s.repeats = campaign.repeats;
          s.warmup = repeat == 0;
          s.key = absl::StrCat(cell_key, "/target=", target.name, "/",
                               s.warmup ? "warmup" : absl::StrCat("repeat=", repeat));
          if (!keys.insert(s.key).second) {
            return absl::InvalidArgumentError(
                absl::StrCat("scenario key '", s.key,
                             "' occurs twice: target and workload names must be "
                             "unique and matrix values must not repeat"));
          }
          for (size_t j = 0; j < workload.jobs.size(); ++j) {
            const WorkloadJob& job = workload.jobs[j];
            ScenarioJob scenario_job;
            scenario_job.name = job.name;
            scenario_job.options = CellJobOptions(job, cell, target, workload.family);
            scenario_job.workload = workload.family;
            // A write-verify job cannot be time-based (its verifiers replay its writes): its
            // warmup runs it as it is.
            const bool write_verify = std::any_of(
                scenario_job.options.begin(), scenario_job.options.end(),
                [](const auto& o) { return o.first == "sharing" && o.second == "write-verify"; });
            if (s.warmup && workload.family == "block_io" && !write_verify) {
              scenario_job.options.emplace_back("runtime", warmup_runtime);
              scenario_job.options.emplace_back("time_based", "1");
            }
            scenario_job.group_id = job.group_id;
            const bool check =
                (s.warmup || !checked_at_parse) &&
                checked_here
                    .insert(absl::StrCat(s.warmup ? "warmup/" : "measured/", cell_key, "/", j))
                    .second;
            absl::Status valid =
                check ? ValidateWorkloadJobOptions(workload, scenario_job.options, job.name)
                      : absl::OkStatus();
            if (!valid.ok()) {
              return absl::InvalidArgumentError(
                  absl::StrCat("scenario ", s.key, ": job '", job.name, "': ", valid.message()));
            }
            s.jobs.push_back(std::move(scenario_job));
          }
          if (chosen.has_value() && chosen->size() < 2 && ScenarioUsesSharing(s, "write-verify")) {
            skip_reason = absl::StrCat(
                "sharing=write-verify needs at least 2 agents (agent 0 writes, the others "
                "verify); this scenario has ",
                chosen->size());
            chosen.reset();
          }
          if (chosen.has_value()) {
            s.agent_ids = *chosen;
            if (placements != nullptr) {
              for (const std::string& id : s.agent_ids) {
                if (const PlacementEvidence* e = placements->Find(id, target.name)) {
                  s.placements.push_back(*e);
                }
              }
            }
          } else {
            s.skipped = true;
            s.skip_reason = skip_reason;
          }
          s.cooldown_s = scenarios.empty() ? 0 : cooldown_s;
          scenarios.push_back(std::move(s));
        }
      }
    }
  }
  return scenarios;
}

std::vector<AgentInfo> ExpectedAgents(const FleetSpec& fleet) {
  std::vector<AgentInfo> agents;
  if (fleet.kind == FleetSpec::Kind::kLocal) {
    for (int i = 0; i < fleet.local_agents; ++i) {
      AgentInfo agent;
      agent.agent_id = absl::StrCat("local-", i + 1);  // as LocalFleet's --agent-id
      if (!fleet.local_azs.empty()) {
        agent.availability_zone = fleet.local_azs[static_cast<size_t>(i) % fleet.local_azs.size()];
      }
      agents.push_back(std::move(agent));
    }
    return agents;
  }
  for (const std::string& host : fleet.hosts) {
    AgentInfo agent;
    agent.agent_id = host;
    agent.address = host;
    agents.push_back(std::move(agent));
  }
  return agents;
}

std::string FormatPlan(const std::vector<Scenario>& scenarios) {
  size_t key_width = 8;  // "scenario"
  size_t agents_width = 6;
  const size_t index_width = std::max<size_t>(1, absl::StrCat(scenarios.size()).size());
  std::vector<std::string> agent_summaries;
  for (const Scenario& s : scenarios) {
    key_width = std::max(key_width, s.key.size());
    agent_summaries.push_back(AgentSummary(s));
    agents_width = std::max(agents_width, agent_summaries.back().size());
  }
  std::string out = absl::StrFormat("%*s  %-*s  %-*s  %s\n", index_width, "#", key_width,
                                    "scenario", agents_width, "agents", "note");
  int warmups = 0;
  int skipped = 0;
  for (size_t i = 0; i < scenarios.size(); ++i) {
    const Scenario& s = scenarios[i];
    std::string note;
    if (s.warmup) note = "warmup (discarded)";
    if (s.skipped) {
      ++skipped;
      absl::StrAppend(&note, note.empty() ? "" : "; ", "skipped: ", s.skip_reason);
    } else if (s.warmup) {
      ++warmups;
    }
    std::string line = absl::StrFormat("%*d  %-*s  %-*s  %s", index_width, s.index, key_width,
                                       s.key, agents_width, agent_summaries[i], note);
    while (!line.empty() && line.back() == ' ') line.pop_back();
    absl::StrAppend(&out, line, "\n");
  }
  const int total = static_cast<int>(scenarios.size());
  absl::StrAppend(&out, total,
                  total == 1 ? " scenario: " : " scenarios: ", total - warmups - skipped,
                  " to measure, ", warmups, " warmup, ", skipped, " skipped\n");
  return out;
}

}  // namespace azbench
