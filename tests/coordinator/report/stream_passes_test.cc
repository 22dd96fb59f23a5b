#include "coordinator/report/stream_passes.h"

#include <string>
#include <vector>

#include "coordinator/report/csv_report.h"
#include "coordinator/report/fio_json_report.h"
#include "coordinator/report/html_report.h"
#include "coordinator/report/json_report.h"
#include "coordinator/report/markdown_report.h"
#include "coordinator/report/terminal_report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kMs = 1'000'000;
constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr uint64_t kPassBytes = 100ull << 20;  // 100 MiB per pass

// A large_stream scenario as the agents return it: per agent, one result "stream.pass<N>" per
// pass of kPassBytes read in runtime_ms[agent][N-1], the passes back to back from kT0. A runtime
// of 0 leaves that pass out (not reported).
ScenarioResult StreamScenario(const std::string& target,
                              const std::vector<std::vector<int64_t>>& runtime_ms, int repeat = 1) {
  ScenarioResult result;
  Scenario& s = result.scenario;
  s.target = target;
  s.workload = "stream";
  s.repeat = repeat;
  s.key = "workload=stream/target=" + target + "/repeat=" + std::to_string(repeat);
  s.jobs.push_back(ScenarioJob{"stream", "large_stream", {{"size", "100m"}}, 0});
  for (size_t a = 0; a < runtime_ms.size(); ++a) {
    const std::string agent = "agent-" + std::to_string(a + 1);
    s.agent_ids.push_back(agent);
    int64_t start = kT0;
    for (size_t p = 0; p < runtime_ms[a].size(); ++p) {
      const int64_t runtime = runtime_ms[a][p] * kMs;
      if (runtime == 0) continue;
      JobResult job;
      job.name = "stream.pass" + std::to_string(p + 1);
      job.start_realtime_ns = start;
      job.end_realtime_ns = start + runtime;
      job.runtime_ns = static_cast<uint64_t>(runtime);
      OpStats& read = job.Stats(OpKind::kRead);
      read.ops = 100;
      read.bytes = kPassBytes;
      for (int i = 0; i < 100; ++i) read.lat.Record(1'000'000);
      start += runtime;
      result.results.push_back(AgentJobResult{agent, std::move(job)});
    }
  }
  return result;
}

// agent-1: 100 and 200 MiB/s (mean 150); agent-2: 50 and 200 MiB/s (mean 125). Pass 1 of both
// spans [0, 2 s]: 200 MiB / 2 s = 100 MiB/s; pass 2 spans [1 s, 2.5 s]: 200 MiB / 1.5 s.
ScenarioResult TwoAgents() { return StreamScenario("efs", {{1000, 500}, {2000, 500}}); }

ReportInput Input(std::vector<ScenarioResult> scenarios) {
  return MakeReportInput("streams", {}, std::move(scenarios), KeepPolicy::kAll);
}

ReportInput Input(ScenarioResult scenario) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(scenario));
  return Input(std::move(scenarios));
}

TEST(StreamPassesTest, EachAgentsPassIsItsBytesOverItsRuntimeAndTheMeanIsOverThePasses) {
  const std::vector<StreamPasses> jobs = BuildStreamPasses(TwoAgents());
  ASSERT_EQ(jobs.size(), 1u);
  const StreamPasses& job = jobs[0];
  EXPECT_EQ(job.job, "stream");
  EXPECT_EQ(job.passes, 2);
  ASSERT_EQ(job.agents.size(), 2u);
  EXPECT_EQ(job.agents[0].agent_id, "agent-1");
  ASSERT_TRUE(job.agents[0].passes[0].has_value());
  EXPECT_EQ(job.agents[0].passes[0]->bytes, kPassBytes);
  EXPECT_DOUBLE_EQ(job.agents[0].passes[0]->mib_s, 100);
  EXPECT_DOUBLE_EQ(job.agents[0].passes[1]->mib_s, 200);
  EXPECT_DOUBLE_EQ(*job.agents[0].mean_mib_s, 150);
  EXPECT_DOUBLE_EQ(job.agents[1].passes[0]->mib_s, 50);
  EXPECT_DOUBLE_EQ(*job.agents[1].mean_mib_s, 125);
}

TEST(StreamPassesTest, AllAgentsIsEachPasssBytesOverThatPasssWindowAcrossAgents) {
  const StreamPasses job = BuildStreamPasses(TwoAgents())[0];
  ASSERT_EQ(job.aggregate_mib_s.size(), 2u);
  EXPECT_DOUBLE_EQ(*job.aggregate_mib_s[0], 100);
  EXPECT_DOUBLE_EQ(*job.aggregate_mib_s[1], 200 / 1.5);
  EXPECT_DOUBLE_EQ(*job.aggregate_mean_mib_s, (100 + 200 / 1.5) / 2);
}

