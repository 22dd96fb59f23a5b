#include "coordinator/report/scaling_rows.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/report/csv_report.h"

namespace azbench {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;

bool IsAgentAxis(const std::string& axis) { return axis == kNodesAxis || axis == kNodesPerAzAxis; }

// The other matrix values, and the agent axis values, of a cell.
std::pair<std::string, std::string> SplitParameters(const ReportCell& cell) {
  std::vector<std::pair<std::string, std::string>> rest, nodes;
  for (const auto& kv : cell.parameters) (IsAgentAxis(kv.first) ? nodes : rest).push_back(kv);
  return {ParametersText(rest), ParametersText(nodes)};
}

const KeptOp* MainOp(const TargetColumn& column) {
  const KeptOp* main = nullptr;
  for (const KeptOp& op : column.ops) {
    if (main == nullptr || op.lat.count() > main->lat.count()) main = &op;
  }
  return main;
}

double Aggregate(const ScalingRow& row, bool stonewall) {
  if (row.moves_bytes) return stonewall ? row.stonewall_mib_s : row.full_mib_s;
  return stonewall ? row.stonewall_iops : row.full_iops;
}

std::optional<double> Efficiency(const ScalingRow& row, const ScalingRow& base, bool stonewall) {
  if (stonewall && (!row.stonewall_valid || !base.stonewall_valid)) return std::nullopt;
  const double one = Aggregate(base, stonewall);
  if (one <= 0 || row.agents <= 0) return std::nullopt;
  return Aggregate(row, stonewall) / (static_cast<double>(row.agents) * one);
}

std::string Micros(uint64_t ns) { return absl::StrFormat("%.3f", static_cast<double>(ns) / 1e3); }

std::string Percent(const std::optional<double>& fraction) {
  return fraction.has_value() ? absl::StrFormat("%.0f%%", *fraction * 100) : "no N=1 run";
}

std::string FormatLatency(uint64_t ns) {
  const double v = static_cast<double>(ns);
  if (v >= 1e9) return absl::StrFormat("%.2f s", v / 1e9);
  if (v >= 1e6) return absl::StrFormat("%.2f ms", v / 1e6);
  return absl::StrFormat("%.1f us", v / 1e3);
}

// Fairness over agents: each agent's own aggregate (the data ops of every kind but fsync over
// that agent's window, merge.h rules 3 and 8 over its results alone, as the row's aggregate is
// over all agents), the mean over the kept repeats the agent ran in; then min, max and CoV of
// those means: {MiB/s spread, IOPS spread} (the row shows MiB/s when its group moves bytes).
std::pair<Spread, Spread> AgentFairness(const ReportInput& input, const std::vector<size_t>& kept) {
  std::vector<std::string> agents;  // first-seen order
  // agent -> {sum of MiB/s, sum of IOPS, repeats}
  std::map<std::string, std::tuple<double, double, int>> sums;
  for (size_t i : kept) {
    if (i >= input.scenarios.size()) continue;
    const ScenarioResult& scenario = input.scenarios[i];
    std::vector<std::string> seen;
    for (const AgentJobResult& r : scenario.results) {
      if (std::find(seen.begin(), seen.end(), r.agent_id) == seen.end()) {
        seen.push_back(r.agent_id);
      }
    }
    for (const std::string& agent : seen) {
      const ScenarioFigures f =
          ComputeFigures(scenario, [&agent](const std::string& id) { return id == agent; });
      const double seconds = static_cast<double>(f.full_window_ns) / 1e9;
      if (!sums.count(agent)) agents.push_back(agent);
      auto& [mib_s, iops, repeats] = sums[agent];
      if (seconds > 0) {
        mib_s += static_cast<double>(f.io_bytes) / kMiB / seconds;
        iops += static_cast<double>(f.io_ops) / seconds;
      }
      repeats += 1;
    }
  }
  std::vector<double> mib_s, iops;
  for (const std::string& agent : agents) {
    const auto& [m, o, repeats] = sums[agent];
    mib_s.push_back(m / repeats);
    iops.push_back(o / repeats);
  }
  return {SpreadOf(mib_s), SpreadOf(iops)};
}

}  // namespace

