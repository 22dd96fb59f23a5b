// Percentiles of a visibility probe's latency that count the trials that timed out. A probe's
// `probe` histogram holds only the trials that became visible; a timed-out trial is known only to
// have taken at least the probe's timeout (the agent states it among its warnings,
// common/visibility_summary.h). Over the trials that ended (visible or timed out; a failed trial
// has no latency), the p-th percentile is a visible sample when the timed-out share is at most the
// tail above p (1 - p/100), and otherwise only ">= <timeout>"; the max is ">= <timeout>" whenever
// any trial timed out. Older results without the timeout line read ">= timeout". The mean is over
// the same trials, a timed-out one counted at the timeout: exact when none timed out, otherwise a
// lower bound, shown ">= <mean>" (the histogram's own mean covers the visible trials only).
//
//   ProbeTrials t = ProbeTrialsOf(input, column.kept, "");
//   std::string p99 = FormatProbePercentile(stats.lat, t, 99);  // "1.2s" or ">= 3m"
#ifndef AZBENCH_COORDINATOR_REPORT_PROBE_PERCENTILES_H_
#define AZBENCH_COORDINATOR_REPORT_PROBE_PERCENTILES_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "coordinator/report/report_input.h"

namespace azbench {

struct ProbeTrials {
  uint64_t timed_out = 0;
  // The shortest timeout the results stated ("3m"), so ">=" holds for every timed-out trial; ""
  // when none stated one.
  std::string timeout;
  int64_t timeout_ns = 0;
};

// Sums the timed-out trials of the results with `probe` samples or errors in the scenarios
// `scenarios` (indices into input.scenarios), of agent `agent_id` only unless it is "".
ProbeTrials ProbeTrialsOf(const ReportInput& input, const std::vector<size_t>& scenarios,
                          const std::string& agent_id);
ProbeTrials ProbeTrialsOf(const JobResult& result);

// The p-th percentile (0 < p <= 100; 100 = max) over the trials that ended, as text: a latency
// (FormatNanos), ">= <timeout>", or "-" when there is neither a sample nor a timed-out trial.
std::string FormatProbePercentile(const Histogram& visible, const ProbeTrials& trials, double p);
// Whether that percentile is only a lower bound (the timed-out trials reach it).
bool ProbePercentileCensored(const Histogram& visible, const ProbeTrials& trials, double p);
// That percentile in nanoseconds when it is a visible sample; nullopt when it is censored or there
// are no visible samples.
std::optional<double> ProbePercentileNanos(const Histogram& visible, const ProbeTrials& trials,
                                           double p);

// A probe figure over the trials that ended, for the machine-readable reports: `ns` is the value
// or, when `lower_bound`, what the true value is at least (the timeout for a percentile the
// timed-out trials reach); nullopt when there is no number (no trial ended, or a lower bound from
// results that stated no timeout).
struct ProbeFigure {
  std::optional<double> ns;
  bool lower_bound = false;
};
// p as above (0 < p <= 100; 100 = max).
ProbeFigure ProbePercentileFigure(const Histogram& visible, const ProbeTrials& trials, double p);
// The mean over the trials that ended, each timed-out trial counted at the timeout (with no stated
// timeout: the visible trials' mean, still a lower bound); a lower bound whenever a trial timed
// out.
ProbeFigure ProbeMeanFigure(const Histogram& visible, const ProbeTrials& trials);
// As text: "1.2s", ">= 3m" ("-" when there is no figure; ">= timeout" for a lower bound without a
// number).
std::string FormatProbeFigure(const ProbeFigure& figure);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_PROBE_PERCENTILES_H_
