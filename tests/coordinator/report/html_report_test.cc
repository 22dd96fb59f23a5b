#include "coordinator/report/html_report.h"

#include <regex>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/report_scenarios.h"

// FakeScenario is filled with designated initializers that leave the other fields at their
// defaults on purpose; GCC 12 warns about exactly that.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace azbench {
namespace {

using testing::FakeScenario;
using ::testing::HasSubstr;
using testing::MakeFakeScenario;
using ::testing::Not;

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The part of `html` from the section with id `id` to its end.
std::string Section(const std::string& html, const std::string& id) {
  const size_t begin = html.find("<section id=\"" + id + "\"");
  if (begin == std::string::npos) return "";
  int depth = 0;
  for (size_t at = begin; at < html.size(); ++at) {
    if (html.compare(at, 8, "<section") == 0) ++depth;
    if (html.compare(at, 10, "</section>") == 0 && --depth == 0) {
      return html.substr(begin, at + 10 - begin);
    }
  }
  return html.substr(begin);
}

// Two targets, an iodepth sweep and a nodes axis (1 and 4 agents), two repeats.
ReportInput SweepAndScalingInput() {
  std::vector<ScenarioResult> scenarios;
  for (const char* iodepth : {"1", "4", "16"}) {
    for (const char* nodes : {"1", "4"}) {
      for (int repeat = 1; repeat <= 2; ++repeat) {
        const int agents = std::string(nodes) == "1" ? 1 : 4;
        const uint64_t depth = std::stoull(iodepth);
        // efs: 4 agents do 3/4 of the work each that one agent does alone (75% efficiency).
        scenarios.push_back(
            MakeFakeScenario({.target = "efs",
                              .workload = "randread",
                              .parameters = {{"iodepth", iodepth}, {"nodes", nodes}},
                              .repeat = repeat,
                              .agents = agents,
                              .ops_per_agent = (agents == 1 ? 4000 : 3000) * depth,
                              .latency_ns = 1'000'000 * depth,
                              .agent_skew_ns = 200'000'000}));
        scenarios.push_back(
            MakeFakeScenario({.target = "fsx<zfs>",
                              .workload = "randread",
                              .parameters = {{"iodepth", iodepth}, {"nodes", nodes}},
                              .repeat = repeat,
                              .agents = agents,
                              .ops_per_agent = 1000 * depth,
                              .latency_ns = 4'000'000 * depth}));
      }
    }
  }
  std::vector<AgentInfo> agents;
  for (int i = 1; i <= 4; ++i) {
    AgentInfo a;
    a.agent_id = "agent-" + std::to_string(i);
    a.availability_zone = i % 2 ? "use1-az1" : "use1-az2";
    a.instance_type = "c6in.large";
    agents.push_back(a);
  }
  return MakeReportInput("study-b", std::move(agents), std::move(scenarios), KeepPolicy::kLast);
}

TEST(HtmlReportTest, EveryWorkloadAndMatrixCellHasASectionWithItsTableAndCharts) {
  const ReportInput input = SweepAndScalingInput();
  const std::string html = RenderHtmlReport(input, {});
  EXPECT_THAT(html, HasSubstr("<!DOCTYPE html>"));
  EXPECT_THAT(html, HasSubstr("<title>azbench report: study-b</title>"));
  EXPECT_EQ(Count(html, "class=\"cell\""), 6u);
  for (const char* iodepth : {"1", "4", "16"}) {
    for (const char* nodes : {"1", "4"}) {
      const std::string title =
          std::string("randread (iodepth=") + iodepth + ", nodes=" + nodes + ")";
      EXPECT_EQ(Count(html, title), 2u) << title << ": heading and table of contents";
    }
  }
  const std::string cell = Section(html, "cell-0");
  ASSERT_NE(cell, "");
  EXPECT_THAT(cell, HasSubstr("<th>efs</th><th>fsx&lt;zfs&gt;</th><th>fastest</th>"));
  // 4,000 IOPS over 2 s is 2,000 IOPS; fsx 500: efs is 4x faster; latencies 1 ms against 4 ms.
  EXPECT_THAT(cell, HasSubstr("<th scope=\"row\">IOPS</th><td class=\"num best\">2,000 "
                              "[2,000-2,000]</td><td class=\"num\">500 [500-500]</td><td "
                              "class=\"fastest\">efs 4.0x</td>"));
  EXPECT_THAT(cell, HasSubstr("<td class=\"fastest\">efs 4.0x</td>"));
  EXPECT_EQ(Count(cell, "<svg class=\"chart\""), 3u)
      << "a latency chart and a throughput-over-time chart per target";
  EXPECT_THAT(cell, HasSubstr("read latency percentiles"));
  EXPECT_THAT(cell, HasSubstr("efs: throughput per agent over time"));
}

TEST(HtmlReportTest, ThroughputOverTimeHasOneLinePerAgent) {
  const std::string html = RenderHtmlReport(SweepAndScalingInput(), {});
  const std::string cell = Section(html, "cell-1");  // nodes=4
  for (const char* agent : {"agent-1", "agent-2", "agent-3", "agent-4"}) {
    EXPECT_THAT(cell, HasSubstr(std::string("data-name=\"") + agent + "\"")) << agent;
  }
  EXPECT_THAT(cell, HasSubstr("start skew 600ms"));
}

// An agent's results one after the other (large_stream's passes), each `runtime_ms` long from
// kT0Ns, at a steady `mib_per_s`, with one-second intervals (the last one clipped).
ScenarioResult BackToBack(const std::vector<int64_t>& runtime_ms, double mib_per_s) {
  ScenarioResult result;
  result.scenario.target = "efs";
  int64_t start = testing::kT0Ns;
  for (size_t p = 0; p < runtime_ms.size(); ++p) {
    JobResult job;
    job.name = "stream.pass" + std::to_string(p + 1);
    const int64_t runtime_ns = runtime_ms[p] * 1'000'000;
    job.start_realtime_ns = start;
    job.end_realtime_ns = start + runtime_ns;
    job.runtime_ns = static_cast<uint64_t>(runtime_ns);
    job.interval_ns = testing::kSecondNs;
    uint64_t total = 0;
    for (int64_t i = 0; i * testing::kSecondNs < runtime_ns; ++i) {
      const int64_t length = std::min(testing::kSecondNs, runtime_ns - i * testing::kSecondNs);
      IntervalStats in;
      in.index = i;
      const auto bytes = static_cast<uint64_t>(mib_per_s * (1 << 20) * length / 1e9);
      in.by_kind[static_cast<int>(OpKind::kRead)].ops = 1;
      in.by_kind[static_cast<int>(OpKind::kRead)].bytes = bytes;
      total += bytes;
      job.intervals.push_back(std::move(in));
    }
    job.Stats(OpKind::kRead).bytes = total;
    start = job.end_realtime_ns;
    result.results.push_back(AgentJobResult{"agent-1", std::move(job)});
  }
  return result;
}

TEST(HtmlReportTest, BackToBackJobsInOneIntervalAreDividedByTheTimeTheyCoveredNotAdded) {
  // Three 20 ms passes at 500 MiB/s: drawn although shorter than a tenth of an interval.
  ScenarioResult short_passes = BackToBack({20, 20, 20}, 500);
  size_t total = 0;
  LineChart chart = AgentThroughputChart("efs", short_passes, ComputeFigures(short_passes),
                                         /*bytes=*/true, &total);
  ASSERT_EQ(chart.series.size(), 1u);
  ASSERT_EQ(chart.series[0].points.size(), 1u);
  EXPECT_NEAR(chart.series[0].points[0].second, 500, 1e-3);
  // 1.4 s passes at 10 MiB/s: pass 1's 0.4 s tail and pass 2's first interval share bucket 1;
  // the agent never went faster than 10 MiB/s.
  ScenarioResult long_passes = BackToBack({1400, 1400}, 10);
  chart = AgentThroughputChart("efs", long_passes, ComputeFigures(long_passes), true, &total);
  ASSERT_EQ(chart.series.size(), 1u);
  ASSERT_GE(chart.series[0].points.size(), 2u);
  for (const auto& [t, mib_s] : chart.series[0].points) {
    EXPECT_NEAR(mib_s, 10, 1e-3) << "at " << t << " s";
  }
}

TEST(HtmlReportTest, ConcurrentJobsOfAnAgentAddUpAndATinyTailIsLeftOut) {
  // numjobs-like: two jobs over the same 1.05 s, 10 MiB in their first interval and 1 MiB in the
  // 50 ms tail.
  ScenarioResult r;
  r.scenario.target = "efs";
  for (int j = 0; j < 2; ++j) {
    JobResult job;
    job.name = "seq";
    job.start_realtime_ns = testing::kT0Ns;
    job.end_realtime_ns = testing::kT0Ns + 1'050'000'000;
    job.runtime_ns = 1'050'000'000;
    job.interval_ns = testing::kSecondNs;
    for (int64_t i = 0; i < 2; ++i) {
      IntervalStats in;
      in.index = i;
      in.by_kind[static_cast<int>(OpKind::kRead)].bytes = i == 0 ? 10u << 20 : 1u << 20;
      job.intervals.push_back(std::move(in));
    }
    job.Stats(OpKind::kRead).bytes = 11u << 20;
    r.results.push_back(AgentJobResult{"agent-1", std::move(job)});
  }
  size_t total = 0;
  const LineChart chart = AgentThroughputChart("efs", r, ComputeFigures(r), true, &total);
  ASSERT_EQ(chart.series.size(), 1u);
  ASSERT_EQ(chart.series[0].points.size(), 1u) << "the 50 ms tail is not drawn";
  EXPECT_NEAR(chart.series[0].points[0].second, 20, 1e-9);
}

TEST(HtmlReportTest, WithManyAgentsTheSlowestAndFastestAreDrawn) {
  ScenarioResult many = MakeFakeScenario({.target = "efs", .agents = 40});
  // agent-k did 100 x k ops: agent-1..8 are the slowest, agent-33..40 the fastest.
  for (size_t i = 0; i < many.results.size(); ++i) {
    for (IntervalStats& in : many.results[i].result.intervals) {
      in.by_kind[static_cast<int>(OpKind::kRead)].ops = 50 * (i + 1);
    }
  }
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(many));
  const std::string html =
      RenderHtmlReport(MakeReportInput("many", {}, std::move(scenarios), KeepPolicy::kAll), {});
  EXPECT_THAT(html, HasSubstr("40 agents (the 8 with the least and the 8 with the most work "
                              "drawn)"));
  for (int k : {1, 8, 33, 40}) {
    EXPECT_THAT(html, HasSubstr("data-name=\"agent-" + std::to_string(k) + "\"")) << k;
  }
  for (int k : {9, 20, 32}) {
    EXPECT_THAT(html, Not(HasSubstr("data-name=\"agent-" + std::to_string(k) + "\""))) << k;
  }
}

