// The runner's events as azbench.v1 RunEvents, appended to a run's journal (agent/run_journal.h),
// which numbers them and writes them to whichever stream is attached (Run, or Attach after a
// break). A result leaves out the intervals already journaled before it (agent.proto, JobResult):
// every journaled event reaches the coordinator (written, or replayed on Attach) or the lease is
// lost, so "sent" means "journaled", whichever stream carried it.
#ifndef AZBENCH_AGENT_JOURNAL_SINK_H_
#define AZBENCH_AGENT_JOURNAL_SINK_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "agent/run_journal.h"
#include "agent/runner.h"

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
  bool OnFinished(int64_t end_realtime_ns, bool cancelled) override;
  bool OnPhaseDone(int phase_index, const std::string& phase) override;
  // The coordinator releases every phase with Proceed (a barrier across all agents).
  bool DrivesPhases() const override { return true; }
  // False once the journal gave up (no Attach within the grace after a break).
  bool Alive() override { return journal_.Alive(); }

 private:
  RunJournal& journal_;
  // Interval indices journaled per (job index, result name), until that result is journaled (the
  // runner serialises calls, so no lock).
  std::map<std::pair<int, std::string>, std::set<int64_t>> streamed_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_JOURNAL_SINK_H_
