#include "coordinator/store.h"

#include <sqlite3.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/store_file.h"

namespace azbench {
namespace {

using ::azbench::testing::RawQuery;
using ::azbench::testing::RawText;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kT0 = 1'700'000'000 * kSecond;

// A job with read (lat only, as a sync engine) and write (lat, slat, clat) histograms, an interval
// series with a stall, errors and warnings; `seed` varies the samples.
JobResult MakeJob(const std::string& name, int seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> latency(11.0, 2.0);
  JobResult job;
  job.name = name;
  job.group_id = seed % 3;
  job.clones = 1 + seed % 4;
  job.interval_ns = kSecond;
  job.runtime_ns = 3 * kSecond + 12345;
  job.start_realtime_ns = kT0 + seed;
  job.end_realtime_ns = kT0 + 3 * kSecond + seed;
  OpStats& read = job.Stats(OpKind::kRead);
  OpStats& write = job.Stats(OpKind::kWrite);
  for (int i = 0; i < 500 + seed; ++i) {
    read.lat.Record(static_cast<uint64_t>(latency(rng)));
    const uint64_t slat = static_cast<uint64_t>(latency(rng));
    const uint64_t clat = static_cast<uint64_t>(latency(rng));
    write.slat.Record(slat);
    write.clat.Record(clat);
    write.lat.Record(slat + clat);
  }
  // Samples near the top of the range: the wide moments (sum_ns_hi, sum_sq_top) become non-zero.
  read.lat.Record(std::numeric_limits<uint64_t>::max() - 7);
  read.lat.Record(std::numeric_limits<uint64_t>::max() / 2);
  read.ops = read.lat.count();
  read.bytes = read.ops * 4096;
  read.short_ios = 3;
  write.ops = write.lat.count() - 2;
  write.errors = 2;
  write.bytes = write.ops * 65536;
  for (int64_t i = 0; i < 3; ++i) {
    IntervalStats interval;
    interval.index = i;
    if (i != 1) {  // interval 1 is a stall: nothing completed
      Histogram h;
      for (int n = 0; n < 10 + i; ++n) h.Record(static_cast<uint64_t>(latency(rng)));
      IntervalOpStats& r = interval.by_kind[static_cast<int>(OpKind::kRead)];
      r.ops = h.count();
      r.bytes = r.ops * 4096;
      r.lat = h.ToSparse();
      interval.by_kind[static_cast<int>(OpKind::kWrite)].errors = 1;
    }
    job.intervals.push_back(std::move(interval));
  }
  job.error_errno = 5;
  job.error_message = "write: EIO at offset 4096 of 'f.0'";
  job.warnings = {"buffered I/O on a file smaller than RAM", "second, with \"quotes\""};
  job.cpu = {.threads = 2,
             .wall_ns = static_cast<uint64_t>(6 * kSecond + seed),
             .user_ns = 1'234'567'000,
             .system_ns = 2'345'678'000,
             .voluntary_switches = static_cast<uint64_t>(10'000 + seed),
             .involuntary_switches = 77,
             .minor_faults = 1'024,
             .major_faults = 3};
  job.depth.level = {0, 0, 0, 5, static_cast<uint64_t>(1'000 + seed), 0, 0};
  job.depth.submit = {0, 12, 0, 0, 70, 0, 0};
  job.depth.complete = {3, 400, 20, 1, 0, 0, 0};
  return job;
}

ScenarioResult MakeResult(const std::string& key, int index,
                          ScenarioStatus status = ScenarioStatus::kComplete) {
  ScenarioResult result;
  Scenario& s = result.scenario;
  s.index = index;
  s.key = key;
  s.target = "efs";
  s.workload = "randread";
  s.parameters = {{"iodepth", "16"}, {"nodes", "2"}, {"bs", "4k"}};
  s.repeat = 2;
  s.repeats = 3;
  s.agent_ids = {"10.0.0.1:7480", "10.0.0.2:7480"};
  s.jobs = {ScenarioJob{"rand", "block_io", {{"rw", "randread"}, {"directory", "/mnt/efs"}}, 0},
            ScenarioJob{"seq", "block_io", {{"rw", "read"}}, 1}};
  s.cooldown_s = 2.5;
  // Placement evidence of each agent, in agent_ids order.
  for (const std::string& id : {std::string("10.0.0.1:7480"), std::string("10.0.0.2:7480")}) {
    PlacementEvidence e;
    e.agent_id = id;
    e.target = "efs";
    e.placement = id == "10.0.0.1:7480" ? Placement::kSameAz : Placement::kCrossAz;
    e.agent_az = id == "10.0.0.1:7480" ? "us-east-1a" : "us-east-1b";
    e.agent_az_id = id == "10.0.0.1:7480" ? "use1-az1" : "use1-az2";
    e.az_source = "imds";
    e.server_address = "10.0.1.10";
    e.address_source = "addr=";
    e.subnet = "10.0.1.0/24";
    e.subnet_source = "imds " + id;
    e.server_az = "us-east-1a";
    e.server_az_source = "subnet map";
    e.reason = "addr=10.0.1.10 in 10.0.1.0/24";
    e.mount = "nfs4 fs-1.efs.us-east-1.amazonaws.com:/ on /mnt/efs (hard,rsize=1048576,vers=4.1)";
    s.placements.push_back(e);
  }
  result.status = status;
  result.status_detail = status == ScenarioStatus::kComplete ? "" : "agent 10.0.0.2:7480 lost";
  result.results.push_back(AgentJobResult{"10.0.0.1:7480", MakeJob("rand", index * 10 + 1)});
  result.results.push_back(AgentJobResult{"10.0.0.1:7480", MakeJob("seq", index * 10 + 2)});
  result.results.push_back(AgentJobResult{"10.0.0.2:7480", MakeJob("rand", index * 10 + 3)});
  if (status == ScenarioStatus::kPartial) {
    result.lost.push_back(LostAgent{"10.0.0.2:7480", kT0 + 2 * kSecond, "stream reset"});
  }
  result.planned_start_realtime_ns = kT0 - 1000;
  result.first_start_realtime_ns = kT0 + 1;
  result.last_start_realtime_ns = kT0 + 3;
  result.first_end_realtime_ns = kT0 + 3 * kSecond + 1;
  result.last_end_realtime_ns = kT0 + 3 * kSecond + 3;
  // The clock offsets the scenario used, the second agent's clock 1.5 s ahead.
  result.clock_offsets = {{"10.0.0.1:7480", -20'000 - index, 150'000, kT0 - 2 * kSecond},
                          {"10.0.0.2:7480", 1'500'000'000 + index, 210'000, kT0 - 2 * kSecond}};
  return result;
}

void ExpectSameJob(const JobResult& a, const JobResult& b) {
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.group_id, b.group_id);
  EXPECT_EQ(a.clones, b.clones);
  for (int k = 0; k < kOpKindCount; ++k) {
    SCOPED_TRACE(OpKindName(static_cast<OpKind>(k)));
    ASSERT_EQ(a.by_kind[k] == nullptr, b.by_kind[k] == nullptr);
    if (a.by_kind[k] == nullptr) continue;
    const OpStats& x = *a.by_kind[k];
    const OpStats& y = *b.by_kind[k];
    EXPECT_EQ(x.ops, y.ops);
    EXPECT_EQ(x.bytes, y.bytes);
    EXPECT_EQ(x.errors, y.errors);
    EXPECT_EQ(x.short_ios, y.short_ios);
    EXPECT_TRUE(x.lat == y.lat);
    EXPECT_TRUE(x.slat == y.slat);
    EXPECT_TRUE(x.clat == y.clat);
  }
  EXPECT_TRUE(a.cpu == b.cpu);
  EXPECT_TRUE(a.depth == b.depth);
  ASSERT_EQ(a.intervals.size(), b.intervals.size());
  for (size_t i = 0; i < a.intervals.size(); ++i) {
    EXPECT_EQ(a.intervals[i].index, b.intervals[i].index);
    for (int k = 0; k < kOpKindCount; ++k) {
      const IntervalOpStats& x = a.intervals[i].by_kind[k];
      const IntervalOpStats& y = b.intervals[i].by_kind[k];
      EXPECT_EQ(x.ops, y.ops);
      EXPECT_EQ(x.bytes, y.bytes);
      EXPECT_EQ(x.errors, y.errors);
      EXPECT_TRUE(x.lat == y.lat);
    }
  }
  EXPECT_EQ(a.interval_ns, b.interval_ns);
  EXPECT_EQ(a.runtime_ns, b.runtime_ns);
  EXPECT_EQ(a.start_realtime_ns, b.start_realtime_ns);
  EXPECT_EQ(a.end_realtime_ns, b.end_realtime_ns);
  EXPECT_EQ(a.error_errno, b.error_errno);
  EXPECT_EQ(a.error_message, b.error_message);
  EXPECT_EQ(a.warnings, b.warnings);
}

void ExpectSameResult(const ScenarioResult& a, const ScenarioResult& b) {
  SCOPED_TRACE(a.scenario.key);
  EXPECT_EQ(a.scenario.index, b.scenario.index);
  EXPECT_EQ(a.scenario.key, b.scenario.key);
  EXPECT_EQ(a.scenario.target, b.scenario.target);
  EXPECT_EQ(a.scenario.workload, b.scenario.workload);
  EXPECT_EQ(a.scenario.parameters, b.scenario.parameters);
  EXPECT_EQ(a.scenario.repeat, b.scenario.repeat);
  EXPECT_EQ(a.scenario.repeats, b.scenario.repeats);
  EXPECT_EQ(a.scenario.agent_ids, b.scenario.agent_ids);
  ASSERT_EQ(a.scenario.jobs.size(), b.scenario.jobs.size());
  for (size_t i = 0; i < a.scenario.jobs.size(); ++i) {
    EXPECT_EQ(a.scenario.jobs[i].name, b.scenario.jobs[i].name);
    EXPECT_EQ(a.scenario.jobs[i].workload, b.scenario.jobs[i].workload);
    EXPECT_EQ(a.scenario.jobs[i].options, b.scenario.jobs[i].options);
    EXPECT_EQ(a.scenario.jobs[i].group_id, b.scenario.jobs[i].group_id);
  }
  EXPECT_EQ(a.scenario.cooldown_s, b.scenario.cooldown_s);
  EXPECT_EQ(a.scenario.skipped, b.scenario.skipped);
  EXPECT_EQ(a.scenario.skip_reason, b.scenario.skip_reason);
  ASSERT_EQ(a.scenario.placements.size(), b.scenario.placements.size());
  for (size_t i = 0; i < a.scenario.placements.size(); ++i) {
    const PlacementEvidence& x = a.scenario.placements[i];
    const PlacementEvidence& y = b.scenario.placements[i];
    EXPECT_EQ(std::tie(x.agent_id, x.target, x.placement, x.agent_az, x.agent_az_id, x.az_source,
                       x.server_address, x.address_source, x.subnet, x.subnet_source, x.server_az,
                       x.server_az_source, x.reason),
              std::tie(y.agent_id, y.target, y.placement, y.agent_az, y.agent_az_id, y.az_source,
                       y.server_address, y.address_source, y.subnet, y.subnet_source, y.server_az,
                       y.server_az_source, y.reason));
    EXPECT_EQ(x.mount, y.mount);
  }
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.status_detail, b.status_detail);
  ASSERT_EQ(a.results.size(), b.results.size());
  for (size_t i = 0; i < a.results.size(); ++i) {
    EXPECT_EQ(a.results[i].agent_id, b.results[i].agent_id);
    ExpectSameJob(a.results[i].result, b.results[i].result);
  }
  ASSERT_EQ(a.lost.size(), b.lost.size());
  for (size_t i = 0; i < a.lost.size(); ++i) {
    EXPECT_EQ(a.lost[i].agent_id, b.lost[i].agent_id);
    EXPECT_EQ(a.lost[i].lost_at_realtime_ns, b.lost[i].lost_at_realtime_ns);
    EXPECT_EQ(a.lost[i].reason, b.lost[i].reason);
  }
  EXPECT_EQ(a.planned_start_realtime_ns, b.planned_start_realtime_ns);
  EXPECT_EQ(a.first_start_realtime_ns, b.first_start_realtime_ns);
  EXPECT_EQ(a.last_start_realtime_ns, b.last_start_realtime_ns);
  EXPECT_EQ(a.first_end_realtime_ns, b.first_end_realtime_ns);
  EXPECT_EQ(a.last_end_realtime_ns, b.last_end_realtime_ns);
  EXPECT_EQ(a.clock_offsets, b.clock_offsets);
}

class StoreTest : public testing::StoreFileTest {};

TEST_F(StoreTest, ScenariosRoundTripExactlyThroughTheFile) {
  std::vector<ScenarioResult> saved;
  saved.push_back(MakeResult("target=efs/workload=randread/repeat=2", 0));
  saved.push_back(MakeResult("target=fsx/workload=randread/repeat=2", 1, ScenarioStatus::kPartial));
  ScenarioResult skipped;
  skipped.scenario.index = 2;
  skipped.scenario.key = "target=fsx/workload=seq/nodes=9";
  skipped.scenario.skipped = true;
  skipped.scenario.skip_reason = "needs 9 agents, the fleet has 2";
  skipped.status = ScenarioStatus::kSkipped;
  saved.push_back(std::move(skipped));
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("study-b", "study-b.yaml", "name: study-b\n", "0.1.0").ok());
    for (const auto& result : saved) ASSERT_TRUE(store->SaveScenario(result).ok());
  }
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), saved.size());
  for (size_t i = 0; i < saved.size(); ++i) ExpectSameResult(saved[i], (*loaded)[i]);
  // The wide moments made it: the read histogram's sum passed 2^64.
  EXPECT_NE((*loaded)[0].results[0].result.Find(OpKind::kRead)->lat.ToSparse().sum_ns_hi, 0u);

  absl::StatusOr<CampaignRecord> campaign = store->LoadCampaign();
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  EXPECT_EQ(campaign->name, "study-b");
  EXPECT_EQ(campaign->file, "study-b.yaml");
  EXPECT_EQ(campaign->campaign_yaml, "name: study-b\n");
  EXPECT_EQ(campaign->azbench_version, "0.1.0");
  EXPECT_GT(campaign->started_at_ns, 0);
  EXPECT_EQ(campaign->finished_at_ns, 0);
}

