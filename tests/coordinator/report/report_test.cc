#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "common/result_json.h"
#include "coordinator/report/csv_report.h"
#include "coordinator/report/json_report.h"
#include "coordinator/report/markdown_report.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/terminal_report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/report_scenarios.h"

// FakeScenario is filled with designated initializers that leave the other fields at their
// defaults on purpose; GCC 12 warns about exactly that.
#pragma GCC diagnostic ignored "-Wmissing-field-initializers"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kT0 = 1'700'000'000 * kSecond;

// One agent that did `ops` reads of 4 KiB in exactly 1 s, each taking `latency_ns`.
ScenarioResult MakeScenario(const std::string& target, const std::string& workload,
                            std::vector<std::pair<std::string, std::string>> parameters, int repeat,
                            uint64_t ops, uint64_t latency_ns,
                            ScenarioStatus status = ScenarioStatus::kComplete) {
  ScenarioResult result;
  Scenario& s = result.scenario;
  s.target = target;
  s.workload = workload;
  s.parameters = std::move(parameters);
  s.repeat = repeat;
  s.key = "target=" + target + "/workload=" + workload;
  for (const auto& [k, v] : s.parameters) s.key += "/" + k + "=" + v;
  s.key += "/repeat=" + std::to_string(repeat);
  result.status = status;
  JobResult job;
  job.name = workload;
  job.start_realtime_ns = kT0;
  job.end_realtime_ns = kT0 + kSecond;
  job.runtime_ns = kSecond;
  OpStats& read = job.Stats(OpKind::kRead);
  for (uint64_t i = 0; i < ops; ++i) read.lat.Record(latency_ns);
  read.ops = ops;
  read.bytes = ops * 4096;
  result.results.push_back(AgentJobResult{target + "-agent", std::move(job)});
  return result;
}

// The table row whose first cell is `label` in the section that starts with `heading`.
std::string Row(const std::string& markdown, const std::string& heading, const std::string& label) {
  const size_t section = markdown.find(heading);
  if (section == std::string::npos) return "";
  std::istringstream lines(markdown.substr(section));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("| " + label + " |", 0) == 0) return line;
  }
  return "";
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) lines.push_back(line);
  return lines;
}

ReportInput StudyBLikeInput(KeepPolicy keep = KeepPolicy::kAll) {
  std::vector<ScenarioResult> scenarios;
  for (const char* iodepth : {"1", "16"}) {
    scenarios.push_back(
        MakeScenario("efs", "randread", {{"iodepth", iodepth}}, 1, 4500, 1'000'000));
    scenarios.push_back(
        MakeScenario("fsx", "randread", {{"iodepth", iodepth}}, 1, 1000, 4'000'000));
    scenarios.push_back(
        MakeScenario("lustre", "randread", {{"iodepth", iodepth}}, 1, 500, 8'000'000));
  }
  return MakeReportInput("study-b", {}, std::move(scenarios), keep);
}

TEST(MarkdownReportTest, EachWorkloadAndMatrixCellGetsATableWithOneColumnPerTarget) {
  const std::string md = RenderMarkdownReport(StudyBLikeInput());
  EXPECT_THAT(md, HasSubstr("# azbench report: study-b"));
  EXPECT_THAT(md, HasSubstr("## randread (iodepth=1)"));
  EXPECT_THAT(md, HasSubstr("## randread (iodepth=16)"));
  EXPECT_THAT(md, HasSubstr("| metric | efs | fsx | lustre | fastest |"));
  for (const char* label : {"IOPS", "MiB/s", "mean lat", "p50", "p90", "p99", "p99.9", "max"}) {
    EXPECT_NE(Row(md, "(iodepth=16)", label), "") << label;
  }
}

