#include "coordinator/report/html_report.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <map>
#include <set>
#include <tuple>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/time.h"
#include "common/stats.h"
#include "common/units.h"
#include "coordinator/report/comparison_rows.h"
#include "coordinator/report/placement_report.h"
#include "coordinator/report/scaling_rows.h"
#include "coordinator/report/stream_passes.h"
#include "coordinator/report/svg_chart.h"
#include "yaml-cpp/yaml.h"

namespace azbench {

namespace {

constexpr char kStyle[] = R"css(
:root{color-scheme:light}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;
  max-width:1120px;padding:12px;color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:.4em 0}
h2{font-size:1.3em;margin:1.4em 0 .4em;border-bottom:2px solid #0072B2;padding-bottom:.2em}
h3{font-size:1.05em;margin:1em 0 .3em}
nav ul{columns:2 260px;padding-left:1.2em;margin:.3em 0}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.4em 0 .8em}
table{border-collapse:collapse;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}
th{background:#f2f5f8;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.best{font-weight:bold;background:#eaf4fb}
td.fastest{white-space:nowrap}
td.mount,#placement td{overflow-wrap:anywhere;min-width:12em}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));gap:12px;margin:.5em 0}
figure{margin:0;min-width:0}
figcaption{font-size:.85em;color:#444}
svg.chart{width:100%;height:auto;display:block;background:#fff}
.note{color:#444;font-size:.9em}
ul.notes{font-size:.9em}
.status-partial,.status-failed,.status-skipped{color:#a33}
footer{margin-top:2em;font-size:.85em;color:#444;border-top:1px solid #ccc}
@media print{nav{display:none}body{max-width:none;padding:0}figure,table{break-inside:avoid}
  section.cell{break-before:auto}h2{break-after:avoid}.charts{display:block}
  .charts figure{margin-bottom:8px}}
)css";

std::string Esc(const std::string& text) { return EscapeXml(text); }

std::string FormatUtc(int64_t ns) {
  if (ns == 0) return "-";
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", absl::FromUnixNanos(ns), absl::UTCTimeZone());
}

std::string CellTitle(const ReportCell& cell) {
  const std::string parameters = ParametersText(cell.parameters);
  return parameters.empty() ? cell.workload : absl::StrCat(cell.workload, " (", parameters, ")");
}

void RenderComparisonTable(const std::vector<const TargetColumn*>& columns, std::string& out) {
  std::vector<std::string> names;
  for (const TargetColumn* c : columns) names.push_back(c->target);
  out += "<div class=\"table-wrap\"><table class=\"comparison\"><thead><tr><th>metric</th>";
  for (const TargetColumn* c : columns) {
    absl::StrAppend(&out, "<th>", Esc(c->target), c->partial ? " (partial)" : "", "</th>");
  }
  out += "<th>fastest</th></tr></thead><tbody>";
  for (const ComparisonRow& row : BuildComparisonRows(columns)) {
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

// ----- Which repeat a chart shows -----

double PrimaryFigure(const ScenarioFigures& f) {
  return f.TotalBytes() > 0 ? f.TotalFullBytesPerSecond() : f.TotalFullIops();
}

// The repeat whose interval series is drawn: the one `keep` shows (the last with keep all).
size_t ShownRepeat(const TargetColumn& column, KeepPolicy keep,
                   const std::vector<ScenarioFigures>& figures) {
  if (keep == KeepPolicy::kMedian) {
    std::vector<size_t> ranked = column.repeats;
    std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
      return PrimaryFigure(figures[a]) < PrimaryFigure(figures[b]);
    });
    return ranked[(ranked.size() - 1) / 2];
  }
  return column.repeats.back();
}

// ----- Charts -----

LineChart PercentileChart(const std::string& title) {
  LineChart chart;
  chart.title = title;
  chart.x = MakeAxis("percentile (log scale of 1 - p)", AxisKind::kNines, FormatPercentileLabel);
  chart.y = MakeAxis("latency", AxisKind::kLog10, FormatLatencyNsShort);
  chart.markers = false;
  return chart;
}

// Points of a latency percentile curve: p = 100 (1 - 10^-t) for t = 0 .. nines in steps of 0.05,
// where nines = log10 of the sample count rounded down, between 2 and 4 (the tail beyond one
// sample in 10^nines says nothing more).
ChartSeries PercentileSeries(const std::string& name, const Histogram& h, int nines) {
  ChartSeries series{name, {}};
  if (h.count() == 0) return series;
  for (int i = 0; i <= nines * 20; ++i) {
    const double p = 100.0 * (1.0 - std::pow(10.0, -i / 20.0));
    series.points.emplace_back(p, static_cast<double>(h.Percentile(p)));
  }
  return series;
}

int NinesFor(uint64_t count) {
  const int n =
      count > 0 ? static_cast<int>(std::floor(std::log10(static_cast<double>(count)))) : 2;
  return std::clamp(n, 2, 4);
}

void Figure(const LineChart& chart, const std::string& caption, std::string& out) {
  absl::StrAppend(&out, "<figure>", RenderLineChart(chart));
  if (!caption.empty()) absl::StrAppend(&out, "<figcaption>", Esc(caption), "</figcaption>");
  out += "</figure>";
}

// One line per agent: the agent's throughput per interval, on the coordinator clock relative to
// the scenario's first start (interval midpoints). A bucket's rate is what the agent's jobs did in
// it divided by the time they covered of it (the union of their intervals, the last interval of a
// job clipped at its end), so concurrent jobs add up and back-to-back ones (large_stream's passes)
// do not. A bucket covered for less than a tenth of an interval holds a job's final completions
// only and is left out, unless it is all the agent has (a job shorter than that). With more than
// kMaxAgentLines agents, only the kMaxAgentLines / 2 with the least and the most work are drawn
// (the stragglers and the leaders); `agents_total` says how many there were.
constexpr size_t kMaxAgentLines = 16;

}  // namespace

LineChart AgentThroughputChart(const std::string& target, const ScenarioResult& result,
                               const ScenarioFigures& figures, bool bytes, size_t* agents_total) {
  LineChart chart;
  chart.title = absl::StrCat(target, ": throughput per agent over time");
  chart.x = MakeAxis("seconds since the first agent started", AxisKind::kLinear, nullptr, true);
  chart.y = MakeAxis(bytes ? "MiB/s" : "IOPS", AxisKind::kLinear, FormatSiShort, true);
  const int64_t origin = figures.first_start_ns;
  std::vector<std::string> agents;
  for (const AgentJobResult& r : result.results) {
    if (std::find(agents.begin(), agents.end(), r.agent_id) == agents.end()) {
      agents.push_back(r.agent_id);
    }
  }
  for (const std::string& agent : agents) {
    int64_t agent_start = 0;
    uint64_t interval_ns = 0;
    for (const AgentJobResult& r : result.results) {
      if (r.agent_id != agent || r.result.start_realtime_ns == 0) continue;
      if (agent_start == 0 || r.result.start_realtime_ns < agent_start) {
        agent_start = r.result.start_realtime_ns;
      }
      if (interval_ns == 0) interval_ns = r.result.interval_ns;
    }
    if (interval_ns == 0) continue;
    struct Bucket {
      double amount = 0;
      std::vector<std::pair<int64_t, int64_t>> covered;  // [begin, end), coordinator clock
    };
    std::map<int64_t, Bucket> buckets;
    for (const AgentJobResult& r : result.results) {
      if (r.agent_id != agent) continue;
      const JobResult& job = r.result;
      if (job.interval_ns == 0) continue;
      const int64_t shift = static_cast<int64_t>(
          std::llround(static_cast<double>(job.start_realtime_ns - agent_start) / interval_ns));
      for (const IntervalStats& in : job.intervals) {
        double amount = 0;
        for (const IntervalOpStats& s : in.by_kind) {
          amount += bytes ? static_cast<double>(s.bytes) / kMiB : static_cast<double>(s.ops);
        }
        const int64_t begin =
            job.start_realtime_ns + in.index * static_cast<int64_t>(job.interval_ns);
        if (job.end_realtime_ns != 0 && begin >= job.end_realtime_ns) continue;
        int64_t length = static_cast<int64_t>(job.interval_ns);
        if (job.end_realtime_ns > begin && job.end_realtime_ns - begin < length) {
          length = job.end_realtime_ns - begin;
        }
        Bucket& b = buckets[in.index + shift];
        b.amount += amount;
        b.covered.emplace_back(begin, begin + std::max<int64_t>(length, 1));
      }
    }
    std::map<int64_t, std::pair<double, int64_t>> rate;  // bucket -> (per second, covered ns)
    for (auto& [bucket, b] : buckets) {
      std::sort(b.covered.begin(), b.covered.end());
      int64_t covered = 0, end = INT64_MIN;
      for (const auto& [lo, hi] : b.covered) {
        const int64_t from = std::max(lo, end);
        if (hi > from) covered += hi - from;
        end = std::max(end, hi);
      }
      rate[bucket] = {b.amount * 1e9 / static_cast<double>(covered), covered};
    }
    const auto tiny = [&](const auto& entry) {
      return entry.second.second * 10 < static_cast<int64_t>(interval_ns);
    };
    if (!std::all_of(rate.begin(), rate.end(), tiny)) {
      for (auto it = rate.begin(); it != rate.end();) {
        it = tiny(*it) ? rate.erase(it) : std::next(it);
      }
    }
    ChartSeries series{agent, {}};
    for (const auto& [bucket, value_covered] : rate) {
      const double value = value_covered.first;
      const double t = (static_cast<double>(agent_start - origin) +
                        (static_cast<double>(bucket) + 0.5) * interval_ns) /
                       1e9;
      series.points.emplace_back(t, value);
    }
    chart.series.push_back(std::move(series));
  }
  *agents_total = chart.series.size();
  if (chart.series.size() > kMaxAgentLines) {
    std::vector<std::pair<double, size_t>> work;  // (sum of rates, series index)
    for (size_t i = 0; i < chart.series.size(); ++i) {
      double sum = 0;
      for (const auto& [t, v] : chart.series[i].points) sum += v;
      work.emplace_back(sum, i);
    }
    std::stable_sort(work.begin(), work.end());
    std::set<size_t> keep;
    for (size_t i = 0; i < kMaxAgentLines / 2; ++i) {
      keep.insert(work[i].second);
      keep.insert(work[work.size() - 1 - i].second);
    }
    std::vector<ChartSeries> kept;
    for (size_t i : keep) kept.push_back(std::move(chart.series[i]));
    chart.series = std::move(kept);
  }
  chart.markers = true;
  return chart;
}

namespace {

double ColumnThroughput(const TargetColumn& column, bool bytes) {
  double sum = 0;
  for (const KeptOp& op : column.ops) sum += bytes ? op.mib_s : op.iops;
  return sum;
}

bool MovesBytes(const std::vector<const ReportCell*>& cells) {
  for (const ReportCell* cell : cells) {
    for (const TargetColumn& c : cell->targets) {
      for (const KeptOp& op : c.ops) {
        if (op.bytes > 0) return true;
      }
    }
  }
  return false;
}

// The op kind with the most ops in a column (the one whose p99 a sweep plots).
const KeptOp* MainOp(const TargetColumn& column) {
  const KeptOp* main = nullptr;
  for (const KeptOp& op : column.ops) {
    if (main == nullptr || op.lat.count() > main->lat.count()) main = &op;
  }
  return main;
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

// ----- Sections -----

// The distinct mounts of `target` in the stored placement evidence, each with the agents that
// reported it, in order of first appearance.
std::vector<std::pair<std::string, std::vector<std::string>>> TargetMounts(
    const ReportInput& input, const std::string& target) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const ScenarioResult& r : input.scenarios) {
    for (const PlacementEvidence& e : r.scenario.placements) {
      if (e.target != target || e.mount.empty()) continue;
      auto it =
          std::find_if(out.begin(), out.end(), [&](const auto& m) { return m.first == e.mount; });
      if (it == out.end()) it = out.insert(out.end(), {e.mount, {}});
      if (std::find(it->second.begin(), it->second.end(), e.agent_id) == it->second.end()) {
        it->second.push_back(e.agent_id);
      }
    }
  }
  return out;
}

void CampaignSection(const ReportInput& input, const HtmlReportContext& context, std::string& out) {
  out += "<section id=\"campaign\"><h2>Campaign</h2><div class=\"table-wrap\"><table>";
  auto row = [&](const std::string& k, const std::string& v) {
    absl::StrAppend(&out, "<tr><th scope=\"row\">", Esc(k), "</th><td>", Esc(v), "</td></tr>");
  };
  row("name", input.campaign_name);
  if (!context.campaign_file.empty()) row("file", context.campaign_file);
  row("started", FormatUtc(context.started_at_ns));
  row("finished", context.finished_at_ns == 0 ? "not finished" : FormatUtc(context.finished_at_ns));
  if (!context.azbench_version.empty()) row("azbench", context.azbench_version);
  if (context.campaign) {
    row("repeats", absl::StrCat(context.campaign->repeats, " (reports show: keep ",
                                std::string(KeepPolicyName(input.keep)), ")"));
    std::vector<std::string> axes;
    for (const MatrixAxis& a : context.campaign->matrix) {
      axes.push_back(absl::StrCat(a.key, ": ", absl::StrJoin(a.values, ", ")));
    }
    if (!axes.empty()) row("matrix", absl::StrJoin(axes, "; "));
  } else {
    row("repeats", absl::StrCat("keep ", std::string(KeepPolicyName(input.keep))));
  }
  out += "</table></div>";

  // Fleet.
  std::map<std::string, int> per_az, per_type;
  for (const AgentInfo& a : input.agents) {
    ++per_az[a.availability_zone.empty() ? "(unknown)" : a.availability_zone];
    ++per_type[a.instance_type.empty() ? "(unknown)" : a.instance_type];
  }
  auto counts = [](const std::map<std::string, int>& m) {
    std::vector<std::string> parts;
    for (const auto& [k, n] : m) parts.push_back(absl::StrCat(k, ": ", n));
    return absl::StrJoin(parts, ", ");
  };
  absl::StrAppend(&out, "<h3>Fleet</h3><p>", input.agents.size(),
                  input.agents.size() == 1 ? " agent" : " agents", " in ", per_az.size(),
                  per_az.size() == 1 ? " AZ" : " AZs", " (", Esc(counts(per_az)),
                  "); instance types: ", Esc(counts(per_type)), ".</p>");
  if (!input.agents.empty()) {
    out +=
        "<div class=\"table-wrap\"><table><thead><tr><th>agent</th><th>host</th><th>AZ</th>"
        "<th>AZ id</th><th>instance</th><th>version</th><th>clock offset</th></tr></thead><tbody>";
    for (const AgentInfo& a : input.agents) {
      absl::StrAppend(&out, "<tr><td>", Esc(a.agent_id), "</td><td>", Esc(a.hostname), "</td><td>",
                      Esc(a.availability_zone), "</td><td>", Esc(a.availability_zone_id),
                      "</td><td>", Esc(a.instance_type), "</td><td>", Esc(a.version),
                      "</td><td class=\"num\">",
                      Esc(FormatNanos(static_cast<double>(a.clock_offset_ns))), " ± ",
                      Esc(FormatNanos(static_cast<double>(a.clock_rtt_ns) / 2)), "</td></tr>");
    }
    out += "</tbody></table></div>";
  }

  // Targets.
  out += "<h3>Targets</h3>";
  if (context.campaign) {
    out +=
        "<div class=\"table-wrap\"><table class=\"targets\"><thead><tr><th>target</th>"
        "<th>kind</th><th>path</th><th>server AZ</th><th>labels</th><th>mount and options "
        "(as the agents saw them)</th></tr></thead><tbody>";
    for (const CampaignTarget& t : context.campaign->targets) {
      std::vector<std::string> labels;
      for (const auto& [k, v] : t.labels) labels.push_back(absl::StrCat(k, "=", v));
      absl::StrAppend(&out, "<tr><td>", Esc(t.name), "</td><td>",
                      Esc(std::string(TargetKindName(t.kind))), "</td><td>", Esc(t.path),
                      "</td><td>", Esc(t.server_az.empty() ? "-" : t.server_az), "</td><td>",
                      Esc(absl::StrJoin(labels, ", ")), "</td><td class=\"mount\">");
      const std::vector<std::pair<std::string, std::vector<std::string>>> mounts =
          TargetMounts(input, t.name);
      if (mounts.empty()) out += "-";
      for (size_t i = 0; i < mounts.size(); ++i) {
        if (i > 0) out += "<br>";
        out += Esc(mounts[i].first);
        // Which agents saw it, when they did not all see the same.
        if (mounts.size() > 1) {
          absl::StrAppend(&out, " <span class=\"note\">(",
                          Esc(absl::StrJoin(mounts[i].second, ", ")), ")</span>");
        }
      }
      out += "</td></tr>";
    }
    out += "</tbody></table></div>";
    if (context.campaign_read_leniently) {
      out +=
          "<p class=\"note\">The stored campaign does not parse here (a file it names is "
          "missing); targets and matrix were read from its YAML as written.</p>";
    }
  } else {
    std::vector<std::string> names;
    for (const ScenarioResult& r : input.scenarios) {
      if (std::find(names.begin(), names.end(), r.scenario.target) == names.end()) {
        names.push_back(r.scenario.target);
      }
    }
    absl::StrAppend(&out, "<p>", Esc(absl::StrJoin(names, ", ")),
                    " <span class=\"note\">(the stored campaign could not be read: kinds "
                    "unknown)</span></p>");
  }
  out += "</section>";
}

void PlacementSection(const std::vector<PlacementEvidenceRow>& placement, std::string& out) {
  if (placement.empty()) return;
  std::vector<std::string> fact_names;
  for (const PlacementEvidenceRow& r : placement) {
    for (const auto& [k, v] : r.facts) {
      if (std::find(fact_names.begin(), fact_names.end(), k) == fact_names.end()) {
        fact_names.push_back(k);
      }
    }
  }
  out +=
      "<section id=\"placement\"><h2>Placement</h2><div class=\"table-wrap\"><table><thead><tr>"
      "<th>agent</th><th>target</th><th>placement</th>";
  for (const std::string& k : fact_names) absl::StrAppend(&out, "<th>", Esc(k), "</th>");
  out += "</tr></thead><tbody>";
  for (const PlacementEvidenceRow& r : placement) {
    absl::StrAppend(&out, "<tr><td>", Esc(r.agent_id), "</td><td>", Esc(r.target), "</td><td>",
                    Esc(r.placement), "</td>");
    for (const std::string& k : fact_names) {
      std::string value = "-";
      for (const auto& [fk, fv] : r.facts) {
        if (fk == k) value = fv;
      }
      absl::StrAppend(&out, "<td>", Esc(value), "</td>");
    }
    out += "</tr>";
  }
  out += "</tbody></table></div>";
  out +=
      "<p class=\"note\">How each agent was placed relative to each target: the agent's AZ and "
      "where it came from (config or the instance metadata service), the server address the "
      "mount is connected to and how it was found, the subnet (and its AZ) that address is in, "
      "and the mount with its options. same-az / cross-az is decided from these; unknown means "
      "they did not decide it (the reason says why).</p></section>";
}

std::string RelativeSeconds(int64_t at_ns, int64_t origin_ns) {
  if (origin_ns == 0 || at_ns == 0) return "";
  return absl::StrFormat(" at +%.1fs", static_cast<double>(at_ns - origin_ns) / 1e9);
}

void CellNotes(const ReportInput& input, const std::vector<ScenarioFigures>& figures,
               const ReportCell& cell, std::string& out) {
  std::vector<std::pair<std::string, std::string>> notes;  // (class, text)
  std::set<std::string> warnings_seen;
  for (const TargetColumn& column : cell.targets) {
    std::vector<size_t> listed = column.repeats;
    listed.insert(listed.end(), column.failed.begin(), column.failed.end());
    std::sort(listed.begin(), listed.end());
    for (size_t i : listed) {
      const ScenarioResult& r = input.scenarios[i];
      const int64_t origin =
          figures[i].first_start_ns != 0 ? figures[i].first_start_ns : r.planned_start_realtime_ns;
      if (r.status != ScenarioStatus::kComplete) {
        std::string note = absl::StrCat(ScenarioStatusName(r.status), ": ", r.scenario.key);
        if (!r.status_detail.empty()) absl::StrAppend(&note, ": ", r.status_detail);
        if (r.scenario.skipped && !r.scenario.skip_reason.empty() &&
            r.scenario.skip_reason != r.status_detail) {
          absl::StrAppend(&note, ": ", r.scenario.skip_reason);
        }
        for (const LostAgent& lost : r.lost) {
          absl::StrAppend(&note, "; lost ", lost.agent_id,
                          RelativeSeconds(lost.lost_at_realtime_ns, origin),
                          lost.reason.empty() ? "" : absl::StrCat(" (", lost.reason, ")"));
        }
        notes.emplace_back(absl::StrCat("status-", ScenarioStatusName(r.status)), note);
      }
      for (const AgentJobResult& job : r.results) {
        for (const std::string& warning : job.result.warnings) {
          if (warnings_seen.insert(absl::StrCat(column.target, "\n", warning)).second) {
            notes.emplace_back("warning", absl::StrCat("warning (", column.target, "): ", warning));
          }
        }
      }
    }
  }
  if (notes.empty()) return;
  out += "<ul class=\"notes\">";
  for (const auto& [cls, text] : notes) {
    absl::StrAppend(&out, "<li class=\"", cls, "\">", Esc(text), "</li>");
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
  RenderComparisonTable(columns, out);
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

// A swept value: its number for the x axis and its text for the label.
struct AxisValue {
  double x = 0;
  std::string text;
};

// Numbers for the values of an axis in the order given: sizes and counts parse as sizes ("4k",
// "16"); when any does not, the values are categories at 1, 2, 3, ...
std::vector<AxisValue> AxisValues(const std::vector<std::string>& values, bool* numeric) {
  std::vector<AxisValue> out;
  *numeric = true;
  for (const std::string& v : values) {
    absl::StatusOr<uint64_t> n = ParseSize(v);
    if (!n.ok()) {
      *numeric = false;
      break;
    }
    out.push_back(AxisValue{static_cast<double>(*n), v});
  }
  if (!*numeric) {
    out.clear();
    for (size_t i = 0; i < values.size(); ++i) {
      out.push_back(AxisValue{static_cast<double>(i + 1), values[i]});
    }
  }
  return out;
}

// Cells of `workload` grouped by every parameter except `axis`.
std::vector<std::vector<const ReportCell*>> GroupsAlong(const std::vector<ReportCell>& cells,
                                                        const std::string& workload,
                                                        const std::string& axis) {
  std::vector<
      std::pair<std::vector<std::pair<std::string, std::string>>, std::vector<const ReportCell*>>>
      groups;
  for (const ReportCell& cell : cells) {
    if (cell.workload != workload) continue;
    bool has = false;
    std::vector<std::pair<std::string, std::string>> rest;
    for (const auto& kv : cell.parameters) {
      if (kv.first == axis) {
        has = true;
      } else {
        rest.push_back(kv);
      }
    }
    if (!has) continue;
    auto it =
        std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == rest; });
    if (it == groups.end()) it = groups.insert(groups.end(), {rest, {}});
    it->second.push_back(&cell);
  }
  std::vector<std::vector<const ReportCell*>> out;
  for (auto& [rest, g] : groups) {
    if (g.size() >= 2) out.push_back(std::move(g));
  }
  return out;
}

std::string ParameterValue(const ReportCell& cell, const std::string& axis) {
  for (const auto& [k, v] : cell.parameters) {
    if (k == axis) return v;
  }
  return "";
}

std::vector<std::string> TargetsOf(const std::vector<const ReportCell*>& cells) {
  std::vector<std::string> targets;
  for (const ReportCell* cell : cells) {
    for (const TargetColumn& c : cell->targets) {
      if (std::find(targets.begin(), targets.end(), c.target) == targets.end()) {
        targets.push_back(c.target);
      }
    }
  }
  return targets;
}

const TargetColumn* ColumnOf(const ReportCell& cell, const std::string& target) {
  for (const TargetColumn& c : cell.targets) {
    if (c.target == target && !c.repeats.empty()) return &c;
  }
  return nullptr;
}

std::string OtherParameters(const ReportCell& cell, const std::string& axis) {
  std::vector<std::pair<std::string, std::string>> rest;
  for (const auto& kv : cell.parameters) {
    if (kv.first != axis) rest.push_back(kv);
  }
  return ParametersText(rest);
}

std::vector<std::string> WorkloadsOf(const std::vector<ReportCell>& cells) {
  std::vector<std::string> workloads;
  for (const ReportCell& cell : cells) {
    if (std::find(workloads.begin(), workloads.end(), cell.workload) == workloads.end()) {
      workloads.push_back(cell.workload);
    }
  }
  return workloads;
}

std::vector<std::string> AxesOf(const std::vector<ReportCell>& cells) {
  std::vector<std::string> axes;
  for (const ReportCell& cell : cells) {
    for (const auto& [k, v] : cell.parameters) {
      if (std::find(axes.begin(), axes.end(), k) == axes.end()) axes.push_back(k);
    }
  }
  return axes;
}

void SweepSection(const std::vector<ReportCell>& cells, std::string& out) {
  std::string body;
  for (const std::string& axis : AxesOf(cells)) {
    if (axis == kNodesAxis || axis == kNodesPerAzAxis) continue;
    for (const std::string& workload : WorkloadsOf(cells)) {
      for (const auto& group : GroupsAlong(cells, workload, axis)) {
        std::vector<std::string> raw;
        for (const ReportCell* cell : group) raw.push_back(ParameterValue(*cell, axis));
        bool numeric = false;
        std::vector<AxisValue> values = AxisValues(raw, &numeric);
        std::vector<size_t> order(group.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        if (numeric) {
          std::stable_sort(order.begin(), order.end(),
                           [&](size_t a, size_t b) { return values[a].x < values[b].x; });
        }
        double lo = 0, hi = 0;
        for (const AxisValue& v : values) {
          lo = lo == 0 ? v.x : std::min(lo, v.x);
          hi = std::max(hi, v.x);
        }
        const bool log2 = numeric && lo > 0 && hi / lo >= 8;
        std::map<double, std::string> label_of;
        ChartAxis x = MakeAxis(axis, log2 ? AxisKind::kLog2 : AxisKind::kLinear);
        for (const AxisValue& v : values) {
          label_of[v.x] = v.text;
          x.ticks.push_back(v.x);
        }
        std::sort(x.ticks.begin(), x.ticks.end());
        x.format = [label_of](double v) {
          auto it = label_of.find(v);
          return it != label_of.end() ? it->second : absl::StrFormat("%g", v);
        };
        const bool bytes = MovesBytes(group);
        LineChart throughput, p99;
        const std::string where = OtherParameters(*group[0], axis);
        const std::string suffix = where.empty() ? "" : absl::StrCat(" (", where, ")");
        throughput.title = absl::StrCat(workload, ": ", bytes ? "MiB/s" : "IOPS", " vs ", axis);
        throughput.x = x;
        throughput.y = MakeAxis(bytes ? "MiB/s" : "IOPS", AxisKind::kLinear, FormatSiShort, true);
        p99.title = absl::StrCat(workload, ": p99 latency vs ", axis);
        p99.x = x;
        p99.y = MakeAxis("p99 latency", AxisKind::kLog10, FormatLatencyNsShort);
        for (const std::string& target : TargetsOf(group)) {
          ChartSeries t{target, {}}, l{target, {}};
          for (size_t i : order) {
            const TargetColumn* c = ColumnOf(*group[i], target);
            if (c == nullptr) continue;
            t.points.emplace_back(values[i].x, ColumnThroughput(*c, bytes));
            if (const KeptOp* op = MainOp(*c); op != nullptr && op->lat.count() > 0) {
              l.points.emplace_back(values[i].x, static_cast<double>(op->lat.Percentile(99)));
            }
          }
          throughput.series.push_back(std::move(t));
          p99.series.push_back(std::move(l));
        }
        body += "<div class=\"charts\">";
        Figure(throughput, absl::StrCat("Sweep of ", axis, suffix, "; one line per target."), body);
        Figure(p99,
               absl::StrCat("p99 of the op kind with the most ops", suffix, "; log latency scale."),
               body);
        body += "</div>";
      }
    }
  }
  if (body.empty()) return;
  absl::StrAppend(&out, "<section id=\"sweeps\"><h2>Sweeps</h2>", body, "</section>");
}

// Scaling: the rows of scaling_rows.h (the same figures as the Markdown, CSV and JSON tables),
// one chart pair per workload and set of other matrix values, one line per target.
void ScalingSection(const std::vector<ScalingRow>& rows, std::string& out) {
  std::string body;
  std::vector<std::string> groups;  // "workload\nwhere", in row order
  for (const ScalingRow& row : rows) {
    const std::string key = absl::StrCat(row.workload, "\n", row.where);
    if (std::find(groups.begin(), groups.end(), key) == groups.end()) groups.push_back(key);
  }
  for (const std::string& key : groups) {
    std::vector<const ScalingRow*> group;
    for (const ScalingRow& row : rows) {
      if (absl::StrCat(row.workload, "\n", row.where) == key) group.push_back(&row);
    }
    const std::string& workload = group[0]->workload;
    bool bytes = false;
    for (const ScalingRow* row : group) bytes = bytes || row->moves_bytes;
    const std::string& where = group[0]->where;
    const std::string suffix = where.empty() ? "" : absl::StrCat(" (", where, ")");
    LineChart aggregate, efficiency;
    aggregate.title = absl::StrCat(workload, ": aggregate ", bytes ? "MiB/s" : "IOPS");
    aggregate.x = MakeAxis("agents", AxisKind::kLinear, nullptr, true);
    aggregate.y = MakeAxis(bytes ? "MiB/s" : "IOPS", AxisKind::kLinear, FormatSiShort, true);
    efficiency.title = absl::StrCat(workload, ": scaling efficiency");
    efficiency.x = aggregate.x;
    efficiency.y = MakeAxis("efficiency (%)", AxisKind::kLinear, nullptr, true);
    std::string table =
        "<div class=\"table-wrap\"><table><thead><tr><th>target</th><th>agents</th><th>"
        "aggregate</th><th>per agent</th><th>efficiency</th></tr></thead><tbody>";
    std::set<double> agent_counts;
    std::vector<std::string> targets;
    for (const ScalingRow* row : group) {
      if (std::find(targets.begin(), targets.end(), row->target) == targets.end()) {
        targets.push_back(row->target);
      }
    }
    for (const std::string& target : targets) {
      ChartSeries a{target, {}}, e{target, {}};
      for (const ScalingRow* row : group) {
        if (row->target != target || row->agents == 0) continue;
        const double n = row->agents;
        const double v = bytes ? row->full_mib_s : row->full_iops;
        agent_counts.insert(n);
        a.points.emplace_back(n, v);
        if (row->efficiency.has_value()) e.points.emplace_back(n, *row->efficiency * 100);
        absl::StrAppend(
            &table, "<tr><td>", Esc(target), "</td><td class=\"num\">", n,
            "</td><td class=\"num\">", bytes ? FormatMibPerSecond(v) : FormatIops(v),
            "</td><td class=\"num\">", bytes ? FormatMibPerSecond(v / n) : FormatIops(v / n),
            "</td><td class=\"num\">",
            row->efficiency.has_value() ? absl::StrFormat("%.0f%%", *row->efficiency * 100)
                                        : std::string("no N=1 run"),
            "</td></tr>");
      }
      aggregate.series.push_back(std::move(a));
      efficiency.series.push_back(std::move(e));
    }
    table += "</tbody></table></div>";
    if (agent_counts.size() <= 8) {
      aggregate.x.ticks.assign(agent_counts.begin(), agent_counts.end());
      aggregate.x.ticks.insert(aggregate.x.ticks.begin(), 0);
      efficiency.x.ticks = aggregate.x.ticks;
    }
    absl::StrAppend(&body, "<h3>", Esc(workload), Esc(suffix), "</h3>", table,
                    "<div class=\"charts\">");
    Figure(aggregate, "Full throughput of all agents together (merge rule 3).", body);
    Figure(efficiency,
           "aggregate(N) / (N x aggregate(1)), the one-agent run of the same campaign; 100% = "
           "linear scaling.",
           body);
    body += "</div>";
  }
  if (body.empty()) return;
  absl::StrAppend(&out, "<section id=\"scaling\"><h2>Scaling</h2>", body, "</section>");
}

// Visibility probes: latency per probe (job name) and reader (agent), from the op kind `probe`.
// Extension point: when probes gain their own result fields, render them here.
void VisibilitySection(const ReportInput& input, const std::vector<ReportCell>& cells,
                       const std::vector<ScenarioFigures>& figures, std::string& out) {
  std::string body;
  for (const ReportCell& cell : cells) {
    for (const TargetColumn& column : cell.targets) {
      if (column.Find(OpKind::kProbe) == nullptr) continue;
      std::vector<size_t> used =
          input.keep == KeepPolicy::kAll
              ? column.repeats
              : std::vector<size_t>{ShownRepeat(column, input.keep, figures)};
      // probe -> reader -> merged histogram, trials that never became visible, the reader's
      // mount line; in order of first appearance. A reader whose every trial timed out is listed.
      struct Reader {
        Histogram h;
        uint64_t not_visible = 0;
        std::string mount;
        std::vector<int> repeats;  // the repeats the reader has results in, in order
        // client_to_client readers: what the latency counts from, each distinct note with the
        // repeats that gave it (each repeat joins on its own and says so).
        std::vector<std::pair<std::string, std::vector<int>>> join_notes;
      };
      std::vector<std::pair<std::string, std::vector<std::pair<std::string, Reader>>>> probes;
      for (size_t i : used) {
        for (const AgentJobResult& r : input.scenarios[i].results) {
          const OpStats* stats = r.result.Find(OpKind::kProbe);
          if (stats == nullptr || stats->lat.count() + stats->errors == 0) continue;
          auto p = std::find_if(probes.begin(), probes.end(),
                                [&](const auto& e) { return e.first == r.result.name; });
          if (p == probes.end()) p = probes.insert(probes.end(), {r.result.name, {}});
          auto reader = std::find_if(p->second.begin(), p->second.end(),
                                     [&](const auto& e) { return e.first == r.agent_id; });
          if (reader == p->second.end()) {
            reader = p->second.insert(p->second.end(), {r.agent_id, Reader()});
          }
          Reader& data = reader->second;
          data.h.Merge(stats->lat);
          data.not_visible += stats->errors;
          const int repeat = input.scenarios[i].scenario.repeat;
          if (std::find(data.repeats.begin(), data.repeats.end(), repeat) == data.repeats.end()) {
            data.repeats.push_back(repeat);
          }
          for (const std::string& w : r.result.warnings) {
            if (w.rfind("mount ", 0) == 0) data.mount = w.substr(6);
            if (w.rfind("client_to_client: ", 0) != 0) continue;
            const std::string note = w.substr(18);
            auto same = std::find_if(data.join_notes.begin(), data.join_notes.end(),
                                     [&](const auto& n) { return n.first == note; });
            if (same == data.join_notes.end()) {
              same = data.join_notes.insert(data.join_notes.end(), {note, {}});
            }
            if (std::find(same->second.begin(), same->second.end(), repeat) == same->second.end()) {
              same->second.push_back(repeat);
            }
          }
        }
      }
      for (const auto& [probe, readers] : probes) {
        absl::StrAppend(&body, "<h3>", Esc(CellTitle(cell)), ", ", Esc(column.target), ": probe ",
                        Esc(probe), "</h3>");
        body +=
            "<div class=\"table-wrap\"><table><thead><tr><th>reader</th><th>samples</th>"
            "<th>p50</th><th>p90</th><th>p99</th><th>max</th><th>timed out or failed</th>"
            "<th>mount</th></tr></thead><tbody>";
        uint64_t most = 0;
        for (const auto& [reader, data] : readers) {
          const Histogram& h = data.h;
          most = std::max(most, h.count());
          absl::StrAppend(&body, "<tr><td>", Esc(reader), "</td><td class=\"num\">", h.count(),
                          "</td>");
          for (double p : {50.0, 90.0, 99.0, 100.0}) {
            absl::StrAppend(
                &body, "<td class=\"num\">",
                h.count() == 0 ? "-" : Esc(FormatNanos(static_cast<double>(h.Percentile(p)))),
                "</td>");
          }
          absl::StrAppend(&body, "<td class=\"num\">", data.not_visible, "</td><td>",
                          Esc(data.mount.empty() ? "-" : data.mount), "</td></tr>");
        }
        body += "</tbody></table></div>";
        for (const auto& [reader, data] : readers) {
          // One note that held for every repeat is said once; otherwise each note names its
          // repeats ("agent-2, repeats 1, 3: ...").
          const bool one_for_all = data.join_notes.size() == 1 &&
                                   data.join_notes[0].second.size() == data.repeats.size();
          for (const auto& [note, repeats] : data.join_notes) {
            const std::string which =
                one_for_all ? ""
                            : absl::StrCat(repeats.size() == 1 ? ", repeat " : ", repeats ",
                                           absl::StrJoin(repeats, ", "));
            absl::StrAppend(&body, "<p class=\"note\">", Esc(reader), Esc(which), ": ", Esc(note),
                            "</p>");
          }
        }
        body += "<div class=\"charts\">";
        LineChart chart = PercentileChart(absl::StrCat(column.target, ": ", probe, " latency"));
        for (const auto& [reader, data] : readers) {
          if (data.h.count() > 0) {
            chart.series.push_back(PercentileSeries(reader, data.h, NinesFor(most)));
          }
        }
        Figure(chart, "One line per reader: the time until the reader saw the change.", body);
        body += "</div>";
      }
    }
  }
  if (body.empty()) return;
  absl::StrAppend(&out, "<section id=\"visibility\"><h2>Visibility probes</h2>", body,
                  "</section>");
}

constexpr char kHowToRead[] =
    "<footer><h2>How to read this report</h2><ul>"
    "<li><b>IOPS, MiB/s</b>: all ops of all agents divided by the time from the first agent's "
    "start to the last agent's end. <b>Stonewall</b>: only what happened while every agent was "
    "running.</li>"
    "<li><b>Latency</b> (mean, p50 ... max): from the histograms of all agents merged, so a "
    "percentile is the percentile of every op of the scenario (within 0.39%).</li>"
    "<li><b>fastest</b>: the best target for that row and how many times better it is than the "
    "runner-up (higher is better for throughput, lower for latency).</li>"
    "<li><b>Percentile charts</b>: the horizontal axis spreads 90, 99, 99.9, 99.99 evenly, so the "
    "right side shows the rare slow ops; the vertical axis is logarithmic.</li>"
    "<li><b>Throughput over time</b>: one line per agent; a line that starts late shows start "
    "skew, one that ends late or sags shows a straggler.</li>"
    "<li><b>[min-max]</b>: the range over repeats; which repeat is shown follows the campaign's "
    "<code>keep</code>.</li>";
// Footer items of sections only some reports have.
constexpr char kHowToReadPasses[] =
    "<li><b>MiB/s per pass</b> (large_stream, dd-like): each pass's bytes over its time, per agent "
    "and for all agents together; <b>mean</b> is the mean of the passes.</li>";
constexpr char kHowToReadPlacement[] =
    "<li><b>Placement</b>: same-az when the server address the agent's mount uses is in a subnet "
    "of the agent's AZ (or the campaign names the server's AZ), cross-az when it is in another; "
    "unknown otherwise, with the reason.</li>";

}  // namespace

std::vector<PlacementEvidenceRow> PlacementEvidenceRows(const ReportInput& input) {
  auto with_source = [](const std::string& value, const std::string& source) {
    if (value.empty()) return std::string("-");
    return source.empty() ? value : absl::StrCat(value, " (", source, ")");
  };
  std::vector<PlacementEvidenceRow> rows;
  for (const PlacementEvidence* e : DistinctPlacementEvidence(input)) {
    std::string agent_az = e->agent_az;
    if (!e->agent_az_id.empty() && e->agent_az_id != e->agent_az) {
      agent_az = absl::StrCat(agent_az, "/", e->agent_az_id);
    }
    rows.push_back(PlacementEvidenceRow{
        e->agent_id,
        e->target,
        std::string(PlacementName(e->placement)),
        {{"agent AZ (source)", with_source(agent_az, e->az_source)},
         {"server address (how found)", with_source(e->server_address, e->address_source)},
         {"subnet (source)", with_source(e->subnet, e->subnet_source)},
         {"server AZ (source)", with_source(e->server_az, e->server_az_source)},
         {"mount and options", e->mount.empty() ? "-" : e->mount},
         {"reason", e->reason.empty() ? "-" : e->reason}}});
  }
  return rows;
}

HtmlReportContext MakeHtmlReportContext(const CampaignRecord& record) {
  HtmlReportContext context;
  context.campaign_file = record.file;
  context.started_at_ns = record.started_at_ns;
  context.finished_at_ns = record.finished_at_ns;
  context.azbench_version = record.azbench_version;
  if (absl::StatusOr<Campaign> c = ParseCampaign(record.campaign_yaml, record.file); c.ok()) {
    context.campaign = std::move(*c);
    return context;
  }
  // Lenient: only what the summary shows, each field skipped when it is not what it should be.
  try {
    const YAML::Node root = YAML::Load(record.campaign_yaml);
    if (!root.IsMap()) return context;
    Campaign campaign;
    campaign.name = record.name;
    if (const YAML::Node targets = root["targets"]; targets && targets.IsSequence()) {
      for (const YAML::Node& t : targets) {
        if (!t.IsMap() || !t["name"] || !t["name"].IsScalar()) continue;
        CampaignTarget target;
        target.name = t["name"].as<std::string>();
        if (t["path"] && t["path"].IsScalar()) target.path = t["path"].as<std::string>();
        if (t["server_az"] && t["server_az"].IsScalar()) {
          target.server_az = t["server_az"].as<std::string>();
        }
        if (t["kind"] && t["kind"].IsScalar()) {
          const std::string kind = t["kind"].as<std::string>();
          for (TargetKind k : {TargetKind::kEfs, TargetKind::kFsxOpenZfs, TargetKind::kFsxLustre,
                               TargetKind::kS3Files, TargetKind::kLocal, TargetKind::kOther}) {
            if (TargetKindName(k) == kind) target.kind = k;
          }
        }
        if (t["labels"] && t["labels"].IsMap()) {
          for (const auto& kv : t["labels"]) {
            if (kv.first.IsScalar() && kv.second.IsScalar()) {
              target.labels[kv.first.as<std::string>()] = kv.second.as<std::string>();
            }
          }
        }
        campaign.targets.push_back(std::move(target));
      }
    }
    if (const YAML::Node matrix = root["matrix"]; matrix && matrix.IsMap()) {
      for (const auto& kv : matrix) {
        if (!kv.first.IsScalar() || !kv.second.IsSequence()) continue;
        MatrixAxis axis;
        axis.key = kv.first.as<std::string>();
        for (const YAML::Node& v : kv.second) {
          if (v.IsScalar()) axis.values.push_back(v.as<std::string>());
        }
        campaign.matrix.push_back(std::move(axis));
      }
    }
    if (root["repeats"] && root["repeats"].IsScalar()) {
      absl::StatusOr<int64_t> repeats = ParseInt(root["repeats"].as<std::string>(), 1, 1000000);
      if (repeats.ok()) campaign.repeats = static_cast<int>(*repeats);
    }
    context.campaign = std::move(campaign);
    context.campaign_read_leniently = true;
  } catch (const YAML::Exception&) {
    // Not YAML at all: the summary says the campaign could not be read.
  }
  return context;
}

std::string RenderHtmlReport(const ReportInput& input, const HtmlReportContext& context) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
  const std::vector<ReportCell> cells = BuildCells(input, figures);

  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>azbench report: ",
      Esc(input.campaign_name), "</title><style>", kStyle, "</style></head><body>");
  int counts[4] = {0, 0, 0, 0};
  for (const ScenarioResult& r : input.scenarios) ++counts[static_cast<int>(r.status)];
  absl::StrAppend(&out, "<header><h1>azbench report: ", Esc(input.campaign_name), "</h1><p>",
                  input.scenarios.size(), " scenarios: ", counts[0], " complete, ", counts[1],
                  " partial, ", counts[2], " failed, ", counts[3], " skipped.</p></header>");

  std::string sweeps, scaling, visibility;
  SweepSection(cells, sweeps);
  ScalingSection(BuildScalingRows(input, cells, figures), scaling);
  VisibilitySection(input, cells, figures, visibility);

  out += "<nav><h2>Contents</h2><ul><li><a href=\"#campaign\">Campaign</a></li>";
  const std::vector<PlacementEvidenceRow> placement =
      context.placement.empty() ? PlacementEvidenceRows(input) : context.placement;
  if (!placement.empty()) out += "<li><a href=\"#placement\">Placement</a></li>";
  for (size_t i = 0; i < cells.size(); ++i) {
    absl::StrAppend(&out, "<li><a href=\"#cell-", i, "\">", Esc(CellTitle(cells[i])), "</a></li>");
  }
  if (!sweeps.empty()) out += "<li><a href=\"#sweeps\">Sweeps</a></li>";
  if (!scaling.empty()) out += "<li><a href=\"#scaling\">Scaling</a></li>";
  if (!visibility.empty()) out += "<li><a href=\"#visibility\">Visibility probes</a></li>";
  out += "</ul></nav>";

  CampaignSection(input, context, out);
  PlacementSection(placement, out);
  for (size_t i = 0; i < cells.size(); ++i) CellSection(input, context, figures, cells[i], i, out);
  out += sweeps;
  out += scaling;
  out += visibility;
  out += kHowToRead;
  if (absl::StrContains(out, "<h3>MiB/s per pass</h3>")) out += kHowToReadPasses;
  if (!placement.empty()) out += kHowToReadPlacement;
  out += "</ul></footer>";
  out += "</body></html>\n";
  return out;
}

}  // namespace azbench