TEST_F(StoreTest, AgentsAreSavedUpdatedByIdAndLoadedInFirstSavedOrder) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "").ok());
  AgentInfo a{"10.0.0.1:7480",   "10.0.0.1:7480", "0.1.0",    "ip-10-0-0-1", "ap-northeast-1",
              "ap-northeast-1a", "apne1-az4",     "t3.micro", -1500,         300};
  AgentInfo b = a;
  b.agent_id = b.address = "10.0.0.2:7480";
  b.availability_zone = "ap-northeast-1c";
  ASSERT_TRUE(store->SaveAgents({a, b}).ok());
  a.clock_offset_ns = 42;  // re-measured on --resume
  ASSERT_TRUE(store->SaveAgents({a}).ok());
  absl::StatusOr<std::vector<AgentInfo>> agents = store->LoadAgents();
  ASSERT_TRUE(agents.ok()) << agents.status();
  ASSERT_EQ(agents->size(), 2u);
  EXPECT_EQ((*agents)[0].agent_id, "10.0.0.1:7480");
  EXPECT_EQ((*agents)[0].clock_offset_ns, 42);
  EXPECT_EQ((*agents)[0].clock_rtt_ns, 300);
  EXPECT_EQ((*agents)[0].availability_zone_id, "apne1-az4");
  EXPECT_EQ((*agents)[0].instance_type, "t3.micro");
  EXPECT_EQ((*agents)[0].hostname, "ip-10-0-0-1");
  EXPECT_EQ((*agents)[0].region, "ap-northeast-1");
  EXPECT_EQ((*agents)[0].version, "0.1.0");
  EXPECT_EQ((*agents)[1].availability_zone, "ap-northeast-1c");
}