TEST(MarkdownReportTest, TheFastestColumnNamesTheBestTargetAndItsRatioToTheRunnerUp) {
  const std::string md = RenderMarkdownReport(StudyBLikeInput());
  EXPECT_EQ(Row(md, "(iodepth=1)", "IOPS"), "| IOPS | 4,500 | 1,000 | 500 | efs 4.5x |");
  EXPECT_EQ(Row(md, "(iodepth=1)", "MiB/s"), "| MiB/s | 17.6 | 3.91 | 1.95 | efs 4.5x |");
  // Lower is better for latencies: efs at 1 ms against fsx at 4 ms.
  EXPECT_EQ(Row(md, "(iodepth=1)", "mean lat"),
            "| mean lat | 1.00ms | 4.00ms | 8.00ms | efs 4.0x |");
  EXPECT_EQ(Row(md, "(iodepth=1)", "p99"), "| p99 | 1.00ms | 4.00ms | 8.00ms | efs 4.0x |");
}

TEST(MarkdownReportTest, ASingleTargetHasNoFastestEntry) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("efs", "seqread", {}, 1, 10, 1000));
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_THAT(md, HasSubstr("## seqread\n"));
  EXPECT_EQ(Row(md, "## seqread", "IOPS"), "| IOPS | 10.0 | - |");
}

std::vector<ScenarioResult> ThreeRepeats() {
  // Repeats of 100, 200 and 600 IOPS at 1, 2 and 3 ms.
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("efs", "randread", {}, 1, 100, 1'000'000));
  scenarios.push_back(MakeScenario("efs", "randread", {}, 2, 200, 2'000'000));
  scenarios.push_back(MakeScenario("efs", "randread", {}, 3, 600, 3'000'000));
  for (auto& s : scenarios) s.scenario.repeats = 3;
  return scenarios;
}

TEST(ReportInputTest, KeepAllAveragesStonewallFiguresOnlyOverRepeatsWithAValidWindow) {
  std::vector<ScenarioResult> scenarios;
  for (int repeat = 1; repeat <= 3; ++repeat) {
    scenarios.push_back(MakeScenario("efs", "randread", {}, repeat, 10'000, 1'000'000));
    scenarios.back().scenario.repeats = 3;
  }
  // Repeat 3: a second agent started after the first ended, so no window where both ran.
  JobResult late = scenarios[2].results[0].result.Clone();
  late.start_realtime_ns += 2 * kSecond;
  late.end_realtime_ns += 2 * kSecond;
  scenarios[2].results.push_back(AgentJobResult{"efs-agent-2", std::move(late)});
  const ReportInput input = MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll);
  const std::vector<ReportCell> cells = BuildCells(input, input.figures);
  ASSERT_EQ(cells.size(), 1u);
  ASSERT_EQ(cells[0].targets.size(), 1u);
  const KeptOp* read = cells[0].targets[0].Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_TRUE(read->stonewall_valid);
  EXPECT_EQ(read->stonewall_repeats, 2);
  EXPECT_DOUBLE_EQ(read->stonewall_iops, 10'000.0) << "repeat 3 has no stonewall figure, not 0";
  EXPECT_DOUBLE_EQ(read->stonewall_mib_s, 10'000.0 * 4096 / (1024.0 * 1024.0));
}

TEST(ReportInputTest, AKindWhoseOwnStonewallWindowIsEmptyHasNoStonewallFigure) {
  // Both agents write over [0, 3 s), so the scenario's window is valid; their reads ran at
  // different times ([0, 1 s) and [2 s, 3 s)), so the reads' own window (merge.h rule 7) is empty.
  ScenarioResult run = MakeScenario("efs", "rw", {}, 1, 100, 1'000'000);
  JobResult& a_read = run.results[0].result;
  a_read.name = "rw.read";
  JobResult b_read = a_read.Clone();
  b_read.start_realtime_ns += 2 * kSecond;
  b_read.end_realtime_ns += 2 * kSecond;
  run.results.push_back(AgentJobResult{"efs-agent-2", std::move(b_read)});
  for (const char* agent : {"efs-agent", "efs-agent-2"}) {
    JobResult write;
    write.name = "rw.write";
    write.start_realtime_ns = kT0;
    write.end_realtime_ns = kT0 + 3 * kSecond;
    write.runtime_ns = 3 * kSecond;
    OpStats& w = write.Stats(OpKind::kWrite);
    w.ops = 300;
    w.bytes = 300 * 4096;
    w.lat.Record(1'000'000);
    run.results.push_back(AgentJobResult{agent, std::move(write)});
  }
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(run));
  const ReportInput input = MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll);
  ASSERT_TRUE(input.figures[0].stonewall_valid);
  const std::vector<ReportCell> cells = BuildCells(input, input.figures);
  ASSERT_EQ(cells.size(), 1u);
  const TargetColumn& column = cells[0].targets[0];
  const KeptOp* read = column.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_FALSE(read->stonewall_valid) << "a window that does not exist is no figure of 0";
  EXPECT_EQ(read->stonewall_repeats, 0);
  const KeptOp* write = column.Find(OpKind::kWrite);
  ASSERT_NE(write, nullptr);
  EXPECT_TRUE(write->stonewall_valid);
  EXPECT_EQ(write->stonewall_repeats, 1);
}

TEST(MarkdownReportTest, KeepLastShowsTheLastRepeatWithTheSpreadOverRepeats) {
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, ThreeRepeats(), KeepPolicy::kLast));
  EXPECT_EQ(Row(md, "## randread", "IOPS"), "| IOPS | 600 [100-600] | - |");
  EXPECT_EQ(Row(md, "## randread", "mean lat"), "| mean lat | 3.00ms | - |");
  EXPECT_THAT(md, HasSubstr("last of up to 3 repeats"));
}

