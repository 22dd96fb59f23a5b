// The scaling table: aggregate, efficiency against the N=1 run, fairness and skew, and its
// Markdown, CSV, JSON and HTML forms agree.
#include "coordinator/report/scaling_rows.h"

#include <string>
#include <vector>

#include "coordinator/report/html_report.h"
#include "coordinator/report/json_report.h"
#include "coordinator/report/markdown_report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/report_scenarios.h"

namespace azbench {
namespace {

using testing::FakeScenario;
using ::testing::HasSubstr;
using testing::MakeFakeScenario;

constexpr double kMiB = 1024.0 * 1024.0;

// efs: nodes 1, 2, 4 (agent 2 of the 2-agent run does 3x the ops; the 4-agent run does half the
// ops per agent with 100 ms of skew between agents). fsx: nodes 2 and 4, no N=1 run.
ReportInput Input() {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeFakeScenario({.target = "efs", .parameters = {{"nodes", "1"}}}));
  ScenarioResult two =
      MakeFakeScenario({.target = "efs", .parameters = {{"nodes", "2"}}, .agents = 2});
  OpStats& fast = two.results[1].result.Stats(OpKind::kRead);
  fast.ops = 3000;
  fast.bytes = 3000 * 4096;
  for (int i = 0; i < 2000; ++i) fast.lat.Record(1'000'000);
  for (IntervalStats& in : two.results[1].result.intervals) {
    in.by_kind[0].ops = 1500;
    in.by_kind[0].bytes = 1500 * 4096;
  }
  scenarios.push_back(std::move(two));
  scenarios.push_back(MakeFakeScenario({.target = "efs",
                                        .parameters = {{"nodes", "all"}},
                                        .agents = 4,
                                        .ops_per_agent = 500,
                                        .agent_skew_ns = 100'000'000}));
  for (int n : {2, 4}) {
    scenarios.push_back(MakeFakeScenario(
        {.target = "fsx", .parameters = {{"nodes", std::to_string(n)}}, .agents = n}));
  }
  return MakeReportInput("scale", {}, std::move(scenarios), KeepPolicy::kLast);
}

std::vector<ScalingRow> Rows(const ReportInput& input) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
  return BuildScalingRows(input, BuildCells(input, figures));
}

TEST(ScalingRowsTest, EfficiencyIsAggregateOverNTimesTheOneAgentRun) {
  const ReportInput input = Input();
  const std::vector<ScalingRow> rows = Rows(input);
  ASSERT_EQ(rows.size(), 5u);
  const ScalingRow& one = rows[0];
  EXPECT_EQ(one.target, "efs");
  EXPECT_EQ(one.agents, 1);
  EXPECT_DOUBLE_EQ(one.full_iops, 500);  // 1000 ops in 2 s
  EXPECT_DOUBLE_EQ(one.full_mib_s, 500 * 4096 / kMiB);
  ASSERT_TRUE(one.efficiency.has_value());
  EXPECT_DOUBLE_EQ(*one.efficiency, 1.0);
  // 2 agents: 4000 ops in 2 s = 2000 IOPS = 2 x 2 x 500 -> 200%.
  const ScalingRow& two = rows[1];
  EXPECT_EQ(two.agents, 2);
  EXPECT_DOUBLE_EQ(two.full_iops, 2000);
  ASSERT_TRUE(two.efficiency.has_value());
  EXPECT_DOUBLE_EQ(*two.efficiency, 2.0);
  ASSERT_TRUE(two.stonewall_efficiency.has_value());
  EXPECT_NEAR(*two.stonewall_efficiency, 2.0, 1e-9);
  // Fairness in MiB/s: per agent 1000 and 3000 ops over 2 s.
  EXPECT_DOUBLE_EQ(two.fairness.min, 500 * 4096 / kMiB);
  EXPECT_DOUBLE_EQ(two.fairness.max, 1500 * 4096 / kMiB);
  EXPECT_DOUBLE_EQ(two.fairness.cv, 0.5);
  // all = 4 agents, 500 ops each, staggered by 100 ms: full window 2.3 s.
  const ScalingRow& four = rows[2];
  EXPECT_EQ(four.nodes, "nodes=all");
  EXPECT_EQ(four.agents, 4);
  EXPECT_EQ(four.start_skew_ns, 300'000'000);
  EXPECT_DOUBLE_EQ(four.full_iops, 2000 / 2.3);
  ASSERT_TRUE(four.efficiency.has_value());
  EXPECT_DOUBLE_EQ(*four.efficiency, (2000 / 2.3) / (4 * 500.0));
  EXPECT_DOUBLE_EQ(four.fairness.cv, 0.0);
  EXPECT_TRUE(four.has_latency);
  EXPECT_EQ(four.op, OpKind::kRead);
  EXPECT_NEAR(static_cast<double>(four.p99_ns), 1e6, 1e6 * Histogram::kMaxRelativeError);
  // fsx has no N=1 run.
  EXPECT_EQ(rows[3].target, "fsx");
  EXPECT_FALSE(rows[3].efficiency.has_value());
  EXPECT_FALSE(rows[4].efficiency.has_value());
}