TEST_F(StoreTest, AFailedInsertInTheMiddleOfAScenarioLeavesNoRowOfIt) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "").ok());
  ASSERT_TRUE(store->SaveScenario(MakeResult("kept", 0)).ok());
  const int64_t histograms_before = RawQuery(path_, "SELECT count(*) FROM histogram");
  const int64_t intervals_before = RawQuery(path_, "SELECT count(*) FROM interval");
  ASSERT_GT(histograms_before, 0);

  // The third result repeats an interval index: its interval insert violates the primary key
  // after the scenario, two agent results and their histograms were already inserted.
  ScenarioResult bad = MakeResult("bad", 1);
  bad.results[2].result.intervals[1].index = 0;
  absl::Status status = store->SaveScenario(bad);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("bad"));
  EXPECT_THAT(status.message(), HasSubstr(path_));
  EXPECT_THAT(status.message(), HasSubstr("UNIQUE constraint failed"));

  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM scenario"), 1);
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM agent_result"), 3);
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM histogram"), histograms_before);
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM interval"), intervals_before);
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM event"), 6);  // kept's 3 x 2 warnings

  // Replacing a stored scenario with a bad one keeps the stored one whole.
  ScenarioResult bad_replacement = MakeResult("kept", 0, ScenarioStatus::kPartial);
  bad_replacement.results[1].result.intervals[2].index = 1;
  EXPECT_FALSE(store->SaveScenario(bad_replacement).ok());
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ExpectSameResult(MakeResult("kept", 0), (*loaded)[0]);
}