TEST(MarkdownReportTest, KeepMedianShowsTheRepeatWithTheMedianThroughput) {
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, ThreeRepeats(), KeepPolicy::kMedian));
  EXPECT_EQ(Row(md, "## randread", "IOPS"), "| IOPS | 200 [100-600] | - |");
  EXPECT_EQ(Row(md, "## randread", "mean lat"), "| mean lat | 2.00ms | - |");
}

TEST(MarkdownReportTest, KeepAllAveragesThroughputAndPoolsTheLatencyHistograms) {
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, ThreeRepeats(), KeepPolicy::kAll));
  EXPECT_EQ(Row(md, "## randread", "IOPS"), "| IOPS | 300 [100-600] | - |");
  // (100 x 1 ms + 200 x 2 ms + 600 x 3 ms) / 900 ops = 2.56 ms.
  EXPECT_EQ(Row(md, "## randread", "mean lat"), "| mean lat | 2.56ms | - |");
}

TEST(MarkdownReportTest, ClientCpuRowsShowTheJobThreadsCpuAndItsCostPerOp) {
  std::vector<ScenarioResult> scenarios;
  // efs: two repeats, 4,500 ops each; the job thread spent 10% of its second in user time and
  // 30% in the kernel each time. fsx's agent did not report CPU.
  for (int repeat : {1, 2}) {
    scenarios.push_back(MakeScenario("efs", "randread", {}, repeat, 4500, 1'000'000));
    CpuUsage& cpu = scenarios.back().results[0].result.cpu;
    cpu.threads = 1;
    cpu.wall_ns = kSecond;
    cpu.user_ns = kSecond / 10;
    cpu.system_ns = 3 * kSecond / 10;
  }
  scenarios.push_back(MakeScenario("fsx", "randread", {}, 1, 1000, 4'000'000));
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_EQ(Row(md, "## randread", "client CPU"), "| client CPU | usr 10.0%, sys 30.0% | - |  |");
  // (2 x 0.4 s) / (2 x 4,500 ops) = 88.9 us per op.
  EXPECT_EQ(Row(md, "## randread", "client CPU/op"), "| client CPU/op | 88.9us | - |  |");
}

