#include "agent/workloads/visibility_result.h"

#include <cerrno>

#include "absl/strings/str_cat.h"

namespace azbench {

std::vector<OpRecord> AddVisibilityToJobResult(const VisibilityResult& result, JobResult* job) {
  OpStats& stats = job->Stats(OpKind::kProbe);
  std::vector<OpRecord> records;
  absl::Time first = absl::InfiniteFuture();
  for (const TrialOutcome& t : result.trials) {
    if (t.state != TrialState::kFailed) first = std::min(first, t.started);
  }
  for (const TrialOutcome& t : result.trials) {
    OpRecord r;
    r.kind = OpKind::kProbe;
    if (t.state != TrialState::kFailed && first != absl::InfiniteFuture()) {
      r.start_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(t.started - first));
    }
    if (t.state == TrialState::kVisible) {
      r.latency_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(t.latency));
      stats.lat.Record(r.latency_ns);
      ++stats.ops;
    } else {
      ++stats.errors;
      r.error = t.state == TrialState::kTimedOut ? ETIMEDOUT : EIO;
      r.latency_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(t.last_miss_latency));
    }
    records.push_back(r);
  }
  job->warnings.push_back(
      absl::StrCat("visibility ", result.probe, ": ", result.visible_count(), " of ",
                   result.trials.size(), " trials visible, ", result.timed_out_count(),
                   " timed out, ", result.failed_count(), " failed; latency resolution ",
                   absl::FormatDuration(result.resolution), " (the poll interval)"));
  for (const TrialOutcome& t : result.trials) {
    if (!t.error.empty()) {
      job->warnings.push_back(absl::StrCat("visibility ", result.probe, " trial ", t.index, " ",
                                           TrialStateName(t.state), ": ", t.error));
    }
  }
  for (const ProbeEvent& e : result.timeline) {
    job->warnings.push_back(absl::StrCat("visibility ", result.probe, " trial ", e.trial, " t",
                                         e.offset >= absl::ZeroDuration() ? "+" : "",
                                         absl::FormatDuration(e.offset), " ", e.kind, ": ",
                                         e.detail));
  }
  return records;
}

}  // namespace azbench