TEST_F(StoreTest, EveryScenarioIsCommittedWhenSaveScenarioReturns) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "").ok());
  ASSERT_TRUE(store->SaveScenario(MakeResult("one", 0)).ok());
  // Another connection sees it while the store is still open: nothing waits for a later commit.
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM scenario WHERE key = 'one'"), 1);
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM agent_result"), 3);
  EXPECT_EQ(RawText(path_, "PRAGMA journal_mode"), "wal");
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), kStoreSchemaVersion);
  EXPECT_EQ(RawQuery(path_, "PRAGMA application_id"), kStoreApplicationId);
}

TEST_F(StoreTest, ResumeSkipsCompleteScenariosAndReRunsPartialFailedAndSkippedOnes) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "").ok());
  ASSERT_TRUE(store->SaveScenario(MakeResult("complete", 0)).ok());
  ASSERT_TRUE(store->SaveScenario(MakeResult("partial", 1, ScenarioStatus::kPartial)).ok());
  ASSERT_TRUE(store->SaveScenario(MakeResult("failed", 2, ScenarioStatus::kFailed)).ok());
  ASSERT_TRUE(store->SaveScenario(MakeResult("skipped", 3, ScenarioStatus::kSkipped)).ok());
  absl::StatusOr<std::set<std::string>> completed = store->CompletedScenarioKeys();
  ASSERT_TRUE(completed.ok()) << completed.status();
  EXPECT_THAT(*completed, ElementsAre("complete"));
  absl::StatusOr<std::map<std::string, ScenarioStatus>> stored = store->StoredScenarioKeys();
  ASSERT_TRUE(stored.ok()) << stored.status();
  EXPECT_EQ(stored->size(), 4u);
  EXPECT_EQ(stored->at("partial"), ScenarioStatus::kPartial);

  // The re-run of the partial scenario replaces it.
  ScenarioResult rerun = MakeResult("partial", 1);
  rerun.results.pop_back();
  ASSERT_TRUE(store->SaveScenario(rerun).ok());
  completed = store->CompletedScenarioKeys();
  ASSERT_TRUE(completed.ok());
  EXPECT_THAT(*completed, UnorderedElementsAre("complete", "partial"));
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 4u);
  ExpectSameResult(rerun, (*loaded)[1]);
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM event WHERE kind = 'lost'"), 0);
}

