#include "coordinator/report/markdown_report.h"

#include <algorithm>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/units.h"
#include "coordinator/report/cell_notes.h"
#include "coordinator/report/comparison_rows.h"
#include "coordinator/report/scaling_rows.h"
#include "coordinator/report/stream_passes.h"
#include "coordinator/report/verify_rows.h"

namespace azbench {

namespace {

// Pipes would end a table cell; newlines would end the row.
std::string Escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '|') {
      out += "\\|";
    } else if (c == '\n' || c == '\r') {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// large_stream: MiB/s per pass (stream_passes.h).
void RenderPasses(const ReportInput& input, const ReportCell& cell, std::string& out) {
  const StreamPassTable table = BuildStreamPassTable(input, cell);
  if (table.rows.empty()) return;
  out += "MiB/s per pass:\n\n| target | repeat | job | agent |";
  for (int p = 1; p <= table.passes; ++p) absl::StrAppend(&out, " pass ", p, " |");
  out += " mean |\n|---|---:|---|---|";
  for (int p = 0; p <= table.passes; ++p) out += "---:|";
  out += "\n";
  for (const StreamPassRow& row : table.rows) {
    absl::StrAppend(&out, "| ", Escape(row.target), " | ", row.repeat, " | ", Escape(row.job),
                    " | ", row.aggregate ? "**all agents**" : Escape(row.who), " |");
    for (const auto& v : row.mib_s) absl::StrAppend(&out, " ", FormatPassMibPerSecond(v), " |");
    absl::StrAppend(&out, " ", FormatPassMibPerSecond(row.mean_mib_s), " |\n");
  }
  out +=
      "\nPer agent: the pass's bytes / its runtime; mean: of the passes; all agents: the bytes of "
      "every agent's pass over the pass's window (first start to last end).\n\n";
}

void RenderCell(const ReportInput& input, const std::vector<ScenarioFigures>& figures,
                const ReportCell& cell, std::string& out) {
  const std::string parameters = ParametersText(cell.parameters);
  absl::StrAppend(&out, "## ", Escape(cell.workload),
                  parameters.empty() ? "" : absl::StrCat(" (", parameters, ")"), "\n\n");

  std::vector<std::string> names;
  std::vector<const TargetColumn*> columns;
  for (const auto& column : cell.targets) {
    if (column.repeats.empty()) continue;  // only failed or skipped: listed below
    names.push_back(column.target);
    columns.push_back(&column);
  }

  if (!columns.empty()) {
    const std::vector<ComparisonRow> rows = BuildComparisonRows(columns, &input);
    std::vector<std::string> escaped_names;
    for (const std::string& name : names) escaped_names.push_back(Escape(name));

    out += "| metric |";
    for (const TargetColumn* column : columns) {
      absl::StrAppend(&out, " ", Escape(column->target), column->partial ? " (partial)" : "", " |");
    }
    out += " fastest |\n|---|";
    for (size_t i = 0; i < columns.size(); ++i) out += "---:|";
    out += "---|\n";
    for (const ComparisonRow& row : rows) {
      absl::StrAppend(&out, "| ", row.label, " |");
      for (const ComparisonValue& v : row.values) {
        absl::StrAppend(&out, " ", v.present ? v.text : "-", " |");
      }
      absl::StrAppend(
          &out, " ",
          row.compare ? FastestTarget(escaped_names, row.values, row.higher_is_better).second : "",
          " |\n");
    }
    out += "\n";

    size_t most_repeats = 0;
    for (const TargetColumn* column : columns) {
      most_repeats = std::max(most_repeats, column->repeats.size());
    }
    if (most_repeats > 1) {
      switch (input.keep) {
        case KeepPolicy::kAll:
          absl::StrAppend(&out, "IOPS and MiB/s: mean of up to ", most_repeats,
                          " repeats (keep: all); latencies from the histograms of all repeats "
                          "merged. [min-max] over repeats.\n\n");
          break;
        case KeepPolicy::kLast:
          absl::StrAppend(&out, "Figures of the last of up to ", most_repeats,
                          " repeats (keep: last). [min-max] over repeats.\n\n");
          break;
        case KeepPolicy::kMedian:
          absl::StrAppend(&out, "Figures of the median of up to ", most_repeats,
                          " repeats by throughput (keep: median). [min-max] over repeats.\n\n");
          break;
      }
    }
    RenderPasses(input, cell, out);
  } else {
    out += "No results.\n\n";
  }

  // Notes: partial, failed and skipped scenarios, and the jobs' warnings (cell_notes.h).
  const std::vector<CellNote> notes = BuildCellNotes(input, figures, cell);
  for (const CellNote& note : notes) absl::StrAppend(&out, "- ", Escape(note.text), "\n");
  if (!notes.empty()) out += "\n";
}

}  // namespace

std::string RenderMarkdownReport(const ReportInput& input) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);

  std::string out = absl::StrCat("# azbench report: ", Escape(input.campaign_name), "\n\n");
  int counts[4] = {0, 0, 0, 0};
  for (const auto& r : input.scenarios) ++counts[static_cast<int>(r.status)];
  std::vector<std::string> azs;
  for (const auto& agent : input.agents) {
    if (!agent.availability_zone.empty() &&
        std::find(azs.begin(), azs.end(), agent.availability_zone) == azs.end()) {
      azs.push_back(agent.availability_zone);
    }
  }
  absl::StrAppend(&out, input.scenarios.size(), " scenarios: ", counts[0], " complete, ", counts[1],
                  " partial, ", counts[2], " failed, ", counts[3], " skipped. ",
                  input.agents.size(), input.agents.size() == 1 ? " agent" : " agents");
  if (!azs.empty()) absl::StrAppend(&out, " in ", absl::StrJoin(azs, ", "));
  absl::StrAppend(&out, ". Repeats: keep ", std::string(KeepPolicyName(input.keep)), ".\n\n");

  const std::vector<ReportCell> cells = BuildCells(input, figures);
  for (const ReportCell& cell : cells) RenderCell(input, figures, cell, out);
  out += RenderScalingMarkdown(BuildScalingRows(input, cells));
  if (const std::vector<VerifyRow> verify = BuildVerifyRows(input); !verify.empty()) {
    out +=
        "## Verify\n\nBlocks each agent read back and checked, verify intervals that failed and "
        "the first offsets (bytes into the file).\n\n| workload | parameters | target | repeat | "
        "job | agent | AZ | role | blocks | mismatches | first offsets |\n";
    out += "|---|---|---|---:|---|---|---|---|---:|---:|---|\n";
    for (const VerifyRow& row : verify) {
      const Scenario& s = input.scenarios[row.scenario].scenario;
      absl::StrAppend(&out, "| ", Escape(s.workload), " | ", Escape(ParametersText(s.parameters)),
                      " | ", Escape(s.target), " | ", s.repeat, " | ", Escape(row.job), " | ",
                      Escape(row.agent_id), " | ", Escape(row.az), " | ", row.role, " | ",
                      row.blocks_verified, " | ", row.mismatches, " | ", VerifyOffsetsText(row),
                      " |\n");
    }
    out += "\n";
  }

  if (!input.agents.empty()) {
    out +=
        "## Agents\n\n| agent | host | AZ | AZ id | instance | version | clock offset at connect "
        "|\n";
    out += "|---|---|---|---|---|---|---:|\n";
    for (const AgentInfo& a : input.agents) {
      absl::StrAppend(&out, "| ", Escape(a.agent_id), " | ", Escape(a.hostname), " | ",
                      Escape(a.availability_zone), " | ", Escape(a.availability_zone_id), " | ",
                      Escape(a.instance_type), " | ", Escape(a.version), " | ",
                      FormatNanos(static_cast<double>(a.clock_offset_ns)), " ± ",
                      FormatNanos(static_cast<double>(a.clock_rtt_ns) / 2), " |\n");
    }
    out += "\n";
  }
  return out;
}

}  // namespace azbench