TEST(HtmlReportTest, IsSelfContainedWithoutScriptsOrNetworkReferences) {
  const std::string html = RenderHtmlReport(SweepAndScalingInput(), {});
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("src=")));
  EXPECT_THAT(html, Not(HasSubstr("url(")));
  // The only URL is the SVG namespace name, which is never fetched.
  const std::regex url("https?://[^\"' <]*");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator();
       ++it) {
    EXPECT_EQ(it->str(), "http://www.w3.org/2000/svg");
  }
  EXPECT_THAT(html, HasSubstr("<meta name=\"viewport\""));
  EXPECT_THAT(html, HasSubstr("@media print"));
}

TEST(HtmlReportTest, SweepsPlotTheMetricAgainstTheSweptParameterPerTarget) {
  const std::string html = RenderHtmlReport(SweepAndScalingInput(), {});
  const std::string sweeps = Section(html, "sweeps");
  ASSERT_NE(sweeps, "");
  // One pair of charts per value of the other axis (nodes=1, nodes=4).
  EXPECT_EQ(Count(sweeps, "randread: MiB/s vs iodepth"), 4u) << "title and <title> of 2 charts";
  EXPECT_EQ(Count(sweeps, "randread: p99 latency vs iodepth"), 4u);
  EXPECT_THAT(sweeps, HasSubstr("(nodes=4)"));
  EXPECT_THAT(sweeps, HasSubstr("data-name=\"efs\""));
  EXPECT_THAT(sweeps, HasSubstr("data-name=\"fsx&lt;zfs&gt;\""));
  // The swept values are the x tick labels.
  for (const char* v : {">1</text>", ">4</text>", ">16</text>"}) EXPECT_THAT(sweeps, HasSubstr(v));
}

