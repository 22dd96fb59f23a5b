// A visibility probe's outcome in azbench's common result shape, so the runner can stream and the
// coordinator merge/store it like any job: every trial that became visible adds its latency to the
// `probe` op kind's histogram (ops), every timed-out or failed trial counts as an error of that
// kind with a warning saying how many and why (never dropped), and each trial is one raw OpRecord
// for the op_log path: row i is trial i, start_ns = the trial's start (TrialOutcome::started) since
// `job_start` on the same realtime clock -- the caller sets JobResult::start_realtime_ns to
// job_start, so start_realtime_ns + start_ns (+ latency_ns) are instants on the agent's clock,
// which the coordinator corrects to its own --, latency_ns its latency (error ETIMEDOUT for a
// timeout, with the last miss as latency; EIO for a failure). The resolution (the longest gap
// measured between a visible trial's last miss and its first sighting, with the poll interval; the
// poll interval alone when nothing was seen), the timeout and the timeline go into warnings until
// results carry them natively. For the client_to_client
// halves both agents' trials start at the common scheduled instants: the writer's latency is its
// write time (started -> the write returned), a reader's runs from the scheduled instant to the
// first poll that saw the file; the coordinator turns the readers' into visibility latencies
// counted from the writer's completion (coordinator/visibility_join.h).
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_RESULT_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_RESULT_H_

#include <vector>

#include "absl/time/time.h"
#include "agent/workloads/visibility/visibility.h"
#include "common/job_result.h"

namespace azbench {

// Adds `result` to `job` (OpKind::kProbe) and returns the per-trial raw records.
std::vector<OpRecord> AddVisibilityToJobResult(const VisibilityResult& result, absl::Time job_start,
                                               JobResult* job);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_RESULT_H_