bool IsScalingCell(const ReportCell& cell) {
  for (const auto& kv : cell.parameters) {
    if (IsAgentAxis(kv.first)) return true;
  }
  return false;
}

std::vector<ScalingRow> BuildScalingRows(const ReportInput& input,
                                         const std::vector<ReportCell>& cells) {
  // Group key: workload, other parameters, target; in first-seen (plan) order.
  std::vector<std::string> order;
  std::map<std::string, std::vector<ScalingRow>> groups;
  std::map<std::string, bool> group_bytes;
  std::map<std::string, std::vector<std::pair<Spread, Spread>>> group_fairness;  // as `groups`
  for (const ReportCell& cell : cells) {
    if (!IsScalingCell(cell)) continue;
    const auto [where, nodes] = SplitParameters(cell);
    for (const TargetColumn& column : cell.targets) {
      if (column.kept.empty()) continue;
      ScalingRow row;
      row.workload = cell.workload;
      row.where = where;
      row.target = column.target;
      row.nodes = nodes;
      row.agents = column.max_agents;
      row.partial = column.partial;
      row.start_skew_ns = column.max_start_skew_ns;
      row.full_mib_s = column.io_mib_s;
      row.full_iops = column.io_iops;
      row.stonewall_valid = column.stonewall_io_repeats > 0;
      row.stonewall_mib_s = column.stonewall_io_mib_s;
      row.stonewall_iops = column.stonewall_io_iops;
      for (const KeptOp& op : column.ops) row.moves_bytes = row.moves_bytes || op.bytes > 0;
      if (const KeptOp* main = MainOp(column); main != nullptr) {
        row.op = main->kind;
        if (main->lat.count() > 0) {
          row.has_latency = true;
          row.p50_ns = main->lat.Percentile(50);
          row.p99_ns = main->lat.Percentile(99);
          row.p999_ns = main->lat.Percentile(99.9);
        }
      }
      const std::string key = absl::StrCat(cell.workload, "\n", where, "\n", column.target);
      if (!groups.count(key)) order.push_back(key);
      group_bytes[key] = group_bytes[key] || row.moves_bytes;
      groups[key].push_back(std::move(row));
      group_fairness[key].push_back(AgentFairness(input, column.kept));
    }
  }
  std::vector<ScalingRow> rows;
  for (const std::string& key : order) {
    std::vector<ScalingRow>& group = groups[key];
    for (size_t i = 0; i < group.size(); ++i) {
      group[i].fairness =
          group_bytes[key] ? group_fairness[key][i].first : group_fairness[key][i].second;
    }
    std::stable_sort(group.begin(), group.end(),
                     [](const ScalingRow& a, const ScalingRow& b) { return a.agents < b.agents; });
    const ScalingRow* base = nullptr;
    for (ScalingRow& row : group) {
      row.moves_bytes = group_bytes[key];
      if (row.agents == 1 && base == nullptr) base = &row;
    }
    for (ScalingRow& row : group) {
      if (base == nullptr) continue;
      row.efficiency = Efficiency(row, *base, false);
      row.stonewall_efficiency = Efficiency(row, *base, true);
    }
    for (ScalingRow& row : group) rows.push_back(std::move(row));
  }
  return rows;
}

