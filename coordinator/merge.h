// Figures of one scenario, derived exactly from every agent's results: merged latency histograms,
// aggregate throughput (full and stonewall), per-agent fairness, start skew and the merged interval
// series. Nothing here estimates a percentile: percentiles come from the merged histograms.
//
// Rules (the README quotes them):
//   1. Latency. For each op kind, the merged lat / slat / clat histogram is the bucket-wise sum of
//      that histogram over every agent and every job (so every numjobs clone) of the scenario. It
//      equals the histogram of the union of all samples; its percentiles carry the histogram's
//      error bound (<= 0.39%, common/histogram.h). ops, bytes, errors, short_ios are plain sums.
//   2. Clock. Every time is CLOCK_REALTIME ns on the coordinator's clock: run corrects each
//      agent's JobResult.start/end_realtime_ns by the agent's measured offset before merge sees
//      them. A job's end is the end of its measured phase, end_realtime_ns (start + runtime_ns
//      only when that is missing): block_io's last completion (end_fsync's included) or its
//      runtime's end, not the drain after it; a file-level family's last op of the result, so a
//      metadata phase's barrier wait is in no result's window. An agent's start is the earliest
//      start of its jobs, its end the latest end. first_start / last_start are the earliest /
//      latest agent start, first_end / last_end the earliest / latest agent end, computed from
//      the results (ScenarioResult's own fields are used only when no result carries times).
//      Agents listed in ScenarioResult::lost take part like the others with what they reported:
//      their start, and as their end the end of their last streamed interval (the partial
//      results' end) or of their results that arrived. So start_skew = last_start - first_start
//      covers every agent that started, and the stonewall window (rule 4) ends no later than a
//      lost agent's last report: it stays the time while every agent ran, over which every
//      agent's work is known, rather than mixing a window of the survivors with the lost agent's
//      work inside part of it. A lost agent that reported nothing has no result and no part.
//   3. Full figures: total ops and bytes / (last_end - first_start).
//   4. Stonewall figures: the common window is [last_start, first_end], when every agent ran.
//      Interval i of a job covers [start + i*interval_ns, start + (i+1)*interval_ns), the last
//      one clipped at the job's end. A job contributes the ops and bytes of each interval times
//      the fraction of that interval inside the window (a rate assumed uniform within an
//      interval: the error is at most one interval's worth at each edge of the window). A job
//      without an interval series counts as one interval [start, end). Stonewall rate = the sum
//      over agents and jobs of those amounts / window length. When the window is empty (some
//      agent ended before another started) the stonewall figures are 0 and `stonewall_valid` is
//      false.
//   5. Per-agent throughput: an agent's ops and bytes (all its jobs) / its measured time, the
//      length of the union of its jobs' measured windows [start, start + runtime_ns) (runtime_ns
//      is the measured phase on the agent's monotonic clock; end - start when it is 0; a job
//      without a start time counts as its runtime alone). Jobs that ran together (numjobs
//      clones, the jobs of one group) count once, which is the longest runtime when they start
//      together; jobs that ran one after another (fio stonewall groups, large_stream passes)
//      add their durations. Fairness over agents: min, max, and coefficient of variation =
//      population standard deviation / mean (0 when the mean is 0 or there is one agent).
//   6. Merged interval series: all jobs of all agents bucketed from the scenario's first start
//      with the scenario's interval length I (the first result's interval_ns): a job's interval
//      i goes wholly to bucket floor((job_start + i*I_job - first_start) / I). Bucket k thus
//      holds the intervals that began in [first_start + k*I, first_start + (k+1)*I); with a
//      start skew below I, an agent's interval lands in the bucket it mostly overlaps or the one
//      before (alignment error < one interval). Buckets sum ops, bytes, errors and the sparse
//      latency histograms (exactly).
//   7. Per-kind windows. When only some results carry an op kind (metadata's one result per
//      phase, small_files' write and read passes, large_stream's passes, fio stonewall groups),
//      rules 2-5 for that kind use the instants and measured windows of those results only, so a
//      phase's ops/s is over that phase's window across agents (mdtest's rate). With every result
//      carrying the kind, this is the scenario's window. OpFigures::full_window_ns holds it.
//   8. Summed over op kinds (io_ops / io_bytes and their stonewall shares): fsync is not an I/O
//      (fio counts no sync in read/write/trim IOPS), and kinds rated over different windows
//      (rule 7: metadata phases, passes, stonewall groups) are not added rate to rate: their
//      ops and bytes are added and divided by the scenario's window (rules 3 and 4). When every
//      kind ran over the scenario's window this equals the sum of the kinds' rates.
//   9. continue_on_error errors (fio's total_err and first_error): total_err is the sum over
//      every agent and job of the errors each counted; first_error is the first error of the
//      first result, in the scenario's result order (agents in the scenario's order, each
//      agent's jobs in job order), that counted one: results carry no time for their first
//      error, and this order is the one JobResult::Merge keeps, so fio-json agrees.
//
// Example:
//   ScenarioFigures figures = ComputeFigures(result);
//   if (const OpFigures* read = figures.Find(OpKind::kRead)) print(read->lat.Percentile(99));
#ifndef AZBENCH_COORDINATOR_MERGE_H_
#define AZBENCH_COORDINATOR_MERGE_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "common/job_result.h"
#include "common/op_kind.h"
#include "coordinator/scenario.h"

