#include "coordinator/report/probe_percentiles.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <map>

#include "absl/strings/str_split.h"
#include "common/units.h"
#include "common/visibility_summary.h"
#include "coordinator/report/csv_report.h"
#include "coordinator/report/html_report.h"
#include "coordinator/report/json_report.h"
#include "coordinator/report/markdown_report.h"
#include "coordinator/report/terminal_report.h"
#include "tests/testing/report_scenarios.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

Histogram OneToTenSeconds() {
  Histogram h;
  for (int s = 1; s <= 10; ++s) h.Record(static_cast<uint64_t>(s) * 1'000'000'000);
  return h;
}

TEST(ProbePercentilesTest, WithoutTimeoutsThePercentilesAreTheVisibleOnes) {
  const Histogram h = OneToTenSeconds();
  const ProbeTrials none{0, "30s", 30'000'000'000};
  EXPECT_EQ(FormatProbePercentile(h, none, 50), FormatNanos(static_cast<double>(h.Percentile(50))));
  EXPECT_EQ(FormatProbePercentile(h, none, 100), FormatNanos(10e9));
  EXPECT_EQ(FormatProbePercentile(Histogram(), none, 50), "-");
}

TEST(ProbePercentilesTest, TimeoutsCountAsTheSlowestTrials) {
  // 10 visible (1..10 s) and 2 timed out of 12: the slowest 16.7% are only known to be >= 30s.
  const Histogram h = OneToTenSeconds();
  const ProbeTrials t{2, "30s", 30'000'000'000};
  // p50 of all 12 is the 6th trial, the visible 60th percentile, not the visible median.
  EXPECT_EQ(FormatProbePercentile(h, t, 50), FormatNanos(static_cast<double>(h.Percentile(60))));
  EXPECT_NE(FormatProbePercentile(h, t, 50), FormatProbePercentile(h, {}, 50));
  // p80's tail (20%) holds the 2 timed out and a visible one.
  EXPECT_EQ(FormatProbePercentile(h, t, 80), FormatNanos(static_cast<double>(h.Percentile(96))));
  // p90's tail (10%) is smaller than the timed-out share.
  EXPECT_EQ(FormatProbePercentile(h, t, 90), ">= 30s");
  EXPECT_EQ(FormatProbePercentile(h, t, 99), ">= 30s");
  EXPECT_EQ(FormatProbePercentile(h, t, 100), ">= 30s");
  EXPECT_EQ(FormatProbePercentile(h, {1, "", 0}, 100), ">= timeout");  // not stated (old results)
  EXPECT_EQ(FormatProbePercentile(Histogram(), t, 50), ">= 30s");      // nothing became visible
}

// One export prober: 50 trials visible in 30 ms, 50 timed out after 3 minutes.
std::vector<ScenarioResult> HalfTimedOut() {
  std::vector<ScenarioResult> scenarios;
  ScenarioResult r = testing::MakeFakeScenario({.target = "efs",
                                                .workload = "visibility",
                                                .parameters = {},
                                                .repeat = 1,
                                                .agents = 1,
                                                .ops_per_agent = 50,
                                                .latency_ns = 30'000'000,
                                                .bytes_per_op = 0,
                                                .kind = OpKind::kProbe});
  JobResult& job = r.results[0].result;
  job.Stats(OpKind::kProbe).errors = 50;
  job.warnings.push_back(FormatVisibilityCounts(
      {.probe = "export", .visible = 50, .trials = 100, .timed_out = 50, .resolution = "500ms"}));
  job.warnings.push_back(FormatVisibilityTimeout("export", "3m"));
  scenarios.push_back(std::move(r));
  return scenarios;
}

TEST(ProbePercentilesTest, EveryReportShowsATimedOutTailAsAtLeastTheTimeout) {
  const ReportInput input = MakeReportInput("p", {}, HalfTimedOut(), KeepPolicy::kAll);
  const std::string terminal = RenderTerminalReport(input);
  EXPECT_THAT(terminal, HasSubstr(">= 3m")) << terminal;
  const std::string markdown = RenderMarkdownReport(input);
  EXPECT_THAT(markdown, HasSubstr("| p99 | >= 3m |")) << markdown;
  EXPECT_THAT(markdown, HasSubstr("| max | >= 3m |"));
  EXPECT_THAT(markdown, HasSubstr("| p50 | 30.0ms |"));  // half visible: the median is a sample
  const std::string html = RenderHtmlReport(input, {});
  const size_t section = html.find("<section id=\"visibility\"");
  ASSERT_NE(section, std::string::npos);
  const std::string probes = html.substr(section);
  EXPECT_THAT(probes, HasSubstr("<td class=\"num\">30.0ms</td><td class=\"num\">&gt;= 3m</td>"
                                "<td class=\"num\">&gt;= 3m</td><td class=\"num\">&gt;= 3m</td>"));
  EXPECT_THAT(probes, Not(HasSubstr("<td class=\"num\">30.0ms</td><td class=\"num\">30.0ms</td>")));
}

TEST(ProbePercentilesTest, TheMeanCountsTimedOutTrialsAtTheTimeoutAndSaysItIsALowerBound) {
  const Histogram h = OneToTenSeconds();  // mean 5.5 s
  const ProbeFigure exact = ProbeMeanFigure(h, {0, "30s", 30'000'000'000});
  EXPECT_FALSE(exact.lower_bound);
  EXPECT_EQ(exact.ns, 5.5e9);
  const ProbeFigure bound = ProbeMeanFigure(h, {2, "30s", 30'000'000'000});
  EXPECT_TRUE(bound.lower_bound);
  EXPECT_EQ(bound.ns, (55e9 + 60e9) / 12);
  EXPECT_EQ(FormatProbeFigure(bound), ">= " + FormatNanos((55e9 + 60e9) / 12));
  // No timeout stated (old results): the visible mean, still only a lower bound.
  EXPECT_EQ(FormatProbeFigure(ProbeMeanFigure(h, {1, "", 0})), ">= " + FormatNanos(5.5e9));
  EXPECT_EQ(FormatProbeFigure(ProbeMeanFigure(Histogram(), {})), "-");

  const ReportInput input = MakeReportInput("p", {}, HalfTimedOut(), KeepPolicy::kAll);
  // 50 trials of 30 ms and 50 of at least 3 minutes.
  const std::string mean = ">= " + FormatNanos((50 * 30e6 + 50 * 180e9) / 100);
  EXPECT_THAT(RenderMarkdownReport(input), HasSubstr("| mean lat | " + mean + " |"));
  EXPECT_THAT(RenderTerminalReport(input), HasSubstr(mean));
}

// One CSV line's fields, RFC 4180 quoting undone (the warnings column holds commas).
std::vector<std::string> CsvFields(const std::string& line) {
  std::vector<std::string> fields(1);
  bool quoted = false;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
      fields.back() += '"';
      ++i;
    } else if (c == '"') {
      quoted = !quoted;
    } else if (c == ',' && !quoted) {
      fields.emplace_back();
    } else {
      fields.back() += c;
    }
  }
  return fields;
}

// The CSV report's rows as header name -> field.
std::vector<std::map<std::string, std::string>> CsvRows(const std::string& csv,
                                                        std::vector<std::string>* header) {
  std::vector<std::string> lines = absl::StrSplit(csv, '\n', absl::SkipEmpty());
  *header = CsvFields(lines.at(0));
  std::vector<std::map<std::string, std::string>> rows;
  for (size_t i = 1; i < lines.size(); ++i) {
    std::vector<std::string> fields = CsvFields(lines[i]);
    EXPECT_EQ(fields.size(), header->size()) << lines[i];
    std::map<std::string, std::string>& row = rows.emplace_back();
    for (size_t c = 0; c < fields.size() && c < header->size(); ++c) row[(*header)[c]] = fields[c];
  }
  return rows;
}

TEST(ProbeReportFilesTest, CsvKeepsNumbersAndFlagsEachFigureThatIsALowerBound) {
  const ReportInput input = MakeReportInput("p", {}, HalfTimedOut(), KeepPolicy::kAll);
  std::vector<std::string> header;
  const std::vector<std::map<std::string, std::string>> rows =
      CsvRows(RenderCsvReport(input), &header);
  // The columns that were there keep their places; the flags come after them.
  const std::vector<std::string> before = {"scenario_key",
                                           "target",
                                           "workload",
                                           "repeat",
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
                                           "pass_mib_s_by_agent"};
  ASSERT_GE(header.size(), before.size());
  EXPECT_EQ(std::vector<std::string>(header.begin(), header.begin() + before.size()), before);
  EXPECT_EQ(
      std::vector<std::string>(header.begin() + before.size(), header.end()),
      (std::vector<std::string>{"mean_is_lower_bound", "p50_is_lower_bound", "p90_is_lower_bound",
                                "p99_is_lower_bound", "p99_9_is_lower_bound", "max_is_lower_bound",
                                "warnings", "total_err", "first_error"}));
  ASSERT_EQ(rows.size(), 1u);
  const std::map<std::string, std::string>& probe = rows[0];
  EXPECT_EQ(probe.at("op"), "probe");
  EXPECT_THAT(probe.at("warnings"), HasSubstr("50 of 100 trials visible, 50 timed out"));
  // p50 of the 100 ended trials is a visible one (30 ms); p90 and above only >= 3 minutes.
  EXPECT_EQ(probe.at("p50_us"), "30000.000");
  EXPECT_EQ(probe.at("p50_is_lower_bound"), "false");
  for (const char* figure : {"p90", "p99", "p99_9", "max"}) {
    EXPECT_EQ(probe.at(absl::StrCat(figure, "_us")), "180000000.000") << figure;
    EXPECT_EQ(probe.at(absl::StrCat(figure, "_is_lower_bound")), "true") << figure;
  }
  EXPECT_EQ(probe.at("mean_us"), "90015000.000");  // (50 x 30 ms + 50 x 3 min) / 100
  EXPECT_EQ(probe.at("mean_is_lower_bound"), "true");
}

TEST(ProbeReportFilesTest, CsvFlagsAreFalseWhereTheFigureIsExact) {
  std::vector<ScenarioResult> scenarios = HalfTimedOut();
  scenarios.push_back(testing::MakeFakeScenario({.target = "efs",
                                                 .workload = "randread",
                                                 .parameters = {},
                                                 .repeat = 1,
                                                 .agents = 1,
                                                 .ops_per_agent = 10,
                                                 .latency_ns = 1'000'000,
                                                 .bytes_per_op = 4096,
                                                 .kind = OpKind::kRead}));
  const ReportInput input = MakeReportInput("p", {}, std::move(scenarios), KeepPolicy::kAll);
  std::vector<std::string> header;
  const std::vector<std::map<std::string, std::string>> rows =
      CsvRows(RenderCsvReport(input), &header);
  ASSERT_EQ(rows.size(), 2u);
  const std::map<std::string, std::string>& read = rows[1];
  EXPECT_EQ(read.at("op"), "read");
  EXPECT_EQ(read.at("p99_us"), "1000.000");
  for (const char* flag :
       {"mean_is_lower_bound", "p50_is_lower_bound", "p99_is_lower_bound", "max_is_lower_bound"}) {
    EXPECT_EQ(read.at(flag), "false") << flag;
  }
}

TEST(ProbeReportFilesTest, JsonGivesEachProbeFigureItsNumberAndWhetherItIsALowerBound) {
  const ReportInput input = MakeReportInput("p", {}, HalfTimedOut(), KeepPolicy::kAll);
  const nlohmann::json report = JsonReport(input);
  const nlohmann::json& probe = report.at("scenarios").at(0).at("ops").at("probe");
  ASSERT_TRUE(probe.contains("visibility")) << probe.dump(2);
  const nlohmann::json& v = probe["visibility"];
  EXPECT_EQ(v["visible"], 50);
  EXPECT_EQ(v["timed_out"], 50);
  EXPECT_EQ(v["timeout_ns"], 180'000'000'000);
  EXPECT_EQ(v["p50"], (nlohmann::json{{"ns", 30'000'000.0}, {"lower_bound", false}}));
  for (const char* figure : {"p90", "p99", "p99.9", "max"}) {
    EXPECT_EQ(v[figure], (nlohmann::json{{"ns", 180e9}, {"lower_bound", true}})) << figure;
  }
  EXPECT_EQ(v["mean"], (nlohmann::json{{"ns", 90.015e9}, {"lower_bound", true}}));
  // The histogram of the visible trials is left as it was.
  EXPECT_EQ(probe["lat"]["count"], 50);
  // A figure whose lower bound has no number (no timeout stated) is null, still flagged.
  std::vector<ScenarioResult> old = HalfTimedOut();
  old[0].results[0].result.warnings.pop_back();  // the timeout line
  const nlohmann::json old_report =
      JsonReport(MakeReportInput("p", {}, std::move(old), KeepPolicy::kAll));
  const nlohmann::json& p99 =
      old_report.at("scenarios").at(0).at("ops").at("probe").at("visibility").at("p99");
  EXPECT_TRUE(p99["ns"].is_null());
  EXPECT_EQ(p99["lower_bound"], true);
}

}  // namespace
}  // namespace azbench