TEST_F(StoreTest, ReopeningTheSameCampaignContinuesItAndAnotherCampaignIsRefused) {
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    absl::StatusOr<int64_t> id = store->BeginCampaign("c", "c.yaml", "first");
    ASSERT_TRUE(id.ok()) << id.status();
    ASSERT_TRUE(store->SaveScenario(MakeResult("one", 0)).ok());
    ASSERT_TRUE(store->FinishCampaign().ok());
    absl::StatusOr<CampaignRecord> record = store->LoadCampaign();
    ASSERT_TRUE(record.ok());
    EXPECT_GE(record->finished_at_ns, record->started_at_ns);
  }
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<int64_t> id = store->BeginCampaign("c", "c.yaml", "changed");
  ASSERT_TRUE(id.ok()) << id.status();
  absl::StatusOr<CampaignRecord> record = store->LoadCampaign();
  ASSERT_TRUE(record.ok());
  EXPECT_EQ(record->id, *id);
  EXPECT_EQ(record->campaign_yaml, "first");  // what the stored results ran with
  EXPECT_EQ(record->finished_at_ns, 0);
  absl::StatusOr<std::set<std::string>> completed = store->CompletedScenarioKeys();
  ASSERT_TRUE(completed.ok());
  EXPECT_THAT(*completed, ElementsAre("one"));

  absl::StatusOr<int64_t> other = store->BeginCampaign("other", "o.yaml", "");
  EXPECT_EQ(other.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(other.status().message(), HasSubstr("holds campaign 'c'"));
}

