#include "coordinator/report/markdown_report.h"

#include <algorithm>
#include <functional>
#include <set>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/units.h"
#include "coordinator/report/scaling_rows.h"

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

std::string Ratio(double ratio) {
  return ratio >= 99.5 ? absl::StrFormat("%.0fx", ratio) : absl::StrFormat("%.1fx", ratio);
}

struct Value {
  bool present = false;
  double number = 0;
  std::string text;
};

// "efs 4.5x": the best of `values` (columns in order) and its ratio to the runner-up.
std::string Fastest(const std::vector<std::string>& names, const std::vector<Value>& values,
                    bool higher_is_better) {
  std::vector<size_t> order;
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].present) order.push_back(i);
  }
  if (order.size() < 2) return "-";
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return higher_is_better ? values[a].number > values[b].number
                            : values[a].number < values[b].number;
  });
  const double best = values[order[0]].number, second = values[order[1]].number;
  const std::string name = Escape(names[order[0]]);
  if (best == second) return absl::StrCat("tie (", name, ", ", Escape(names[order[1]]), ")");
  if (higher_is_better) return second > 0 ? absl::StrCat(name, " ", Ratio(best / second)) : name;
  return best > 0 ? absl::StrCat(name, " ", Ratio(second / best)) : name;
}

struct Row {
  std::string label;
  bool compare = true;  // has a "fastest" entry
  bool higher_is_better = true;
  std::vector<Value> values;
};

std::string RelativeSeconds(int64_t at_ns, int64_t origin_ns) {
  if (origin_ns == 0 || at_ns == 0) return "";
  return absl::StrFormat(" at +%.1fs", static_cast<double>(at_ns - origin_ns) / 1e9);
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
    std::vector<OpKind> kinds;
    for (int k = 0; k < kOpKindCount; ++k) {
      for (const TargetColumn* column : columns) {
        if (column->Find(static_cast<OpKind>(k)) != nullptr) {
          kinds.push_back(static_cast<OpKind>(k));
          break;
        }
      }
    }
    bool several_agents = false;
    for (const TargetColumn* column : columns) several_agents |= column->max_agents > 1;

    std::vector<Row> rows;
    auto add_row = [&](const std::string& label, bool compare, bool higher_is_better,
                       const std::function<Value(const TargetColumn&, const KeptOp&)>& value,
                       OpKind kind) {
      Row row{label, compare, higher_is_better, {}};
      bool any = false;
      for (const TargetColumn* column : columns) {
        const KeptOp* op = column->Find(kind);
        row.values.push_back(op != nullptr ? value(*column, *op) : Value{});
        any |= row.values.back().present;
      }
      if (any) rows.push_back(std::move(row));
    };
    auto throughput = [](double value, double min, double max, size_t repeats,
                         std::string (*format)(double)) {
      std::string text = format(value);
      if (repeats > 1) absl::StrAppend(&text, " [", format(min), "-", format(max), "]");
      return Value{true, value, text};
    };
    auto latency = [](const Histogram& h, double p) {
      if (h.count() == 0) return Value{};
      const double ns = p < 0 ? h.mean_ns() : static_cast<double>(h.Percentile(p));
      return Value{true, ns, FormatNanos(ns)};
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
          return op.stonewall_valid ? Value{true, v, format(v)} : Value{};
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
            [&, p = p](const TargetColumn&, const KeptOp& op) { return latency(op.lat, p); }, kind);
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
              return Value{true, static_cast<double>(op.errors), absl::StrCat(op.errors)};
            },
            kind);
      }
    }
    Row agents{"agents", false, false, {}}, skew{"start skew", false, false, {}};
    for (const TargetColumn* column : columns) {
      agents.values.push_back(Value{true, 0, absl::StrCat(column->max_agents)});
      skew.values.push_back(
          Value{true, 0, FormatNanos(static_cast<double>(column->max_start_skew_ns))});
    }
    rows.push_back(std::move(agents));
    rows.push_back(std::move(skew));

    out += "| metric |";
    for (const TargetColumn* column : columns) {
      absl::StrAppend(&out, " ", Escape(column->target), column->partial ? " (partial)" : "", " |");
    }
    out += " fastest |\n|---|";
    for (size_t i = 0; i < columns.size(); ++i) out += "---:|";
    out += "---|\n";
    for (const Row& row : rows) {
      absl::StrAppend(&out, "| ", row.label, " |");
      for (const Value& v : row.values) absl::StrAppend(&out, " ", v.present ? v.text : "-", " |");
      absl::StrAppend(&out, " ",
                      row.compare ? Fastest(names, row.values, row.higher_is_better) : "", " |\n");
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
  } else {
    out += "No results.\n\n";
  }

  // Notes: partial, failed and skipped scenarios, and the jobs' warnings.
  std::vector<std::string> notes;
  std::set<std::string> warnings_seen;
  for (const auto& column : cell.targets) {
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
        notes.push_back(Escape(note));
      }
      for (const AgentJobResult& job : r.results) {
        for (const std::string& warning : job.result.warnings) {
          if (warnings_seen.insert(absl::StrCat(column.target, "\n", warning)).second) {
            notes.push_back(Escape(absl::StrCat("warning (", column.target, "): ", warning)));
          }
        }
      }
    }
  }
  for (const std::string& note : notes) absl::StrAppend(&out, "- ", note, "\n");
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
  out += RenderScalingMarkdown(BuildScalingRows(input, cells, figures));

  if (!input.agents.empty()) {
    out += "## Agents\n\n| agent | host | AZ | AZ id | instance | version | clock offset |\n";
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
