// The HTML report's sweeps section: throughput and p99 latency against each swept job option.
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
#include "coordinator/report/html_common.h"

namespace azbench::html_internal {

namespace {

// Data ops of every kind but fsync over the scenario's window (merge.h rule 8).
double ColumnThroughput(const TargetColumn& column, bool bytes) {
  return bytes ? column.io_mib_s : column.io_iops;
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

}  // namespace

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

}  // namespace azbench::html_internal