TEST(HtmlReportTest, ABlockSizeSweepIsPlottedOnALogTwoAxisLabelledAsWritten) {
  std::vector<ScenarioResult> scenarios;
  for (const char* bs : {"1m", "4k", "64k"}) {
    scenarios.push_back(MakeFakeScenario({.target = "efs", .parameters = {{"bs", bs}}}));
  }
  const std::string html =
      RenderHtmlReport(MakeReportInput("bs", {}, std::move(scenarios), KeepPolicy::kAll), {});
  const std::string sweeps = Section(html, "sweeps");
  ASSERT_NE(sweeps, "");
  EXPECT_THAT(sweeps, HasSubstr("randread: MiB/s vs bs"));
  // Sorted by size whatever the campaign's order, labelled as written.
  const size_t k4 = sweeps.find(">4k</text>"), k64 = sweeps.find(">64k</text>"),
               m1 = sweeps.find(">1m</text>");
  ASSERT_NE(k4, std::string::npos);
  ASSERT_NE(k64, std::string::npos);
  ASSERT_NE(m1, std::string::npos);
  EXPECT_LT(k4, k64);
  EXPECT_LT(k64, m1);
  // log2: 4k -> 64k (x16) and 64k -> 1m (x16) are equally far apart.
  const std::regex tick("x=\"([0-9.]+)\"[^>]*>(4k|64k|1m)</text>");
  std::vector<double> xs;
  for (auto it = std::sregex_iterator(sweeps.begin(), sweeps.end(), tick);
       it != std::sregex_iterator() && xs.size() < 3; ++it) {
    xs.push_back(std::stod((*it)[1].str()));
  }
  ASSERT_EQ(xs.size(), 3u);
  EXPECT_NEAR(xs[1] - xs[0], xs[2] - xs[1], 0.02);
}