TEST(TerminalReportTest, CpuPerOpIsShownOncePerTargetAndDashWhenNotMeasured) {
  std::vector<ScenarioResult> scenarios;
  // efs: randrw, 3,000 reads and 1,000 writes; the job thread spent 0.1 s in user time and 0.3 s
  // in the kernel: 0.4 s / 4,000 ops = 100 us per op. fsx's agent did not report CPU.
  scenarios.push_back(MakeScenario("efs", "randrw", {}, 1, 3000, 1'000'000));
  {
    JobResult& result = scenarios.back().results[0].result;
    OpStats& writes = result.Stats(OpKind::kWrite);
    for (int i = 0; i < 1000; ++i) writes.lat.Record(2'000'000);
    writes.ops = 1000;
    writes.bytes = 1000 * 4096;
    result.cpu.threads = 1;
    result.cpu.wall_ns = kSecond;
    result.cpu.user_ns = kSecond / 10;
    result.cpu.system_ns = 3 * kSecond / 10;
  }
  scenarios.push_back(MakeScenario("fsx", "randrw", {}, 1, 1000, 4'000'000));
  const std::string text =
      RenderTerminalReport(MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll));
  const std::vector<std::string> lines = Lines(text);
  ASSERT_GE(lines.size(), 4u) << text;
  EXPECT_THAT(lines[0], ::testing::ContainsRegex("errors +cpu/op +agents"));
  EXPECT_THAT(lines[1], ::testing::ContainsRegex("efs +read .* 0 +100us +1$")) << text;
  EXPECT_THAT(lines[2], ::testing::ContainsRegex("efs +write .* 0 +1$")) << text;
  EXPECT_THAT(lines[3], ::testing::ContainsRegex("fsx +read .* 0 +- +1$")) << text;
}

TEST(MarkdownReportTest, ClientCpuPerOpCountsOnlyTheOpsOfAgentsThatMeasuredCpu) {
  // Two agents of 4,500 ops each; only the first measured its CPU (0.4 s): 0.4 s / 4,500 ops,
  // not / 9,000.
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("efs", "randread", {}, 1, 4500, 1'000'000));
  AgentJobResult second =
      std::move(MakeScenario("efs", "randread", {}, 1, 4500, 1'000'000).results[0]);
  second.agent_id = "efs-agent-2";
  CpuUsage& cpu = scenarios.back().results[0].result.cpu;
  cpu.threads = 1;
  cpu.wall_ns = kSecond;
  cpu.user_ns = kSecond / 10;
  cpu.system_ns = 3 * kSecond / 10;
  scenarios.back().results.push_back(std::move(second));
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_EQ(Row(md, "## randread", "client CPU/op"), "| client CPU/op | 88.9us |  |");
}

TEST(MarkdownReportTest, NoClientCpuRowsWhenNoAgentMeasuredIt) {
  const std::string md = RenderMarkdownReport(StudyBLikeInput());
  EXPECT_THAT(md, Not(HasSubstr("client CPU")));
}

TEST(MarkdownReportTest, PartialAndFailedScenariosAreFlaggedWithTheirReasons) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("efs", "randread", {}, 1, 100, 1000));
  ScenarioResult partial =
      MakeScenario("fsx", "randread", {}, 1, 50, 1000, ScenarioStatus::kPartial);
  partial.status_detail = "1 of 2 agents lost";
  partial.lost.push_back(LostAgent{"10.0.0.9:7480", kT0 + 2 * kSecond, "stream reset"});
  scenarios.push_back(std::move(partial));
  ScenarioResult failed = MakeScenario("lustre", "randread", {}, 1, 0, 0, ScenarioStatus::kFailed);
  failed.status_detail = "prepare failed: ENOSPC";
  scenarios.push_back(std::move(failed));
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_THAT(md, HasSubstr("| metric | efs | fsx (partial) | fastest |"));
  EXPECT_THAT(md, HasSubstr("- partial: target=fsx/workload=randread/repeat=1: 1 of 2 agents lost; "
                            "lost 10.0.0.9:7480 at +2.0s (stream reset)"));
  EXPECT_THAT(md, HasSubstr("- failed: target=lustre/workload=randread/repeat=1: prepare failed: "
                            "ENOSPC"));
  EXPECT_THAT(md, HasSubstr("1 complete, 1 partial, 1 failed, 0 skipped"));
}

