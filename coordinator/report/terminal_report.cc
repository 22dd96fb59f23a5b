#include "coordinator/report/terminal_report.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/units.h"

namespace azbench {

namespace {

// Columns after the first four are numbers, right-aligned.
constexpr size_t kTextColumns = 4;

std::string Table(const std::vector<std::vector<std::string>>& rows) {
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
      const bool left = c < kTextColumns || c + 1 == row.size();  // the note is text too
      line += left ? row[c] + pad : pad + row[c];
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

}  // namespace

std::string RenderTerminalReport(const ReportInput& input) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);

  std::vector<std::vector<std::string>> rows = {{"workload", "parameters", "target", "op", "IOPS",
                                                 "MiB/s", "mean", "p99", "max", "errors", "agents",
                                                 "note"}};
  for (const ReportCell& cell : BuildCells(input, figures)) {
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
                        "no results"});
        continue;
      }
      for (const KeptOp& op : column.ops) {
        const bool has_lat = op.lat.count() > 0;
        rows.push_back({cell.workload, parameters, column.target, std::string(OpKindName(op.kind)),
                        FormatIops(op.iops), op.bytes > 0 ? FormatMibPerSecond(op.mib_s) : "-",
                        has_lat ? FormatNanos(op.lat.mean_ns()) : "-",
                        has_lat ? FormatNanos(static_cast<double>(op.lat.Percentile(99))) : "-",
                        has_lat ? FormatNanos(static_cast<double>(op.lat.max_ns())) : "-",
                        absl::StrCat(op.errors), absl::StrCat(column.max_agents), note});
      }
    }
  }
  std::string out = Table(rows);

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
