#include "coordinator/report/job_units.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "coordinator/report/csv_report.h"
#include "coordinator/report/markdown_report.h"
#include "coordinator/report/report_input.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kT0 = 1'700'000'000 * kSecond;

ScenarioJob Job(const std::string& name, int group_id, JobOptions options = {}) {
  ScenarioJob job;
  job.name = name;
  job.group_id = group_id;
  job.options = std::move(options);
  return job;
}

// `ops` ops of `kind`, `block` bytes each, over 1 s starting `start_s` seconds after kT0.
AgentJobResult Result(const std::string& agent, const std::string& job_name, int group_id,
                      OpKind kind, uint64_t ops, uint64_t block, int start_s) {
  JobResult job;
  job.name = job_name;
  job.group_id = group_id;
  job.start_realtime_ns = kT0 + start_s * kSecond;
  job.end_realtime_ns = job.start_realtime_ns + kSecond;
  job.runtime_ns = kSecond;
  OpStats& stats = job.Stats(kind);
  for (uint64_t i = 0; i < ops; ++i) stats.lat.Record(100'000);
  stats.ops = ops;
  stats.bytes = ops * block;
  return AgentJobResult{agent, std::move(job)};
}

// Initializer lists copy, and results are move-only.
std::vector<ScenarioResult> One(ScenarioResult result) {
  std::vector<ScenarioResult> results;
  results.push_back(std::move(result));
  return results;
}

// Study B's "basic" family as one fio job file: three stonewalled groups, run on two agents.
ScenarioResult BasicFamily() {
  ScenarioResult result;
  Scenario& s = result.scenario;
  s.target = "efs";
  s.workload = "basic";
  s.key = "target=efs/workload=basic/repeat=1";
  s.jobs = {Job("seq-write", 0), Job("rand-read", 1), Job("mix", 2)};
  for (const char* agent : {"a1", "a2"}) {
    result.results.push_back(Result(agent, "seq-write", 0, OpKind::kWrite, 100, 1 << 20, 0));
    result.results.push_back(Result(agent, "rand-read", 1, OpKind::kRead, 10'000, 4096, 1));
    result.results.push_back(Result(agent, "mix", 2, OpKind::kRead, 700, 256 << 10, 2));
  }
  return result;
}

std::vector<std::string> Keys(const std::vector<ScenarioResult>& scenarios) {
  std::vector<std::string> keys;
  for (const ScenarioResult& s : scenarios) keys.push_back(s.scenario.key);
  return keys;
}

TEST(JobUnitsTest, EachJobOfAScenarioBecomesItsOwnUnitWithItsResultsOnly) {
  std::vector<ScenarioResult> split = SplitIntoReportedJobs(One(BasicFamily()));
  ASSERT_EQ(split.size(), 3u);
  EXPECT_THAT(Keys(split), ElementsAre("target=efs/workload=basic/repeat=1/job=seq-write",
                                       "target=efs/workload=basic/repeat=1/job=rand-read",
                                       "target=efs/workload=basic/repeat=1/job=mix"));
  EXPECT_THAT(split[1].scenario.parameters, ElementsAre(Pair("job", "rand-read")));
  ASSERT_EQ(split[1].results.size(), 2u);  // both agents, that job only
  for (const AgentJobResult& r : split[1].results) EXPECT_EQ(r.result.name, "rand-read");
  ASSERT_EQ(split[1].scenario.jobs.size(), 1u);
  EXPECT_EQ(split[1].scenario.jobs[0].name, "rand-read");
}

TEST(JobUnitsTest, FiguresOfAUnitAreThoseOfItsJobMergedOverAgents) {
  const ReportInput input = MakeReportInput("study-b", {}, One(BasicFamily()), KeepPolicy::kAll);
  ASSERT_EQ(input.scenarios.size(), 3u);
  // rand-read: 2 agents x 10,000 reads of 4 KiB over the same second; nothing of the 256k mix.
  const OpFigures* read = input.figures[1].Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->ops, 20'000u);
  EXPECT_EQ(read->bytes, 20'000u * 4096);
  EXPECT_DOUBLE_EQ(read->full_iops, 20'000);
  EXPECT_EQ(input.figures[1].Find(OpKind::kWrite), nullptr);
  // The whole view sums the three jobs' reads: what the reports showed before.
  const ReportInput whole =
      MakeReportInput("study-b", {}, One(BasicFamily()), KeepPolicy::kAll, JobView::kWholeScenario);
  ASSERT_EQ(whole.scenarios.size(), 1u);
  EXPECT_EQ(whole.figures[0].Find(OpKind::kRead)->ops, 21'400u);
}

TEST(JobUnitsTest, ReportsShowOneCellPerJob) {
  const ReportInput input = MakeReportInput("study-b", {}, One(BasicFamily()), KeepPolicy::kAll);
  const std::string md = RenderMarkdownReport(input);
  EXPECT_THAT(md, HasSubstr("## basic (job=seq-write)"));
  EXPECT_THAT(md, HasSubstr("## basic (job=rand-read)"));
  EXPECT_THAT(md, HasSubstr("## basic (job=mix)"));
  EXPECT_THAT(md, Not(HasSubstr("## basic\n")));
  const std::string csv = RenderCsvReport(input);
  // The unit is a matrix axis of its own: a "job" column, one row per job and op kind.
  EXPECT_THAT(csv, HasSubstr(",workload,job,repeat,"));
  EXPECT_THAT(csv, HasSubstr(",basic,rand-read,1,"));
  EXPECT_THAT(csv, HasSubstr(",basic,seq-write,1,"));
}

TEST(JobUnitsTest, GroupReportingMergesTheJobsOfAGroupUnderItsFirstJob) {
  ScenarioResult result;
  result.scenario.key = "k";
  result.scenario.jobs = {Job("w1", 0, {{"group_reporting", ""}}), Job("w2", 0),
                          Job("r1", 1, {{"group_reporting", "0"}}), Job("r2", 1)};
  result.results.push_back(Result("a", "w1", 0, OpKind::kWrite, 10, 4096, 0));
  result.results.push_back(Result("a", "w2", 0, OpKind::kWrite, 20, 4096, 0));
  result.results.push_back(Result("a", "r1", 1, OpKind::kRead, 30, 4096, 1));
  result.results.push_back(Result("a", "r2", 1, OpKind::kRead, 40, 4096, 1));
  EXPECT_THAT(ReportedJobUnits(result.scenario), ElementsAre("w1", "w1", "r1", "r2"));
  std::vector<ScenarioResult> split = SplitIntoReportedJobs(One(std::move(result)));
  ASSERT_EQ(split.size(), 3u);
  EXPECT_THAT(Keys(split), ElementsAre("k/job=w1", "k/job=r1", "k/job=r2"));
  EXPECT_EQ(split[0].results.size(), 2u);
  EXPECT_EQ(split[0].scenario.jobs.size(), 2u);
}

TEST(JobUnitsTest, LargeStreamPassesStayWithTheirJob) {
  ScenarioResult result;
  result.scenario.key = "k";
  result.scenario.jobs = {Job("stream", 0), Job("other", 1)};
  result.results.push_back(Result("a", "stream.pass1", 0, OpKind::kWrite, 1, 1 << 20, 0));
  result.results.push_back(Result("a", "stream.pass2", 0, OpKind::kRead, 1, 1 << 20, 1));
  result.results.push_back(Result("a", "other", 1, OpKind::kRead, 1, 4096, 2));
  std::vector<ScenarioResult> split = SplitIntoReportedJobs(One(std::move(result)));
  ASSERT_EQ(split.size(), 2u);
  EXPECT_EQ(split[0].results.size(), 2u);
  EXPECT_EQ(split[1].results.size(), 1u);
}

TEST(JobUnitsTest, PhasesStayWithTheirJobUnderTheLongestJobNameThatPrefixesThem) {
  ScenarioResult result;
  result.scenario.key = "k";
  result.scenario.jobs = {Job("md", 0), Job("md.big", 1)};
  result.results.push_back(Result("a", "md.create", 0, OpKind::kCreate, 1, 0, 0));
  result.results.push_back(Result("a", "md.stat", 0, OpKind::kStat, 1, 0, 1));
  result.results.push_back(Result("a", "md.big.create", 1, OpKind::kCreate, 1, 0, 2));
  std::vector<ScenarioResult> split = SplitIntoReportedJobs(One(std::move(result)));
  ASSERT_EQ(split.size(), 2u);
  ASSERT_EQ(split[0].results.size(), 2u);
  EXPECT_EQ(split[0].results[1].result.name, "md.stat");
  ASSERT_EQ(split[1].results.size(), 1u);
  EXPECT_EQ(split[1].results[0].result.name, "md.big.create");
  EXPECT_EQ(split[1].scenario.key, "k/job=md.big");
}

TEST(JobUnitsTest, AScenarioWithoutSeveralJobsIsNotSplitWhateverItsResultsAreNamed) {
  ScenarioResult result;
  result.scenario.key = "k";
  result.results.push_back(Result("a", "rw.read", 0, OpKind::kRead, 1, 4096, 0));
  result.results.push_back(Result("a", "rw.write", 0, OpKind::kWrite, 1, 4096, 1));
  std::vector<ScenarioResult> split = SplitIntoReportedJobs(One(std::move(result)));
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split[0].results.size(), 2u);
}

TEST(JobUnitsTest, AFailedScenarioIsListedUnderEachOfItsJobs) {
  ScenarioResult result = BasicFamily();
  result.results.clear();
  result.status = ScenarioStatus::kFailed;
  result.status_detail = "agent a1 refused the job";
  std::vector<ScenarioResult> split = SplitIntoReportedJobs(One(std::move(result)));
  ASSERT_EQ(split.size(), 3u);
  for (const ScenarioResult& s : split) {
    EXPECT_EQ(s.status, ScenarioStatus::kFailed);
    EXPECT_EQ(s.status_detail, "agent a1 refused the job");
  }
}

TEST(JobUnitsTest, AScenarioWithOneJobIsLeftAsItIs) {
  ScenarioResult result;
  result.scenario.key = "target=efs/workload=randread/repeat=1";
  result.scenario.parameters = {{"iodepth", "16"}};
  result.scenario.jobs = {Job("randread", 0, {{"numjobs", "4"}})};
  result.results.push_back(Result("a1", "randread", 0, OpKind::kRead, 10, 4096, 0));
  result.results.push_back(Result("a2", "randread", 0, OpKind::kRead, 10, 4096, 0));
  std::vector<ScenarioResult> split = SplitIntoReportedJobs(One(std::move(result)));
  ASSERT_EQ(split.size(), 1u);
  EXPECT_EQ(split[0].scenario.key, "target=efs/workload=randread/repeat=1");
  EXPECT_THAT(split[0].scenario.parameters, ElementsAre(Pair("iodepth", "16")));
  EXPECT_EQ(split[0].results.size(), 2u);
}

}  // namespace
}  // namespace azbench
