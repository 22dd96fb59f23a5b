// What the coordinator holds of one agent's Run stream while it runs, and the agent's results
// built from it. With an IntervalSink (coordinator/run/interval_spool.h: the results database),
// memory per agent is bounded by histogram buckets, not by run length: every interval is handed to
// the sink as it arrives (its latency folded first), only running totals per series and the folded
// latency of the last kFoldWindowSlots slots are held, and the results come back with their series
// staged (StreamedResult::staged), to be attached when the scenario is saved. Without a sink
// (library callers and tests without a database) the series are held until TakeResults, and memory
// is bounded by histogram buckets in use, not by ops:
//   - every interval arrives once (agent.proto, JobResult: results do not repeat the streamed
//     series), its counts are kept per result (job index, result name) and, with `fold_latency`,
//     its latency histograms are folded into one series per agent (interval_fold.h) as they
//     arrive, so interval latency costs intervals x buckets per agent, not per job;
//   - totals are sparse histograms (common/histogram.h: only non-zero buckets are held);
//   - a result takes its streamed series over when it arrives, so nothing is held twice.
// Not thread-safe: one stream thread feeds it, and TakeResults runs after that thread ended.
//
// A folded slot spilled to the sink and folded into again later (a job that started late) is
// spilled again; the store sums both. The folded latency's carrier is chosen in
// TakeStreamedResults exactly as without a sink.
//
// Example (coordinator/run/run.cc, per agent):
//   AgentStream stream(offset_ns, interval_ns, /*fold_latency=*/true, spool.get(), agent_id);
//   stream.AddInterval(event.job_index(), event.result_name(), start, std::move(interval));
//   stream.AddResult(result.job_index(), std::move(parsed));
//   std::vector<StreamedResult> results = stream.TakeStreamedResults(/*lost=*/false);
#ifndef AZBENCH_COORDINATOR_RUN_AGENT_STREAM_H_
#define AZBENCH_COORDINATOR_RUN_AGENT_STREAM_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/job_result.h"
#include "coordinator/staged_interval.h"

namespace azbench {

// A result as TakeStreamedResults returns it: where its interval series is staged, if it is.
struct StreamedResult {
  JobResult result;
  StagedSeries staged;
};

class AgentStream {
 public:
  // With a sink, folded latency slots older than the newest this many are handed to it.
  static constexpr size_t kFoldWindowSlots = 16;

  // `offset_ns`: the agent's clock minus the coordinator's (every time kept is converted to the
  // coordinator's clock). `interval_ns`: the run's interval length. `sink` (may be null: hold
  // everything) takes the intervals as they arrive, under `agent_id`; it must outlive this object.
  AgentStream(int64_t offset_ns, uint64_t interval_ns, bool fold_latency,
              IntervalSink* sink = nullptr, std::string agent_id = "");

  // One IntervalEvent: interval `interval.index` of a clone of result `result_name` of job
  // `job_index`, whose series began at `series_start_agent_ns` (the agent's clock).
  void AddInterval(int job_index, const std::string& result_name, int64_t series_start_agent_ns,
                   IntervalStats interval);

  // One result as received (times in the agent's clock; `intervals` only those not streamed). It
  // takes over its streamed series.
  void AddResult(int job_index, JobResult result);

  // The agent's results in arrival order, each with its whole interval series, then one partial
  // result per streamed series whose result never came (the agent was lost, `lost`, or the job
  // ended without a result): exact sums of its streamed intervals (ops, bytes, errors, lat),
  // marked with a warning saying which. The folded interval latency goes on the earliest-starting
  // result (interval_fold.h). Leaves this object empty.
  // With a sink, the results carry no intervals: they are all in the sink, the folded latency
  // too (flushed here), and StreamedResult::staged says where.
  std::vector<JobResult> TakeResults(bool lost);
  std::vector<StreamedResult> TakeStreamedResults(bool lost);

  // Streamed intervals held for results that have not arrived yet, for tests (0 with a sink).
  size_t pending_intervals() const;
  // Slots of folded interval latency held (at most kFoldWindowSlots with a sink), for tests.
  size_t held_fold_slots() const { return folded_.size(); }

 private:
  // A streamed series whose result has not arrived yet.
  struct Series {
    int64_t start_ns = 0;                             // coordinator clock, earliest clone
    std::map<int64_t, IntervalStats> intervals;       // counts (and latency without the fold)
    std::array<Histogram::Sparse, kOpKindCount> lat;  // with the fold: latency totals so far
    // With a sink (which holds the intervals): their sums, the kinds seen, the last index.
    std::array<IntervalOpStats, kOpKindCount> sums;
    std::array<bool, kOpKindCount> seen{};
    int64_t last_index = -1;
    bool latency_staged = false;  // an interval handed to the sink held latency
  };
  struct Received {
    int job_index = 0;
    JobResult result;
    bool latency_staged = false;
  };
  // Interval latency of every series, by slot: slot 0 began at anchor_ns_.
  void FoldLatency(int64_t series_start_ns, IntervalStats& interval);
  int64_t SlotOf(int64_t start_ns) const;
  // With a sink: hands the oldest folded slots beyond kFoldWindowSlots (all with `all`) to it.
  void SpillFolded(bool all);

  const int64_t offset_ns_;
  const uint64_t interval_ns_;
  const bool fold_latency_;
  IntervalSink* const sink_;
  const std::string agent_id_;
  std::map<std::pair<int, std::string>, Series> series_;
  std::vector<Received> results_;
  bool anchored_ = false;
  int64_t anchor_ns_ = 0;
  std::map<int64_t, IntervalStats> folded_;  // latency only, by slot
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_AGENT_STREAM_H_
