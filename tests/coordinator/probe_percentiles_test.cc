#include "coordinator/report/probe_percentiles.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "common/units.h"
#include "common/visibility_summary.h"
#include "coordinator/report/html_report.h"
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

}  // namespace
}  // namespace azbench
