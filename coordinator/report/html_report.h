// Self-contained HTML report: one file with inline CSS and inline SVG charts, no scripts and no
// network references, readable on a phone (tables scroll inside their box, charts scale to the
// screen width) and printable (navigation hidden, charts kept whole on a page).
//
// Sections, each present only when there is something to show:
//   - campaign: file, times, repeats policy; fleet (agents, AZs, instance types, clock offsets);
//     targets (kind, path, server AZ, labels) from the stored campaign YAML, and each target's
//     mount with its options as the agents' Describe saw it (PlacementEvidence::mount; every
//     distinct one, with the agents that saw it when they differ).
//   - placement: HtmlReportContext::placement rows (who reached which target from where, and the
//     evidence), one column per distinct fact name; when the context has none, the stored
//     evidence of the scenarios (PlacementEvidenceRows).
//   - one section per workload and matrix cell: the comparison table of the Markdown report (the
//     same rows and the same "fastest" rule: best target and its ratio to the runner-up), notes on
//     partial/failed/skipped scenarios and warnings; a latency percentile chart per op kind (log
//     latency against a "nines" percentile axis 0..99.99, one line per target, from the merged
//     histograms after `keep`; plus one line per placement, "efs (same-az)" and "efs (cross-az)",
//     when the campaign names the target's server_az and its agents were on both sides: an agent
//     is same-az when its AZ name or id equals server_az); a throughput-over-time chart per
//     target with one line per agent
//     (from the interval series of the repeat shown: the last one with keep all), plotted on the
//     agents' own corrected clocks so start skew and stragglers are visible.
//   - sweeps: for every matrix axis that is a job option (iodepth, numjobs, bs, size, ...) with two
//     or more values, per workload and per combination of the other axes: throughput and p99
//     latency against the swept value, one line per target.
//   - scaling: for the `nodes` / `nodes_per_az` axes, the rows of scaling_rows.h: aggregate
//     throughput and efficiency against the agent count that really ran; efficiency(N) =
//     aggregate(N) / (N x aggregate(1)) with the one-agent run of the same target and other matrix
//     values, in percent (100% = perfect linear scaling); "no N=1 run" without one.
//   - visibility probes: for scenarios whose jobs report op kind `probe`, the latency distribution
//     per probe (job name) and reader (agent), as a percentile chart and a table.
//
// Code: html_report.cc renders the page; each section has its own file (html_sections.h), the
// pieces they share are in html_common.h, and MakeHtmlReportContext is in html_report_context.cc.
//
// Example:
//   HtmlReportContext context;
//   context.campaign = ParseCampaign(record.campaign_yaml, record.file).value();
//   std::string html = RenderHtmlReport(input, context);
#ifndef AZBENCH_COORDINATOR_REPORT_HTML_REPORT_H_
#define AZBENCH_COORDINATOR_REPORT_HTML_REPORT_H_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "coordinator/campaign/campaign.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/svg_chart.h"
#include "coordinator/store/store.h"

namespace azbench {

// One agent's view of one target and how its placement was established. `facts` are shown as
// columns in order of first appearance ("agent AZ", "server AZ", "server address", "mount
// options", "evidence", ...).
struct PlacementEvidenceRow {
  std::string agent_id;
  std::string target;
  std::string placement;  // "same-az", "cross-az", "unknown", ...
  std::vector<std::pair<std::string, std::string>> facts;
};

// What the database holds beside the scenario results.
struct HtmlReportContext {
  std::optional<Campaign> campaign;  // parsed from the stored YAML, when it still parses
  std::string campaign_file;
  int64_t started_at_ns = 0;
  int64_t finished_at_ns = 0;  // 0: unfinished
  std::string azbench_version;
  std::vector<PlacementEvidenceRow> placement;
  bool campaign_read_leniently = false;
};

// The context of a stored campaign: its file, times and version, and the campaign YAML parsed. When
// the YAML no longer parses where the report is made (a fio_job file that is not there), targets,
// matrix, repeats and keep are read from the YAML leniently and `campaign_read_leniently` is set.
HtmlReportContext MakeHtmlReportContext(const CampaignRecord& record);

// The scenarios' placement evidence (placement_report.h DistinctPlacementEvidence) as rows with
// the facts "agent AZ (source)", "server address (how found)", "subnet (source)", "server AZ
// (source)", "mount and options" and "reason".
std::vector<PlacementEvidenceRow> PlacementEvidenceRows(const ReportInput& input);

std::string RenderHtmlReport(const ReportInput& input, const HtmlReportContext& context);

// The throughput-over-time chart of one scenario (one line per agent, see html_report.cc), exposed
// for tests. `agents_total` receives the number of agents before thinning to the slowest and
// fastest.
LineChart AgentThroughputChart(const std::string& target, const ScenarioResult& result,
                               const ScenarioFigures& figures, bool bytes, size_t* agents_total);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_HTML_REPORT_H_
