// The pieces every section of the HTML report (html_report.h) uses: escaping, titles, which
// repeat a chart shows, and the latency percentile chart. Internal to the HTML report.
#ifndef AZBENCH_COORDINATOR_REPORT_HTML_COMMON_H_
#define AZBENCH_COORDINATOR_REPORT_HTML_COMMON_H_

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/svg_chart.h"

namespace azbench::html_internal {

// Text as HTML (svg_chart.h's EscapeXml).
std::string Esc(const std::string& text);

// "2026-01-31 12:00:00 UTC", or "-" for 0.
std::string FormatUtc(int64_t ns);

// "workload (axis=value, ...)".
std::string CellTitle(const ReportCell& cell);

// The repeat whose interval series is drawn: the one `keep` shows (the last with keep all; the
// median by full throughput, bytes or else ops, with keep median).
size_t ShownRepeat(const TargetColumn& column, KeepPolicy keep,
                   const std::vector<ScenarioFigures>& figures);

// An empty latency percentile chart: log latency against a "nines" percentile axis.
LineChart PercentileChart(const std::string& title);

// Points of a latency percentile curve: p = 100 (1 - 10^-t) for t = 0 .. nines in steps of 0.05,
// where nines = log10 of the sample count rounded down, between 2 and 4 (the tail beyond one
// sample in 10^nines says nothing more).
ChartSeries PercentileSeries(const std::string& name, const Histogram& h, int nines);
int NinesFor(uint64_t count);

// Appends <figure> with the chart and its caption.
void Figure(const LineChart& chart, const std::string& caption, std::string& out);

// Throughput-over-time charts draw at most this many agents (html_report.h AgentThroughputChart).
inline constexpr size_t kMaxAgentLines = 16;

}  // namespace azbench::html_internal

#endif  // AZBENCH_COORDINATOR_REPORT_HTML_COMMON_H_
