#include "coordinator/report/job_units.h"

#include <algorithm>
#include <map>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"

namespace azbench {
namespace {

// fio's flags: a bare `group_reporting` or any value but 0/false/no/off.
bool SetsGroupReporting(const JobOptions& options) {
  bool on = false;
  for (const auto& [key, value] : options) {
    if (key != "group_reporting") continue;
    on = !(value == "0" || absl::EqualsIgnoreCase(value, "false") ||
           absl::EqualsIgnoreCase(value, "no") || absl::EqualsIgnoreCase(value, "off"));
  }
  return on;
}

// The job of `scenario` a result belongs to: the job of the same name, else the job with the
// longest name that prefixes it before a dot (a family's phases and passes, "md.create",
// "<job>.pass2"); -1 when none.
int JobOfResult(const Scenario& scenario, const std::string& result_name) {
  int best = -1;
  size_t best_length = 0;
  for (size_t j = 0; j < scenario.jobs.size(); ++j) {
    const std::string& name = scenario.jobs[j].name;
    if (name == result_name) return static_cast<int>(j);
    if (name.size() >= best_length && result_name.size() > name.size() &&
        absl::StartsWith(result_name, name) && result_name[name.size()] == '.') {
      best = static_cast<int>(j);
      best_length = name.size();
    }
  }
  return best;
}

}  // namespace

std::vector<std::string> ReportedJobUnits(const Scenario& scenario) {
  // A group is reported as one when any of its jobs asks for group_reporting.
  std::map<int, std::string> grouped;  // group id -> the group's first job's name
  for (const ScenarioJob& job : scenario.jobs) {
    if (SetsGroupReporting(job.options)) grouped.emplace(job.group_id, std::string());
  }
  std::vector<std::string> units;
  units.reserve(scenario.jobs.size());
  for (const ScenarioJob& job : scenario.jobs) {
    auto group = grouped.find(job.group_id);
    if (group == grouped.end()) {
      units.push_back(job.name);
      continue;
    }
    if (group->second.empty()) group->second = job.name;
    units.push_back(group->second);
  }
  return units;
}

std::vector<ScenarioResult> SplitIntoReportedJobs(std::vector<ScenarioResult> scenarios) {
  std::vector<ScenarioResult> out;
  out.reserve(scenarios.size());
  for (ScenarioResult& whole : scenarios) {
    const std::vector<std::string> job_units = ReportedJobUnits(whole.scenario);
    // Units in the order of the jobs, then any result no job names, in the order of the results.
    std::vector<std::string> units;
    auto add_unit = [&units](const std::string& unit) {
      if (std::find(units.begin(), units.end(), unit) == units.end()) units.push_back(unit);
    };
    for (const std::string& unit : job_units) add_unit(unit);
    if (units.size() <= 1) {  // one job: its results are its phases, whatever their names
      out.push_back(std::move(whole));
      continue;
    }
    std::vector<std::string> unit_of_result;
    unit_of_result.reserve(whole.results.size());
    for (const AgentJobResult& r : whole.results) {
      const int job = JobOfResult(whole.scenario, r.result.name);
      unit_of_result.push_back(job >= 0 ? job_units[job] : r.result.name);
      add_unit(unit_of_result.back());
    }
    if (units.size() <= 1) {
      out.push_back(std::move(whole));
      continue;
    }
    for (const std::string& unit : units) {
      ScenarioResult part;
      part.scenario = whole.scenario;
      part.scenario.jobs.clear();
      for (size_t j = 0; j < whole.scenario.jobs.size(); ++j) {
        if (job_units[j] == unit) part.scenario.jobs.push_back(whole.scenario.jobs[j]);
      }
      part.scenario.parameters.emplace_back(kJobParameter, unit);
      absl::StrAppend(&part.scenario.key, "/", kJobParameter, "=", unit);
      part.status = whole.status;
      part.status_detail = whole.status_detail;
      part.lost = whole.lost;
      part.planned_start_realtime_ns = whole.planned_start_realtime_ns;
      part.first_start_realtime_ns = whole.first_start_realtime_ns;
      part.last_start_realtime_ns = whole.last_start_realtime_ns;
      part.first_end_realtime_ns = whole.first_end_realtime_ns;
      part.last_end_realtime_ns = whole.last_end_realtime_ns;
      part.staged_stream_id = whole.staged_stream_id;
      part.clock_offsets = whole.clock_offsets;
      part.disk_util = whole.disk_util;  // the agents' whole runs, as fio's per run
      for (size_t i = 0; i < whole.results.size(); ++i) {
        if (unit_of_result[i] != unit) continue;
        part.results.push_back(std::move(whole.results[i]));
        if (i < whole.staged.size()) part.staged.push_back(whole.staged[i]);
      }
      out.push_back(std::move(part));
    }
  }
  return out;
}

}  // namespace azbench
