// fio's log files of a scenario's jobs (write_bw_log, write_lat_log, write_iops_log,
// write_hist_log), written by the coordinator from the op records each agent streams
// (common/fio_log_writer.h): one writer per agent, its files named
// "<agent>.<prefix>_<type>.<N>.log" in the scenario's op log directory, so that fio2gnuplot and
// fio_generate_plots run there draw every agent's clones. Internal to running a scenario
// (run_internal.h).
#include <filesystem>
#include <memory>
#include <set>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/job_spec.h"
#include "coordinator/run/run_internal.h"

namespace azbench::run_internal {

namespace {

// The scenario's fio jobs as fio numbers their clones (in order, numjobs each); other families are
// no fio jobs and take no thread numbers. `without_op_log`: the jobs whose records come for their
// fio logs only.
std::vector<FioLogWriter::Job> FioLogJobs(const Scenario& scenario,
                                          std::set<std::string>& without_op_log) {
  std::vector<FioLogWriter::Job> jobs;
  bool any = false;
  for (const ScenarioJob& job : scenario.jobs) {
    if (job.workload != "block_io") continue;
    JobSpec spec;
    // The campaign checked every option: one that does not apply here changes no log option.
    for (const auto& [key, value] : job.options) (void)ApplyJobOption(spec, key, value);
    jobs.push_back({.name = job.name, .options = spec.fio_logs, .clones = spec.numjobs});
    if (spec.fio_logs.Any()) {
      any = true;
      if (!spec.op_log) without_op_log.insert(job.name);
    }
  }
  if (!any) jobs.clear();
  return jobs;
}

}  // namespace

void OpenFioLogs(std::vector<AgentRun>& runs, const Scenario& scenario, const std::string& dir) {
  if (dir.empty()) return;
  std::set<std::string> without_op_log;
  const std::vector<FioLogWriter::Job> jobs = FioLogJobs(scenario, without_op_log);
  if (jobs.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (AgentRun& r : runs) {
    if (!r.prepared) continue;
    absl::StatusOr<std::unique_ptr<FioLogWriter>> writer =
        FioLogWriter::Open(jobs, absl::StrCat(dir, "/", r.agent_id, "."));
    if (!writer.ok()) {
      r.errors.push_back(std::string(writer.status().message()));
      continue;
    }
    r.fio_logs = std::move(*writer);
    r.fio_log_only_jobs = without_op_log;
  }
}

bool AppendFioLogs(AgentRun& r, const std::string& job, int clone,
                   const std::vector<OpRecord>& records) {
  if (r.fio_logs == nullptr || !r.fio_logs->Wants(job)) return false;
  if (absl::Status s = r.fio_logs->Append(job, clone, records);
      !s.ok() && r.fio_log_failed.insert(job).second) {
    r.errors.push_back(std::string(s.message()));  // the first failure per job
  }
  return r.fio_log_only_jobs.count(job) > 0;
}

}  // namespace azbench::run_internal
