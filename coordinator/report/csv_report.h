// CSV report: one row per scenario x op kind (a scenario has one target), every repeat, whatever
// the campaign's keep (keep only shapes the Markdown and terminal tables).
//
// Columns: scenario_key, target, workload, one column per matrix axis (the union of the axes of all
// scenarios, in first-seen order; empty where a scenario has no such axis), repeat, status, op,
// ops, iops, mib_s, mean_us, p50_us, p90_us, p99_us, p99_9_us, max_us, errors, then stonewall_iops,
// stonewall_mib_s, agents, start_skew_us, then for large_stream scenarios (on the read or write
// row; stream_passes.h) pass_mib_s (all agents, per pass, ";"-separated in pass order, empty for a
// missing pass), pass_mean_mib_s (their mean) and pass_mib_s_by_agent ("local-1=512.000;498.000
// local-2=..."); with several large_stream jobs each value is prefixed "job:" ("job/" before an
// agent), then mean_is_lower_bound, p50_is_lower_bound, p90_is_lower_bound, p99_is_lower_bound,
// p99_9_is_lower_bound, max_is_lower_bound ("true" / "false" beside each latency figure, empty
// where the figure is), then warnings (the distinct warnings of the scenario's jobs, as the
// Markdown notes list them, joined by " | "; on every row of the scenario), then total_err and
// first_error (merge.h rule 9, the scenario's, on each of its rows; empty unless a job set
// continue_on_error, as fio writes them only then). iops and mib_s are full
// figures (merge.h rule 3); latencies are total latency from the merged histogram, in microseconds
// with 3 decimals. A visibility probe's latencies (op probe) are over every trial that ended
// (probe_percentiles.h): a percentile the timed-out trials reach holds the timeout and its
// *_is_lower_bound is "true" (the figure is at least that), and so does the mean (the timed-out
// trials counted at the timeout) whenever a trial timed out; a lower bound from results that stated
// no timeout is empty with "true". Every other figure's flag is "false". A scenario with no op kind
// at all (failed, skipped) has one row with op and the figures empty. Quoting as RFC 4180: a field
// containing a comma, a double quote, CR or LF, or starting or ending with a space, is enclosed in
// double quotes with inner quotes doubled. Lines end with "\n".
#ifndef AZBENCH_COORDINATOR_REPORT_CSV_REPORT_H_
#define AZBENCH_COORDINATOR_REPORT_CSV_REPORT_H_

#include <string>
#include <string_view>

#include "coordinator/report/report_input.h"

namespace azbench {

std::string RenderCsvReport(const ReportInput& input);

// One field, quoted when needed (see above).
std::string CsvField(std::string_view field);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_CSV_REPORT_H_
