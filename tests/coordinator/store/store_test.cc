// The results database (coordinator/store/store.h) in a real SQLite file: what is saved is loaded
// back exactly, every scenario is committed as it is saved and a failed save leaves none of it, a
// campaign is continued on --resume, each run invocation is recorded. Opening files of older
// schemas, of other applications or none: store_schema_test.cc.
#include "coordinator/store/store.h"

#include <sqlite3.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/store_file.h"
#include "tests/testing/store_results.h"

namespace azbench {
namespace {

using ::azbench::testing::ExpectSameResult;
using ::azbench::testing::MakeResult;
using ::azbench::testing::RawQuery;
using ::azbench::testing::RawText;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::UnorderedElementsAre;

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

// A job's trims (rw=trimwrite, randtrim) are stored and loaded as their own kind, totals and
// interval rows, as reads and writes are.
TEST_F(StoreTest, TrimsRoundTripBesideReadsAndWrites) {
  ScenarioResult saved = MakeResult("target=efs/workload=randtrimwrite/repeat=1", 0);
  JobResult& job = saved.results[0].result;
  OpStats& trim = job.Stats(OpKind::kTrim);
  for (uint64_t ns : {1000u, 2000u, 40000u}) trim.lat.Record(ns);
  trim.ops = 3;
  trim.bytes = 3 * 4096;
  trim.errors = 1;
  IntervalOpStats& row = job.intervals[0].by_kind[static_cast<int>(OpKind::kTrim)];
  row.ops = 3;
  row.bytes = 3 * 4096;
  row.lat = trim.lat.ToSparse();
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("trims", "trims.yaml", "name: trims\n", "0.1.0").ok());
    ASSERT_TRUE(store->SaveScenario(saved).ok());
  }
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ExpectSameResult(saved, (*loaded)[0]);
  const OpStats* loaded_trim = (*loaded)[0].results[0].result.Find(OpKind::kTrim);
  ASSERT_NE(loaded_trim, nullptr);
  EXPECT_EQ(loaded_trim->ops, 3u);
  EXPECT_EQ(loaded_trim->errors, 1u);
  EXPECT_EQ(loaded_trim->lat, trim.lat);
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
