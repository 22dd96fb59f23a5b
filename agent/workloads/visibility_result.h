// A visibility probe's outcome in azbench's common result shape, so the runner can stream and the
// coordinator merge/store it like any job: every trial that became visible adds its latency to the
// `probe` op kind's histogram (ops), every timed-out or failed trial counts as an error of that
// kind with a warning saying how many and why (never dropped), and each trial is one raw OpRecord
// (start = trial start since the first trial, latency; error ETIMEDOUT for a timeout, EIO for a
// failure) for the op_log path. The resolution (poll interval) and the timeline go into warnings
// until results carry them natively. For the client_to_client writer/reader halves the latencies
// are measured from the common scheduled instant (writer: until the write returned; reader: until
// it saw the file); the visibility latency of a trial is reader minus writer, which the coordinator
// computes from the two agents' records of the same trial index.
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_RESULT_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_RESULT_H_

#include <vector>

#include "agent/workloads/visibility.h"
#include "common/job_result.h"

namespace azbench {

// Adds `result` to `job` (OpKind::kProbe) and returns the per-trial raw records.
std::vector<OpRecord> AddVisibilityToJobResult(const VisibilityResult& result, JobResult* job);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_RESULT_H_
