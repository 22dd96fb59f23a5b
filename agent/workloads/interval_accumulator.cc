#include "agent/workloads/interval_accumulator.h"

namespace azbench {

void IntervalAccumulator::Activate(OpKind kind, JobResult& result) {
  std::unique_ptr<Kind>& k = kinds_[static_cast<int>(kind)];
  if (!k) k = std::make_unique<Kind>();
  result.Stats(kind);
}

bool IntervalAccumulator::Close(JobResult& result, IntervalStats& interval) {
  bool any = false;
  for (int k = 0; k < kOpKindCount; ++k) {
    if (!kinds_[k]) continue;
    Kind& acc = *kinds_[k];
    OpStats& total = *result.by_kind[k];
    IntervalOpStats& out = interval.by_kind[k];
    out.ops = acc.ops;
    out.bytes = acc.bytes;
    out.errors = acc.errors;
    total.ops += acc.ops;
    total.bytes += acc.bytes;
    total.errors += acc.errors;
    if (acc.lat.count() > 0) {
      out.lat = acc.lat.ToSparse();
      total.lat.Merge(acc.lat);
      acc.lat.Reset();
    }
    any = any || acc.ops > 0 || acc.errors > 0;
    acc.ops = acc.bytes = acc.errors = 0;
  }
  return any;
}

}  // namespace azbench
