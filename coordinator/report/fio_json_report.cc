#include "coordinator/report/fio_json_report.h"

#include <algorithm>
#include <cerrno>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "common/result_json.h"
#include "coordinator/report/scenario_json.h"

namespace azbench {

namespace {

using nlohmann::json;

constexpr char kAllClients[] = "All clients";

const AgentInfo* FindAgent(const ReportInput& input, const std::string& agent_id) {
  for (const AgentInfo& a : input.agents) {
    if (a.agent_id == agent_id) return &a;
  }
  return nullptr;
}

// fio's client entries name the server by "hostname" and "port". The host is the agent's reported
// hostname, else the host part of its address; the port is the address's (0 when it has none).
void AddHost(const ReportInput& input, const std::string& agent_id, json& entry) {
  const AgentInfo* agent = FindAgent(input, agent_id);
  const std::string address = agent != nullptr ? agent->address : agent_id;
  std::string host = address;
  int port = 0;
  const size_t colon = address.rfind(':');
  if (colon != std::string::npos && address.find(']', colon) == std::string::npos &&
      absl::SimpleAtoi(absl::string_view(address).substr(colon + 1), &port)) {
    host = address.substr(0, colon);
  }
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  if (agent != nullptr && !agent->hostname.empty()) host = agent->hostname;
  entry["hostname"] = host;
  entry["port"] = port;
}

// The scenario's jobs in plan order (names of results the plan does not list follow, in order).
std::vector<std::pair<std::string, const ScenarioJob*>> JobsOf(const ScenarioResult& r) {
  std::vector<std::pair<std::string, const ScenarioJob*>> jobs;
  for (const ScenarioJob& job : r.scenario.jobs) jobs.emplace_back(job.name, &job);
  for (const AgentJobResult& result : r.results) {
    const bool listed = std::any_of(jobs.begin(), jobs.end(),
                                    [&](const auto& j) { return j.first == result.result.name; });
    if (!listed) jobs.emplace_back(result.result.name, nullptr);
  }
  return jobs;
}

// fio's "error" of a job of scenario `r`: the job's own errno; in a scenario that did not complete
// (partial: interrupted, an agent lost), EINTR when the job has none, so that tooling reading only
// jobs[] and client_stats[] does not take a cut-short job for a whole one.
int FioError(const ScenarioResult& r, const JobResult& result) {
  const int own = FioJobError(result);
  if (own != 0 || r.status == ScenarioStatus::kComplete) return own;
  return EINTR;
}

// fio's "elapsed" of every entry: the scenario's span, from its first start to its last end.
int64_t ElapsedSeconds(const ScenarioResult& r) {
  int64_t start_ns = r.first_start_realtime_ns, end_ns = r.last_end_realtime_ns;
  for (const AgentJobResult& result : r.results) {
    if (start_ns == 0 || result.result.start_realtime_ns < start_ns) {
      start_ns = result.result.start_realtime_ns;
    }
    end_ns = std::max(end_ns, result.result.end_realtime_ns);
  }
  return FioElapsedSeconds(start_ns, end_ns);
}

json JobEntry(const ScenarioResult& r, const JobResult& result, const ScenarioJob* job,
              const FioGroupBandwidth& group, uint64_t job_runtime_ms, bool with_bins) {
  json entry =
      JobResultToFioJson(result, /*with_azbench_extras=*/false, &group,
                         job != nullptr ? FioReportChoice({}, job->options) : ReportChoice{});
  if (with_bins) AddFioLatencyBins(entry, result);
  entry["job_runtime"] = job_runtime_ms;
  entry["error"] = FioError(r, result);
  entry["elapsed"] = ElapsedSeconds(r);
  // Every option is inlined in the job's own ("global options" stays empty).
  if (job != nullptr) AddFioJobOptions(entry, {}, job->options);
  return entry;
}

}  // namespace

std::vector<size_t> FioJsonScenarioIndices(const ReportInput& input) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
  std::vector<size_t> indices;
  for (const ReportCell& cell : BuildCells(input, figures)) {
    for (const TargetColumn& column : cell.targets) {
      indices.insert(indices.end(), column.kept.begin(), column.kept.end());
    }
  }
  std::sort(indices.begin(), indices.end());
  return indices;
}

