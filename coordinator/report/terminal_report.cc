#include "coordinator/report/terminal_report.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/units.h"
#include "coordinator/report/cell_notes.h"
#include "coordinator/report/probe_percentiles.h"
#include "coordinator/report/scaling_rows.h"
#include "coordinator/report/stream_passes.h"
#include "coordinator/report/verify_rows.h"

namespace azbench {

namespace {

// The first `text_columns` columns (and the last one, a note, when `last_is_text`) are text,
// left-aligned; the others are numbers, right-aligned.
std::string Table(const std::vector<std::vector<std::string>>& rows, size_t text_columns = 4,
                  bool last_is_text = true) {
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], row[c].size());
  }
  std::string out;
  for (const auto& row : rows) {
    std::string line;
    for (size_t c = 0; c < row.size(); ++c) {
      if (c > 0) line += "  ";
      const std::string pad(widths[c] - row[c].size(), ' ');
      const bool left = c < text_columns || (last_is_text && c + 1 == row.size());
      line += left ? row[c] + pad : pad + row[c];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

// large_stream's passes (stream_passes.h), one row per agent and an "all agents" row.
std::string PassesSection(const ReportInput& input, const std::vector<ReportCell>& cells) {
  std::vector<std::vector<std::string>> rows;
  for (const ReportCell& cell : cells) {
    const StreamPassTable table = BuildStreamPassTable(input, cell);
    if (table.rows.empty()) continue;
    if (!rows.empty()) rows.push_back({});
    std::vector<std::string> header = {"workload", "parameters", "target",
                                       "repeat",   "job",        "agent"};
    for (int p = 1; p <= table.passes; ++p) header.push_back(absl::StrCat("pass ", p));
    header.push_back("mean");
    rows.push_back(std::move(header));
    const std::string parameters = ParametersText(cell.parameters);
    for (const StreamPassRow& row : table.rows) {
      std::vector<std::string> line = {
          cell.workload, parameters, row.target, absl::StrCat(row.repeat), row.job, row.who};
      for (const auto& v : row.mib_s) line.push_back(FormatPassMibPerSecond(v));
      line.push_back(FormatPassMibPerSecond(row.mean_mib_s));
      rows.push_back(std::move(line));
    }
  }
  if (rows.empty()) return "";
  return absl::StrCat(
      "\nlarge_stream MiB/s per pass (mean: of the passes; all agents: the pass's bytes over its "
      "window, first start to last end)\n",
      Table(rows, 6, false));
}

// The scaling rows (scaling_rows.h), the same figures as the Markdown, CSV, JSON and HTML tables.
std::string ScalingSection(const std::vector<ScalingRow>& scaling) {
  if (scaling.empty()) return "";
  std::vector<std::vector<std::string>> rows = {
      {"workload", "parameters", "target", "axis", "agents", "aggregate", "stonewall", "p99",
       "per-agent min", "per-agent max", "CoV", "start skew", "efficiency", "sw efficiency"}};
  auto percent = [](const std::optional<double>& f) {
    return f ? absl::StrFormat("%.0f%%", *f * 100) : std::string("-");
  };
  for (const ScalingRow& row : scaling) {
    auto fmt = [&](double v) {
      return row.moves_bytes ? absl::StrCat(FormatMibPerSecond(v), " MiB/s")
                             : absl::StrCat(FormatIops(v), " IOPS");
    };
    rows.push_back(
        {row.workload, row.where, row.target, row.nodes,
         absl::StrCat(row.agents, row.partial ? " (partial)" : ""),
         fmt(row.moves_bytes ? row.full_mib_s : row.full_iops),
         row.stonewall_valid ? fmt(row.moves_bytes ? row.stonewall_mib_s : row.stonewall_iops)
                             : "-",
         row.has_latency ? FormatNanos(static_cast<double>(row.p99_ns)) : "-",
         fmt(row.fairness.min), fmt(row.fairness.max), absl::StrFormat("%.3f", row.fairness.cv),
         FormatNanos(static_cast<double>(row.start_skew_ns)),
         row.efficiency ? percent(row.efficiency) : "no N=1 run",
         percent(row.stonewall_efficiency)});
  }
  return absl::StrCat(
      "\nscaling (aggregate: all agents together; efficiency = aggregate(N) / (N x aggregate(1)) "
      "from the one-agent run)\n",
      Table(rows, 4, false));
}

// Data verification (verify_rows.h), one row per agent of each scenario that verifies.
std::string VerifySection(const ReportInput& input) {
  const std::vector<VerifyRow> verify = BuildVerifyRows(input);
  if (verify.empty()) return "";
  std::vector<std::vector<std::string>> rows = {{"workload", "parameters", "target", "repeat",
                                                 "job", "agent", "AZ", "role", "blocks",
                                                 "mismatches", "first offsets"}};
  for (const VerifyRow& row : verify) {
    const Scenario& s = input.scenarios[row.scenario].scenario;
    rows.push_back({s.workload, ParametersText(s.parameters), s.target, absl::StrCat(s.repeat),
                    row.job, row.agent_id, row.az.empty() ? "-" : row.az, row.role,
                    absl::StrCat(row.blocks_verified), absl::StrCat(row.mismatches),
                    VerifyOffsetsText(row)});
  }
  return absl::StrCat("\nverify\n", Table(rows, 8, true));
}

}  // namespace

std::string RenderTerminalReport(const ReportInput& input) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);

  std::vector<std::vector<std::string>> rows = {{"workload", "parameters", "target", "op", "IOPS",
                                                 "MiB/s", "mean", "p99", "max", "errors", "cpu/op",
                                                 "agents", "note"}};
  const std::vector<ReportCell> cells = BuildCells(input, figures);
  for (const ReportCell& cell : cells) {
    const std::string parameters = ParametersText(cell.parameters);
    for (const TargetColumn& column : cell.targets) {
      std::string note;
      if (column.repeats.size() > 1) {
        note = absl::StrCat(column.repeats.size(), " repeats (",
                            std::string(KeepPolicyName(input.keep)), ")");
      }
      if (column.partial) note += note.empty() ? "partial" : ", partial";
      if (column.repeats.empty()) {
        rows.push_back({cell.workload, parameters, column.target, "-", "", "", "", "", "", "", "",
                        "", "no results"});
        continue;
      }
      // The job threads' CPU per op covers every op kind of the target: shown once, on its first
      // row.
      const std::optional<double> cpu_ns_per_op = column.CpuNanosPerOp();
      bool first_op = true;
      for (const KeptOp& op : column.ops) {
        const bool has_lat = op.lat.count() > 0;
        std::string p99 = has_lat ? FormatNanos(static_cast<double>(op.lat.Percentile(99))) : "-";
        std::string max = has_lat ? FormatNanos(static_cast<double>(op.lat.max_ns())) : "-";
        std::string mean = has_lat ? FormatNanos(op.lat.mean_ns()) : "-";
        if (op.kind == OpKind::kProbe) {
          // Over every trial that ended: the timed-out ones read as ">= <timeout>", and make the
          // mean a lower bound.
          const ProbeTrials trials = ProbeTrialsOf(input, column.kept, "");
          p99 = FormatProbePercentile(op.lat, trials, 99);
          max = FormatProbePercentile(op.lat, trials, 100);
          mean = FormatProbeFigure(ProbeMeanFigure(op.lat, trials));
        }
        std::string cpu_per_op;
        if (first_op) cpu_per_op = cpu_ns_per_op ? FormatNanos(*cpu_ns_per_op) : "-";
        first_op = false;
        rows.push_back({cell.workload, parameters, column.target, std::string(OpKindName(op.kind)),
                        FormatIops(op.iops), op.bytes > 0 ? FormatMibPerSecond(op.mib_s) : "-",
                        mean, p99, max, absl::StrCat(op.errors), cpu_per_op,
                        absl::StrCat(column.max_agents), note});
      }
    }
  }
  std::string out = Table(rows);
  out += PassesSection(input, cells);
  out += ScalingSection(BuildScalingRows(input, cells));
  out += VerifySection(input);

  // The jobs' warnings, as the Markdown report lists them under each cell (cell_notes.h); the
  // status notes are the problem lines below.
  std::string warnings;
  for (const ReportCell& cell : cells) {
    const std::string parameters = ParametersText(cell.parameters);
    for (const CellNote& note : BuildCellNotes(input, figures, cell)) {
      if (!note.warning) continue;
      absl::StrAppend(&warnings, cell.workload, parameters.empty() ? "" : " (", parameters,
                      parameters.empty() ? "" : ")", ": ", note.text, "\n");
    }
  }
  if (!warnings.empty()) absl::StrAppend(&out, "\nwarnings\n", warnings);

  int counts[4] = {0, 0, 0, 0};
  std::string problems;
  for (const ScenarioResult& r : input.scenarios) {
    ++counts[static_cast<int>(r.status)];
    if (r.status == ScenarioStatus::kComplete) continue;
    absl::StrAppend(&problems, ScenarioStatusName(r.status), ": ", r.scenario.key);
    if (!r.status_detail.empty()) absl::StrAppend(&problems, ": ", r.status_detail);
    for (const LostAgent& lost : r.lost) {
      absl::StrAppend(&problems, "; lost ", lost.agent_id,
                      lost.reason.empty() ? "" : absl::StrCat(" (", lost.reason, ")"));
    }
    problems += "\n";
  }
  absl::StrAppend(&out, "\n", problems, input.scenarios.size(), " scenarios: ", counts[0],
                  " complete, ", counts[1], " partial, ", counts[2], " failed, ", counts[3],
                  " skipped\n");
  return out;
}

}  // namespace azbench
