// Keeps the coordinator's memory for interval series bounded per agent, not per job: an agent's
// interval latency histograms are folded onto one of its job results (the "carrier", the first
// result it sent) as results stream in, while every job keeps its own interval ops, bytes and
// errors and its exact totals.
//
// What changes (the README's results section says so): a non-carrier job's intervals keep their
// counts but have empty `lat` histograms; the carrier's interval i holds, in addition to its own,
// the latency samples every other job of the agent reported for the interval that began nearest to
// carrier_start + i * interval (jobs of one agent start together, so the shift is 0 unless a job
// waited for `stonewall`). What does not change: every total (ops, bytes, errors, lat/slat/clat
// histograms), every interval's ops/bytes/errors, and so merge rules 1-5 exactly; rule 6's merged
// series holds the same samples, each still within one interval of where it began.
//
// coordinator/run/agent_stream.cc folds streamed intervals as they arrive with FoldStreamedLatency,
// indexed by the instant each began, and moves the folded series onto the agent's earliest-starting
// result at the end (with a results database, slots 16 intervals old are written out as they age
// and the store attaches them to that result); FoldIntervalLatency does the same for whole results
// (bench/coordinator_cost).
//
// Example (on each result of one agent):
//   FoldIntervalLatency(agent_results.front(), new_result);
#ifndef AZBENCH_COORDINATOR_RUN_INTERVAL_FOLD_H_
#define AZBENCH_COORDINATOR_RUN_INTERVAL_FOLD_H_

#include <cstdint>
#include <map>

#include "common/job_result.h"

namespace azbench {

// Moves `job`'s interval latency histograms into `carrier` (same agent). Does nothing when the two
// have different interval lengths or either lacks a start time (then nothing is lost either).
void FoldIntervalLatency(JobResult& carrier, JobResult& job);

// The same for one streamed interval: moves `interval`'s latency histograms into `carrier_series`
// at `interval.index` (the caller sets it to the slot the interval began in), leaving its counts.
void FoldStreamedLatency(std::map<int64_t, IntervalStats>& carrier_series, IntervalStats& interval);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_INTERVAL_FOLD_H_