TEST(HtmlReportTest, ScalingShowsAggregateThroughputAndEfficiencyAgainstAgentCount) {
  const std::string html = RenderHtmlReport(SweepAndScalingInput(), {});
  const std::string scaling = Section(html, "scaling");
  ASSERT_NE(scaling, "");
  // iodepth=1: efs alone 2,000 IOPS x 4 KiB = 7.81 MiB/s; 4 agents 4 x 1,500 IOPS over 2.6 s
  // (600 ms skew) -> efficiency = (total / 4) / (alone / 1).
  EXPECT_THAT(scaling, HasSubstr("<td>efs</td><td class=\"num\">1</td><td class=\"num\">7.81"));
  // 4 x 3000 ops x 4 KiB / 2.6 s = 18.03 MiB/s; / 4 = 4.51; / 7.81 = 58%.
  EXPECT_THAT(scaling, HasSubstr("<td>efs</td><td class=\"num\">4</td><td class=\"num\">18.0"));
  EXPECT_THAT(scaling, HasSubstr(">58%</td>"));
  // fsx: no skew, same per-agent rate: 100%.
  EXPECT_THAT(scaling, HasSubstr("<td>fsx&lt;zfs&gt;</td><td class=\"num\">4</td>"));
  EXPECT_THAT(scaling, HasSubstr("scaling efficiency"));
}

TEST(HtmlReportTest, WithoutSweepScalingOrProbesThoseSectionsAreAbsent) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeFakeScenario({.target = "efs"}));
  const std::string html =
      RenderHtmlReport(MakeReportInput("one", {}, std::move(scenarios), KeepPolicy::kAll), {});
  EXPECT_EQ(Section(html, "sweeps"), "");
  EXPECT_EQ(Section(html, "scaling"), "");
  EXPECT_EQ(Section(html, "visibility"), "");
  EXPECT_EQ(Section(html, "placement"), "");
  EXPECT_EQ(Count(html, "class=\"cell\""), 1u);
}

