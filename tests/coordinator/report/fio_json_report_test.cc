#include "coordinator/report/fio_json_report.h"

#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using nlohmann::json;
using ::testing::ElementsAre;

// One agent's result for one job: `n` reads of 4 KiB with latencies base, base+1, ...
AgentJobResult Result(const std::string& agent, const std::string& job, uint64_t base, int n,
                      uint64_t runtime_ns) {
  AgentJobResult r;
  r.agent_id = agent;
  r.result.name = job;
  r.result.runtime_ns = runtime_ns;
  r.result.start_realtime_ns = 1'000'000'000;
  r.result.end_realtime_ns = 1'000'000'000 + static_cast<int64_t>(runtime_ns);
  OpStats& read = r.result.Stats(OpKind::kRead);
  for (int i = 0; i < n; ++i) {
    read.lat.Record(base + static_cast<uint64_t>(i));
    ++read.ops;
    read.bytes += 4096;
  }
  return r;
}

ScenarioResult Scenario2x2(int repeat, ScenarioStatus status) {
  ScenarioResult r;
  r.status = status;
  Scenario& s = r.scenario;
  s.index = repeat - 1;
  s.key = "workload=web/target=efs/repeat=" + std::to_string(repeat);
  s.target = "efs";
  s.workload = "web";
  s.repeat = repeat;
  s.repeats = 2;
  s.agent_ids = {"a1", "a2"};
  s.jobs = {
      ScenarioJob{"rand", "block_io", {{"rw", "randread"}, {"size", "1m"}, {"size", "2m"}}, 0},
      ScenarioJob{"seq", "block_io", {{"rw", "read"}}, 0}};
  if (status == ScenarioStatus::kFailed) return r;
  r.results.push_back(Result("a1", "rand", 1000, 10, 2'000'000'000));
  r.results.push_back(Result("a1", "seq", 5000, 30, 3'000'000'000));
  r.results.push_back(Result("a2", "rand", 2000, 20, 4'000'000'000));
  r.results.push_back(Result("a2", "seq", 9000, 40, 1'000'000'000));
  return r;
}

ReportInput Input(KeepPolicy keep, std::vector<ScenarioResult> scenarios) {
  std::vector<AgentInfo> agents(2);
  agents[0].agent_id = "a1";
  agents[0].address = "10.0.1.5:7480";
  agents[0].hostname = "client-1";
  agents[1].agent_id = "a2";
  agents[1].address = "[fd00::9]:7500";  // no hostname reported: the address's host
  // fio-json documents are whole scenarios, as `azbench report --format fio-json` loads them.
  return MakeReportInput("study", std::move(agents), std::move(scenarios), keep,
                         JobView::kWholeScenario);
}

std::vector<ScenarioResult> TwoRepeats(ScenarioStatus second) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario2x2(1, ScenarioStatus::kComplete));
  scenarios.push_back(Scenario2x2(2, second));
  return scenarios;
}

TEST(FioJsonReportTest, KeepSelectsTheDocumentsAndFailedRepeatsHaveNone) {
  const ScenarioStatus ok = ScenarioStatus::kComplete, failed = ScenarioStatus::kFailed;
  EXPECT_THAT(FioJsonScenarioIndices(Input(KeepPolicy::kLast, TwoRepeats(ok))), ElementsAre(1));
  EXPECT_THAT(FioJsonScenarioIndices(Input(KeepPolicy::kAll, TwoRepeats(ok))), ElementsAre(0, 1));
  EXPECT_THAT(FioJsonScenarioIndices(Input(KeepPolicy::kAll, TwoRepeats(failed))), ElementsAre(0));
  EXPECT_THAT(FioJsonScenarioIndices(Input(KeepPolicy::kLast, TwoRepeats(failed))), ElementsAre(0));
  EXPECT_EQ(FioJsonFileName(Input(KeepPolicy::kAll, TwoRepeats(ok)), 0),
            "0-workload_web_target_efs_repeat_1.json");
}

TEST(FioJsonReportTest, JobsAreMergedOverAgentsAndClientStatsListEveryAgentThenAllClients) {
  std::vector<ScenarioResult> one;
  one.push_back(Scenario2x2(1, ScenarioStatus::kComplete));
  const ReportInput input = Input(KeepPolicy::kAll, std::move(one));
  const json doc = FioJsonDocument(input, 0);
  const ScenarioResult& r = input.scenarios[0];

  ASSERT_EQ(doc["jobs"].size(), 2u);
  const json& rand = doc["jobs"][0];
  EXPECT_EQ(rand["jobname"], "rand");
  EXPECT_EQ(rand["read"]["total_ios"], 30);
  EXPECT_EQ(rand["read"]["io_bytes"], 30 * 4096);
  EXPECT_EQ(rand["read"]["runtime"], 4000);  // the longest agent's, as fio sums clients
  Histogram merged = r.results[0].result.Find(OpKind::kRead)->lat;
  merged.Merge(r.results[2].result.Find(OpKind::kRead)->lat);
  EXPECT_EQ(rand["read"]["clat_ns"]["percentile"]["99.000000"].get<uint64_t>(),
            merged.Percentile(99));
  EXPECT_EQ(rand["read"]["clat_ns"]["min"], 1000);
  EXPECT_EQ(rand["read"]["clat_ns"]["max"], 2019);
  EXPECT_EQ(rand["job options"]["size"], "2m");  // the last value wins, as in fio
  EXPECT_EQ(doc["jobs"][1]["jobname"], "seq");
  EXPECT_EQ(doc["jobs"][1]["read"]["total_ios"], 70);

  const json& clients = doc["client_stats"];
  ASSERT_EQ(clients.size(), 5u);
  EXPECT_EQ(clients[0]["jobname"], "rand");
  EXPECT_EQ(clients[0]["hostname"], "client-1");
  EXPECT_EQ(clients[0]["port"], 7480);
  EXPECT_EQ(clients[0]["read"]["total_ios"], 10);
  EXPECT_EQ(clients[1]["jobname"], "seq");
  EXPECT_EQ(clients[1]["read"]["total_ios"], 30);
  EXPECT_EQ(clients[2]["hostname"], "fd00::9");
  EXPECT_EQ(clients[2]["port"], 7500);
  EXPECT_EQ(clients[3]["read"]["total_ios"], 40);
  const json& all = clients[4];
  EXPECT_EQ(all["jobname"], "All clients");
  EXPECT_EQ(all["read"]["total_ios"], 100);
  EXPECT_EQ(all["read"]["clat_ns"]["min"], 1000);
  EXPECT_EQ(all["read"]["clat_ns"]["max"], 9039);
  EXPECT_FALSE(all.contains("job options"));

  EXPECT_EQ(doc["azbench"]["scenario"], "workload=web/target=efs/repeat=1");
  EXPECT_THAT(doc["azbench"]["agents"].get<std::vector<std::string>>(), ElementsAre("a1", "a2"));
  EXPECT_EQ(doc["timestamp"], 5);  // the last end: 1 s + the longest runtime, 4 s
  EXPECT_TRUE(doc["disk_util"].is_array());
  EXPECT_TRUE(doc["global options"].is_object());
}

// `result` did `reads_per_s` 4 KiB reads in each of its two 1 s intervals.
void AddSeries(AgentJobResult& result, uint64_t reads_per_s) {
  JobResult& job = result.result;
  job.interval_ns = 1'000'000'000;
  job.runtime_ns = 2'000'000'000;
  job.end_realtime_ns = job.start_realtime_ns + 2'000'000'000;
  OpStats& read = job.Stats(OpKind::kRead);
  for (int64_t i = 0; i < 2; ++i) {
    IntervalStats& interval = job.intervals.emplace_back();
    interval.index = i;
    interval.by_kind[static_cast<int>(OpKind::kRead)].ops = reads_per_s;
    interval.by_kind[static_cast<int>(OpKind::kRead)].bytes = reads_per_s * 4096;
  }
  read.ops = 2 * reads_per_s;
  read.bytes = 2 * reads_per_s * 4096;
}

TEST(FioJsonReportTest, JobRuntimeIsTheSumOverThreadsAsFiosWhileBwAndIopsUseTheLongest) {
  // fio 3.33, numjobs=2 + group_reporting, two 1 s threads: job_runtime 2002, read.runtime 1003.
  std::vector<ScenarioResult> one;
  one.push_back(Scenario2x2(1, ScenarioStatus::kComplete));
  ScenarioResult& r = one.back();
  r.results[0].result.clones = 2;  // a1 "rand": two 2 s clones
  const json doc = FioJsonDocument(Input(KeepPolicy::kAll, std::move(one)), 0);
  const json& rand = doc["jobs"][0];
  EXPECT_EQ(rand["job_runtime"], 2 * 2000 + 4000);  // a1's two clones, a2's one
  EXPECT_EQ(rand["read"]["runtime"], 4000);
  EXPECT_DOUBLE_EQ(rand["read"]["iops"].get<double>(), 30 / 4.0);
  EXPECT_EQ(doc["jobs"][1]["job_runtime"], 3000 + 1000);
  const json& clients = doc["client_stats"];
  ASSERT_EQ(clients.size(), 5u);
  EXPECT_EQ(clients[0]["job_runtime"], 4000);  // a1 "rand", group-reported clones
  EXPECT_EQ(clients[0]["read"]["runtime"], 2000);
  EXPECT_DOUBLE_EQ(clients[0]["read"]["iops"].get<double>(), 10 / 2.0);
  EXPECT_EQ(clients[1]["job_runtime"], 3000);
  EXPECT_EQ(clients[4]["job_runtime"], 4000 + 3000 + 4000 + 1000);  // "All clients"
}

TEST(FioJsonReportTest, ElapsedIsTheScenariosSpanAndLatencyDepthTheJobsIodepth) {
  ScenarioResult scenario = Scenario2x2(1, ScenarioStatus::kComplete);
  scenario.scenario.jobs[0].options.emplace_back("iodepth", "16");
  // The results run from 1 s to 5 s (a2's rand, 4 s): 4 s, as fio's elapsed.
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(scenario));
  const json doc = FioJsonDocument(Input(KeepPolicy::kAll, std::move(scenarios)), 0);
  for (const json* entries : {&doc["jobs"], &doc["client_stats"]}) {
    for (const json& entry : *entries) {
      EXPECT_EQ(entry["elapsed"].get<int64_t>(), 4) << entry["jobname"];
      EXPECT_EQ(entry["eta"].get<int64_t>(), 2147483647);
      EXPECT_EQ(entry["latency_target"].get<int>(), 0);
    }
  }
  EXPECT_EQ(doc["jobs"][0]["jobname"], "rand");
  EXPECT_EQ(doc["jobs"][0]["latency_depth"].get<int>(), 16);
  EXPECT_EQ(doc["jobs"][0]["job options"]["iodepth"], "16");
  EXPECT_EQ(doc["jobs"][1]["latency_depth"].get<int>(), 1) << "fio's default iodepth";
}

TEST(FioJsonReportTest, JsonPlusBinsHoldEverySampleOfEveryEntry) {
  const ReportInput input = Input(KeepPolicy::kAll, TwoRepeats(ScenarioStatus::kComplete));
  EXPECT_FALSE(FioJsonDocument(input, 0)["jobs"][0]["read"]["clat_ns"].contains("bins"));
  const json doc = FioJsonDocument(input, 0, /*with_bins=*/true);
  for (const json* entries : {&doc["jobs"], &doc["client_stats"]}) {
    for (const json& entry : *entries) {
      const json& clat = entry["read"]["clat_ns"];
      ASSERT_TRUE(clat.contains("bins")) << entry["jobname"];
      uint64_t binned = 0;
      for (const auto& [value, count] : clat["bins"].items()) binned += count.get<uint64_t>();
      EXPECT_EQ(binned, clat["N"].get<uint64_t>()) << entry["jobname"];
    }
  }
  EXPECT_EQ(doc["client_stats"].back()["read"]["clat_ns"]["N"].get<uint64_t>(), 100u);
}

TEST(FioJsonReportTest, JobWarningsGoInTheAzbenchObjectEachOnce) {
  std::vector<ScenarioResult> one;
  one.push_back(Scenario2x2(1, ScenarioStatus::kComplete));
  one.back().results[0].result.warnings = {"iodepth=4 has no effect with psync"};
  one.back().results[2].result.warnings = {"iodepth=4 has no effect with psync", "op_log capped"};
  const json doc = FioJsonDocument(Input(KeepPolicy::kAll, std::move(one)), 0);
  // fio's layout has no field for them: azbench's own object carries them, where fio tools do not
  // look.
  ASSERT_TRUE(doc["azbench"].contains("warnings"));
  EXPECT_THAT(doc["azbench"]["warnings"].get<std::vector<std::string>>(),
              ElementsAre("iodepth=4 has no effect with psync", "op_log capped"));
  EXPECT_FALSE(doc["jobs"][0].contains("warnings"));
}

TEST(FioJsonReportTest, BwAggIsAJobsShareOfItsGroupAmongJobsAndAmongItsAgentsClientEntries) {
  // a1 runs rand (1000 reads/s) and seq (3000 reads/s) in group 0; a2 runs only rand (1000/s).
  ScenarioResult r = Scenario2x2(1, ScenarioStatus::kComplete);
  r.results.clear();
  r.results.push_back(Result("a1", "rand", 1000, 0, 0));
  AddSeries(r.results.back(), 1000);
  r.results.push_back(Result("a1", "seq", 1000, 0, 0));
  AddSeries(r.results.back(), 3000);
  r.results.push_back(Result("a2", "rand", 1000, 0, 0));
  AddSeries(r.results.back(), 1000);
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(r));
  const json doc = FioJsonDocument(Input(KeepPolicy::kAll, std::move(scenarios)), 0);
  // jobs[]: rand merged is 2000 reads/s of the group's 5000.
  ASSERT_EQ(doc["jobs"].size(), 2u);
  EXPECT_DOUBLE_EQ(doc["jobs"][0]["read"]["bw_agg"].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(doc["jobs"][1]["read"]["bw_agg"].get<double>(), 60.0);
  // client_stats: a1's rand is 1000 of a1's 4000; a2's rand is all of a2's group.
  const json& clients = doc["client_stats"];
  ASSERT_EQ(clients.size(), 4u);
  EXPECT_DOUBLE_EQ(clients[0]["read"]["bw_agg"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(clients[1]["read"]["bw_agg"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(clients[2]["read"]["bw_agg"].get<double>(), 100.0);
  EXPECT_DOUBLE_EQ(clients[3]["read"]["bw_agg"].get<double>(), 100.0);  // All clients
}

// fio tooling reads jobs[] and client_stats[], never the azbench object: a scenario that did not
// complete says so in every job entry's "error" (EINTR), a job's own errno wins, and a complete
// scenario's jobs keep 0.
TEST(FioJsonReportTest, APartialScenariosJobsHaveEintrAsTheirErrorUnlessTheyHaveTheirOwn) {
  std::vector<ScenarioResult> scenarios = TwoRepeats(ScenarioStatus::kPartial);
  scenarios[1].status_detail = "interrupted (Ctrl-C)";
  scenarios[1].results[3].result.error_errno = 5;  // a2 "seq" failed with EIO
  const ReportInput input = Input(KeepPolicy::kAll, std::move(scenarios));

  const json complete = FioJsonDocument(input, 0);
  for (const char* list : {"jobs", "client_stats"}) {
    for (const json& job : complete[list]) EXPECT_EQ(job["error"], 0) << list << " " << job;
  }

  const json partial = FioJsonDocument(input, 1);
  EXPECT_EQ(partial["azbench"]["status"], "partial");
  ASSERT_EQ(partial["jobs"].size(), 2u);
  EXPECT_EQ(partial["jobs"][0]["jobname"], "rand");
  EXPECT_EQ(partial["jobs"][0]["error"], EINTR);
  EXPECT_EQ(partial["jobs"][1]["jobname"], "seq");
  EXPECT_EQ(partial["jobs"][1]["error"], 5) << "merged over agents: a2's own errno";
  ASSERT_EQ(partial["client_stats"].size(), 5u);
  std::vector<int> errors;
  for (const json& job : partial["client_stats"]) errors.push_back(job["error"].get<int>());
  // a1 rand, a1 seq, a2 rand, a2 seq, All clients (merged: the first errno, a2 seq's).
  EXPECT_THAT(errors, ElementsAre(EINTR, EINTR, EINTR, 5, 5));
  EXPECT_EQ(EINTR, 4) << "the README documents the number";
}

// fio's client writes every server's disks, each with its host; none where no server has one.
TEST(FioJsonReportTest, DiskUtilListsEachAgentsDisksWithItsHostAndIsEmptyWithoutAny) {
  std::vector<ScenarioResult> scenarios = TwoRepeats(ScenarioStatus::kComplete);
  scenarios[0].disk_util = {{"a1", {"nvme0n1", 100, 200, 3, 4, 50, 60, 110, 87.5}},
                            {"a2", {"vdb", 7, 0, 0, 0, 9, 0, 9, 1.25}}};
  const ReportInput input = Input(KeepPolicy::kAll, std::move(scenarios));

  const json doc = FioJsonDocument(input, 0);
  ASSERT_EQ(doc["disk_util"].size(), 2u);
  const json& first = doc["disk_util"][0];
  EXPECT_EQ(first["name"], "nvme0n1");
  EXPECT_EQ(first["read_ios"], 100);
  EXPECT_EQ(first["write_ios"], 200);
  EXPECT_EQ(first["read_merges"], 3);
  EXPECT_EQ(first["write_merges"], 4);
  EXPECT_EQ(first["read_ticks"], 50);
  EXPECT_EQ(first["write_ticks"], 60);
  EXPECT_EQ(first["in_queue"], 110);
  EXPECT_EQ(first["util"], 87.5);
  EXPECT_EQ(first["hostname"], "client-1");
  EXPECT_EQ(first["port"], 7480);
  EXPECT_EQ(doc["disk_util"][1]["name"], "vdb");
  EXPECT_EQ(doc["disk_util"][1]["hostname"], "fd00::9");
  EXPECT_EQ(doc["disk_util"][1]["port"], 7500);

  const json none = FioJsonDocument(input, 1);
  ASSERT_TRUE(none.contains("disk_util")) << "fio's client always writes the array";
  EXPECT_TRUE(none["disk_util"].empty());
}

}  // namespace
}  // namespace azbench
