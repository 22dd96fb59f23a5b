// The HTML report's scaling section: aggregate throughput and efficiency against agent count.
#include "coordinator/report/html_sections.h"

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/units.h"
#include "coordinator/report/html_common.h"

namespace azbench::html_internal {

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
        "aggregate</th><th>aggregate / agents</th><th>efficiency</th></tr></thead><tbody>";
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

}  // namespace azbench::html_internal