TEST(MarkdownReportTest, PipesInNamesDoNotBreakTheTable) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("a|b", "w", {}, 1, 1, 1000));
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_THAT(md, HasSubstr("| metric | a\\|b | fastest |"));
}

TEST(CsvReportTest, FieldsWithCommasQuotesOrNewlinesAreQuotedWithQuotesDoubled) {
  EXPECT_EQ(CsvField("plain"), "plain");
  EXPECT_EQ(CsvField(""), "");
  EXPECT_EQ(CsvField("a,b"), "\"a,b\"");
  EXPECT_EQ(CsvField("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(CsvField("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(CsvField(" padded"), "\" padded\"");
}

TEST(CsvReportTest, OneRowPerScenarioAndOpKindWithAColumnPerMatrixAxis) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("efs", "randread", {{"iodepth", "16"}}, 1, 1000, 250'000));
  scenarios.push_back(MakeScenario("fsx", "mixed", {{"bs", "4k,64k"}}, 2, 10, 1000));
  scenarios.back().results[0].result.Stats(OpKind::kWrite).lat.Record(2000);
  scenarios.back().results[0].result.Stats(OpKind::kWrite).ops = 1;
  ScenarioResult failed = MakeScenario("lustre", "randread", {}, 1, 0, 0, ScenarioStatus::kFailed);
  failed.results.clear();
  scenarios.push_back(std::move(failed));
  const std::vector<std::string> lines =
      Lines(RenderCsvReport(MakeReportInput("c", {}, std::move(scenarios), KeepPolicy::kLast)));
  ASSERT_EQ(lines.size(), 5u);  // header, efs read, fsx read + write, lustre
  EXPECT_EQ(lines[0],
            "scenario_key,target,workload,iodepth,bs,repeat,status,op,ops,iops,mib_s,mean_us,"
            "p50_us,p90_us,p99_us,p99_9_us,max_us,errors,stonewall_iops,stonewall_mib_s,agents,"
            "start_skew_us,pass_mib_s,pass_mean_mib_s,pass_mib_s_by_agent,mean_is_lower_bound,"
            "p50_is_lower_bound,p90_is_lower_bound,p99_is_lower_bound,p99_9_is_lower_bound,"
            "max_is_lower_bound,warnings,total_err,first_error");
  EXPECT_EQ(lines[1],
            "target=efs/workload=randread/iodepth=16/repeat=1,efs,randread,16,,1,complete,read,"
            "1000,1000.000,3.906,250.000,250.000,250.000,250.000,250.000,250.000,0,1000.000,3.906,"
            "1,0.000,,,,false,false,false,false,false,false,,,");
  EXPECT_THAT(lines[2], HasSubstr("\"target=fsx/workload=mixed/bs=4k,64k/repeat=2\",fsx,mixed,,"
                                  "\"4k,64k\",2,complete,read,10,"));
  EXPECT_THAT(lines[3], HasSubstr(",write,1,"));
  EXPECT_EQ(lines[4], "target=lustre/workload=randread/repeat=1,lustre,randread,,,1,failed" +
                          std::string(27, ','));
}

// Two results of one scenario with warnings (one repeated, one with a comma and a quote).
std::vector<ScenarioResult> WarnedScenarios() {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("efs", "randread", {{"iodepth", "4"}}, 1, 1000, 250'000));
  ScenarioResult& r = scenarios.back();
  r.results.push_back(AgentJobResult{"efs-agent-2", r.results[0].result.Clone()});
  r.results[0].result.warnings = {"iodepth=4 has no effect with psync"};
  r.results[1].result.warnings = {"iodepth=4 has no effect with psync",
                                  "op_log: 7 ops over the cap of 10 records/s (clone 0), \"x\""};
  return scenarios;
}

TEST(CsvReportTest, WarningsAreDistinctAndJoinedBeforeTheErrorColumns) {
  const std::vector<std::string> lines =
      Lines(RenderCsvReport(MakeReportInput("c", {}, WarnedScenarios(), KeepPolicy::kLast)));
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_THAT(lines[0], ::testing::EndsWith(",max_is_lower_bound,warnings,total_err,first_error"));
  EXPECT_THAT(lines[1], ::testing::EndsWith(
                            ",\"iodepth=4 has no effect with psync | op_log: 7 ops over the cap of "
                            "10 records/s (clone 0), \"\"x\"\"\",,"));
}

TEST(TerminalReportTest, JobWarningsAreListedAsInTheMarkdownReport) {
  const std::string text =
      RenderTerminalReport(MakeReportInput("c", {}, WarnedScenarios(), KeepPolicy::kLast));
  EXPECT_THAT(text, HasSubstr("warnings\nrandread (iodepth=4): warning (efs): iodepth=4 has no "
                              "effect with psync\nrandread (iodepth=4): warning (efs): op_log: 7"));
  const std::string md =
      RenderMarkdownReport(MakeReportInput("c", {}, WarnedScenarios(), KeepPolicy::kLast));
  EXPECT_THAT(md, HasSubstr("warning (efs): iodepth=4 has no effect with psync"));
  EXPECT_THAT(RenderTerminalReport(StudyBLikeInput()), Not(HasSubstr("warning")));
}

TEST(JsonReportTest, TheJsonParsesBackWithTheMergedHistogramsExact) {
  ReportInput input = StudyBLikeInput(KeepPolicy::kMedian);
  input.agents.push_back(AgentInfo{"a1", "127.0.0.1:7480", "0.1.0", "host", "local", "local-a",
                                   "local-a-id", "", 12, 34});
  const std::string text = RenderJsonReport(input);
  const nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(doc.is_discarded());
  EXPECT_EQ(doc["campaign"], "study-b");
  EXPECT_EQ(doc["keep"], "median");
  EXPECT_EQ(doc["agents"][0]["availability_zone"], "local-a");
  ASSERT_EQ(doc["scenarios"].size(), input.scenarios.size());
  const nlohmann::json& first = doc["scenarios"][0];
  EXPECT_EQ(first["target"], "efs");
  EXPECT_EQ(first["parameters"][0][0], "iodepth");
  EXPECT_EQ(first["status"], "complete");
  EXPECT_EQ(first["ops"]["read"]["ops"], 4500);
  EXPECT_DOUBLE_EQ(first["ops"]["read"]["full"]["iops"].get<double>(), 4500.0);
  absl::StatusOr<Histogram> lat = HistogramFromJson(first["ops"]["read"]["lat"]["histogram"]);
  ASSERT_TRUE(lat.ok()) << lat.status();
  EXPECT_TRUE(*lat == input.figures[0].Find(OpKind::kRead)->lat);
  EXPECT_EQ(first["ops"]["read"]["lat"]["percentiles"]["99.000000"], 1'000'000);
  EXPECT_EQ(first["results"][0]["job"]["jobname"], "randread");
  EXPECT_TRUE(first["placements"].empty());
  EXPECT_EQ(first["intervals"].size(), 0u);
}

TEST(TerminalReportTest, TheSummaryHasARowPerTargetAndACountLine) {
  const std::string text = RenderTerminalReport(StudyBLikeInput());
  const std::vector<std::string> lines = Lines(text);
  ASSERT_GE(lines.size(), 8u);
  EXPECT_THAT(lines[0], HasSubstr("workload"));
  EXPECT_THAT(lines[0], HasSubstr("IOPS"));
  EXPECT_THAT(text, HasSubstr("iodepth=16"));
  EXPECT_THAT(lines[1], HasSubstr("efs"));
  EXPECT_THAT(lines[1], HasSubstr("4,500"));
  EXPECT_THAT(text, HasSubstr("6 scenarios: 6 complete, 0 partial, 0 failed, 0 skipped"));
  EXPECT_THAT(text, Not(HasSubstr("\x1b")));
}

TEST(TerminalReportTest, ANodesAxisAddsTheScalingTableWithTheFiguresOfTheOtherReports) {
  // One agent alone does 1,000 ops in 2 s; each of 4 agents does 750 in 2 s, starting 5 ms apart:
  // 3,000 ops over 2.015 s is 74% of 4 x 500 IOPS (75% in the stonewall window).
  std::vector<ScenarioResult> scenarios;
  for (int nodes : {1, 4}) {
    scenarios.push_back(testing::MakeFakeScenario(
        {.target = "efs",
         .parameters = {{"iodepth", "16"}, {"nodes", std::to_string(nodes)}},
         .agents = nodes,
         .ops_per_agent = nodes == 1 ? 1000u : 750u,
         .agent_skew_ns = 5'000'000}));
  }
  const ReportInput input = MakeReportInput("scale", {}, std::move(scenarios), KeepPolicy::kAll);
  const std::string text = RenderTerminalReport(input);
  const size_t scaling = text.find("\nscaling (");
  ASSERT_NE(scaling, std::string::npos) << text;
  const std::vector<std::string> lines = Lines(text.substr(scaling + 1));
  ASSERT_GE(lines.size(), 4u);
  EXPECT_THAT(lines[1], ::testing::ContainsRegex("workload +parameters +target +axis +agents +"
                                                 "aggregate +stonewall +p99"));
  EXPECT_THAT(lines[1], HasSubstr("efficiency"));
  EXPECT_THAT(lines[2], ::testing::ContainsRegex("randread +iodepth=16 +efs +nodes=1 +1 +"));
  EXPECT_THAT(lines[2], HasSubstr("100%"));
  EXPECT_THAT(lines[3], ::testing::ContainsRegex("nodes=4 +4 +"));
  EXPECT_THAT(lines[3], ::testing::ContainsRegex("15.0ms +74% +75%$"))
      << "start skew of 3 x 5 ms, efficiency, stonewall efficiency";
  // The same efficiencies as the Markdown table.
  EXPECT_THAT(RenderMarkdownReport(input), HasSubstr("| 74% | 75% |"));
  // Without a nodes axis there is no scaling table.
  EXPECT_THAT(RenderTerminalReport(StudyBLikeInput()), Not(HasSubstr("scaling (")));
}

TEST(JsonReportTest, PlacementEvidenceCarriesTheAgentsMountOfTheTarget) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(MakeScenario("efs", "randread", {}, 1, 10, 1000));
  PlacementEvidence e;
  e.agent_id = "efs-agent";
  e.target = "efs";
  e.placement = Placement::kCrossAz;
  e.server_address = "10.0.1.10";
  e.mount = "nfs4 fs-1.efs:/ on /mnt/efs (hard,vers=4.1)";
  scenarios[0].scenario.placements.push_back(e);
  const nlohmann::json doc =
      JsonReport(MakeReportInput("p", {}, std::move(scenarios), KeepPolicy::kAll));
  const nlohmann::json& placement = doc["scenarios"][0]["placements"][0];
  EXPECT_EQ(placement["placement"], "cross-az");
  EXPECT_EQ(placement["server_address"], "10.0.1.10");
  EXPECT_EQ(placement["mount"], "nfs4 fs-1.efs:/ on /mnt/efs (hard,vers=4.1)");
}

}  // namespace
}  // namespace azbench
