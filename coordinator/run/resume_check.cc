#include "coordinator/run/resume_check.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"

namespace azbench {

namespace {

constexpr size_t kMaxKeysListed = 10;

// An option's values in the order written (fio: the last one wins), by option name.
std::map<std::string, std::vector<std::string>> OptionsByName(const JobOptions& options) {
  std::map<std::string, std::vector<std::string>> by_name;
  for (const auto& [key, value] : options) by_name[key].push_back(value);
  return by_name;
}

std::string Values(const std::vector<std::string>* values) {
  if (values == nullptr) return "(not set)";
  return absl::StrJoin(*values, ", ");
}

std::string AgentList(const std::vector<std::string>& agents) {
  return agents.empty() ? "none" : absl::StrCat("[", absl::StrJoin(agents, ", "), "]");
}

void CompareJobs(const Scenario& stored, const Scenario& now, std::vector<std::string>& changes) {
  const std::string workload = absl::StrCat("workload '", now.workload, "'");
  if (stored.jobs.size() != now.jobs.size()) {
    changes.push_back(
        absl::StrCat(workload, ": stored ", stored.jobs.size(), " jobs, now ", now.jobs.size()));
    return;
  }
  for (size_t i = 0; i < now.jobs.size(); ++i) {
    const ScenarioJob& a = stored.jobs[i];
    const ScenarioJob& b = now.jobs[i];
    // One job: its options are the workload's; several: each is named.
    const std::string where =
        now.jobs.size() == 1 ? workload : absl::StrCat(workload, " job '", b.name, "'");
    if (a.name != b.name) {
      changes.push_back(absl::StrCat(workload, " job ", i + 1, " name: stored '", a.name,
                                     "', now '", b.name, "'"));
    }
    if (a.workload != b.workload) {
      changes.push_back(absl::StrCat(where, " family: stored ", a.workload, ", now ", b.workload));
    }
    if (a.group_id != b.group_id) {
      changes.push_back(
          absl::StrCat(where, " group_id: stored ", a.group_id, ", now ", b.group_id));
    }
    const auto stored_options = OptionsByName(a.options);
    const auto now_options = OptionsByName(b.options);
    std::set<std::string> names;
    for (const auto& [name, unused] : stored_options) names.insert(name);
    for (const auto& [name, unused] : now_options) names.insert(name);
    for (const std::string& name : names) {
      const auto s = stored_options.find(name);
      const auto n = now_options.find(name);
      const std::vector<std::string>* sv = s == stored_options.end() ? nullptr : &s->second;
      const std::vector<std::string>* nv = n == now_options.end() ? nullptr : &n->second;
      if (sv != nullptr && nv != nullptr && *sv == *nv) continue;
      changes.push_back(
          absl::StrCat(where, " option ", name, ": stored ", Values(sv), ", now ", Values(nv)));
    }
  }
}

}  // namespace

std::vector<ResumeMismatch> CompareStoredWithPlan(const std::vector<Scenario>& stored,
                                                  const std::vector<Scenario>& plan) {
  std::map<std::string, const Scenario*> planned;
  for (const Scenario& s : plan) planned.emplace(s.key, &s);
  std::vector<ResumeMismatch> mismatches;
  for (const Scenario& old : stored) {
    const auto it = planned.find(old.key);
    if (it == planned.end()) continue;
    const Scenario& now = *it->second;
    std::vector<std::string> changes;
    if (old.target != now.target) {
      changes.push_back(absl::StrCat("target: stored '", old.target, "', now '", now.target, "'"));
    }
    if (old.workload != now.workload) {
      changes.push_back(
          absl::StrCat("workload: stored '", old.workload, "', now '", now.workload, "'"));
    }
    // How many agents run it, not which: a fleet that was provisioned again (other instance ids
    // or hostnames) runs the same scenario, while one more agent makes it another. A scenario the
    // plan now skips (an agent missing, --allow-missing) keeps its stored result, as before.
    if (!now.skipped && old.agent_ids.size() != now.agent_ids.size()) {
      std::vector<std::string> a = old.agent_ids, b = now.agent_ids;
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      changes.push_back(absl::StrCat("agents: stored ", a.size(), " ", AgentList(a), ", now ",
                                     b.size(), " ", AgentList(b)));
    }
    CompareJobs(old, now, changes);
    if (!changes.empty()) mismatches.push_back({old.key, std::move(changes)});
  }
  return mismatches;
}

absl::Status CheckResumable(const std::string& db_path, const std::vector<Scenario>& stored,
                            const std::vector<Scenario>& plan) {
  const std::vector<ResumeMismatch> mismatches = CompareStoredWithPlan(stored, plan);
  if (mismatches.empty()) return absl::OkStatus();
  std::string message = absl::StrCat(
      "--resume: '", db_path, "' holds ", mismatches.size(),
      mismatches.size() == 1 ? " scenario" : " scenarios",
      " as complete that the campaign now defines differently: skipping them would report their "
      "stored results as this campaign's (nothing was run or written):");
  for (size_t i = 0; i < mismatches.size() && i < kMaxKeysListed; ++i) {
    absl::StrAppend(&message, "\n  ", mismatches[i].key, ": ",
                    absl::StrJoin(mismatches[i].changes, "; "));
  }
  if (mismatches.size() > kMaxKeysListed) {
    absl::StrAppend(&message, "\n  ... and ", mismatches.size() - kMaxKeysListed, " more");
  }
  absl::StrAppend(&message,
                  "\nto measure the campaign as it is now, run it without --resume into a new "
                  "--db; to continue the stored run, resume with the campaign as it was");
  return absl::FailedPreconditionError(message);
}

}  // namespace azbench