std::string RenderScalingMarkdown(const std::vector<ScalingRow>& rows) {
  if (rows.empty()) return "";
  std::string out =
      "## Scaling\n\nAggregate throughput of all agents together (full; stonewall = while every "
      "agent ran), merged latency of the op kind with the most ops, per-agent min / max / CoV of "
      "each agent's own aggregate (every op kind but fsync over that agent's window, the mean over "
      "the repeats) and efficiency = aggregate(N) / (N x aggregate(1)), with aggregate(1) from the "
      "one-agent run of the same campaign.\n\n";
  std::string current;
  for (const ScalingRow& row : rows) {
    const std::string group = absl::StrCat(row.workload, "\n", row.where, "\n", row.target);
    if (group != current) {
      if (!current.empty()) out += "\n";
      current = group;
      absl::StrAppend(&out, "### ", row.workload, row.where.empty() ? "" : " (", row.where,
                      row.where.empty() ? "" : ")", " on ", row.target, "\n\n");
      const char* unit = row.moves_bytes ? "MiB/s" : "IOPS";
      absl::StrAppend(&out, "| agents | axis | ", unit, " | ", unit, " stonewall | IOPS | ",
                      "IOPS stonewall | p50 | p99 | p99.9 | per-agent ", unit,
                      " min / max / CoV | start skew | efficiency | stonewall efficiency |\n");
      out += "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n";
    }
    const double agg = row.moves_bytes ? row.full_mib_s : row.full_iops;
    const double sw = row.moves_bytes ? row.stonewall_mib_s : row.stonewall_iops;
    auto fmt = [&](double v) { return row.moves_bytes ? FormatMibPerSecond(v) : FormatIops(v); };
    absl::StrAppend(
        &out, "| ", row.agents, row.partial ? " (partial)" : "", " | ", row.nodes, " | ", fmt(agg),
        " | ", row.stonewall_valid ? fmt(sw) : "-", " | ", FormatIops(row.full_iops), " | ",
        row.stonewall_valid ? FormatIops(row.stonewall_iops) : "-", " | ",
        row.has_latency ? FormatLatency(row.p50_ns) : "-", " | ",
        row.has_latency ? FormatLatency(row.p99_ns) : "-", " | ",
        row.has_latency ? FormatLatency(row.p999_ns) : "-", " | ", fmt(row.fairness.min), " / ",
        fmt(row.fairness.max), " / ", absl::StrFormat("%.3f", row.fairness.cv), " | ",
        absl::StrFormat("%.2f ms", static_cast<double>(row.start_skew_ns) / 1e6), " | ",
        Percent(row.efficiency), " | ",
        row.efficiency.has_value() && !row.stonewall_efficiency.has_value()
            ? std::string("-")
            : Percent(row.stonewall_efficiency),
        " |\n");
  }
  out += "\n";
  return out;
}

std::string RenderScalingCsv(const std::vector<ScalingRow>& rows) {
  std::string out =
      "workload,where,target,nodes,agents,full_mib_s,full_iops,stonewall_mib_s,stonewall_iops,"
      "op,p50_us,p99_us,p99_9_us,fairness_unit,fairness_min,fairness_max,fairness_cv,"
      "start_skew_us,efficiency,stonewall_efficiency\n";
  auto opt = [](const std::optional<double>& v) {
    return v.has_value() ? absl::StrFormat("%.6f", *v) : std::string();
  };
  for (const ScalingRow& row : rows) {
    absl::StrAppend(
        &out, CsvField(row.workload), ",", CsvField(row.where), ",", CsvField(row.target), ",",
        CsvField(row.nodes), ",", row.agents, ",", absl::StrFormat("%.6f", row.full_mib_s), ",",
        absl::StrFormat("%.6f", row.full_iops), ",",
        row.stonewall_valid ? absl::StrFormat("%.6f", row.stonewall_mib_s) : "", ",",
        row.stonewall_valid ? absl::StrFormat("%.6f", row.stonewall_iops) : "", ",",
        std::string(OpKindName(row.op)), ",", row.has_latency ? Micros(row.p50_ns) : "", ",",
        row.has_latency ? Micros(row.p99_ns) : "", ",", row.has_latency ? Micros(row.p999_ns) : "",
        ",", row.moves_bytes ? "MiB/s" : "IOPS", ",", absl::StrFormat("%.6f", row.fairness.min),
        ",", absl::StrFormat("%.6f", row.fairness.max), ",",
        absl::StrFormat("%.6f", row.fairness.cv), ",",
        absl::StrFormat("%.3f", static_cast<double>(row.start_skew_ns) / 1e3), ",",
        opt(row.efficiency), ",", opt(row.stonewall_efficiency), "\n");
  }
  return out;
}

}  // namespace azbench
