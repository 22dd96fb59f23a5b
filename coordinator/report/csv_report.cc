#include "coordinator/report/csv_report.h"

#include <algorithm>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/stats.h"
#include "coordinator/report/probe_percentiles.h"
#include "coordinator/report/stream_passes.h"

namespace azbench {

namespace {

std::string Micros(double ns) { return absl::StrFormat("%.3f", ns / 1e3); }
std::string Fixed(double value) { return absl::StrFormat("%.3f", value); }

void AppendRow(const std::vector<std::string>& fields, std::string& out) {
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) out += ',';
    out += CsvField(fields[i]);
  }
  out += '\n';
}

std::string PassList(const std::vector<std::optional<double>>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ';';
    if (values[i]) out += Fixed(*values[i]);
  }
  return out;
}

// The three pass columns of a large_stream scenario (see csv_report.h); empty otherwise.
std::vector<std::string> PassColumns(const ScenarioResult& r) {
  const std::vector<StreamPasses> jobs = BuildStreamPasses(r);
  std::vector<std::string> out(3);
  for (const StreamPasses& job : jobs) {
    const std::string label = jobs.size() > 1 ? absl::StrCat(job.job, ":") : "";
    const std::string sep = jobs.size() > 1 && !out[0].empty() ? " " : "";
    absl::StrAppend(&out[0], sep, label, PassList(job.aggregate_mib_s));
    absl::StrAppend(&out[1], sep, label,
                    job.aggregate_mean_mib_s ? Fixed(*job.aggregate_mean_mib_s) : "");
    for (const AgentStreamPasses& agent : job.agents) {
      std::vector<std::optional<double>> values;
      for (const auto& p : agent.passes) {
        values.push_back(p && p->runtime_ns > 0 ? std::optional<double>(p->mib_s) : std::nullopt);
      }
      absl::StrAppend(&out[2], out[2].empty() ? "" : " ",
                      jobs.size() > 1 ? absl::StrCat(job.job, "/") : "", agent.agent_id, "=",
                      PassList(values));
    }
  }
  return out;
}

// The distinct warnings of a scenario's jobs, in result order, joined by " | ".
std::string Warnings(const ScenarioResult& r) {
  std::vector<std::string> seen;
  for (const AgentJobResult& job : r.results) {
    for (const std::string& warning : job.result.warnings) {
      if (std::find(seen.begin(), seen.end(), warning) == seen.end()) seen.push_back(warning);
    }
  }
  std::string out;
  for (const std::string& warning : seen) absl::StrAppend(&out, out.empty() ? "" : " | ", warning);
  return out;
}

}  // namespace

