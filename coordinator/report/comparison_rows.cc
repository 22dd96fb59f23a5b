#include "coordinator/report/comparison_rows.h"

#include <algorithm>
#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/units.h"
#include "coordinator/report/probe_percentiles.h"

namespace azbench {

namespace {

std::string Ratio(double ratio) {
  return ratio >= 99.5 ? absl::StrFormat("%.0fx", ratio) : absl::StrFormat("%.1fx", ratio);
}

}  // namespace

// Index of the best value and the fastest cell text ("efs 4.5x", "tie (a, b)", "-").
std::pair<int, std::string> FastestTarget(const std::vector<std::string>& names,
                                          const std::vector<ComparisonValue>& values,
                                          bool higher_is_better) {
  std::vector<size_t> order;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].present) order.push_back(i);
  }
  if (order.size() < 2) return {-1, "-"};
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return higher_is_better ? values[a].number > values[b].number
                            : values[a].number < values[b].number;
  });
  const double best = values[order[0]].number, second = values[order[1]].number;
  const std::string& name = names[order[0]];
  if (best == second) return {-1, absl::StrCat("tie (", name, ", ", names[order[1]], ")")};
  const int index = static_cast<int>(order[0]);
  if (higher_is_better) {
    return {index, second > 0 ? absl::StrCat(name, " ", Ratio(best / second)) : name};
  }
  return {index, best > 0 ? absl::StrCat(name, " ", Ratio(second / best)) : name};
}

std::vector<OpKind> OpKindsOf(const std::vector<const TargetColumn*>& columns) {
  std::vector<OpKind> kinds;
  for (int k = 0; k < kOpKindCount; ++k) {
    for (const TargetColumn* column : columns) {
      if (column->Find(static_cast<OpKind>(k)) != nullptr) {
        kinds.push_back(static_cast<OpKind>(k));
        break;
      }
    }
  }
  return kinds;
}

