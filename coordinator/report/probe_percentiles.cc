#include "coordinator/report/probe_percentiles.h"

#include <algorithm>
#include <optional>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "common/units.h"
#include "common/visibility_summary.h"

namespace azbench {

ProbeTrials ProbeTrialsOf(const JobResult& result) {
  ProbeTrials t;
  const OpStats* stats = result.Find(OpKind::kProbe);
  if (stats == nullptr) return t;  // e.g. a client_to_client writer: its trials are writes
  for (const std::string& w : result.warnings) {
    if (std::optional<VisibilityCounts> c = ParseVisibilityCounts(w); c.has_value()) {
      t.timed_out += c->timed_out;
    } else if (std::optional<std::string> timeout = ParseVisibilityTimeout(w)) {
      absl::Duration d;
      if (absl::ParseDuration(*timeout, &d)) {
        t.timeout = *timeout;
        t.timeout_ns = absl::ToInt64Nanoseconds(d);
      }
    }
  }
  return t;
}

ProbeTrials ProbeTrialsOf(const ReportInput& input, const std::vector<size_t>& scenarios,
                          const std::string& agent_id) {
  ProbeTrials sum;
  for (size_t i : scenarios) {
    for (const AgentJobResult& r : input.scenarios[i].results) {
      if (!agent_id.empty() && r.agent_id != agent_id) continue;
      const ProbeTrials t = ProbeTrialsOf(r.result);
      sum.timed_out += t.timed_out;
      if (!t.timeout.empty() && (sum.timeout.empty() || t.timeout_ns < sum.timeout_ns)) {
        sum.timeout = t.timeout;
        sum.timeout_ns = t.timeout_ns;
      }
    }
  }
  return sum;
}

bool ProbePercentileCensored(const Histogram& visible, const ProbeTrials& trials, double p) {
  if (trials.timed_out == 0) return false;
  const double ended = static_cast<double>(visible.count() + trials.timed_out);
  // The timed-out trials are the slowest: they reach the p-th percentile when they are more than
  // the share of trials above it.
  return p >= 100 || static_cast<double>(trials.timed_out) > (100 - p) / 100 * ended;
}

std::optional<double> ProbePercentileNanos(const Histogram& visible, const ProbeTrials& trials,
                                           double p) {
  if (visible.count() == 0 || ProbePercentileCensored(visible, trials, p)) return std::nullopt;
  // The p-th percentile of all ended trials is a visible sample: the same rank among the visible.
  const double ended = static_cast<double>(visible.count() + trials.timed_out);
  const double p_visible = p * ended / static_cast<double>(visible.count());
  if (p_visible >= 100) return static_cast<double>(visible.max_ns());
  return static_cast<double>(visible.Percentile(p_visible));
}

std::string FormatProbePercentile(const Histogram& visible, const ProbeTrials& trials, double p) {
  if (visible.count() == 0 && trials.timed_out == 0) return "-";
  if (ProbePercentileCensored(visible, trials, p)) {
    return absl::StrCat(">= ", trials.timeout.empty() ? "timeout" : trials.timeout);
  }
  return FormatNanos(*ProbePercentileNanos(visible, trials, p));
}

ProbeFigure ProbePercentileFigure(const Histogram& visible, const ProbeTrials& trials, double p) {
  ProbeFigure figure;
  if (ProbePercentileCensored(visible, trials, p)) {
    figure.lower_bound = true;
    if (trials.timeout_ns > 0) figure.ns = static_cast<double>(trials.timeout_ns);
    return figure;
  }
  figure.ns = ProbePercentileNanos(visible, trials, p);
  return figure;
}

ProbeFigure ProbeMeanFigure(const Histogram& visible, const ProbeTrials& trials) {
  ProbeFigure figure;
  figure.lower_bound = trials.timed_out > 0;
  const double visible_count = static_cast<double>(visible.count());
  if (trials.timed_out > 0 && trials.timeout_ns > 0) {
    const double timed_out = static_cast<double>(trials.timed_out);
    figure.ns =
        (visible.mean_ns() * visible_count + timed_out * static_cast<double>(trials.timeout_ns)) /
        (visible_count + timed_out);
  } else if (visible.count() > 0) {
    figure.ns = visible.mean_ns();
  }
  return figure;
}

std::string FormatProbeFigure(const ProbeFigure& figure) {
  if (!figure.ns.has_value()) return figure.lower_bound ? ">= timeout" : "-";
  return absl::StrCat(figure.lower_bound ? ">= " : "", FormatNanos(*figure.ns));
}

}  // namespace azbench