TEST(HtmlReportTest, CampaignSummaryShowsFleetAndTargetsFromTheStoredCampaign) {
  HtmlReportContext context;
  absl::StatusOr<Campaign> campaign = ParseCampaign(
      "name: study-b\nfleet: {hosts: [10.0.0.1, 10.0.0.2]}\n"
      "targets:\n  - {name: efs, path: /mnt/efs, kind: efs, server_az: use1-az1, labels: {mode: "
      "elastic}}\n  - {name: fsx<zfs>, path: /mnt/fsx, kind: fsx-openzfs}\n"
      "workloads:\n  - {name: randread, options: {rw: randread, bs: 4k, size: 1m}}\n"
      "repeats: 2\nkeep: last\n",
      "study-b.yaml");
  // fsx<zfs> is not a valid target name: the campaign is refused and the report says so.
  EXPECT_FALSE(campaign.ok());
  campaign = ParseCampaign(
      "name: study-b\nfleet: {hosts: [10.0.0.1, 10.0.0.2]}\n"
      "targets:\n  - {name: efs, path: /mnt/efs, kind: efs, server_az: use1-az1, labels: {mode: "
      "elastic}}\n  - {name: fsx, path: /mnt/fsx, kind: fsx-openzfs}\n"
      "workloads:\n  - {name: randread, options: {rw: randread, bs: 4k, size: 1m}}\n"
      "matrix: {iodepth: [1, 4, 16]}\nrepeats: 2\nkeep: last\n",
      "study-b.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  context.campaign = *campaign;
  context.campaign_file = "study-b.yaml";
  const std::string html = RenderHtmlReport(SweepAndScalingInput(), context);
  const std::string summary = Section(html, "campaign");
  EXPECT_THAT(summary, HasSubstr("4 agents in 2 AZs (use1-az1: 2, use1-az2: 2); instance types: "
                                 "c6in.large: 4."));
  EXPECT_THAT(summary, HasSubstr("<td>efs</td><td>efs</td><td>/mnt/efs</td><td>use1-az1</td>"
                                 "<td>mode=elastic</td>"));
  EXPECT_THAT(summary, HasSubstr("<td>fsx</td><td>fsx-openzfs</td><td>/mnt/fsx</td>"));
  EXPECT_THAT(summary, HasSubstr("iodepth: 1, 4, 16"));
  EXPECT_THAT(summary, HasSubstr("2 (reports show: keep last)"));
  // Without a campaign the targets are still named.
  const std::string bare = Section(RenderHtmlReport(SweepAndScalingInput(), {}), "campaign");
  EXPECT_THAT(bare, HasSubstr("efs, fsx&lt;zfs&gt;"));
}

TEST(HtmlReportTest, ACampaignWhoseFioJobIsMissingHereStillShowsItsTargets) {
  CampaignRecord record;
  record.name = "study-c";
  record.file = "/nowhere/study-c.yaml";
  record.started_at_ns = testing::kT0Ns;
  record.campaign_yaml =
      "name: study-c\nfleet: {hosts: [10.0.0.1]}\n"
      "targets:\n  - {name: efs, path: /mnt/efs, kind: efs, labels: {mode: elastic}}\n"
      "workloads:\n  - {name: web, fio_job: study-c.fio}\nmatrix: {numjobs: [1, 8]}\n"
      "repeats: 3\n";
  const HtmlReportContext context = MakeHtmlReportContext(record);
  ASSERT_TRUE(context.campaign.has_value());
  EXPECT_TRUE(context.campaign_read_leniently);
  ASSERT_EQ(context.campaign->targets.size(), 1u);
  EXPECT_EQ(context.campaign->targets[0].kind, TargetKind::kEfs);
  EXPECT_EQ(context.campaign->repeats, 3);
  const std::string summary =
      Section(RenderHtmlReport(SweepAndScalingInput(), context), "campaign");
  EXPECT_THAT(summary, HasSubstr("<td>efs</td><td>efs</td><td>/mnt/efs</td><td>-</td>"
                                 "<td>mode=elastic</td>"));
  EXPECT_THAT(summary, HasSubstr("numjobs: 1, 8"));
  EXPECT_THAT(summary, HasSubstr("does not parse here"));
  EXPECT_THAT(summary, HasSubstr("2023-11-14 22:13:20 UTC"));

  record.campaign_yaml = "{ not yaml";
  EXPECT_FALSE(MakeHtmlReportContext(record).campaign.has_value());
}

TEST(HtmlReportTest, TheLatencyChartHasALinePerPlacementWhenTheServerAzIsKnown) {
  // agent-1 and agent-3 in use1-az1 (the server's AZ), agent-2 and agent-4 in use1-az2.
  HtmlReportContext context;
  absl::StatusOr<Campaign> campaign = ParseCampaign(
      "name: study-b\nfleet: {hosts: [10.0.0.1]}\n"
      "targets:\n  - {name: efs, path: /mnt/efs, kind: efs, server_az: use1-az1}\n"
      "  - {name: fsx, path: /mnt/fsx, kind: fsx-openzfs}\n"
      "workloads:\n  - {name: randread, options: {rw: randread, bs: 4k, size: 1m}}\n",
      "study-b.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  context.campaign = *campaign;
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeFakeScenario({.target = "efs", .agents = 4}));
  scenarios.push_back(MakeFakeScenario({.target = "fsx", .agents = 4}));
  ScenarioResult& efs = scenarios[0];
  // The cross-AZ agents see 3 ms instead of 1 ms.
  for (AgentJobResult& r : efs.results) {
    if (r.agent_id == "agent-2" || r.agent_id == "agent-4") {
      Histogram slow;
      for (int i = 0; i < 1000; ++i) slow.Record(3'000'000);
      r.result.Stats(OpKind::kRead).lat = slow;
    }
  }
  std::vector<AgentInfo> agents;
  for (int i = 1; i <= 4; ++i) {
    AgentInfo a;
    a.agent_id = "agent-" + std::to_string(i);
    a.availability_zone = i % 2 ? "use1-az1" : "use1-az2";
    agents.push_back(a);
  }
  const std::string html = RenderHtmlReport(
      MakeReportInput("p", std::move(agents), std::move(scenarios), KeepPolicy::kAll), context);
  EXPECT_THAT(html, HasSubstr("data-name=\"efs (same-az)\""));
  EXPECT_THAT(html, HasSubstr("data-name=\"efs (cross-az)\""));
  // fsx has no server_az: one line only.
  EXPECT_THAT(html, HasSubstr("data-name=\"fsx\""));
  EXPECT_THAT(html, Not(HasSubstr("fsx (same-az)")));
  EXPECT_THAT(html, HasSubstr("and over the agents of each placement"));
  // Without the campaign nothing is known about placement.
  std::vector<ScenarioResult> again;
  again.push_back(MakeFakeScenario({.target = "efs", .agents = 4}));
  EXPECT_THAT(RenderHtmlReport(MakeReportInput("p", {}, std::move(again), KeepPolicy::kAll), {}),
              Not(HasSubstr("same-az")));
}

TEST(HtmlReportTest, PlacementEvidenceIsATableWithAColumnPerFact) {
  HtmlReportContext context;
  context.placement.push_back(
      {"agent-1", "efs", "same-az", {{"agent AZ", "use1-az1"}, {"server AZ", "use1-az1"}}});
  context.placement.push_back({"agent-2",
                               "efs",
                               "cross-az",
                               {{"agent AZ", "use1-az2"},
                                {"server AZ", "use1-az1"},
                                {"mount options", "nfsvers=4.1,rsize=1048576"}}});
  const std::string html = RenderHtmlReport(SweepAndScalingInput(), context);
  const std::string placement = Section(html, "placement");
  ASSERT_NE(placement, "");
  EXPECT_THAT(placement, HasSubstr("<th>agent AZ</th><th>server AZ</th><th>mount options</th>"));
  EXPECT_THAT(placement, HasSubstr("<td>agent-1</td><td>efs</td><td>same-az</td><td>use1-az1</td>"
                                   "<td>use1-az1</td><td>-</td>"));
  EXPECT_THAT(placement, HasSubstr("<td>nfsvers=4.1,rsize=1048576</td>"));
  EXPECT_THAT(html, HasSubstr("<a href=\"#placement\">"));
}

// Evidence as plan stores it: efs reached same-az by agent-1 and cross-az by agent-2, over
// different mounts (the agents' own mount targets).
std::vector<ScenarioResult> ScenariosWithEvidence() {
  std::vector<ScenarioResult> scenarios;
  for (int repeat = 1; repeat <= 2; ++repeat) {
    ScenarioResult s = MakeFakeScenario({.target = "efs", .repeat = repeat, .agents = 2});
    for (int a = 1; a <= 2; ++a) {
      PlacementEvidence e;
      e.agent_id = "agent-" + std::to_string(a);
      e.target = "efs";
      e.placement = a == 1 ? Placement::kSameAz : Placement::kCrossAz;
      e.agent_az = a == 1 ? "us-east-1a" : "us-east-1b";
      e.agent_az_id = a == 1 ? "use1-az1" : "use1-az2";
      e.az_source = "imds";
      e.server_address = "10.0.1.10";
      e.address_source = "addr=";
      e.subnet = "10.0.1.0/24";
      e.subnet_source = "imds agent-1";
      e.server_az = "us-east-1a";
      e.server_az_source = "subnet map";
      e.reason = "addr=10.0.1.10 in 10.0.1.0/24 (us-east-1a, imds agent-1)";
      e.mount = a == 1 ? "nfs4 fs-1.efs:/ on /mnt/efs (hard,rsize=1048576,vers=4.1)"
                       : "nfs4 fs-1.efs:/ on /mnt/efs (hard,rsize=65536,vers=4.1)";
      s.scenario.placements.push_back(e);
    }
    scenarios.push_back(std::move(s));
  }
  return scenarios;
}

TEST(HtmlReportTest, TheCampaignSummaryShowsEachTargetsKindAndMountOptions) {
  HtmlReportContext context;
  absl::StatusOr<Campaign> campaign = ParseCampaign(
      "name: p\nfleet: {hosts: [10.0.0.1, 10.0.0.2]}\n"
      "targets:\n  - {name: efs, path: /mnt/efs, kind: efs}\n"
      "  - {name: disk, path: /var/tmp/x, kind: local}\n"
      "workloads:\n  - {name: randread, options: {rw: randread, bs: 4k, size: 1m}}\n",
      "p.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  context.campaign = *campaign;
  const std::string html = RenderHtmlReport(
      MakeReportInput("p", {}, ScenariosWithEvidence(), KeepPolicy::kAll), context);
  const std::string summary = Section(html, "campaign");
  EXPECT_THAT(summary, HasSubstr("<th>kind</th>"));
  EXPECT_THAT(summary, HasSubstr("<th>mount and options (as the agents saw them)</th>"));
  // The two agents saw different options: each mount with the agents that saw it.
  EXPECT_THAT(summary,
              HasSubstr("<td>efs</td><td>efs</td><td>/mnt/efs</td><td>-</td><td></td>"
                        "<td class=\"mount\">nfs4 fs-1.efs:/ on /mnt/efs "
                        "(hard,rsize=1048576,vers=4.1) <span class=\"note\">(agent-1)"
                        "</span><br>nfs4 fs-1.efs:/ on /mnt/efs (hard,rsize=65536,vers=4.1)"
                        " <span class=\"note\">(agent-2)</span></td>"));
  // A target no agent reported a mount for.
  EXPECT_THAT(summary, HasSubstr("<td>disk</td><td>local</td><td>/var/tmp/x</td><td>-</td><td></td>"
                                 "<td class=\"mount\">-</td>"));
}

TEST(HtmlReportTest, ThePlacementSectionShowsTheStoredEvidenceOncePerAgentAndTarget) {
  const std::string html = RenderHtmlReport(
      MakeReportInput("p", {}, ScenariosWithEvidence(), KeepPolicy::kAll), HtmlReportContext{});
  const std::string placement = Section(html, "placement");
  ASSERT_NE(placement, "");
  EXPECT_THAT(html, HasSubstr("<a href=\"#placement\">"));
  EXPECT_THAT(placement,
              HasSubstr("<th>agent AZ (source)</th><th>server address (how found)</th>"
                        "<th>subnet (source)</th><th>server AZ (source)</th><th>mount and "
                        "options</th><th>reason</th>"));
  EXPECT_THAT(placement,
              HasSubstr("<td>agent-2</td><td>efs</td><td>cross-az</td><td>us-east-1b/use1-az2 "
                        "(imds)</td><td>10.0.1.10 (addr=)</td><td>10.0.1.0/24 (imds agent-1)</td>"
                        "<td>us-east-1a (subnet map)</td><td>nfs4 fs-1.efs:/ on /mnt/efs "
                        "(hard,rsize=65536,vers=4.1)</td>"));
  EXPECT_EQ(Count(placement, "<td>agent-1</td>"), 1u) << "two repeats, the same evidence";
  EXPECT_EQ(Count(placement, "<td>agent-2</td>"), 1u);
  EXPECT_THAT(html, HasSubstr("<li><b>Placement</b>"));  // how to read it
  // Without any evidence there is no placement section.
  std::vector<ScenarioResult> none;
  none.push_back(MakeFakeScenario({.target = "efs"}));
  EXPECT_EQ(Section(RenderHtmlReport(MakeReportInput("p", {}, std::move(none), KeepPolicy::kAll),
                                     HtmlReportContext{}),
                    "placement"),
            "");
}

TEST(HtmlReportTest, ProbeResultsGetALatencyDistributionPerProbeAndReader) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeFakeScenario({.target = "efs",
                                        .workload = "visibility",
                                        .agents = 3,
                                        .ops_per_agent = 50,
                                        .latency_ns = 30'000'000,
                                        .bytes_per_op = 0,
                                        .kind = OpKind::kProbe}));
  const std::string html =
      RenderHtmlReport(MakeReportInput("probes", {}, std::move(scenarios), KeepPolicy::kAll), {});
  const std::string probes = Section(html, "visibility");
  ASSERT_NE(probes, "");
  EXPECT_THAT(probes, HasSubstr("probe visibility"));
  for (const char* reader : {"agent-1", "agent-2", "agent-3"}) {
    EXPECT_THAT(probes, HasSubstr(std::string("<td>") + reader + "</td><td class=\"num\">50</td>"));
    EXPECT_THAT(probes, HasSubstr(std::string("data-name=\"") + reader + "\""));
  }
  EXPECT_THAT(probes, HasSubstr("30.0ms"));
}