TEST_F(StoreTest, AReportCanReadTheStoredCampaignWithoutBeginningIt) {
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "").ok());
    ASSERT_TRUE(store->SaveScenario(MakeResult("one", 0)).ok());
  }
  absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::vector<ScenarioResult>> loaded = (*store)->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ(loaded->size(), 1u);
}

TEST_F(StoreTest, SavingBeforeBeginCampaignIsAFailedPrecondition) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(store->SaveScenario(MakeResult("one", 0)).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store->SaveAgents({}).code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store->FinishCampaign().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_EQ(store->LoadCampaign().status().code(), absl::StatusCode::kNotFound);
}

TEST_F(StoreTest, AScenarioWithoutAKeyIsRefused) {
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "").ok());
  EXPECT_EQ(store->SaveScenario(MakeResult("", 0)).code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(StoreTest, AFileWithANewerSchemaVersionIsRefusedNamingBothVersions) {
  { ASSERT_NE(OpenStore(), nullptr); }
  RawQuery(path_, "PRAGMA user_version = 7");
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path_);
  ASSERT_EQ(store.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(store.status().message(), HasSubstr(path_));
  EXPECT_THAT(store.status().message(), HasSubstr("version 7"));
  EXPECT_THAT(store.status().message(), HasSubstr("(2)"));
}

TEST_F(StoreTest, AVersion1FileGainsThePlacementTableAndKeepsItsResults) {
  ScenarioResult old_result = MakeResult("from-v1", 0);
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    old_result.scenario.placements.clear();
    ASSERT_TRUE(store->SaveScenario(old_result).ok());
  }
  // Make it what azbench 0.1 wrote: version 1, no placement table.
  RawQuery(path_, "DROP TABLE placement");
  RawQuery(path_, "PRAGMA user_version = 1");
  ASSERT_EQ(RawQuery(path_, "SELECT count(*) FROM sqlite_schema WHERE name = 'placement'"), 0);
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), 2);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ExpectSameResult(old_result, (*loaded)[0]);
  ScenarioResult with_placement = MakeResult("new", 1);
  ASSERT_TRUE(store->SaveScenario(with_placement).ok());
  loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  ExpectSameResult(with_placement, (*loaded)[1]);
}

TEST_F(StoreTest, AFileWithoutThePlacementMountColumnGainsItAndKeepsItsEvidence) {
  ScenarioResult before = MakeResult("before-mount", 0);
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(before).ok());
  }
  // What an azbench before the column wrote: the same schema version without `mount`.
  RawQuery(path_, "ALTER TABLE placement DROP COLUMN mount");
  ASSERT_EQ(RawQuery(path_,
                     "SELECT count(*) FROM pragma_table_info('placement') WHERE name = "
                     "'mount'"),
            0);
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), kStoreSchemaVersion);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ASSERT_EQ((*loaded)[0].scenario.placements.size(), 2u);
  EXPECT_EQ((*loaded)[0].scenario.placements[0].server_address, "10.0.1.10");
  EXPECT_EQ((*loaded)[0].scenario.placements[0].mount, "") << "unknown, not invented";
  ScenarioResult after = MakeResult("after-mount", 1);
  ASSERT_TRUE(store->SaveScenario(after).ok());
  loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  ExpectSameResult(after, (*loaded)[1]);
}

