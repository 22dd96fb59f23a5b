// What a scenario's run (coordinator/run/run.h) brings back, made into its ScenarioResult: the op
// logs written as records arrive, the agents' results taken from their streams once every stream
// has ended, the client_to_client visibility jobs' writer and readers joined (visibility_join.h),
// and the outcome assembled (lost agents, actual start and end instants, status and its detail).
// Internal to running a scenario (run_internal.h).
#include <algorithm>
#include <cstring>
#include <filesystem>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/errno_text.h"
#include "coordinator/run/run_internal.h"
#include "coordinator/visibility_join.h"

namespace azbench::run_internal {

namespace {

// Joins each client_to_client job's writer and readers (visibility_join.h), then writes their
// records to the op log. A job without exactly one writer that finished (e.g. the writer was lost,
// or every agent is role `local`) is left as the agents reported it, with a warning on the readers.
void JoinClientToClientRuns(std::vector<AgentRun>& runs, const std::vector<std::string>& jobs,
                            const std::string& op_log_dir) {
  for (const std::string& job : jobs) {
    auto result_of = [&](AgentRun& r) -> JobResult* {
      for (JobResult& result : r.results) {
        if (result.name == job) return &result;
      }
      return nullptr;
    };
    std::vector<ClientToClientHalf> writers, readers;
    for (AgentRun& r : runs) {
      auto records = r.visibility_records.find(job);
      JobResult* result = result_of(r);
      if (records == r.visibility_records.end() || result == nullptr || r.lost) continue;
      ClientToClientHalf half{r.agent_id, result, &records->second,
                              r.member != nullptr ? r.member->info.clock_rtt_ns : 0};
      (IsClientToClientWriter(records->second) ? writers : readers).push_back(half);
    }
    const bool any_lost =
        std::any_of(runs.begin(), runs.end(), [](const AgentRun& r) { return r.lost; });
    if (writers.size() == 1) {
      JoinClientToClient(writers[0], readers);
    } else if (writers.size() > 1 || any_lost) {  // the writer may be the one lost
      for (ClientToClientHalf& reader : readers) {
        reader.result->warnings.push_back(absl::StrCat(
            "client_to_client: not joined (", writers.size(),
            " writer results): latency counted from the scheduled instant, so it includes the "
            "write time"));
      }
    }
    if (op_log_dir.empty()) continue;
    for (AgentRun& r : runs) {
      auto records = r.visibility_records.find(job);
      if (records == r.visibility_records.end()) continue;
      if (absl::Status s = AppendOpLog(r, op_log_dir, job, records->second); !s.ok()) {
        r.errors.push_back(std::string(s.message()));
      }
    }
  }
}

}  // namespace

absl::Status AppendOpLog(AgentRun& r, const std::string& dir, const std::string& job,
                         const std::vector<OpRecord>& records) {
  auto it = r.op_logs.find(job);
  if (it == r.op_logs.end()) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    absl::StatusOr<std::unique_ptr<OpLogWriter>> writer =
        OpLogWriter::Open(absl::StrCat(dir, "/", r.agent_id, ".", job, ".csv.gz"));
    if (!writer.ok()) return writer.status();
    it = r.op_logs.emplace(job, std::move(*writer)).first;
  }
  return it->second->Append(records);
}

std::vector<std::string> ClientToClientJobs(const Scenario& scenario) {
  std::vector<std::string> jobs;
  for (const ScenarioJob& job : scenario.jobs) {
    if (job.workload != "visibility") continue;
    bool c2c = false;
    for (const auto& [key, value] : job.options) {
      if (key == "probe") c2c = value == "client_to_client";
    }
    if (c2c) jobs.push_back(job.name);
  }
  return jobs;
}

void CollectResults(std::vector<AgentRun>& runs, const std::vector<std::string>& c2c_jobs,
                    const std::vector<std::string>& stale_clocks, const std::string& op_log_dir) {
  // A lost agent's results that came are kept whole, the rest as partial results summed from
  // its streamed intervals (agent_stream.h).
  for (AgentRun& r : runs) {
    for (StreamedResult& s : r.stream->TakeStreamedResults(r.lost)) {
      for (const std::string& w : r.resumed) s.result.warnings.push_back(w);
      r.results.push_back(std::move(s.result));
      r.staged.push_back(s.staged);
    }
  }
  JoinClientToClientRuns(runs, c2c_jobs, op_log_dir);
  for (AgentRun& r : runs) {
    for (JobResult& result : r.results) {
      if (std::find(c2c_jobs.begin(), c2c_jobs.end(), result.name) == c2c_jobs.end()) continue;
      for (const std::string& failure : stale_clocks) {
        result.warnings.push_back(
            absl::StrCat("client_to_client: clock offset not measured again before this scenario (",
                         failure, "): the one from connect is used"));
      }
    }
  }
}

void CloseOpLogs(std::vector<AgentRun>& runs) {
  for (AgentRun& r : runs) {
    for (auto& [job, writer] : r.op_logs) {
      if (absl::Status s = writer->Close(); !s.ok()) r.errors.push_back(std::string(s.message()));
    }
    if (r.fio_logs == nullptr) continue;
    if (absl::Status s = r.fio_logs->Close(); !s.ok()) r.errors.push_back(std::string(s.message()));
  }
}

