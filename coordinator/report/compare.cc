#include "coordinator/report/compare.h"

#include <algorithm>
#include <functional>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/stats.h"
#include "common/units.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/report/cell_notes.h"
#include "coordinator/report/probe_percentiles.h"

namespace azbench {

namespace {

std::string CellLabel(const std::string& workload,
                      const std::vector<std::pair<std::string, std::string>>& parameters) {
  const std::string p = ParametersText(parameters);
  return p.empty() ? workload : absl::StrCat(workload, " (", p, ")");
}

// The column of `target` in the cell like `like`; with `with_data`, only one with data.
const TargetColumn* FindColumn(const std::vector<ReportCell>& cells, const ReportCell& like,
                               const std::string& target, bool with_data = true) {
  for (const ReportCell& cell : cells) {
    if (cell.workload != like.workload || cell.parameters != like.parameters) continue;
    for (const TargetColumn& c : cell.targets) {
      if (c.target == target && (!with_data || !c.repeats.empty())) return &c;
    }
  }
  return nullptr;
}

// The reports' status notes (cell_notes.h) of the column's scenarios that did not complete.
std::vector<std::string> StatusNotes(const ReportInput& input,
                                     const std::vector<ScenarioFigures>& figures,
                                     const ReportCell& cell, const TargetColumn& column) {
  std::vector<std::string> out;
  const ReportCell one{cell.workload, cell.parameters, {column}};
  for (const CellNote& note : BuildCellNotes(input, figures, one)) {
    if (!note.warning) out.push_back(note.text);
  }
  return out;
}

// "workload (params) target", and the other side's notes when it has the column without data.
std::string UnmatchedLabel(const ReportCell& cell, const std::string& target,
                           const char* other_side, const ReportInput& other,
                           const std::vector<ScenarioFigures>& other_figures,
                           const std::vector<ReportCell>& other_cells) {
  std::string label = absl::StrCat(CellLabel(cell.workload, cell.parameters), " ", target);
  if (const TargetColumn* column = FindColumn(other_cells, cell, target, /*with_data=*/false)) {
    for (const ReportCell& c : other_cells) {
      if (c.workload != cell.workload || c.parameters != cell.parameters) continue;
      for (const std::string& note : StatusNotes(other, other_figures, c, *column)) {
        absl::StrAppend(&label, " (", other_side, ": ", note, ")");
      }
    }
  }
  return label;
}

struct MetricSpec {
  std::string name;
  bool higher_is_better;
  bool latency;
  double percentile;  // latency metrics: the percentile, -1 for the mean
  std::function<std::optional<double>(const KeptOp&)> kept;
  std::function<std::optional<double>(const OpFigures&)> repeat;
};

std::vector<MetricSpec> Metrics(bool bytes) {
  std::vector<MetricSpec> specs;
  specs.push_back({"IOPS", true, false, 0, [](const KeptOp& op) { return op.iops; },
                   [](const OpFigures& f) { return f.full_iops; }});
  if (bytes) {
    specs.push_back({"MiB/s", true, false, 0, [](const KeptOp& op) { return op.mib_s; },
                     [](const OpFigures& f) { return f.full_bytes_per_s / kMiB; }});
  }
  auto latency = [](double p) {
    return [p](const Histogram& h) -> std::optional<double> {
      if (h.count() == 0) return std::nullopt;
      return p < 0 ? h.mean_ns() : static_cast<double>(h.Percentile(p));
    };
  };
  const std::pair<const char*, double> percentiles[] = {
      {"mean lat", -1}, {"p50", 50}, {"p99", 99}, {"p99.9", 99.9}};
  for (const auto& [name, p] : percentiles) {
    auto of = latency(p);
    specs.push_back({name, false, true, p, [of](const KeptOp& op) { return of(op.lat); },
                     [of](const OpFigures& f) { return of(f.lat); }});
  }
  return specs;
}

// A visibility probe's latency figure over the trials that ended (probe_percentiles.h): visible
// samples and timed-out trials; nullopt when there is no number.
std::optional<ProbeFigure> ProbeLatency(const Histogram& visible, const ProbeTrials& trials,
                                        double percentile) {
  const ProbeFigure f = percentile < 0 ? ProbeMeanFigure(visible, trials)
                                       : ProbePercentileFigure(visible, trials, percentile);
  if (!f.ns) return std::nullopt;
  return f;
}

// Per-repeat values of one probe latency metric, and whether any is only a lower bound.
std::vector<double> ProbeRepeatValues(const ReportInput& input, const TargetColumn& column,
                                      const std::vector<ScenarioFigures>& figures,
                                      double percentile, bool* any_bound) {
  std::vector<double> values;
  for (size_t i : column.repeats) {
    const OpFigures* f = figures[i].Find(OpKind::kProbe);
    if (f == nullptr) continue;
    if (std::optional<ProbeFigure> v =
            ProbeLatency(f->lat, ProbeTrialsOf(input, {i}, ""), percentile)) {
      values.push_back(*v->ns);
      *any_bound = *any_bound || v->lower_bound;
    }
  }
  return values;
}

// Per-repeat values of one metric: a repeat without the op kind counts 0 for throughput (as
// report_input's ranges) and is left out for latency.
std::vector<double> RepeatValues(const TargetColumn& column,
                                 const std::vector<ScenarioFigures>& figures, OpKind kind,
                                 const MetricSpec& spec) {
  std::vector<double> values;
  for (size_t i : column.repeats) {
    const OpFigures* f = figures[i].Find(kind);
    if (f == nullptr) {
      if (!spec.latency) values.push_back(0);
      continue;
    }
    if (std::optional<double> v = spec.repeat(*f)) values.push_back(*v);
  }
  return values;
}

std::string FormatValue(const MetricComparison& m, double v) {
  if (m.latency) return FormatNanos(v);
  return m.metric.find("MiB/s") != std::string::npos ? FormatMibPerSecond(v) : FormatIops(v);
}

std::string FormatDelta(const MetricComparison& m) {
  if (m.delta == 0) return "0";
  const std::string magnitude = FormatValue(m, std::fabs(m.delta));
  return absl::StrCat(m.delta < 0 ? "-" : "+", magnitude);
}

std::string WithRange(const MetricComparison& m, double value, const std::vector<double>& r,
                      bool lower_bound = false) {
  std::string text = absl::StrCat(lower_bound ? ">= " : "", FormatValue(m, value));
  if (r.size() > 1) {
    const auto [lo, hi] = std::minmax_element(r.begin(), r.end());
    absl::StrAppend(&text, " [", FormatValue(m, *lo), "-", FormatValue(m, *hi), "]");
  }
  return text;
}

// The reports' mark of a partial target, after a side's value.
std::string PartialMark(bool partial) { return partial ? " (partial)" : ""; }

std::vector<std::vector<std::string>> Rows(const Comparison& c) {
  std::vector<std::vector<std::string>> rows;
  rows.push_back({"scenario", "target", "metric", "A", "B", "delta", "ratio B/A", "verdict"});
  for (const ScenarioComparison& s : c.matched) {
    for (const MetricComparison& m : s.metrics) {
      rows.push_back({CellLabel(s.workload, s.parameters), s.target, m.metric,
                      WithRange(m, m.a, m.a_repeats, m.a_lower_bound) + PartialMark(s.a_partial),
                      WithRange(m, m.b, m.b_repeats, m.b_lower_bound) + PartialMark(s.b_partial),
                      m.a_lower_bound || m.b_lower_bound ? "-" : FormatDelta(m),
                      m.ratio && !m.a_lower_bound && !m.b_lower_bound
                          ? absl::StrFormat("%.2fx", *m.ratio)
                          : "-",
                      CompareVerdictName(m.verdict)});
    }
  }
  return rows;
}

std::string Summary(const Comparison& c) {
  int n = 0, better = 0, worse = 0, within = 0, unknown = 0, bounds = 0;
  for (const ScenarioComparison& s : c.matched) {
    for (const MetricComparison& m : s.metrics) {
      ++n;
      switch (m.verdict) {
        case CompareVerdict::kBetter:
          ++better;
          break;
        case CompareVerdict::kWorse:
          ++worse;
          break;
        case CompareVerdict::kWithinSpread:
          ++within;
          break;
        case CompareVerdict::kNoSpreadKnown:
          ++unknown;
          break;
        case CompareVerdict::kLowerBoundsOnly:
          ++bounds;
          break;
      }
    }
  }
  return absl::StrCat(c.matched.size(), " matching scenarios, ", n, " figures: ", better + worse,
                      " flagged (B better: ", better, ", B worse: ", worse, "), ", within,
                      " within the spread of the repeats, ", unknown,
                      " with no spread known (fewer than 2 repeats on a side)",
                      bounds > 0 ? absl::StrCat(", ", bounds,
                                                " undecided: lower bounds only (visibility trials "
                                                "that timed out)")
                                 : "",
                      ".");
}

std::string Header(const Comparison& c) {
  return absl::StrCat("A: ", c.a_name, "\nB: ", c.b_name, "\n");
}

// Each matched scenario's sides that did not complete: "A partial: <key>: <detail>".
std::string NotComplete(const Comparison& c, const std::string& bullet) {
  std::string out;
  for (const ScenarioComparison& s : c.matched) {
    for (const std::string& note : s.a_notes) absl::StrAppend(&out, bullet, "A ", note, "\n");
    for (const std::string& note : s.b_notes) absl::StrAppend(&out, bullet, "B ", note, "\n");
  }
  return out;
}

std::string Unmatched(const Comparison& c, const std::string& bullet) {
  std::string out = NotComplete(c, bullet);
  for (const std::string& s : c.only_a) absl::StrAppend(&out, bullet, "only in A: ", s, "\n");
  for (const std::string& s : c.only_b) absl::StrAppend(&out, bullet, "only in B: ", s, "\n");
  return out;
}

constexpr char kRule[] =
    "A difference is flagged only when both sides have at least 2 repeats and their min-max "
    "ranges over the repeats do not overlap.";

}  // namespace

absl::StatusOr<StoredReport> LoadStoredReport(const std::string& path,
                                              std::optional<KeepPolicy> keep, JobView view) {
  absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(path);
  if (!store.ok()) return store.status();
  StoredReport report;
  absl::StatusOr<CampaignRecord> record = (*store)->LoadCampaign();
  if (!record.ok()) return record.status();
  report.campaign = std::move(*record);
  absl::StatusOr<std::vector<AgentInfo>> agents = (*store)->LoadAgents();
  if (!agents.ok()) return agents.status();
  absl::StatusOr<std::vector<ScenarioResult>> scenarios = (*store)->LoadScenarios();
  if (!scenarios.ok()) return scenarios.status();
  KeepPolicy policy = KeepPolicy::kAll;
  if (absl::StatusOr<Campaign> c =
          ParseCampaign(report.campaign.campaign_yaml, report.campaign.file);
      c.ok()) {
    policy = c->keep;
  }
  if (keep) policy = *keep;
  report.input = MakeReportInput(report.campaign.name, std::move(*agents), std::move(*scenarios),
                                 policy, view);
  return report;
}

const char* CompareVerdictName(CompareVerdict verdict) {
  switch (verdict) {
    case CompareVerdict::kNoSpreadKnown:
      return "no spread known";
    case CompareVerdict::kWithinSpread:
      return "within spread";
    case CompareVerdict::kBetter:
      return "B better";
    case CompareVerdict::kWorse:
      return "B worse";
    case CompareVerdict::kLowerBoundsOnly:
      return "lower bounds only";
  }
  return "";
}

CompareVerdict Judge(const std::vector<double>& a_repeats, const std::vector<double>& b_repeats,
                     bool higher_is_better, bool a_lower_bounds, bool b_lower_bounds) {
  if (a_repeats.size() < 2 || b_repeats.size() < 2) return CompareVerdict::kNoSpreadKnown;
  const auto [a_lo, a_hi] = std::minmax_element(a_repeats.begin(), a_repeats.end());
  const auto [b_lo, b_hi] = std::minmax_element(b_repeats.begin(), b_repeats.end());
  // A lower bound's true value is at least it: B is surely higher only when A's values are exact,
  // surely lower only when B's are.
  const bool b_higher = *b_lo > *a_hi && !a_lower_bounds;
  const bool b_lower = *b_hi < *a_lo && !b_lower_bounds;
  if (!b_higher && !b_lower) {
    return a_lower_bounds || b_lower_bounds ? CompareVerdict::kLowerBoundsOnly
                                            : CompareVerdict::kWithinSpread;
  }
  return b_higher == higher_is_better ? CompareVerdict::kBetter : CompareVerdict::kWorse;
}

Comparison CompareReports(const ReportInput& a, const ReportInput& b) {
  Comparison out;
  out.a_name = a.campaign_name;
  out.b_name = b.campaign_name;
  std::vector<ScenarioFigures> a_storage, b_storage;
  const std::vector<ScenarioFigures>& fa = FiguresOf(a, a_storage);
  const std::vector<ScenarioFigures>& fb = FiguresOf(b, b_storage);
  const std::vector<ReportCell> cells_a = BuildCells(a, fa);
  const std::vector<ReportCell> cells_b = BuildCells(b, fb);

  for (const ReportCell& cell : cells_a) {
    for (const TargetColumn& ca : cell.targets) {
      if (ca.repeats.empty()) continue;
      const TargetColumn* cb = FindColumn(cells_b, cell, ca.target);
      if (cb == nullptr) {
        out.only_a.push_back(UnmatchedLabel(cell, ca.target, "B", b, fb, cells_b));
        continue;
      }
      ScenarioComparison s;
      s.workload = cell.workload;
      s.parameters = cell.parameters;
      s.target = ca.target;
      s.a_partial = ca.partial;
      s.b_partial = cb->partial;
      s.a_notes = StatusNotes(a, fa, cell, ca);
      for (const ReportCell& cell_b : cells_b) {
        if (cell_b.workload == cell.workload && cell_b.parameters == cell.parameters) {
          s.b_notes = StatusNotes(b, fb, cell_b, *cb);
        }
      }
      std::vector<OpKind> kinds;
      for (const KeptOp& op : ca.ops) {
        if (cb->Find(op.kind) != nullptr) kinds.push_back(op.kind);
      }
      for (OpKind kind : kinds) {
        const KeptOp& oa = *ca.Find(kind);
        const KeptOp& ob = *cb->Find(kind);
        const std::string prefix = kinds.size() > 1 || kind != OpKind::kRead
                                       ? absl::StrCat(std::string(OpKindName(kind)), " ")
                                       : "";
        for (const MetricSpec& spec : Metrics(oa.bytes > 0 || ob.bytes > 0)) {
          MetricComparison m;
          m.metric = prefix + spec.name;
          m.higher_is_better = spec.higher_is_better;
          m.latency = spec.latency;
          if (kind == OpKind::kProbe && spec.latency) {
            // Timed-out trials count, as in every report (probe_percentiles.h).
            const std::optional<ProbeFigure> pa =
                ProbeLatency(oa.lat, ProbeTrialsOf(a, ca.kept, ""), spec.percentile);
            const std::optional<ProbeFigure> pb =
                ProbeLatency(ob.lat, ProbeTrialsOf(b, cb->kept, ""), spec.percentile);
            if (!pa || !pb) continue;
            m.a = *pa->ns;
            m.b = *pb->ns;
            m.a_lower_bound = pa->lower_bound;
            m.b_lower_bound = pb->lower_bound;
            m.a_repeats = ProbeRepeatValues(a, ca, fa, spec.percentile, &m.a_repeats_bounded);
            m.b_repeats = ProbeRepeatValues(b, *cb, fb, spec.percentile, &m.b_repeats_bounded);
          } else {
            std::optional<double> va = spec.kept(oa), vb = spec.kept(ob);
            if (!va || !vb) continue;
            m.a = *va;
            m.b = *vb;
            m.a_repeats = RepeatValues(ca, fa, kind, spec);
            m.b_repeats = RepeatValues(*cb, fb, kind, spec);
          }
          m.delta = m.b - m.a;
          if (m.a != 0) m.ratio = m.b / m.a;
          m.verdict =
              Judge(m.a_repeats, m.b_repeats, m.higher_is_better,
                    m.a_repeats_bounded || m.a_lower_bound, m.b_repeats_bounded || m.b_lower_bound);
          s.metrics.push_back(std::move(m));
        }
      }
      out.matched.push_back(std::move(s));
    }
  }
  for (const ReportCell& cell : cells_b) {
    for (const TargetColumn& cb : cell.targets) {
      if (cb.repeats.empty()) continue;
      if (FindColumn(cells_a, cell, cb.target) == nullptr) {
        out.only_b.push_back(UnmatchedLabel(cell, cb.target, "A", a, fa, cells_a));
      }
    }
  }
  return out;
}

std::string RenderComparisonText(const Comparison& c) {
  const std::vector<std::vector<std::string>> rows = Rows(c);
  std::vector<size_t> widths;
  for (const auto& row : rows) {
    widths.resize(std::max(widths.size(), row.size()), 0);
    for (size_t i = 0; i < row.size(); ++i) {
      // Count characters, not bytes, so "µ" does not shift columns.
      size_t chars = 0;
      for (unsigned char ch : row[i]) chars += (ch & 0xC0) != 0x80;
      widths[i] = std::max(widths[i], chars);
    }
  }
  std::string out = Header(c) + "\n";
  if (c.matched.empty()) {
    absl::StrAppend(&out, "No scenarios in common.\n\n", Unmatched(c, ""));
    return out;
  }
  for (const auto& row : rows) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      size_t chars = 0;
      for (unsigned char ch : row[i]) chars += (ch & 0xC0) != 0x80;
      const std::string pad(widths[i] - chars, ' ');
      const bool number = i >= 3 && i <= 6;
      if (i > 0) line += "  ";
      line += number ? pad + row[i] : row[i] + (i + 1 == row.size() ? "" : pad);
    }
    absl::StrAppend(&out, line, "\n");
  }
  absl::StrAppend(&out, "\n", Unmatched(c, ""), Summary(c), "\n", kRule, "\n");
  return out;
}