namespace azbench {

// One agent's share of one op kind (rule 5).
struct AgentThroughput {
  std::string agent_id;
  uint64_t ops = 0;
  uint64_t bytes = 0;
  uint64_t runtime_ns = 0;
  double iops = 0;
  double bytes_per_s = 0;
};

// Min, max and coefficient of variation of a per-agent figure.
struct Spread {
  double min = 0;
  double max = 0;
  double mean = 0;
  double cv = 0;  // population stdev / mean
};

// The spread of per-agent figures (min, max, mean, population CoV; cv 0 with fewer than two values
// or a zero mean).
Spread SpreadOf(const std::vector<double>& values);

struct OpFigures {
  OpKind kind = OpKind::kRead;
  uint64_t ops = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;
  uint64_t short_ios = 0;
  Histogram lat;  // merged (rule 1)
  Histogram slat;
  Histogram clat;

  // Rule 3: over [first_start, last_end] (rule 7: of the results carrying this kind).
  int64_t full_window_ns = 0;
  double full_iops = 0;
  double full_bytes_per_s = 0;
  // Rule 4: over [last_start, first_end] (rule 7: of the results carrying this kind); all 0 and
  // stonewall_valid false when that window is empty.
  bool stonewall_valid = false;
  double stonewall_ops = 0;  // fractional: pro-rata shares of edge intervals
  double stonewall_bytes = 0;
  double stonewall_iops = 0;
  double stonewall_bytes_per_s = 0;

  // Rule 5, in the order agents first appear in the results.
  std::vector<AgentThroughput> per_agent;
  Spread agent_bytes_per_s;
  Spread agent_iops;
};

struct ScenarioFigures {
  // Op kinds that completed or failed at least one op, in OpKind order.
  std::vector<OpFigures> ops;
  int agents = 0;       // distinct agents with results
  int agents_lost = 0;  // ScenarioResult::lost.size()
  // Rule 2 instants (coordinator clock, ns) and derived lengths.
  int64_t first_start_ns = 0;
  int64_t last_start_ns = 0;
  int64_t first_end_ns = 0;
  int64_t last_end_ns = 0;
  int64_t start_skew_ns = 0;
  int64_t full_window_ns = 0;       // last_end - first_start
  int64_t stonewall_window_ns = 0;  // first_end - last_start, 0 when negative
  bool stonewall_valid = false;
  // Rule 8: data ops (every op kind but fsync) over the scenario's windows, for one figure that
  // sums op kinds: ops and bytes over [first_start, last_end] (rule 3), and the pro-rata ops and
  // bytes inside [last_start, first_end] (rule 4, 0 when stonewall_valid is false).
  uint64_t io_ops = 0;
  uint64_t io_bytes = 0;
  double stonewall_io_ops = 0;
  double stonewall_io_bytes = 0;
  // Rule 6: index k covers [first_start + k*interval_ns, first_start + (k+1)*interval_ns).
  uint64_t interval_ns = 1'000'000'000;
  std::vector<IntervalStats> intervals;  // sorted by index, only buckets some job reported
  // Rule 9: whether any job set continue_on_error, and the errors they counted.
  bool continue_on_error = false;
  uint64_t total_err = 0;
  int first_error = 0;  // errno, 0 when none was counted

  const OpFigures* Find(OpKind kind) const;
  // Sums over op kinds, for one-line summaries.
  uint64_t TotalOps() const;
  uint64_t TotalBytes() const;
  uint64_t TotalErrors() const;
  double TotalFullIops() const;
  double TotalFullBytesPerSecond() const;
};

// All rules above over every agent's results.
ScenarioFigures ComputeFigures(const ScenarioResult& result);

// The same over the results of the agents `include` accepts (per-AZ or per-placement groups); the
// instants of rule 2 are then those of the included agents.
ScenarioFigures ComputeFigures(const ScenarioResult& result,
                               const std::function<bool(const std::string& agent_id)>& include);

// Rule 4 for one job, exposed for tests: the ops and bytes `job` did inside [window_start,
// window_end) (coordinator clock).
struct WindowAmount {
  double ops = 0;
  double bytes = 0;
};
WindowAmount AmountInWindow(const JobResult& job, OpKind kind, int64_t window_start_ns,
                            int64_t window_end_ns);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_MERGE_H_