std::string CsvField(std::string_view field) {
  const bool quote = field.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!field.empty() && (field.front() == ' ' || field.back() == ' '));
  if (!quote) return std::string(field);
  std::string out = "\"";
  for (char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

std::string RenderCsvReport(const ReportInput& input) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);

  std::vector<std::string> axes;
  for (const auto& r : input.scenarios) {
    for (const auto& [axis, value] : r.scenario.parameters) {
      if (std::find(axes.begin(), axes.end(), axis) == axes.end()) axes.push_back(axis);
    }
  }
  std::vector<std::string> header = {"scenario_key", "target", "workload"};
  header.insert(header.end(), axes.begin(), axes.end());
  for (const char* name : {"repeat",
                           "status",
                           "op",
                           "ops",
                           "iops",
                           "mib_s",
                           "mean_us",
                           "p50_us",
                           "p90_us",
                           "p99_us",
                           "p99_9_us",
                           "max_us",
                           "errors",
                           "stonewall_iops",
                           "stonewall_mib_s",
                           "agents",
                           "start_skew_us",
                           "pass_mib_s",
                           "pass_mean_mib_s",
                           "pass_mib_s_by_agent",
                           "mean_is_lower_bound",
                           "p50_is_lower_bound",
                           "p90_is_lower_bound",
                           "p99_is_lower_bound",
                           "p99_9_is_lower_bound",
                           "max_is_lower_bound",
                           "warnings",
                           "total_err",
                           "first_error"}) {
    header.push_back(name);
  }
  std::string out;
  AppendRow(header, out);

  for (size_t i = 0; i < input.scenarios.size(); ++i) {
    const ScenarioResult& r = input.scenarios[i];
    const ScenarioFigures& f = figures[i];
    std::vector<std::string> prefix = {r.scenario.key, r.scenario.target, r.scenario.workload};
    for (const std::string& axis : axes) {
      std::string value;
      for (const auto& [key, v] : r.scenario.parameters) {
        if (key == axis) value = v;
      }
      prefix.push_back(value);
    }
    prefix.push_back(absl::StrCat(r.scenario.repeat));
    prefix.push_back(ScenarioStatusName(r.status));
    const std::vector<std::string> passes = PassColumns(r);
    const std::string warnings = Warnings(r);
    // fio writes total_err and first_error only for a job that set continue_on_error.
    const std::vector<std::string> errors =
        f.continue_on_error
            ? std::vector<std::string>{absl::StrCat(f.total_err), absl::StrCat(f.first_error)}
            : std::vector<std::string>{"", ""};
    if (f.ops.empty()) {
      std::vector<std::string> row = prefix;
      row.resize(header.size() - 1 - errors.size());
      row.push_back(warnings);
      row.insert(row.end(), errors.begin(), errors.end());
      AppendRow(row, out);
      continue;
    }
    for (const OpFigures& op : f.ops) {
      std::vector<std::string> row = prefix;
      // Latency figures: mean, p50, p90, p99, p99.9, max. A visibility probe's are over every
      // trial that ended (probe_percentiles.h): one the timed-out trials reach is only a lower
      // bound, its number the timeout (empty when no timeout was stated), flagged in the
      // *_is_lower_bound columns.
      std::vector<ProbeFigure> latencies;
      if (op.kind == OpKind::kProbe) {
        const ProbeTrials trials = ProbeTrialsOf(input, {i}, "");
        latencies.push_back(ProbeMeanFigure(op.lat, trials));
        for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
          latencies.push_back(ProbePercentileFigure(op.lat, trials, p));
        }
      } else if (op.lat.count() > 0) {
        latencies.push_back({op.lat.mean_ns(), false});
        for (double p : {50.0, 90.0, 99.0, 99.9, 100.0}) {
          latencies.push_back({static_cast<double>(op.lat.Percentile(p)), false});
        }
      } else {
        latencies.resize(6);
      }
      row.push_back(std::string(OpKindName(op.kind)));
      row.push_back(absl::StrCat(op.ops));
      row.push_back(Fixed(op.full_iops));
      row.push_back(Fixed(op.full_bytes_per_s / kMiB));
      for (const ProbeFigure& figure : latencies) {
        row.push_back(figure.ns ? Micros(*figure.ns) : std::string());
      }
      row.push_back(absl::StrCat(op.errors));
      row.push_back(f.stonewall_valid ? Fixed(op.stonewall_iops) : std::string());
      row.push_back(f.stonewall_valid ? Fixed(op.stonewall_bytes_per_s / kMiB) : std::string());
      row.push_back(absl::StrCat(f.agents));
      row.push_back(Micros(static_cast<double>(f.start_skew_ns)));
      const bool streamed = op.kind == OpKind::kRead || op.kind == OpKind::kWrite;
      for (const std::string& p : passes) row.push_back(streamed ? p : std::string());
      for (const ProbeFigure& figure : latencies) {
        const bool shown = figure.ns.has_value() || figure.lower_bound;
        row.push_back(shown ? (figure.lower_bound ? "true" : "false") : "");
      }
      row.push_back(warnings);
      row.insert(row.end(), errors.begin(), errors.end());
      AppendRow(row, out);
    }
  }
  return out;
}

}  // namespace azbench
