#include "agent/server/journal_sink.h"

#include "common/proto_convert.h"

namespace azbench {

bool JournalSink::OnStarted(int64_t start_realtime_ns) {
  v1::RunEvent event;
  event.mutable_started()->set_start_realtime_ns(start_realtime_ns);
  return journal_.Append(std::move(event));
}

bool JournalSink::OnProgress(int64_t now, uint64_t ops, uint64_t bytes, int jobs_running) {
  v1::RunEvent event;
  v1::Progress* p = event.mutable_progress();
  p->set_agent_realtime_ns(now);
  p->set_ops(ops);
  p->set_bytes(bytes);
  p->set_jobs_running(jobs_running);
  return journal_.Append(std::move(event));
}

bool JournalSink::OnInterval(const std::string& job, int clone, const IntervalStats& interval) {
  return OnSeriesInterval(-1, job, IntervalOrigin{job, clone, 0}, interval);
}

bool JournalSink::OnSeriesInterval(int job_index, const std::string& job,
                                   const IntervalOrigin& origin, const IntervalStats& interval) {
  v1::RunEvent event;
  v1::IntervalEvent* e = event.mutable_interval();
  e->set_job_name(job);
  e->set_clone(origin.clone);
  e->set_job_index(job_index);
  e->set_result_name(origin.result_name);
  e->set_series_start_realtime_ns(origin.series_start_realtime_ns);
  IntervalToProto(interval, e->mutable_interval());
  if (!journal_.Append(std::move(event))) return false;
  streamed_[{job_index, origin.result_name}].insert(interval.index);
  return true;
}

bool JournalSink::OnOpLog(const std::string& job, int clone, const std::vector<OpRecord>& records) {
  v1::RunEvent event;
  OpLogToProto(job, clone, records, event.mutable_op_log());
  return journal_.Append(std::move(event));
}

bool JournalSink::OnResult(const JobResult& result) { return OnJobResult(-1, result); }

bool JournalSink::OnJobResult(int job_index, const JobResult& result) {
  v1::RunEvent event;
  v1::JobResult* out = event.mutable_result();
  JobResultToProto(result, out);
  out->set_job_index(job_index);
  auto sent = streamed_.find({job_index, result.name});
  if (sent != streamed_.end()) {
    auto* intervals = out->mutable_intervals();
    int kept = 0;
    for (int i = 0; i < intervals->size(); ++i) {
      if (sent->second.count(intervals->Get(i).index()) == 0) intervals->SwapElements(i, kept++);
    }
    intervals->DeleteSubrange(kept, intervals->size() - kept);
    streamed_.erase(sent);
  }
  return journal_.Append(std::move(event));
}

bool JournalSink::OnFinished(int64_t end_realtime_ns, bool cancelled) {
  v1::RunEvent event;
  event.mutable_finished()->set_end_realtime_ns(end_realtime_ns);
  event.mutable_finished()->set_cancelled(cancelled);
  DiskUtilToProto(disk_util_, event.mutable_finished()->mutable_disk_util());
  finished_ = std::move(event);
  // What the append would have told the runner: whether the lease still holds.
  return journal_.Alive();
}

bool JournalSink::OnDiskUtil(const std::vector<DiskUtil>& disks) {
  disk_util_ = disks;
  return journal_.Alive();
}

bool JournalSink::Finish(const absl::Status& run_status) {
  if (!finished_.has_value()) return false;
  RunOutcomeToProto(run_status, finished_->mutable_finished()->mutable_outcome());
  v1::RunEvent event = std::move(*finished_);
  finished_.reset();
  return journal_.Append(std::move(event));
}

bool JournalSink::OnPhaseDone(int phase_index, const std::string& phase) {
  v1::RunEvent event;
  event.mutable_phase_done()->set_phase_index(phase_index);
  event.mutable_phase_done()->set_phase(phase);
  return journal_.Append(std::move(event));
}

}  // namespace azbench
