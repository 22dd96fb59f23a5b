#include "coordinator/report/report_input.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/stats.h"
#include "coordinator/report/job_units.h"

namespace azbench {

namespace {

bool HasData(ScenarioStatus status) {
  return status == ScenarioStatus::kComplete || status == ScenarioStatus::kPartial;
}

// The figure `median` ranks repeats by: bytes/s over all op kinds, or IOPS when nothing moved
// bytes.
double PrimaryFigure(const ScenarioFigures& figures) {
  return figures.TotalBytes() > 0 ? figures.TotalFullBytesPerSecond() : figures.TotalFullIops();
}

// The repeats `keep` selects from `repeats` (sorted by repeat number, non-empty).
std::vector<size_t> Chosen(KeepPolicy keep, const std::vector<size_t>& repeats,
                           const std::vector<ScenarioFigures>& figures) {
  switch (keep) {
    case KeepPolicy::kLast:
      return {repeats.back()};
    case KeepPolicy::kMedian: {
      std::vector<size_t> ranked = repeats;
      std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
        return PrimaryFigure(figures[a]) < PrimaryFigure(figures[b]);
      });
      return {ranked[(ranked.size() - 1) / 2]};
    }
    case KeepPolicy::kAll:
      break;
  }
  return repeats;
}

void FillColumn(const ReportInput& input, const std::vector<ScenarioFigures>& figures,
                TargetColumn& column) {
  if (column.repeats.empty()) return;
  const std::vector<size_t> chosen = Chosen(input.keep, column.repeats, figures);
  column.kept = chosen;
  for (size_t i : chosen) {
    column.partial = column.partial || input.scenarios[i].status == ScenarioStatus::kPartial;
  }
  const double n = static_cast<double>(chosen.size());
  for (int k = 0; k < kOpKindCount; ++k) {
    const OpKind kind = static_cast<OpKind>(k);
    bool present = false;
    for (size_t i : column.repeats) present = present || figures[i].Find(kind) != nullptr;
    if (!present) continue;
    KeptOp& op = column.ops.emplace_back();
    op.kind = kind;
    for (size_t i : chosen) {
      const OpFigures* f = figures[i].Find(kind);
      if (f == nullptr) continue;  // this repeat did none of it: counts as 0 in the mean
      op.iops += f->full_iops / n;
      op.mib_s += f->full_bytes_per_s / kMiB / n;
      if (f->stonewall_valid) {  // a repeat without a window has no stonewall figure, not 0
        ++op.stonewall_repeats;
        op.stonewall_iops += f->stonewall_iops;
        op.stonewall_mib_s += f->stonewall_bytes_per_s / kMiB;
      }
      op.bytes += f->bytes;
      op.errors += f->errors;
      op.lat.Merge(f->lat);
      op.slat.Merge(f->slat);
      op.clat.Merge(f->clat);
    }
    op.stonewall_valid = op.stonewall_repeats > 0;
    if (op.stonewall_valid) {
      op.stonewall_iops /= op.stonewall_repeats;
      op.stonewall_mib_s /= op.stonewall_repeats;
    }
    bool first = true;
    for (size_t i : column.repeats) {
      const OpFigures* f = figures[i].Find(kind);
      const double iops = f ? f->full_iops : 0, mib_s = f ? f->full_bytes_per_s / kMiB : 0;
      op.iops_min = first ? iops : std::min(op.iops_min, iops);
      op.iops_max = first ? iops : std::max(op.iops_max, iops);
      op.mib_s_min = first ? mib_s : std::min(op.mib_s_min, mib_s);
      op.mib_s_max = first ? mib_s : std::max(op.mib_s_max, mib_s);
      first = false;
    }
  }
  for (size_t i : chosen) {
    const ScenarioFigures& f = figures[i];
    column.io_iops += PerSecond(f.io_ops, static_cast<uint64_t>(f.full_window_ns)) / n;
    column.io_mib_s += PerSecond(f.io_bytes, static_cast<uint64_t>(f.full_window_ns)) / kMiB / n;
    if (f.stonewall_valid) {
      ++column.stonewall_io_repeats;
      const double window_s = static_cast<double>(f.stonewall_window_ns) / 1e9;
      column.stonewall_io_iops += f.stonewall_io_ops / window_s;
      column.stonewall_io_mib_s += f.stonewall_io_bytes / kMiB / window_s;
    }
  }
  if (column.stonewall_io_repeats > 0) {
    column.stonewall_io_iops /= column.stonewall_io_repeats;
    column.stonewall_io_mib_s /= column.stonewall_io_repeats;
  }
  for (size_t i : chosen) {
    column.max_agents = std::max(column.max_agents, figures[i].agents);
    column.max_start_skew_ns = std::max(column.max_start_skew_ns, figures[i].start_skew_ns);
    column.continue_on_error |= figures[i].continue_on_error;
    column.total_err += figures[i].total_err;
    if (column.first_error == 0) column.first_error = figures[i].first_error;
    for (const AgentJobResult& agent : input.scenarios[i].results) {
      if (!agent.result.cpu.measured()) continue;
      column.cpu.Merge(agent.result.cpu);
      for (const auto& stats : agent.result.by_kind) {
        if (stats) column.cpu_ops += stats->lat.count();
      }
    }
  }
}

}  // namespace

