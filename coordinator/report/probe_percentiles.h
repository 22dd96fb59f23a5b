// Percentiles of a visibility probe's latency that count the trials that timed out. A probe's
// `probe` histogram holds only the trials that became visible; a timed-out trial is known only to
// have taken at least the probe's timeout (the agent states it among its warnings,
// common/visibility_summary.h). Over the trials that ended (visible or timed out; a failed trial
// has no latency), the p-th percentile is a visible sample when the timed-out share is at most the
// tail above p (1 - p/100), and otherwise only ">= <timeout>"; the max is ">= <timeout>" whenever
// any trial timed out. Older results without the timeout line read ">= timeout".
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

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_PROBE_PERCENTILES_H_