void AssembleOutcome(std::vector<AgentRun>& runs, const RunOptions& options,
                     const std::string& spool_problem, ScenarioResult& out) {
  std::vector<std::string> problems;
  bool first_start = true;
  for (AgentRun& r : runs) {
    if (r.lost) out.lost.push_back({r.agent_id, r.lost_at_ns, r.lost_reason});
    for (size_t i = 0; i < r.results.size(); ++i) {
      out.results.push_back({r.agent_id, std::move(r.results[i])});
      out.staged.push_back(i < r.staged.size() ? r.staged[i] : StagedSeries{});
    }
    for (DiskUtil& disk : r.disk_util) out.disk_util.push_back({r.agent_id, std::move(disk)});
    for (const auto& e : r.errors) problems.push_back(absl::StrCat(r.agent_id, ": ", e));
    if (!r.started) continue;
    // The actual start is when the agent's first job thread began (after its start wait), not the
    // instant it was told; likewise the end is its last job's end.
    int64_t actual_start = 0, actual_end = 0;
    for (const auto& ar : out.results) {
      if (ar.agent_id != r.agent_id || ar.result.start_realtime_ns == 0) continue;
      if (actual_start == 0 || ar.result.start_realtime_ns < actual_start) {
        actual_start = ar.result.start_realtime_ns;
      }
      actual_end = std::max(actual_end, ar.result.end_realtime_ns);
    }
    if (actual_start != 0) r.start_ns = actual_start;
    if (actual_end != 0 && !r.lost) r.end_ns = actual_end;
    if (first_start) {
      out.first_start_realtime_ns = out.last_start_realtime_ns = r.start_ns;
      out.first_end_realtime_ns = out.last_end_realtime_ns = r.end_ns;
      first_start = false;
    } else {
      out.first_start_realtime_ns = std::min(out.first_start_realtime_ns, r.start_ns);
      out.last_start_realtime_ns = std::max(out.last_start_realtime_ns, r.start_ns);
      if (r.end_ns != 0) {
        out.first_end_realtime_ns = out.first_end_realtime_ns == 0
                                        ? r.end_ns
                                        : std::min(out.first_end_realtime_ns, r.end_ns);
        out.last_end_realtime_ns = std::max(out.last_end_realtime_ns, r.end_ns);
      }
    }
  }
  if (!out.lost.empty()) {
    out.status = ScenarioStatus::kPartial;
    std::vector<std::string> names;
    for (const auto& l : out.lost) names.push_back(absl::StrCat(l.agent_id, " (", l.reason, ")"));
    out.status_detail = absl::StrCat("lost ", out.lost.size(), " of ", runs.size(),
                                     " agents: ", absl::StrJoin(names, "; "));
  } else if (options.interrupt != nullptr && options.interrupt->load()) {
    out.status = ScenarioStatus::kPartial;
    out.status_detail = "interrupted: the runs were cancelled; figures cover the time until then";
  } else if (out.results.empty()) {
    out.status = ScenarioStatus::kFailed;
    out.status_detail = absl::StrCat("no results: ", absl::StrJoin(problems, "; "));
  } else {
    // A job that stopped on an I/O error (fio's err=) fails the scenario, as it fails fio's exit
    // status; its measurements up to the error are kept.
    std::vector<std::string> job_errors;
    for (const AgentJobResult& ar : out.results) {
      if (ar.result.error_errno == 0 && ar.result.error_message.empty()) continue;
      job_errors.push_back(absl::StrCat(ar.agent_id, " job ", ar.result.name, ": ",
                                        ar.result.error_message.empty()
                                            ? ErrnoText(ar.result.error_errno)
                                            : ar.result.error_message));
    }
    if (!job_errors.empty()) {
      out.status = ScenarioStatus::kFailed;
      out.status_detail = absl::StrCat("job error: ", absl::StrJoin(job_errors, "; "));
    }
  }
  if (out.status == ScenarioStatus::kComplete) {
    // An agent that reported a problem with its part, or ended the run early on its own (the
    // coordinator did not interrupt it), leaves figures that do not cover the scenario as asked:
    // never stored as complete, so `run --resume` runs it again.
    std::vector<std::string> agents_failed, agents_cancelled;
    for (const AgentRun& r : runs) {
      if (!r.errors.empty()) agents_failed.push_back(r.agent_id);
      if (r.cancelled_by_agent) agents_cancelled.push_back(r.agent_id);
    }
    if (!agents_failed.empty()) {
      out.status = ScenarioStatus::kFailed;
      out.status_detail = absl::StrCat("problems on ", absl::StrJoin(agents_failed, ", "), ": ",
                                       absl::StrJoin(problems, "; "));
    } else if (!agents_cancelled.empty()) {
      out.status = ScenarioStatus::kPartial;
      out.status_detail =
          absl::StrCat("cancelled by ", absl::StrJoin(agents_cancelled, ", "),
                       " (the agent was stopping); figures cover the time until then");
    }
  }
  if (!spool_problem.empty()) {
    problems.push_back(spool_problem);
    // Intervals that could not be written are missing from the series: `run --resume` runs it
    // again.
    if (out.status == ScenarioStatus::kComplete && out.staged_stream_id != 0) {
      out.status = ScenarioStatus::kPartial;
      out.status_detail = spool_problem;
    }
  }
  if (!problems.empty() && out.status_detail.empty()) {
    out.status_detail = absl::StrJoin(problems, "; ");
  }
}

}  // namespace azbench::run_internal
