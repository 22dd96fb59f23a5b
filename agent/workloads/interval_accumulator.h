// The interval in progress of one job clone, per op kind: ops, bytes, errors and a latency
// histogram. Shared by block_io's job loop and the file-level families' OpRecorder, so both close
// intervals by the same rule: at each interval boundary the counts move into the interval's
// IntervalStats (latency as a sparse histogram) and are added to the job's totals, then reset.
//
//   IntervalAccumulator acc;  acc.Activate(OpKind::kRead);
//   IntervalAccumulator::Kind& k = acc.kind(OpKind::kRead);  ++k.ops;  k.lat.Record(ns);
//   IntervalStats interval;  const bool any = acc.Close(result, interval);
#ifndef AZBENCH_AGENT_WORKLOADS_INTERVAL_ACCUMULATOR_H_
#define AZBENCH_AGENT_WORKLOADS_INTERVAL_ACCUMULATOR_H_

#include <cstdint>
#include <memory>

#include "common/histogram.h"
#include "common/job_result.h"

namespace azbench {

class IntervalAccumulator {
 public:
  struct Kind {
    Histogram lat;
    uint64_t ops = 0;
    uint64_t bytes = 0;
    uint64_t errors = 0;
  };

  // Makes `kind` counted (an inactive kind must not be used through kind()) and present in
  // `result` even if none of its ops completes. Keeps what an active kind already holds.
  void Activate(OpKind kind, JobResult& result);
  bool active(OpKind kind) const { return kinds_[static_cast<int>(kind)] != nullptr; }
  // The active kind's accumulator: the hot path, no check.
  Kind& kind(OpKind kind) { return *kinds_[static_cast<int>(kind)]; }

  // Moves every active kind's counts into `interval.by_kind` and adds them to `result`'s totals
  // (ops, bytes, errors, lat merged), then resets them. True when the interval had an op or an
  // error. `interval.index` is the caller's.
  bool Close(JobResult& result, IntervalStats& interval);

 private:
  std::unique_ptr<Kind> kinds_[kOpKindCount];
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_INTERVAL_ACCUMULATOR_H_