TEST_F(StoreTest, AFileWithoutTheCpuAndDepthColumnsGainsThemAndReadsAsNotMeasured) {
  ScenarioResult before = MakeResult("before-cpu", 0);
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(before).ok());
  }
  // What an azbench before the columns wrote: the same schema version without cpu_*, io_depths.
  for (const char* column : {"io_depths", "cpu_threads", "cpu_wall_ns", "cpu_user_ns",
                             "cpu_system_ns", "cpu_voluntary_switches", "cpu_involuntary_switches",
                             "cpu_minor_faults", "cpu_major_faults"}) {
    RawQuery(path_, absl::StrCat("ALTER TABLE agent_result DROP COLUMN ", column));
  }
  ASSERT_EQ(RawQuery(path_,
                     "SELECT count(*) FROM pragma_table_info('agent_result') WHERE name LIKE "
                     "'cpu_%'"),
            0);
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), kStoreSchemaVersion);
  EXPECT_EQ(RawQuery(path_,
                     "SELECT count(*) FROM pragma_table_info('agent_result') WHERE name LIKE "
                     "'cpu_%'"),
            8);
  EXPECT_EQ(RawQuery(path_,
                     "SELECT count(*) FROM pragma_table_info('agent_result') WHERE name = "
                     "'io_depths'"),
            1);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ASSERT_FALSE((*loaded)[0].results.empty());
  for (const AgentJobResult& r : (*loaded)[0].results) {
    EXPECT_FALSE(r.result.cpu.measured()) << "unknown, not invented";
    EXPECT_FALSE(r.result.depth.measured());
    EXPECT_EQ(r.result.cpu.user_ns, 0u);
  }
  ScenarioResult after = MakeResult("after-cpu", 1);
  ASSERT_TRUE(store->SaveScenario(after).ok());
  loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  ExpectSameResult(after, (*loaded)[1]);
}

TEST_F(StoreTest, MalformedIoDepthsAreReportedAsACorruptRowNotGuessed) {
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(MakeResult("s", 0)).ok());
  }
  RawQuery(path_, "UPDATE agent_result SET io_depths = '{\"level\": [1, 2]}'");
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_FALSE(loaded.ok());
  EXPECT_THAT(loaded.status().message(), ::testing::HasSubstr("io_depths"));
}

TEST_F(StoreTest, ASqliteFileOfAnotherApplicationIsRefusedAndLeftAlone) {
  RawQuery(path_, "CREATE TABLE notes (text TEXT)");
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path_);
  ASSERT_EQ(store.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(store.status().message(), HasSubstr("not an azbench results database"));
  EXPECT_EQ(RawQuery(path_, "SELECT count(*) FROM sqlite_schema"), 1);
}

TEST_F(StoreTest, AFileThatIsNotADatabaseGivesSqlitesMessageAndThePath) {
  std::ofstream(path_) << "this is not a database, it is a text file long enough to have a header";
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path_);
  ASSERT_FALSE(store.ok());
  EXPECT_THAT(store.status().message(), HasSubstr(path_));
  EXPECT_THAT(store.status().message(), HasSubstr("not a database"));
}

TEST_F(StoreTest, OpenExistingOnAMissingFileIsNotFoundAndCreatesNothing) {
  absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(path_);
  EXPECT_EQ(store.status().code(), absl::StatusCode::kNotFound);
  EXPECT_FALSE(std::filesystem::exists(path_));
}

TEST_F(StoreTest, AnUnopenablePathNamesItself) {
  const std::string path = dir_.File("missing-dir/results.db");
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path);
  ASSERT_FALSE(store.ok());
  EXPECT_THAT(store.status().message(), HasSubstr(path));
}

TEST_F(StoreTest, EachRunInvocationIsRecordedAndNamesTheScenariosItStored) {
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "").ok());
    absl::StatusOr<int64_t> first = store->BeginRun(/*resumed=*/false);
    ASSERT_TRUE(first.ok()) << first.status();
    ASSERT_TRUE(store->SaveScenario(MakeResult("k1", 0)).ok());
    ASSERT_TRUE(store->FinishRun("interrupted").ok());
    absl::StatusOr<int64_t> second = store->BeginRun(/*resumed=*/true);
    ASSERT_TRUE(second.ok());
    EXPECT_NE(*first, *second);
    ASSERT_TRUE(store->SaveScenario(MakeResult("k2", 1)).ok());
    ASSERT_TRUE(store->FinishRun("finished").ok());
  }
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
  std::vector<std::string> rows;
  sqlite3_exec(
      db,
      "SELECT s.key || ':' || r.resumed || ':' || r.outcome || ':' || (r.finished_at_ns IS NOT "
      "NULL) FROM scenario s JOIN run r ON s.run_id = r.id ORDER BY s.key",
      [](void* out, int, char** values, char**) {
        static_cast<std::vector<std::string>*>(out)->push_back(values[0]);
        return 0;
      },
      &rows, nullptr);
  sqlite3_close(db);
  EXPECT_EQ(rows, (std::vector<std::string>{"k1:0:interrupted:1", "k2:1:finished:1"}));
}

}  // namespace
}  // namespace azbench