std::string RenderComparisonMarkdown(const Comparison& c) {
  auto escape = [](const std::string& s) {
    std::string e;
    for (char ch : s) {
      if (ch == '|') {
        e += "\\|";
      } else {
        e += ch == '\n' ? ' ' : ch;
      }
    }
    return e;
  };
  std::string out = absl::StrCat("# azbench compare\n\n- A: ", escape(c.a_name),
                                 "\n- B: ", escape(c.b_name), "\n\n");
  if (c.matched.empty()) {
    absl::StrAppend(&out, "No scenarios in common.\n\n", Unmatched(c, "- "));
    return out;
  }
  const std::vector<std::vector<std::string>> rows = Rows(c);
  for (size_t r = 0; r < rows.size(); ++r) {
    out += "|";
    for (const std::string& cell : rows[r]) absl::StrAppend(&out, " ", escape(cell), " |");
    out += "\n";
    if (r == 0) out += "|---|---|---|---:|---:|---:|---:|---|\n";
  }
  absl::StrAppend(&out, "\n", Unmatched(c, "- "), "\n", Summary(c), " ", kRule, "\n");
  return out;
}

std::vector<std::string> Regressions(const Comparison& comparison) {
  std::vector<std::string> out;
  for (const ScenarioComparison& s : comparison.matched) {
    for (const MetricComparison& m : s.metrics) {
      if (m.verdict != CompareVerdict::kWorse) continue;
      auto format = [&](double v, bool lower_bound) {
        return absl::StrCat(lower_bound ? ">= " : "",
                            m.latency ? FormatNanos(v) : absl::StrFormat("%.6g", v));
      };
      out.push_back(absl::StrCat(CellLabel(s.workload, s.parameters), " ", s.target, ": ", m.metric,
                                 " ", format(m.a, m.a_lower_bound), PartialMark(s.a_partial),
                                 " -> ", format(m.b, m.b_lower_bound), PartialMark(s.b_partial)));
    }
  }
  return out;
}

}  // namespace azbench
