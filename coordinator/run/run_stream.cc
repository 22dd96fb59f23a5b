// One agent's part of a started run (coordinator/run/run.h): the Run call at the common start, its
// event stream read (and resumed when it breaks, resumable_run.h) with intervals and results kept
// in the agent's AgentStream and everything else in its AgentRun. Internal to running a scenario
// (run_internal.h).
#include <algorithm>

#include "common/clock.h"
#include "common/proto_convert.h"
#include "coordinator/fleet/resumable_run.h"
#include "coordinator/run/run_internal.h"

namespace azbench::run_internal {

namespace {

// Intervals and results: parsed and kept without the shared lock (AgentStream is this thread's
// own), so agents do not wait for each other here. False for any other event.
bool KeepIntervalOrResult(LiveRun& live, AgentRun& r, const v1::RunEvent& event) {
  if (event.event_case() == v1::RunEvent::kInterval) {
    const v1::IntervalEvent& e = event.interval();
    live.parse_slots.acquire();
    absl::StatusOr<IntervalStats> interval = IntervalFromProto(e.interval());
    if (interval.ok()) {
      r.stream->AddInterval(e.job_index(), e.result_name().empty() ? e.job_name() : e.result_name(),
                            e.series_start_realtime_ns(), std::move(*interval));
    }
    live.parse_slots.release();
    if (interval.ok()) return true;
    absl::MutexLock lock(&live.mu);
    r.errors.push_back(std::string(interval.status().message()));
    return true;
  }
  if (event.event_case() == v1::RunEvent::kResult) {
    live.parse_slots.acquire();
    absl::StatusOr<JobResult> result = JobResultFromProto(event.result());
    if (result.ok()) r.stream->AddResult(event.result().job_index(), std::move(*result));
    live.parse_slots.release();
    if (result.ok()) return true;
    absl::MutexLock lock(&live.mu);
    r.errors.push_back(std::string(result.status().message()));
    return true;
  }
  return false;
}

// A batch of op records: written to the fio logs and the op log as it comes, or (client_to_client
// jobs) kept to be joined across agents after the run. Called under live.mu.
void KeepOpLog(LiveRun& live, AgentRun& r, const v1::OpLogBatch& batch) {
  const std::string& job = batch.job_name();
  const bool joined =
      std::find(live.c2c_jobs.begin(), live.c2c_jobs.end(), job) != live.c2c_jobs.end();
  if (live.options.op_log_dir.empty() && !joined) return;
  absl::StatusOr<std::vector<OpRecord>> records = OpLogFromProto(batch);
  if (!records.ok()) {
    r.errors.push_back(std::string(records.status().message()));
    return;
  }
  if (joined) {  // written after the run, once joined across agents
    std::vector<OpRecord>& kept = r.visibility_records[job];
    kept.insert(kept.end(), records->begin(), records->end());
    return;
  }
  if (AppendFioLogs(r, job, batch.clone(), *records)) return;  // no op_log
  if (absl::Status s = AppendOpLog(r, live.options.op_log_dir, job, *records);
      !s.ok() && r.op_log_failed.insert(job).second) {
    r.errors.push_back(std::string(s.message()));  // the first failure per job
  }
}

// Every other event: the agent's state, under live.mu.
void KeepEvent(LiveRun& live, AgentRun& r, const v1::RunEvent& event) {
  absl::MutexLock lock(&live.mu);
  switch (event.event_case()) {
    case v1::RunEvent::kStarted:
      r.started = true;
      r.start_ns = event.started().start_realtime_ns() - r.offset_ns;
      live.progress.Started(r.index, event.started().start_realtime_ns());
      break;
    case v1::RunEvent::kProgress:
      live.progress.Report(r.index, {event.progress().agent_realtime_ns(), event.progress().ops(),
                                     event.progress().bytes()});
      break;
    case v1::RunEvent::kOpLog:
      KeepOpLog(live, r, event.op_log());
      break;
    case v1::RunEvent::kPhaseDone:
      r.phases_done = std::max(r.phases_done, event.phase_done().phase_index() + 1);
      break;
    case v1::RunEvent::kFinished:
      r.finished = true;
      r.end_ns = event.finished().end_realtime_ns() - r.offset_ns;
      r.cancelled_by_agent = event.finished().cancelled();
      r.disk_util = DiskUtilFromProto(event.finished().disk_util());
      live.progress.Ended(r.index);
      break;
    default:
      break;
  }
}

}  // namespace

void StreamAgent(LiveRun& live, AgentRun& r) {
  const RunOptions& options = live.options;
  v1::RunRequest request;
  request.set_run_id(live.run_id);
  request.set_start_at_agent_realtime_ns(live.start_ns + r.offset_ns);
  request.set_progress_interval_ms(options.progress_interval_ms);
  // A stream that breaks is resumed within the agent's reattach grace (and a little more: the
  // agent counts it from when it noticed the break), unless the run is being cancelled.
  ResumeOptions resume;
  resume.grace = r.member->info.reattach_grace == absl::ZeroDuration()
                     ? absl::ZeroDuration()
                     : r.member->info.reattach_grace + absl::Seconds(1);
  resume.keep_trying = [&] { return options.interrupt == nullptr || !options.interrupt->load(); };
  resume.on_resumed = [&](const StreamResume& resumed) {
    const std::string warning = DescribeResume(r.agent_id, resumed);
    if (options.on_warning) options.on_warning(warning);
    absl::MutexLock lock(&live.mu);
    r.resumed.push_back(warning);
  };
  absl::Status status = RunResumable(
      *r.member->client, request,
      [&](const v1::RunEvent& event) {
        if (!KeepIntervalOrResult(live, r, event)) KeepEvent(live, r, event);
        return true;
      },
      resume);
  absl::MutexLock lock(&live.mu);
  if (!r.finished) {
    live.progress.Ended(r.index);
    r.lost = true;
    r.lost_at_ns = RealtimeNanos();
    r.lost_reason =
        status.ok() ? "the stream ended before the run finished" : std::string(status.message());
  } else if (!status.ok()) {
    r.errors.push_back(std::string(status.message()));
  }
}

}  // namespace azbench::run_internal