json FioJsonDocument(const ReportInput& input, size_t index, bool with_bins) {
  const ScenarioResult& r = input.scenarios[index];
  int64_t end_ns = r.last_end_realtime_ns;
  for (const AgentJobResult& result : r.results) {
    end_ns = std::max(end_ns, result.result.end_realtime_ns);
  }
  json doc = FioDocumentHeader(end_ns);
  doc["global options"] = json::object();

  json jobs = json::array();
  json clients = json::array();
  JobResult all;
  bool any = false;
  const auto scenario_jobs = JobsOf(r);
  std::vector<std::pair<JobResult, const ScenarioJob*>> merged_jobs;
  std::vector<uint64_t> merged_runtime_ms;  // parallel to merged_jobs
  std::vector<const JobResult*> every_result;
  for (const auto& [name, job] : scenario_jobs) {
    JobResult merged;
    bool first = true;
    std::vector<const JobResult*> parts;
    for (const AgentJobResult& result : r.results) {
      if (result.result.name != name) continue;
      parts.push_back(&result.result);
      if (first) {
        merged = result.result.Clone();
        first = false;
      } else {
        merged.Merge(result.result);
      }
    }
    if (first) continue;  // no agent reported this job (every agent lost)
    if (!any) {
      all = merged.Clone();
      any = true;
    } else {
      all.Merge(merged);
    }
    merged_jobs.emplace_back(std::move(merged), job);
    merged_runtime_ms.push_back(FioJobRuntimeSumMs(parts));
    every_result.insert(every_result.end(), parts.begin(), parts.end());
  }
  // bw_agg: jobs[] share their groups over every agent, each client's entries over that agent's.
  std::vector<const JobResult*> merged_results;
  for (const auto& [merged, job] : merged_jobs) merged_results.push_back(&merged);
  const std::map<int, FioGroupBandwidth> merged_groups = FioGroupAggregates(merged_results);
  for (size_t j = 0; j < merged_jobs.size(); ++j) {
    const auto& [merged, job] = merged_jobs[j];
    jobs.push_back(JobEntry(r, merged, job, merged_groups.at(merged.group_id), merged_runtime_ms[j],
                            with_bins));
  }
  // Per agent (in the order agents first appear in the results), its jobs in plan order.
  std::vector<std::string> agent_order;
  for (const AgentJobResult& result : r.results) {
    if (std::find(agent_order.begin(), agent_order.end(), result.agent_id) == agent_order.end()) {
      agent_order.push_back(result.agent_id);
    }
  }
  for (const std::string& agent_id : agent_order) {
    std::vector<const JobResult*> agent_results;
    for (const AgentJobResult& result : r.results) {
      if (result.agent_id == agent_id) agent_results.push_back(&result.result);
    }
    const std::map<int, FioGroupBandwidth> agent_groups = FioGroupAggregates(agent_results);
    for (const auto& [name, job] : scenario_jobs) {
      for (const AgentJobResult& result : r.results) {
        if (result.agent_id != agent_id || result.result.name != name) continue;
        json entry = JobEntry(r, result.result, job, agent_groups.at(result.result.group_id),
                              FioJobRuntimeSumMs({&result.result}), with_bins);
        AddHost(input, agent_id, entry);
        clients.push_back(std::move(entry));
      }
    }
  }
  if (any) {
    all.name = kAllClients;
    all.group_id = 0;
    // As fio's "All clients" (sum_thread_stats), the first job's percentile choice.
    const ScenarioJob* first = scenario_jobs.empty() ? nullptr : scenario_jobs.front().second;
    json entry =
        JobResultToFioJson(all, /*with_azbench_extras=*/false, nullptr,
                           first != nullptr ? FioReportChoice({}, first->options) : ReportChoice{});
    if (with_bins) AddFioLatencyBins(entry, all);
    entry["job_runtime"] = FioJobRuntimeSumMs(every_result);
    entry["error"] = FioError(r, all);
    entry["elapsed"] = ElapsedSeconds(r);
    entry["hostname"] = "";  // fio repeats the last client's; this entry is no one host
    entry["port"] = 0;
    clients.push_back(std::move(entry));
  }
  doc["jobs"] = std::move(jobs);
  doc["client_stats"] = std::move(clients);
  // Each agent's disks with its host, as fio's client lists each server's.
  json disks = json::array();
  for (const AgentDiskUtil& d : r.disk_util) {
    json entry = DiskUtilJson({d.disk})[0];
    AddHost(input, d.agent_id, entry);
    disks.push_back(std::move(entry));
  }
  doc["disk_util"] = std::move(disks);

  const Scenario& s = r.scenario;
  json parameters = json::object();
  for (const auto& [axis, value] : s.parameters) parameters[axis] = value;
  doc["azbench"] = ScenarioIdentityJson(r);
  doc["azbench"].update(json{{"campaign", input.campaign_name},
                             {"scenario", s.key},
                             {"parameters", parameters},
                             {"agents", agent_order}});
  if (json passes = StreamPassesJson(r); !passes.empty()) {
    doc["azbench"]["passes"] = std::move(passes);
  }
  // The jobs' warnings (distinct, in result order): fio's layout has no place for them, so they go
  // where fio tooling does not look.
  json warnings = json::array();
  for (const AgentJobResult& result : r.results) {
    for (const std::string& warning : result.result.warnings) {
      if (std::find(warnings.begin(), warnings.end(), warning) == warnings.end()) {
        warnings.push_back(warning);
      }
    }
  }
  doc["azbench"]["warnings"] = std::move(warnings);
  return doc;
}

std::string FioJsonFileName(const ReportInput& input, size_t index) {
  return ScenarioFileStem(input.scenarios[index].scenario) + ".json";
}

std::string RenderFioJson(const json& document) {
  return document.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace azbench
