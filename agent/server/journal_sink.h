// The runner's events as azbench.v1 RunEvents, appended to a run's journal
// (agent/server/run_journal.h), which numbers them and writes them to whichever stream is attached
// (Run, or Attach after a break). A result leaves out the intervals already journaled before it
// (agent.proto, JobResult): every journaled event reaches the coordinator (written, or replayed on
// Attach) or the lease is lost, so "sent" means "journaled", whichever stream carried it.
#ifndef AZBENCH_AGENT_SERVER_JOURNAL_SINK_H_
#define AZBENCH_AGENT_SERVER_JOURNAL_SINK_H_

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "agent/runner/runner.h"
#include "agent/server/run_journal.h"

namespace azbench {

class JournalSink final : public RunEventSink {
 public:
  explicit JournalSink(RunJournal& journal) : journal_(journal) {}

  bool OnStarted(int64_t start_realtime_ns) override;
  bool OnProgress(int64_t now, uint64_t ops, uint64_t bytes, int jobs_running) override;
  bool OnInterval(const std::string& job, int clone, const IntervalStats& interval) override;
  bool OnSeriesInterval(int job_index, const std::string& job, const IntervalOrigin& origin,
                        const IntervalStats& interval) override;
  bool OnOpLog(const std::string& job, int clone, const std::vector<OpRecord>& records) override;
  bool OnResult(const JobResult& result) override;
  // The result without the intervals already journaled.
  bool OnJobResult(int job_index, const JobResult& result) override;
  // Holds RunFinished back (Finish appends it): the run's outcome is known only once Runner::Run
  // returned. False once the journal gave up, as for every event.
  bool OnFinished(int64_t end_realtime_ns, bool cancelled) override;
  // Kept for the RunFinished that OnFinished makes next.
  bool OnDiskUtil(const std::vector<DiskUtil>& disks) override;
  bool OnPhaseDone(int phase_index, const std::string& phase) override;
  // The coordinator releases every phase with Proceed (a barrier across all agents).
  bool DrivesPhases() const override { return true; }
  // False once the journal gave up (no Attach within the grace after a break).
  bool Alive() override { return journal_.Alive(); }

  // Appends the RunFinished held back by OnFinished with `run_status` (Runner::Run's status: a
  // job's error, or OK) as its outcome, so the coordinator gets the outcome in the event stream
  // (agent.proto, RunFinished.outcome). False when there is none (the run never started, or the
  // journal gave up before its end) or the journal gave up since.
  bool Finish(const absl::Status& run_status);

 private:
  RunJournal& journal_;
  std::optional<v1::RunEvent> finished_;  // from OnFinished until Finish
  std::vector<DiskUtil> disk_util_;       // from OnDiskUtil until OnFinished
  // Interval indices journaled per (job index, result name), until that result is journaled (the
  // runner serialises calls, so no lock).
  std::map<std::pair<int, std::string>, std::set<int64_t>> streamed_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_JOURNAL_SINK_H_
