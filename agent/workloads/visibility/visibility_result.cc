#include "agent/workloads/visibility/visibility_result.h"

#include <algorithm>
#include <cerrno>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/visibility_summary.h"

namespace azbench {

std::vector<OpRecord> AddVisibilityToJobResult(const VisibilityResult& result, absl::Time job_start,
                                               JobResult* job) {
  OpStats& stats = job->Stats(OpKind::kProbe);
  std::vector<OpRecord> records;
  for (const TrialOutcome& t : result.trials) {
    OpRecord r;
    r.kind = OpKind::kProbe;
    // A trial that failed before it started has no start (0).
    if (t.started > job_start) {
      r.start_ns = static_cast<uint64_t>(absl::ToInt64Nanoseconds(t.started - job_start));
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
  // The resolution as measured: a visible trial's latency over-states the truth by at most the gap
  // between its last miss (or its start, when the first poll saw it) and its first sighting, which
  // the poll's own stat/HeadObject time and the serial polling of overlapping trials stretch
  // beyond the poll interval.
  std::optional<absl::Duration> gap;
  for (const TrialOutcome& t : result.trials) {
    if (t.state != TrialState::kVisible || t.polls == 0) continue;  // 0: a writer's trial
    const absl::Duration g = t.polls > 1 ? t.latency - t.last_miss_latency : t.latency;
    gap = gap.has_value() ? std::max(*gap, g) : g;
  }
  job->warnings.push_back(FormatVisibilityCounts(
      {.probe = result.probe,
       .visible = static_cast<uint64_t>(result.visible_count()),
       .trials = result.trials.size(),
       .timed_out = static_cast<uint64_t>(result.timed_out_count()),
       .failed = static_cast<uint64_t>(result.failed_count()),
       .resolution = absl::FormatDuration(gap.value_or(result.resolution)),
       .poll_interval = gap.has_value() ? absl::FormatDuration(result.resolution) : ""}));
  // A latency is the effect plus up to one poll interval of waiting: when the median is within
  // two intervals, the figure is mostly the polling.
  std::vector<absl::Duration> visible;
  for (const TrialOutcome& t : result.trials) {
    if (t.state == TrialState::kVisible && t.polls > 0) visible.push_back(t.latency);
  }
  if (!visible.empty() && result.resolution > absl::ZeroDuration()) {
    auto middle = visible.begin() + static_cast<std::ptrdiff_t>((visible.size() - 1) / 2);
    std::nth_element(visible.begin(), middle, visible.end());
    if (*middle < 2 * result.resolution) {
      job->warnings.push_back(absl::StrCat(
          "visibility ", result.probe, ": the poll interval (",
          absl::FormatDuration(result.resolution), ") is coarse against the median latency (",
          absl::FormatDuration(*middle),
          "): most of each figure is the wait for the next poll; use a poll interval of at most "
          "a tenth of the effect"));
    }
  }
  if (result.timeout > absl::ZeroDuration()) {
    job->warnings.push_back(
        FormatVisibilityTimeout(result.probe, absl::FormatDuration(result.timeout)));
  }
  if (result.seen_before_write > 0) {
    job->warnings.push_back(FormatSeenBeforeWrite(result.probe, result.seen_before_write));
  }
  if (!result.cleanup_failures.empty()) {
    job->warnings.push_back(
        absl::StrCat("visibility ", result.probe, ": cleanup left ", result.cleanup_failures));
  }
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