TEST(StreamPassesTest, AMissingPassIsMissingNotZeroAndOneAgentIsItsOwnAggregate) {
  // Pass 2 was not reported (cancelled); pass 3 was.
  const StreamPasses job = BuildStreamPasses(StreamScenario("efs", {{1000, 0, 250}}))[0];
  EXPECT_EQ(job.passes, 3);
  EXPECT_FALSE(job.agents[0].passes[1].has_value());
  EXPECT_DOUBLE_EQ(*job.agents[0].mean_mib_s, (100 + 400) / 2.0);
  EXPECT_FALSE(job.aggregate_mib_s[1].has_value());
  EXPECT_DOUBLE_EQ(*job.aggregate_mib_s[2], 400);
  EXPECT_DOUBLE_EQ(*job.aggregate_mean_mib_s, 250);
}

TEST(StreamPassesTest, OtherFamiliesHaveNoPasses) {
  ScenarioResult other = TwoAgents();
  other.scenario.jobs[0].workload = "block_io";
  EXPECT_TRUE(BuildStreamPasses(other).empty());
  EXPECT_TRUE(
      BuildStreamPassTable(Input(std::vector<ScenarioResult>{}), ReportCell{}).rows.empty());
}

TEST(StreamPassesTest, TheTableHasARowPerAgentAndAnAllAgentsRowPerKeptRepeat) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(TwoAgents());
  scenarios.push_back(StreamScenario("fsx", {{500, 500, 500}}));
  const ReportInput input = Input(std::move(scenarios));
  std::vector<ScenarioFigures> storage;
  const std::vector<ReportCell> cells = BuildCells(input, FiguresOf(input, storage));
  ASSERT_EQ(cells.size(), 1u);
  const StreamPassTable table = BuildStreamPassTable(input, cells[0]);
  EXPECT_EQ(table.passes, 3);
  ASSERT_EQ(table.rows.size(), 4u);  // efs: 2 agents + all agents; fsx: its one agent
  EXPECT_EQ(table.rows[2].who, "all agents");
  EXPECT_TRUE(table.rows[2].aggregate);
  EXPECT_FALSE(table.rows[0].mib_s[2].has_value()) << "efs ran two passes of the three columns";
  EXPECT_EQ(table.rows[3].target, "fsx");
  EXPECT_DOUBLE_EQ(*table.rows[3].mean_mib_s, 200);
}

TEST(StreamPassesReportsTest, TheTerminalReportShowsEachPassPerAgentAndForAllAgents) {
  const std::string text = RenderTerminalReport(Input(TwoAgents()));
  EXPECT_THAT(text, HasSubstr("large_stream MiB/s per pass"));
  EXPECT_THAT(text, ::testing::ContainsRegex("agent  +pass 1  +pass 2  +mean"));
  EXPECT_THAT(text, ::testing::ContainsRegex("agent-1  +100.0  +200.0  +150.0"));
  EXPECT_THAT(text, ::testing::ContainsRegex("agent-2  +50.0  +200.0  +125.0"));
  EXPECT_THAT(text, ::testing::ContainsRegex("all agents  +100.0  +133.3  +116.7"));
}

TEST(StreamPassesReportsTest, TheMarkdownReportHasAPassTableUnderTheComparisonTable) {
  const std::string md = RenderMarkdownReport(Input(TwoAgents()));
  EXPECT_THAT(md, HasSubstr("| target | repeat | job | agent | pass 1 | pass 2 | mean |"));
  EXPECT_THAT(md, HasSubstr("| efs | 1 | stream | agent-1 | 100.0 | 200.0 | 150.0 |"));
  EXPECT_THAT(md, HasSubstr("| efs | 1 | stream | **all agents** | 100.0 | 133.3 | 116.7 |"));
  EXPECT_LT(md.find("| metric |"), md.find("MiB/s per pass"));
  EXPECT_THAT(RenderMarkdownReport(Input(StreamScenario("efs", {{1000}}))),
              Not(HasSubstr("**all agents**")))
      << "one agent is its own aggregate";
}

TEST(StreamPassesReportsTest, TheCsvReportHasThePassColumnsOnTheStreamsRow) {
  const std::string csv = RenderCsvReport(Input(TwoAgents()));
  // The pass columns, then the latency lower-bound flags (all false: no visibility probe).
  EXPECT_THAT(csv, HasSubstr(",start_skew_us,pass_mib_s,pass_mean_mib_s,pass_mib_s_by_agent,"
                             "mean_is_lower_bound,"));
  EXPECT_THAT(csv, HasSubstr(",100.000;133.333,116.667,agent-1=100.000;200.000 "
                             "agent-2=50.000;200.000,false,"));
}