std::vector<ComparisonRow> BuildComparisonRows(const std::vector<const TargetColumn*>& columns,
                                               const ReportInput* input) {
  std::vector<ComparisonRow> rows;
  const std::vector<OpKind> kinds = OpKindsOf(columns);
  bool several_agents = false;
  for (const TargetColumn* column : columns) several_agents |= column->max_agents > 1;
  auto add_row =
      [&](const std::string& label, bool compare, bool higher_is_better,
          const std::function<ComparisonValue(const TargetColumn&, const KeptOp&)>& value,
          OpKind kind) {
        ComparisonRow row{label, compare, higher_is_better, {}};
        bool any = false;
        for (const TargetColumn* column : columns) {
          const KeptOp* op = column->Find(kind);
          row.values.push_back(op != nullptr ? value(*column, *op) : ComparisonValue{});
          any |= row.values.back().present;
        }
        if (any) rows.push_back(std::move(row));
      };
  auto throughput = [](double value, double min, double max, size_t repeats,
                       std::string (*format)(double)) {
    std::string text = format(value);
    if (repeats > 1) absl::StrAppend(&text, " [", format(min), "-", format(max), "]");
    return ComparisonValue{true, value, text};
  };
  auto latency = [](const Histogram& h, double p) {
    if (h.count() == 0) return ComparisonValue{};
    const double ns = p < 0 ? h.mean_ns() : static_cast<double>(h.Percentile(p));
    return ComparisonValue{true, ns, FormatNanos(ns)};
  };
  for (OpKind kind : kinds) {
    const std::string prefix =
        kinds.size() > 1 ? absl::StrCat(std::string(OpKindName(kind)), " ") : "";
    bool moved_bytes = false, split = false, errors = false;
    for (const TargetColumn* column : columns) {
      if (const KeptOp* op = column->Find(kind)) {
        moved_bytes |= op->bytes > 0;
        split |= op->clat.count() > 0;
        errors |= op->errors > 0;
      }
    }
    add_row(
        prefix + "IOPS", true, true,
        [&](const TargetColumn& c, const KeptOp& op) {
          return throughput(op.iops, op.iops_min, op.iops_max, c.repeats.size(), FormatIops);
        },
        kind);
    if (moved_bytes) {
      add_row(
          prefix + "MiB/s", true, true,
          [&](const TargetColumn& c, const KeptOp& op) {
            return throughput(op.mib_s, op.mib_s_min, op.mib_s_max, c.repeats.size(),
                              FormatMibPerSecond);
          },
          kind);
    }
    if (several_agents) {
      auto stonewall = [](double v, const KeptOp& op, std::string (*format)(double)) {
        return op.stonewall_valid ? ComparisonValue{true, v, format(v)} : ComparisonValue{};
      };
      add_row(
          prefix + "IOPS stonewall", true, true,
          [&](const TargetColumn&, const KeptOp& op) {
            return stonewall(op.stonewall_iops, op, FormatIops);
          },
          kind);
      if (moved_bytes) {
        add_row(
            prefix + "MiB/s stonewall", true, true,
            [&](const TargetColumn&, const KeptOp& op) {
              return stonewall(op.stonewall_mib_s, op, FormatMibPerSecond);
            },
            kind);
      }
    }
    const std::pair<const char*, double> latencies[] = {
        {"mean lat", -1}, {"p50", 50}, {"p90", 90}, {"p99", 99}, {"p99.9", 99.9}, {"max", 100}};
    for (const auto& [label, p] : latencies) {
      add_row(
          prefix + label, true, false,
          [&, p = p](const TargetColumn& c, const KeptOp& op) {
            if (kind != OpKind::kProbe || input == nullptr) return latency(op.lat, p);
            const ProbeTrials trials = ProbeTrialsOf(*input, c.kept, "");
            if (p < 0) {
              // Over every trial that ended, the timed-out ones at the timeout: ">= " then.
              const ProbeFigure mean = ProbeMeanFigure(op.lat, trials);
              if (!mean.ns.has_value()) return ComparisonValue{};
              return ComparisonValue{true, *mean.ns, FormatProbeFigure(mean)};
            }
            const std::string text = FormatProbePercentile(op.lat, trials, p);
            if (std::optional<double> ns = ProbePercentileNanos(op.lat, trials, p)) {
              return ComparisonValue{true, *ns, text};
            }
            if (!ProbePercentileCensored(op.lat, trials, p)) return ComparisonValue{};
            return ComparisonValue{true, static_cast<double>(trials.timeout_ns), text};
          },
          kind);
    }
    if (split) {
      add_row(
          prefix + "mean slat", true, false,
          [&](const TargetColumn&, const KeptOp& op) { return latency(op.slat, -1); }, kind);
      add_row(
          prefix + "mean clat", true, false,
          [&](const TargetColumn&, const KeptOp& op) { return latency(op.clat, -1); }, kind);
    }
    if (errors) {
      add_row(
          prefix + "errors", false, false,
          [](const TargetColumn&, const KeptOp& op) {
            return ComparisonValue{true, static_cast<double>(op.errors), absl::StrCat(op.errors)};
          },
          kind);
    }
  }
  bool cpu_measured = false;
  for (const TargetColumn* column : columns) cpu_measured |= column->cpu.measured();
  if (cpu_measured) {
    ComparisonRow usage{"client CPU", false, false, {}}, per_op{"client CPU/op", false, false, {}};
    for (const TargetColumn* column : columns) {
      const CpuUsage& cpu = column->cpu;
      if (!cpu.measured()) {
        usage.values.emplace_back();
        per_op.values.emplace_back();
        continue;
      }
      usage.values.push_back(ComparisonValue{
          true, 0,
          absl::StrFormat("usr %.1f%%, sys %.1f%%", cpu.UserPercent(), cpu.SystemPercent())});
      const std::optional<double> ns_per_op = column->CpuNanosPerOp();
      if (!ns_per_op) {
        per_op.values.emplace_back();
        continue;
      }
      per_op.values.push_back(ComparisonValue{true, *ns_per_op, FormatNanos(*ns_per_op)});
    }
    rows.push_back(std::move(usage));
    rows.push_back(std::move(per_op));
  }
  ComparisonRow agents{"agents", false, false, {}}, skew{"start skew", false, false, {}};
  for (const TargetColumn* column : columns) {
    agents.values.push_back(ComparisonValue{true, 0, absl::StrCat(column->max_agents)});
    skew.values.push_back(
        ComparisonValue{true, 0, FormatNanos(static_cast<double>(column->max_start_skew_ns))});
  }
  rows.push_back(std::move(agents));
  rows.push_back(std::move(skew));
  return rows;
}

}  // namespace azbench