TEST(ScalingRowsTest, MarkdownCsvJsonAndHtmlShowTheSameTable) {
  const ReportInput input = Input();
  const std::string md = RenderMarkdownReport(input);
  EXPECT_THAT(md, HasSubstr("## Scaling"));
  EXPECT_THAT(md, HasSubstr("### randread on efs"));
  EXPECT_THAT(md, HasSubstr("| 2 | nodes=2 |"));
  EXPECT_THAT(md, HasSubstr("| 200% |"));
  EXPECT_THAT(md, HasSubstr("no N=1 run"));

  const std::string csv = RenderScalingCsv(Rows(input));
  EXPECT_THAT(csv, HasSubstr("workload,where,target,nodes,agents,full_mib_s,full_iops,"));
  EXPECT_THAT(csv, HasSubstr("randread,,efs,nodes=2,2,7.812500,2000.000000,"));
  EXPECT_THAT(csv, HasSubstr(",5.859375,0.500000,0.000,2.000000,2.000000\n"));  // cv, skew, eff

  const nlohmann::json json = JsonReport(input);
  ASSERT_TRUE(json.contains("scaling"));
  ASSERT_EQ(json["scaling"].size(), 5u);
  EXPECT_DOUBLE_EQ(json["scaling"][1]["efficiency"].get<double>(), 2.0);
  EXPECT_DOUBLE_EQ(json["scaling"][1]["fairness"]["cv"].get<double>(), 0.5);
  EXPECT_TRUE(json["scaling"][3]["efficiency"].is_null());

  const std::string html = RenderHtmlReport(input, {});
  EXPECT_THAT(html, HasSubstr("<section id=\"scaling\">"));
  EXPECT_THAT(html, HasSubstr(">200%</td>"));
  EXPECT_THAT(html, HasSubstr(">no N=1 run</td>"));
  // Its one per-agent column is the aggregate split evenly, named so (not the fairness figures).
  EXPECT_THAT(html, HasSubstr("<th>aggregate / agents</th>"));
}

TEST(ScalingRowsTest, FsyncIsNotCountedAsIo) {
  // randwrite with fsync=1: 1000 writes and 1000 fsyncs in 2 s is 500 IOPS, not 1000.
  ScenarioResult run = MakeFakeScenario(
      {.workload = "randwrite", .parameters = {{"nodes", "1"}}, .kind = OpKind::kWrite});
  JobResult& job = run.results[0].result;
  OpStats& fsync = job.Stats(OpKind::kFsync);
  fsync.ops = 1000;
  for (int i = 0; i < 1000; ++i) fsync.lat.Record(100'000);
  for (IntervalStats& in : job.intervals) in.by_kind[static_cast<int>(OpKind::kFsync)].ops = 500;
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(run));
  const ReportInput input = MakeReportInput("s", {}, std::move(scenarios), KeepPolicy::kLast);
  const std::vector<ScalingRow> rows = Rows(input);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].full_iops, 500);
  ASSERT_TRUE(rows[0].stonewall_valid);
  EXPECT_DOUBLE_EQ(rows[0].stonewall_iops, 500);
}

TEST(ScalingRowsTest, KindsRunOneAfterAnotherAreTheirOpsOverTheScenarioWindowNotSummedRates) {
  // A metadata-like run: 1000 creates in [0, 2 s), then 1000 stats in [2 s, 4 s). Each phase is
  // 500 ops/s over its own window; the run did 2000 ops in 4 s = 500 ops/s, not 1000.
  ScenarioResult run =
      MakeFakeScenario({.workload = "md", .parameters = {{"nodes", "1"}}, .kind = OpKind::kCreate});
  run.results[0].result.name = "md.create";
  ScenarioResult stat_phase =
      MakeFakeScenario({.workload = "md", .parameters = {}, .kind = OpKind::kStat});
  JobResult stat = std::move(stat_phase.results[0].result);
  stat.name = "md.stat";
  stat.start_realtime_ns += 2 * ::azbench::testing::kSecondNs;
  stat.end_realtime_ns += 2 * ::azbench::testing::kSecondNs;
  run.results.push_back(AgentJobResult{"agent-1", std::move(stat)});
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(run));
  const ReportInput input = MakeReportInput("s", {}, std::move(scenarios), KeepPolicy::kLast);
  const std::vector<ScalingRow> rows = Rows(input);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_DOUBLE_EQ(rows[0].full_iops, 500);
  ASSERT_TRUE(rows[0].stonewall_valid);
  EXPECT_DOUBLE_EQ(rows[0].stonewall_iops, 500);
}