// A client_to_client probe run twice: agent-1 wrote, agent-2 read; `notes` are agent-2's join
// notes of repeat 1 and 2.
std::vector<ScenarioResult> ClientToClientRepeats(const std::string& note_1,
                                                  const std::string& note_2) {
  std::vector<ScenarioResult> scenarios;
  for (int repeat = 1; repeat <= 2; ++repeat) {
    ScenarioResult r = MakeFakeScenario({.target = "efs",
                                         .workload = "visibility",
                                         .repeat = repeat,
                                         .agents = 2,
                                         .ops_per_agent = 20,
                                         .latency_ns = 5'000'000,
                                         .bytes_per_op = 0,
                                         .kind = OpKind::kProbe});
    r.results[1].result.warnings.push_back("client_to_client: " + (repeat == 1 ? note_1 : note_2));
    scenarios.push_back(std::move(r));
  }
  return scenarios;
}

TEST(HtmlReportTest, EachRepeatsClientToClientNoteIsShown) {
  const std::string probes =
      Section(RenderHtmlReport(
                  MakeReportInput("c2c", {},
                                  ClientToClientRepeats("from writer agent-1; +-1.0ms; 0 early",
                                                        "from writer agent-1; +-3.0ms; 2 early"),
                                  KeepPolicy::kAll),
                  {}),
              "visibility");
  EXPECT_THAT(probes, HasSubstr("<p class=\"note\">agent-2, repeat 1: from writer agent-1; "
                                "+-1.0ms; 0 early</p>"));
  EXPECT_THAT(probes, HasSubstr("<p class=\"note\">agent-2, repeat 2: from writer agent-1; "
                                "+-3.0ms; 2 early</p>"));
  EXPECT_THAT(probes, Not(HasSubstr("agent-1, repeat"))) << "the writer has no note";
}

