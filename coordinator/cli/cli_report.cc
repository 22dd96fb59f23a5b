// `azbench report` (every format, from a results database) and `azbench compare` (two databases).
#include <filesystem>
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/cli/cli_args.h"
#include "coordinator/cli/cli_commands.h"
#include "coordinator/report/compare.h"
#include "coordinator/report/csv_report.h"
#include "coordinator/report/fio_json_report.h"
#include "coordinator/report/html_report.h"
#include "coordinator/report/json_report.h"
#include "coordinator/report/markdown_report.h"
#include "coordinator/report/placement_report.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/scaling_rows.h"
#include "coordinator/report/terminal_report.h"
#include "coordinator/report/verify_rows.h"
#include "coordinator/store/store.h"

namespace azbench::cli_internal {

namespace {

// fio-json: one fio document per kept scenario; one to `out_path` (or stdout), several into the
// directory `out_path`. Errors: InvalidArgument when several documents have no directory to go to.
absl::Status WriteFioJsonReport(const ReportInput& input, const std::string* out_path,
                                bool with_bins) {
  const std::vector<size_t> indices = FioJsonScenarioIndices(input);
  if (indices.empty()) {
    return absl::FailedPreconditionError(
        "no scenario with results (complete or partial) to write as fio JSON");
  }
  const bool into_directory = out_path != nullptr && std::filesystem::is_directory(*out_path);
  if (indices.size() > 1 && !into_directory) {
    if (out_path != nullptr && !std::filesystem::exists(*out_path)) {
      std::error_code ec;
      std::filesystem::create_directories(*out_path, ec);
      if (ec) {
        return absl::InternalError(
            absl::StrCat("cannot create directory '", *out_path, "': ", ec.message()));
      }
    } else {
      return absl::InvalidArgumentError(absl::StrCat(
          indices.size(), " scenarios are kept (keep=", std::string(KeepPolicyName(input.keep)),
          "); fio JSON is one document per scenario: give -o DIR (one file per scenario) or "
          "--keep last|median"));
    }
  }
  if (out_path == nullptr) {
    std::cout << RenderFioJson(FioJsonDocument(input, indices.front(), with_bins));
    return absl::OkStatus();
  }
  for (size_t index : indices) {
    const bool to_dir = indices.size() > 1 || into_directory;
    const std::string path =
        to_dir ? (std::filesystem::path(*out_path) / FioJsonFileName(input, index)).string()
               : *out_path;
    RETURN_IF_ERROR(
        WriteWholeFile(path, RenderFioJson(FioJsonDocument(input, index, with_bins)), "fio JSON"));
  }
  return absl::OkStatus();
}

// report --format html: the report input plus the stored campaign's context.
int HtmlReportCommand(const Args& args) {
  absl::StatusOr<std::optional<KeepPolicy>> keep = KeepFlag(args);
  if (!keep.ok()) return Fail("report", keep.status(), 2);
  absl::StatusOr<StoredReport> report = LoadStoredReport(args.positional[0], *keep);
  if (!report.ok()) return Fail("report", report.status());
  return WriteOutput("report", args,
                     RenderHtmlReport(report->input, MakeHtmlReportContext(report->campaign)));
}

}  // namespace

int ReportCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args = ParseArgs(raw, {"--format", "-o", "--output", "--keep"}, {});
  if (!args.ok()) return Fail("report", args.status(), 2);
  if (args->positional.size() != 1) {
    return Fail("report", absl::InvalidArgumentError("give exactly one results database"), 2);
  }
  const std::string format = args->Has("--format") ? *args->Get("--format") : "terminal";
  // fio-json+ is fio-json with fio's json+ latency bins.
  const bool fio_json = format == "fio-json" || format == "fio-json+";
  // The output is checked before anything is read: never a report over the database it reads.
  if (const std::string* out = OutputFlag(*args);
      out != nullptr && !(fio_json && std::filesystem::is_directory(*out))) {
    if (absl::Status s = CheckOutputPath(*out); !s.ok()) return Fail("report", s, 2);
  }
  if (format == "html") return HtmlReportCommand(*args);
  if (format != "terminal" && format != "md" && format != "csv" && format != "json" && !fio_json &&
      format != "scaling-csv" && format != "verify-csv") {
    return Fail("report",
                absl::InvalidArgumentError(
                    absl::StrCat("--format '", format,
                                 "' is not one of: terminal, md, csv, json, fio-json, "
                                 "fio-json+, html, scaling-csv, verify-csv")),
                2);
  }
  // fio-json keeps a scenario's jobs in one document, as fio does; the others report each job.
  absl::StatusOr<StoredReport> report = LoadStoredReport(
      args->positional[0], std::nullopt, fio_json ? JobView::kWholeScenario : JobView::kPerJob);
  if (!report.ok()) return Fail("report", report.status());
  // `keep` comes from the stored campaign unless given (checked after the database, as always).
  absl::StatusOr<std::optional<KeepPolicy>> keep = KeepFlag(*args);
  if (!keep.ok()) return Fail("report", keep.status(), 2);
  ReportInput& input = report->input;
  if (keep->has_value()) input.keep = **keep;  // the figures do not depend on keep
  if (fio_json) {
    const std::string* out_path = OutputFlag(*args);
    absl::Status written = WriteFioJsonReport(input, out_path, format == "fio-json+");
    return written.ok() ? 0 : Fail("report", written, absl::IsInvalidArgument(written) ? 2 : 1);
  }
  std::string text;
  if (format == "md") {
    text = RenderMarkdownReport(input);
    if (const std::string view = RenderPlacementView(input); !view.empty()) {
      absl::StrAppend(&text, "\n", view);
    }
  } else if (format == "csv") {
    text = RenderCsvReport(input);
  } else if (format == "json") {
    text = RenderJsonReport(input);
  } else if (format == "verify-csv") {
    text = RenderVerifyCsv(input);
  } else if (format == "scaling-csv") {
    std::vector<ScenarioFigures> storage;
    const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
    text = RenderScalingCsv(BuildScalingRows(input, BuildCells(input, figures)));
  } else {
    text = RenderTerminalReport(input);
    if (const std::string view = RenderPlacementView(input); !view.empty()) {
      absl::StrAppend(&text, "\n", view);
    }
  }
  return WriteOutput("report", *args, text);
}

int CompareCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args =
      ParseArgs(raw, {"--format", "-o", "--output", "--keep"}, {"--fail-on-regression"});
  if (!args.ok()) return Fail("compare", args.status(), 2);
  if (args->positional.size() != 2) {
    return Fail("compare", absl::InvalidArgumentError("give two results databases: A.db B.db"), 2);
  }
  const std::string format = args->Has("--format") ? *args->Get("--format") : "terminal";
  if (format != "terminal" && format != "md") {
    return Fail("compare",
                absl::InvalidArgumentError(
                    absl::StrCat("--format '", format, "' is not one of: terminal, md")),
                2);
  }
  if (const std::string* out = OutputFlag(*args); out != nullptr) {
    if (absl::Status s = CheckOutputPath(*out); !s.ok()) return Fail("compare", s, 2);
  }
  absl::StatusOr<std::optional<KeepPolicy>> keep = KeepFlag(*args);
  if (!keep.ok()) return Fail("compare", keep.status(), 2);
  absl::StatusOr<StoredReport> a = LoadStoredReport(args->positional[0], *keep);
  if (!a.ok()) return Fail("compare", a.status());
  absl::StatusOr<StoredReport> b = LoadStoredReport(args->positional[1], *keep);
  if (!b.ok()) return Fail("compare", b.status());
  Comparison comparison = CompareReports(a->input, b->input);
  comparison.a_name = absl::StrCat(args->positional[0], " (campaign ", a->campaign.name, ")");
  comparison.b_name = absl::StrCat(args->positional[1], " (campaign ", b->campaign.name, ")");
  const std::string text =
      format == "md" ? RenderComparisonMarkdown(comparison) : RenderComparisonText(comparison);
  const int written = WriteOutput("compare", *args, text);
  if (written != 0 || !args->Has("--fail-on-regression")) return written;
  // Opt-in exit status for CI: 1 when a flagged difference is a regression (compare.h).
  const std::vector<std::string> regressions = Regressions(comparison);
  for (const std::string& r : regressions) {
    std::cerr << "azbench compare: regression: " << r << "\n";
  }
  return regressions.empty() ? 0 : 1;
}

}  // namespace azbench::cli_internal