// Sets one agent's job of `run` to `reads` reads and `writes` writes of 4 KiB in its 2 s.
void SetReadsAndWrites(ScenarioResult& run, size_t agent, uint64_t reads, uint64_t writes) {
  JobResult& job = run.results[agent].result;
  for (auto [kind, ops] : {std::pair{OpKind::kRead, reads}, std::pair{OpKind::kWrite, writes}}) {
    OpStats& stats = job.Stats(kind);
    stats = OpStats{};
    for (uint64_t i = 0; i < ops; ++i) stats.lat.Record(1'000'000);
    stats.ops = ops;
    stats.bytes = ops * 4096;
    for (IntervalStats& in : job.intervals) {
      in.by_kind[static_cast<int>(kind)].ops = ops / 2;
      in.by_kind[static_cast<int>(kind)].bytes = ops / 2 * 4096;
    }
  }
}

TEST(ScalingRowsTest, PerAgentFiguresAreEachAgentsAggregateAveragedOverRepeats) {
  // One agent, randrw, two repeats: 1000 reads + 1000 writes, then 3000 reads + 1000 writes, each
  // in 2 s. The aggregate is every data op kind, the mean over the repeats; so must the one
  // agent's figure be (not the reads of one repeat).
  std::vector<ScenarioResult> scenarios;
  for (int repeat : {1, 2}) {
    ScenarioResult run =
        MakeFakeScenario({.workload = "randrw", .parameters = {{"nodes", "1"}}, .repeat = repeat});
    SetReadsAndWrites(run, 0, repeat == 1 ? 1000 : 3000, 1000);
    scenarios.push_back(std::move(run));
  }
  // Two agents, two repeats: agent-1 does 1000 reads + 500 writes then 3000 + 500, agent-2 the
  // other way round. Averaged over the repeats both agents did the same.
  for (int repeat : {1, 2}) {
    ScenarioResult run = MakeFakeScenario(
        {.workload = "randrw", .parameters = {{"nodes", "2"}}, .repeat = repeat, .agents = 2});
    SetReadsAndWrites(run, 0, repeat == 1 ? 1000 : 3000, 500);
    SetReadsAndWrites(run, 1, repeat == 1 ? 3000 : 1000, 500);
    scenarios.push_back(std::move(run));
  }
  const ReportInput input = MakeReportInput("s", {}, std::move(scenarios), KeepPolicy::kAll);
  const std::vector<ScalingRow> rows = Rows(input);
  ASSERT_EQ(rows.size(), 2u);
  const ScalingRow& one = rows[0];
  EXPECT_EQ(one.agents, 1);
  // (2000 + 4000) / 2 ops of 4 KiB per 2 s.
  EXPECT_DOUBLE_EQ(one.full_mib_s, 1500 * 4096 / kMiB);
  EXPECT_DOUBLE_EQ(one.fairness.min, one.full_mib_s);
  EXPECT_DOUBLE_EQ(one.fairness.max, one.full_mib_s);
  EXPECT_DOUBLE_EQ(one.fairness.cv, 0.0);
  const ScalingRow& two = rows[1];
  EXPECT_EQ(two.agents, 2);
  // Each agent: (1500 + 3500) / 2 ops per 2 s = 1250 ops/s.
  EXPECT_DOUBLE_EQ(two.fairness.min, 1250 * 4096 / kMiB);
  EXPECT_DOUBLE_EQ(two.fairness.max, 1250 * 4096 / kMiB);
  EXPECT_DOUBLE_EQ(two.fairness.cv, 0.0);
  EXPECT_DOUBLE_EQ(two.full_mib_s, 2 * two.fairness.mean);
}

TEST(ScalingRowsTest, NoAgentAxisMeansNoScalingSection) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeFakeScenario({.parameters = {{"iodepth", "4"}}}));
  const ReportInput input = MakeReportInput("x", {}, std::move(scenarios), KeepPolicy::kLast);
  EXPECT_TRUE(Rows(input).empty());
  EXPECT_THAT(RenderMarkdownReport(input), ::testing::Not(HasSubstr("## Scaling")));
}

}  // namespace
}  // namespace azbench