ReportInput MakeReportInput(std::string campaign_name, std::vector<AgentInfo> agents,
                            std::vector<ScenarioResult> scenarios, KeepPolicy keep, JobView view) {
  ReportInput input;
  input.campaign_name = std::move(campaign_name);
  input.agents = std::move(agents);
  input.scenarios =
      view == JobView::kPerJob ? SplitIntoReportedJobs(std::move(scenarios)) : std::move(scenarios);
  input.keep = keep;
  input.figures.reserve(input.scenarios.size());
  for (const auto& scenario : input.scenarios) input.figures.push_back(ComputeFigures(scenario));
  return input;
}

const std::vector<ScenarioFigures>& FiguresOf(const ReportInput& input,
                                              std::vector<ScenarioFigures>& storage) {
  if (input.figures.size() == input.scenarios.size()) return input.figures;
  storage.clear();
  storage.reserve(input.scenarios.size());
  for (const auto& scenario : input.scenarios) storage.push_back(ComputeFigures(scenario));
  return storage;
}

const KeptOp* TargetColumn::Find(OpKind kind) const {
  for (const auto& op : ops) {
    if (op.kind == kind) return &op;
  }
  return nullptr;
}

std::optional<double> TargetColumn::CpuNanosPerOp() const {
  if (!cpu.measured() || cpu_ops == 0) return std::nullopt;
  return static_cast<double>(cpu.user_ns + cpu.system_ns) / static_cast<double>(cpu_ops);
}

std::vector<ReportCell> BuildCells(const ReportInput& input,
                                   const std::vector<ScenarioFigures>& figures) {
  std::vector<ReportCell> cells;
  for (size_t i = 0; i < input.scenarios.size(); ++i) {
    const ScenarioResult& result = input.scenarios[i];
    const Scenario& s = result.scenario;
    auto cell = std::find_if(cells.begin(), cells.end(), [&](const ReportCell& c) {
      return c.workload == s.workload && c.parameters == s.parameters;
    });
    if (cell == cells.end()) {
      cell = cells.insert(cells.end(), ReportCell{s.workload, s.parameters, {}});
    }
    auto column = std::find_if(cell->targets.begin(), cell->targets.end(),
                               [&](const TargetColumn& t) { return t.target == s.target; });
    if (column == cell->targets.end()) {
      column = cell->targets.insert(cell->targets.end(), TargetColumn{});
      column->target = s.target;
    }
    if (HasData(result.status)) {
      column->repeats.push_back(i);
    } else {
      column->failed.push_back(i);
    }
  }
  for (auto& cell : cells) {
    for (auto& column : cell.targets) {
      std::stable_sort(column.repeats.begin(), column.repeats.end(), [&](size_t a, size_t b) {
        return input.scenarios[a].scenario.repeat < input.scenarios[b].scenario.repeat;
      });
      FillColumn(input, figures, column);
    }
  }
  return cells;
}

std::string FormatIops(double iops) {
  if (iops >= 999.5) {
    std::string digits = absl::StrFormat("%.0f", iops);
    std::string out;
    const size_t n = digits.size();
    for (size_t i = 0; i < n; ++i) {
      if (i > 0 && (n - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  }
  if (iops >= 99.95) return absl::StrFormat("%.0f", iops);
  if (iops >= 9.995) return absl::StrFormat("%.1f", iops);
  return absl::StrFormat("%.2f", iops);
}

std::string FormatMibPerSecond(double mib_s) {
  return mib_s >= 9.995 ? absl::StrFormat("%.1f", mib_s) : absl::StrFormat("%.2f", mib_s);
}

std::string ParametersText(const std::vector<std::pair<std::string, std::string>>& parameters) {
  std::string text;
  for (const auto& [key, value] : parameters) {
    if (!text.empty()) text += ", ";
    absl::StrAppend(&text, key, "=", value);
  }
  return text;
}

}  // namespace azbench