TEST(HtmlReportTest, AClientToClientNoteEveryRepeatGaveIsSaidOnce) {
  const std::string same = "from writer agent-1; +-1.0ms; 0 early";
  const std::string probes = Section(
      RenderHtmlReport(
          MakeReportInput("c2c", {}, ClientToClientRepeats(same, same), KeepPolicy::kAll), {}),
      "visibility");
  EXPECT_EQ(Count(probes, "<p class=\"note\">agent-2: " + same + "</p>"), 1u) << probes;
  EXPECT_THAT(probes, Not(HasSubstr("repeat 1")));
  // keep last shows the last repeat only, and so its note alone.
  const std::string last = Section(
      RenderHtmlReport(
          MakeReportInput("c2c", {}, ClientToClientRepeats("first", "second"), KeepPolicy::kLast),
          {}),
      "visibility");
  EXPECT_THAT(last, HasSubstr("<p class=\"note\">agent-2: second</p>"));
  EXPECT_THAT(last, Not(HasSubstr("first")));
}

TEST(HtmlReportTest, FailedScenariosAreListedWithTheirReason) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeFakeScenario({.target = "efs"}));
  ScenarioResult failed = MakeFakeScenario({.target = "fsx", .status = ScenarioStatus::kFailed});
  failed.results.clear();
  failed.status_detail = "agent-1: <ENOSPC>";
  scenarios.push_back(std::move(failed));
  const std::string html =
      RenderHtmlReport(MakeReportInput("f", {}, std::move(scenarios), KeepPolicy::kAll), {});
  EXPECT_THAT(html,
              HasSubstr("<li class=\"status-failed\">failed: "
                        "workload=randread/target=fsx/repeat=1: agent-1: &lt;ENOSPC&gt;</li>"));
}

}  // namespace
}  // namespace azbench
