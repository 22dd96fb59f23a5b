// The HTML report's section per workload and matrix cell: comparison table, notes, large_stream
// passes, latency percentile charts (per target and per placement) and throughput over time.
#include "coordinator/report/html_sections.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/stats.h"
#include "common/units.h"
#include "coordinator/report/cell_notes.h"
#include "coordinator/report/comparison_rows.h"
#include "coordinator/report/html_common.h"
#include "coordinator/report/stream_passes.h"

namespace azbench::html_internal {

namespace {

void RenderComparisonTable(const ReportInput& input,
                           const std::vector<const TargetColumn*>& columns, std::string& out) {
  std::vector<std::string> names;
  for (const TargetColumn* c : columns) names.push_back(c->target);
  out += "<div class=\"table-wrap\"><table class=\"comparison\"><thead><tr><th>metric</th>";
  for (const TargetColumn* c : columns) {
    absl::StrAppend(&out, "<th>", Esc(c->target), c->partial ? " (partial)" : "", "</th>");
  }
  out += "<th>fastest</th></tr></thead><tbody>";
  for (const ComparisonRow& row : BuildComparisonRows(columns, &input)) {
    int best = -1;
    std::string fastest;
    if (row.compare)
      std::tie(best, fastest) = FastestTarget(names, row.values, row.higher_is_better);
    absl::StrAppend(&out, "<tr><th scope=\"row\">", Esc(row.label), "</th>");
    for (size_t i = 0; i < row.values.size(); ++i) {
      const ComparisonValue& v = row.values[i];
      absl::StrAppend(&out, "<td class=\"num", static_cast<int>(i) == best ? " best" : "", "\">",
                      v.present ? Esc(v.text) : "-", "</td>");
    }
    absl::StrAppend(&out, "<td class=\"fastest\">", Esc(fastest), "</td></tr>");
  }
  out += "</tbody></table></div>";
}

// Placement of an agent relative to a target whose server AZ the campaign names: "same-az" when
// the agent's AZ name or id is that AZ, "cross-az" when the agent's AZ is known and differs, ""
// otherwise.
std::string PlacementOf(const AgentInfo* agent, const CampaignTarget& target) {
  if (agent == nullptr || target.server_az.empty()) return "";
  if (agent->availability_zone.empty() && agent->availability_zone_id.empty()) return "";
  return agent->availability_zone == target.server_az ||
                 agent->availability_zone_id == target.server_az
             ? "same-az"
             : "cross-az";
}

// Latency of `kind` merged over the agents of each placement (same-az first), over the repeats
// the column's figures come from (all of them with keep all, else the one shown). Empty unless the
// target's server_az is known and its agents were in more than one placement.
std::vector<std::pair<std::string, Histogram>> PlacementHistograms(
    const ReportInput& input, const HtmlReportContext& context,
    const std::vector<ScenarioFigures>& figures, const TargetColumn& column, OpKind kind) {
  if (!context.campaign) return {};
  const CampaignTarget* target = nullptr;
  for (const CampaignTarget& t : context.campaign->targets) {
    if (t.name == column.target) target = &t;
  }
  if (target == nullptr || target->server_az.empty()) return {};
  const std::vector<size_t> used =
      input.keep == KeepPolicy::kAll
          ? column.repeats
          : std::vector<size_t>{ShownRepeat(column, input.keep, figures)};
  std::vector<std::pair<std::string, Histogram>> groups = {{"same-az", Histogram()},
                                                           {"cross-az", Histogram()}};
  for (size_t i : used) {
    for (const AgentJobResult& r : input.scenarios[i].results) {
      const AgentInfo* agent = nullptr;
      for (const AgentInfo& a : input.agents) {
        if (a.agent_id == r.agent_id) agent = &a;
      }
      const std::string placement = PlacementOf(agent, *target);
      const OpStats* stats = r.result.Find(kind);
      if (placement.empty() || stats == nullptr) continue;
      (placement == "same-az" ? groups[0] : groups[1]).second.Merge(stats->lat);
    }
  }
  if (groups[0].second.count() == 0 || groups[1].second.count() == 0) return {};
  return groups;
}

void CellNotes(const ReportInput& input, const std::vector<ScenarioFigures>& figures,
               const ReportCell& cell, std::string& out) {
  const std::vector<CellNote> notes = BuildCellNotes(input, figures, cell);
  if (notes.empty()) return;
  out += "<ul class=\"notes\">";
  for (const CellNote& note : notes) {
    absl::StrAppend(
        &out, "<li class=\"",
        note.warning ? "warning" : absl::StrCat("status-", ScenarioStatusName(note.status)), "\">",
        Esc(note.text), "</li>");
  }
  out += "</ul>";
}

// large_stream: the MiB/s per pass table (stream_passes.h) and a chart of it, one line per target
// and repeat (the all-agents figures, or the one agent's). False when the cell streamed nothing.
bool StreamPassesBlock(const ReportInput& input, const ReportCell& cell, std::string& table,
                       LineChart& chart) {
  const StreamPassTable passes = BuildStreamPassTable(input, cell);
  if (passes.rows.empty()) return false;
  table =
      "<h3>MiB/s per pass</h3><div class=\"table-wrap\"><table class=\"passes\"><thead><tr>"
      "<th>target</th><th>repeat</th><th>job</th><th>agent</th>";
  for (int p = 1; p <= passes.passes; ++p) absl::StrAppend(&table, "<th>pass ", p, "</th>");
  table += "<th>mean</th></tr></thead><tbody>";
  std::set<std::pair<std::string, int>> repeats;  // (target, repeat)
  for (const StreamPassRow& row : passes.rows) repeats.insert({row.target, row.repeat});
  std::map<std::string, int> repeats_per_target;
  for (const auto& [target, repeat] : repeats) ++repeats_per_target[target];
  chart.title = absl::StrCat(cell.workload, ": MiB/s per pass");
  chart.x = MakeAxis("pass", AxisKind::kLinear, nullptr, false);
  chart.y = MakeAxis("MiB/s", AxisKind::kLinear, FormatSiShort, true);
  for (int p = 1; p <= passes.passes; ++p) chart.x.ticks.push_back(p);
  chart.x.min = 0.5;
  chart.x.max = passes.passes + 0.5;
  for (const StreamPassRow& row : passes.rows) {
    absl::StrAppend(&table, "<tr", row.aggregate ? " class=\"all-agents\"" : "", "><td>",
                    Esc(row.target), "</td><td class=\"num\">", row.repeat, "</td><td>",
                    Esc(row.job), "</td><td>", row.aggregate ? "<b>all agents</b>" : Esc(row.who),
                    "</td>");
    for (const auto& v : row.mib_s) {
      absl::StrAppend(&table, "<td class=\"num\">", FormatPassMibPerSecond(v), "</td>");
    }
    absl::StrAppend(&table, "<td class=\"num\"><b>", FormatPassMibPerSecond(row.mean_mib_s),
                    "</b></td></tr>");
    // The chart's line: the all-agents row, or the agent's when it ran alone.
    const bool alone =
        std::count_if(passes.rows.begin(), passes.rows.end(), [&](const auto& r) {
          return r.target == row.target && r.repeat == row.repeat && r.job == row.job;
        }) == 1;
    if (!row.aggregate && !alone) continue;
    ChartSeries series{row.target, {}};
    if (repeats_per_target[row.target] > 1) absl::StrAppend(&series.name, " #", row.repeat);
    for (size_t p = 0; p < row.mib_s.size(); ++p) {
      if (row.mib_s[p]) series.points.emplace_back(static_cast<double>(p + 1), *row.mib_s[p]);
    }
    chart.series.push_back(std::move(series));
  }
  table +=
      "</tbody></table></div><p class=\"note\">Per agent: the pass's bytes divided by its "
      "runtime (dd's figure). <b>mean</b>: the mean of the passes. <b>all agents</b>: the bytes "
      "of every agent's pass divided by that pass's window, from the first agent's start to the "
      "last agent's end.</p>";
  return true;
}

}  // namespace

void CellSection(const ReportInput& input, const HtmlReportContext& context,
                 const std::vector<ScenarioFigures>& figures, const ReportCell& cell, size_t index,
                 std::string& out) {
  absl::StrAppend(&out, "<section id=\"cell-", index, "\" class=\"cell\"><h2>",
                  Esc(CellTitle(cell)), "</h2>");
  std::vector<const TargetColumn*> columns;
  for (const TargetColumn& c : cell.targets) {
    if (!c.repeats.empty()) columns.push_back(&c);
  }
  if (columns.empty()) {
    out += "<p>No results.</p>";
    CellNotes(input, figures, cell, out);
    out += "</section>";
    return;
  }
  RenderComparisonTable(input, columns, out);
  size_t most_repeats = 0;
  for (const TargetColumn* c : columns) most_repeats = std::max(most_repeats, c->repeats.size());
  if (most_repeats > 1) {
    std::string text;
    switch (input.keep) {
      case KeepPolicy::kAll:
        text = absl::StrCat("IOPS and MiB/s: mean of up to ", most_repeats,
                            " repeats (keep: all); latencies from the histograms of all repeats "
                            "merged. [min-max] over repeats.");
        break;
      case KeepPolicy::kLast:
        text = absl::StrCat("Figures of the last of up to ", most_repeats,
                            " repeats (keep: last). [min-max] over repeats.");
        break;
      case KeepPolicy::kMedian:
        text = absl::StrCat("Figures of the median of up to ", most_repeats,
                            " repeats by throughput (keep: median). [min-max] over repeats.");
        break;
    }
    absl::StrAppend(&out, "<p class=\"note\">", Esc(text), "</p>");
  }
  CellNotes(input, figures, cell, out);
  std::string passes_table;
  LineChart passes_chart;
  const bool streamed = StreamPassesBlock(input, cell, passes_table, passes_chart);
  out += passes_table;

  out += "<div class=\"charts\">";
  if (streamed) {
    Figure(passes_chart, "large_stream: MiB/s of each pass, all agents together.", out);
  }
  for (OpKind kind : OpKindsOf(columns)) {
    LineChart chart =
        PercentileChart(absl::StrCat(std::string(OpKindName(kind)), " latency percentiles"));
    uint64_t most = 0;
    for (const TargetColumn* c : columns) {
      if (const KeptOp* op = c->Find(kind)) most = std::max(most, op->lat.count());
    }
    const int nines = NinesFor(most);
    bool by_placement = false;
    for (const TargetColumn* c : columns) {
      const KeptOp* op = c->Find(kind);
      chart.series.push_back(PercentileSeries(c->target, op ? op->lat : Histogram(), nines));
      const std::vector<std::pair<std::string, Histogram>> groups =
          PlacementHistograms(input, context, figures, *c, kind);
      by_placement |= !groups.empty();
      for (const auto& [placement, h] : groups) {
        chart.series.push_back(
            PercentileSeries(absl::StrCat(c->target, " (", placement, ")"), h, nines));
      }
    }
    Figure(chart,
           absl::StrCat("Total latency (lat) merged over agents",
                        by_placement ? ", and over the agents of each placement" : "",
                        "; each step right is ten times rarer."),
           out);
  }
  for (const TargetColumn* c : columns) {
    const size_t shown = ShownRepeat(*c, input.keep, figures);
    const bool bytes = figures[shown].TotalBytes() > 0;
    size_t total = 0;
    LineChart chart =
        AgentThroughputChart(c->target, input.scenarios[shown], figures[shown], bytes, &total);
    const std::string agents =
        total == chart.series.size()
            ? absl::StrCat(total, total == 1 ? " agent" : " agents")
            : absl::StrCat(total, " agents (the ", kMaxAgentLines / 2, " with the least and the ",
                           kMaxAgentLines / 2, " with the most work drawn)");
    Figure(chart,
           absl::StrCat("Repeat ", input.scenarios[shown].scenario.repeat, ", ", agents,
                        ", start skew ",
                        FormatNanos(static_cast<double>(figures[shown].start_skew_ns)),
                        ". Per interval, on the coordinator's clock."),
           out);
  }
  out += "</div></section>";
}

}  // namespace azbench::html_internal