TEST(StreamPassesReportsTest, TheJsonReportHasEveryPassOfEveryAgentAndTheAggregate) {
  const nlohmann::json doc = JsonReport(Input(TwoAgents()));
  const nlohmann::json& passes = doc["scenarios"][0]["passes"];
  ASSERT_EQ(passes.size(), 1u);
  EXPECT_EQ(passes[0]["job"], "stream");
  EXPECT_EQ(passes[0]["passes"], 2);
  EXPECT_EQ(passes[0]["agents"][1]["agent_id"], "agent-2");
  EXPECT_EQ(passes[0]["agents"][1]["passes"][0]["bytes"], kPassBytes);
  EXPECT_EQ(passes[0]["agents"][1]["passes"][0]["runtime_ns"], 2000 * kMs);
  EXPECT_DOUBLE_EQ(passes[0]["agents"][1]["passes"][0]["mib_s"].get<double>(), 50);
  EXPECT_DOUBLE_EQ(passes[0]["agents"][1]["mean_mib_s"].get<double>(), 125);
  EXPECT_DOUBLE_EQ(passes[0]["all_agents"]["mib_s"][1].get<double>(), 200 / 1.5);
  // Other families have no "passes" key.
  ScenarioResult other = TwoAgents();
  other.scenario.jobs[0].workload = "block_io";
  EXPECT_FALSE(JsonReport(Input(std::move(other)))["scenarios"][0].contains("passes"));
}

TEST(StreamPassesReportsTest, TheFioJsonReportHasThePassesInItsAzbenchObject) {
  const ReportInput input = Input(TwoAgents());
  ASSERT_EQ(FioJsonScenarioIndices(input).size(), 1u);
  const nlohmann::json doc = FioJsonDocument(input, 0);
  // fio's own layout is untouched: one fio job per pass, merged over the agents.
  ASSERT_EQ(doc["jobs"].size(), 2u);
  EXPECT_EQ(doc["jobs"][0]["jobname"], "stream.pass1");
  EXPECT_FALSE(doc.contains("passes"));
  const nlohmann::json& passes = doc["azbench"]["passes"];
  ASSERT_EQ(passes.size(), 1u) << doc["azbench"].dump(2);
  EXPECT_EQ(passes[0]["job"], "stream");
  EXPECT_EQ(passes[0]["passes"], 2);
  EXPECT_EQ(passes[0]["agents"][0]["agent_id"], "agent-1");
  EXPECT_DOUBLE_EQ(passes[0]["agents"][0]["passes"][1]["mib_s"].get<double>(), 200);
  EXPECT_DOUBLE_EQ(passes[0]["agents"][1]["mean_mib_s"].get<double>(), 125);
  EXPECT_DOUBLE_EQ(passes[0]["all_agents"]["mib_s"][0].get<double>(), 100);
  EXPECT_DOUBLE_EQ(passes[0]["all_agents"]["mean_mib_s"].get<double>(), (100 + 200 / 1.5) / 2);
  // The same figures, in the same layout, as the JSON report's.
  EXPECT_EQ(passes, JsonReport(input)["scenarios"][0]["passes"]);
  // Other families have no "passes" key.
  ScenarioResult other = TwoAgents();
  other.scenario.jobs[0].workload = "block_io";
  EXPECT_FALSE(FioJsonDocument(Input(std::move(other)), 0)["azbench"].contains("passes"));
}

TEST(StreamPassesReportsTest, TheHtmlReportHasAPassTableAndAChartOfIt) {
  const std::string html = RenderHtmlReport(Input(TwoAgents()), {});
  EXPECT_THAT(html, HasSubstr("<h3>MiB/s per pass</h3>"));
  EXPECT_THAT(html, HasSubstr("<th>pass 1</th><th>pass 2</th><th>mean</th>"));
  EXPECT_THAT(html, HasSubstr("<td>agent-2</td><td class=\"num\">50.0</td><td "
                              "class=\"num\">200.0</td><td class=\"num\"><b>125.0</b></td>"));
  EXPECT_THAT(html, HasSubstr("<b>all agents</b></td><td class=\"num\">100.0</td><td "
                              "class=\"num\">133.3</td><td class=\"num\"><b>116.7</b></td>"));
  EXPECT_THAT(html, HasSubstr("stream: MiB/s per pass"));     // the chart's title
  EXPECT_THAT(html, HasSubstr("<li><b>MiB/s per pass</b>"));  // how to read it
  EXPECT_THAT(RenderHtmlReport(Input(std::vector<ScenarioResult>{}), {}),
              Not(HasSubstr("MiB/s per pass")));
}

}  // namespace
}  // namespace azbench
