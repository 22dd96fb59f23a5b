// Opening a results file (coordinator/store/store.h) that this azbench did not write as it would:
// an older schema gains what it lacks and keeps its results, a newer one, another application's
// SQLite file, a file that is no database, a corrupt row or a path that cannot be opened is
// refused naming what and where. Saving and loading: store_test.cc.
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_file.h"
#include "tests/testing/store_results.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::azbench::testing::ExpectSameResult;
using ::azbench::testing::MakeResult;
using ::azbench::testing::RawQuery;
using ::azbench::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

class StoreTest : public testing::StoreFileTest {};

TEST_F(StoreTest, AFileWithANewerSchemaVersionIsRefusedNamingBothVersions) {
  { ASSERT_NE(OpenStore(), nullptr); }
  RawQuery(path_, "PRAGMA user_version = 7");
  absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path_);
  ASSERT_EQ(store.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(store.status().message(), HasSubstr(path_));
  EXPECT_THAT(store.status().message(), HasSubstr("version 7"));
  EXPECT_THAT(store.status().message(), HasSubstr("(3)"));
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
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), kStoreSchemaVersion);
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

TEST_F(StoreTest, AVersion2FileLosesItsStagingTablesGainsTheAttemptColumnsAndKeepsItsResults) {
  ScenarioResult old_result = MakeResult("from-v2", 0);
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(old_result).ok());
  }
  // What azbench wrote before intervals went to their final rows: version 2, streamed intervals
  // in staging tables (here one row of an attempt a crash cut short), no attempt columns.
  RawQuery(path_, "ALTER TABLE scenario DROP COLUMN attempt_of");
  RawQuery(path_, "ALTER TABLE agent_result DROP COLUMN fold_source_id");
  RawQuery(path_, "ALTER TABLE agent_result DROP COLUMN fold_shift");
  RawQuery(path_,
           "CREATE TABLE staged_stream (id INTEGER PRIMARY KEY, campaign_id INTEGER NOT NULL, "
           "scenario_key TEXT NOT NULL, started_at_ns INTEGER NOT NULL)");
  RawQuery(path_,
           "CREATE TABLE staged_interval (stream_id INTEGER NOT NULL REFERENCES staged_stream(id) "
           "ON DELETE CASCADE, agent_id TEXT NOT NULL, idx INTEGER NOT NULL)");
  RawQuery(path_, "INSERT INTO staged_stream VALUES (1, 1, 'crashed', 0)");
  RawQuery(path_, "INSERT INTO staged_interval VALUES (1, 'a', 0)");
  RawQuery(path_, "PRAGMA user_version = 2");

  // Read-only, it is read through a copy that has the columns; the file stays as it was.
  {
    absl::StatusOr<std::unique_ptr<Store>> reader = Store::OpenExisting(path_);
    ASSERT_TRUE(reader.ok()) << reader.status();
    absl::StatusOr<std::vector<ScenarioResult>> loaded = (*reader)->LoadScenarios();
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ASSERT_EQ(loaded->size(), 1u);
    ExpectSameResult(old_result, (*loaded)[0]);
  }
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), 2);

  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), 3);
  EXPECT_EQ(RawQuery(path_,
                     "SELECT count(*) FROM sqlite_schema WHERE name IN ('staged_stream', "
                     "'staged_interval')"),
            0);
  EXPECT_EQ(RawQuery(path_,
                     "SELECT count(*) FROM pragma_table_info('agent_result') WHERE name IN "
                     "('fold_source_id', 'fold_shift')"),
            2);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ExpectSameResult(old_result, (*loaded)[0]);
  ScenarioResult after = MakeResult("after-v3", 1);
  ASSERT_TRUE(store->SaveScenario(after).ok());
  loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 2u);
  ExpectSameResult(after, (*loaded)[1]);
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

TEST_F(StoreTest, AFileWithoutTheErrorAndLatencyDepthColumnsGainsThemAndReadsThemAsNone) {
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(MakeResult("before-total-err", 0)).ok());
  }
  // What an azbench before the columns wrote: the same schema version without them.
  for (const char* column :
       {"continue_on_error", "total_err", "first_error", "latency_depth", "steadystate"}) {
    RawQuery(path_, absl::StrCat("ALTER TABLE agent_result DROP COLUMN ", column));
  }
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  EXPECT_EQ(RawQuery(path_,
                     "SELECT count(*) FROM pragma_table_info('agent_result') WHERE name IN "
                     "('continue_on_error', 'total_err', 'first_error', 'latency_depth', "
                     "'steadystate')"),
            5);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ASSERT_FALSE((*loaded)[0].results.empty());
  for (const AgentJobResult& r : (*loaded)[0].results) {
    EXPECT_FALSE(r.result.continue_on_error) << "unknown, not invented";
    EXPECT_EQ(r.result.total_err_count, 0u);
    EXPECT_EQ(r.result.first_error, 0);
    EXPECT_EQ(r.result.latency_depth, 0);
    EXPECT_FALSE(r.result.steadystate.has_value());
  }
  ScenarioResult after = MakeResult("after-total-err", 1);
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

// A job's start_ns / end_ns (realtime, coordinator clock) are range-checked on load as its
// durations and interval indexes are: a value no run can have (negative, absurdly far from the
// scenario's planned start) is a corrupt row named by its scenario, agent, job and column, not a
// figure (merge saturates, so it used to give absurd windows and rates).
TEST_F(StoreTest, AJobInstantNoRunCanHaveIsACorruptRowNamingItsColumn) {
  const ScenarioResult saved = MakeResult("s", 0);
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(saved).ok());
  }
  // The first result row: agent 10.0.0.1:7480's job "rand", started at kT0 + 1, ended 3 s later.
  const JobResult& first = saved.results[0].result;
  auto corrupt = [&](const std::string& column, int64_t value) {
    RawQuery(path_, absl::StrCat("UPDATE agent_result SET ", column, " = ", value,
                                 " WHERE id = (SELECT min(id) FROM agent_result)"));
    ASSERT_EQ(
        RawQuery(path_, absl::StrCat("SELECT ", column, " FROM agent_result ORDER BY id LIMIT 1")),
        value);
  };
  auto restore = [&] {
    corrupt("start_ns", first.start_realtime_ns);
    corrupt("end_ns", first.end_realtime_ns);
  };
  const int64_t year_ns = int64_t{365} * 24 * 3600 * testing::kSecond;
  const std::string planned = absl::StrCat(saved.planned_start_realtime_ns);
  const std::string row = absl::StrCat(path_, ": scenario 's': agent 10.0.0.1:7480 job rand: ");
  struct Case {
    const char* column;
    int64_t value;
    std::string message;
  };
  for (const Case& c : {
           Case{"start_ns", -5'000'000'000'000'000'000,
                "start_ns -5000000000000000000 out of range (allowed within one year of the "
                "scenario's planned_start_ns " +
                    planned + ", or of 0 for none)"},
           Case{"end_ns", std::numeric_limits<int64_t>::max(),
                absl::StrCat("end_ns ", std::numeric_limits<int64_t>::max(),
                             " out of range (allowed within one year of the scenario's "
                             "planned_start_ns ",
                             planned, ", or of 0 for none)")},
           Case{"start_ns", saved.planned_start_realtime_ns + year_ns + 1,
                absl::StrCat("start_ns ", saved.planned_start_realtime_ns + year_ns + 1,
                             " out of range (allowed within one year of the scenario's "
                             "planned_start_ns ",
                             planned, ", or of 0 for none)")},
       }) {
    SCOPED_TRACE(c.message);
    restore();
    corrupt(c.column, c.value);
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
    EXPECT_THAT(loaded, StatusIs(absl::StatusCode::kDataLoss, row + c.message));
  }
  // A job that never reached its measured phase: the agent's 0 less its clock offset (-20,000 ns
  // for this agent) is none, not a corrupt row; so is 0 itself.
  for (const int64_t none : {int64_t{20'000}, int64_t{0}}) {
    SCOPED_TRACE(none);
    restore();
    corrupt("start_ns", none);
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    EXPECT_EQ((*loaded)[0].results[0].result.start_realtime_ns, 0)
        << "none is 0, which merge reads as none (20,000 would be an instant in 1970)";
  }
  // An end before the start (a job cancelled before its measured phase, stored by an earlier
  // version; a realtime clock stepped back) is no end: the file loads, merge uses start + runtime.
  restore();
  corrupt("end_ns", first.start_realtime_ns - 1);
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  EXPECT_EQ((*loaded)[0].results[0].result.start_realtime_ns, first.start_realtime_ns);
  EXPECT_EQ((*loaded)[0].results[0].result.end_realtime_ns, 0);
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
  EXPECT_THAT(store.status(),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr(absl::StrCat("its directory '", dir_.File("missing-dir"),
                                              "' does not exist"))));
  EXPECT_FALSE(std::filesystem::exists(dir_.File("missing-dir")));
}

TEST_F(StoreTest, ADirectoryIsNamedAsOne) {
  for (bool existing : {false, true}) {
    absl::StatusOr<std::unique_ptr<Store>> store =
        existing ? Store::OpenExisting(dir_.path()) : Store::Open(dir_.path());
    EXPECT_THAT(
        store.status(),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 HasSubstr(absl::StrCat("results database '", dir_.path(), "' is a directory"))));
  }
}

TEST_F(StoreTest, OpenExistingOnAnEmptyFileIsRefusedAndLeavesItEmpty) {
  std::ofstream(path_).flush();
  absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(path_);
  EXPECT_THAT(store.status(), StatusIs(absl::StatusCode::kFailedPrecondition,
                                       HasSubstr(absl::StrCat(path_, ": empty file (0 bytes)"))));
  EXPECT_EQ(std::filesystem::file_size(path_), 0u);
  EXPECT_THAT(testing::DirectoryNames(dir_.path()), ElementsAre("results.db"));
  // An SQLite database with no tables (what an older azbench's `report` could leave): the same.
  RawQuery(path_, "CREATE TABLE t (a)");
  RawQuery(path_, "DROP TABLE t");
  ASSERT_GT(std::filesystem::file_size(path_), 0u);
  const std::string before = testing::FileContents(path_);
  store = Store::OpenExisting(path_);
  EXPECT_THAT(store.status(),
              StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("not a results database")));
  EXPECT_EQ(testing::FileContents(path_), before);
}

TEST_F(StoreTest, OpenExistingNeverWritesTheFile) {
  ScenarioResult saved = MakeResult("one", 0);
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(saved).ok());
  }
  const std::string before = testing::FileContents(path_);
  {
    absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(path_);
    ASSERT_TRUE(store.ok()) << store.status();
    absl::StatusOr<std::vector<ScenarioResult>> loaded = (*store)->LoadScenarios();
    ASSERT_TRUE(loaded.ok()) << loaded.status();
    ASSERT_EQ(loaded->size(), 1u);
    ExpectSameResult(saved, (*loaded)[0]);
    EXPECT_FALSE((*store)->BeginRun(false).ok()) << "read-only";
  }
  EXPECT_EQ(testing::FileContents(path_), before);
}

TEST_F(StoreTest, OpenExistingReadsAnOlderFileWithoutUpgradingIt) {
  ScenarioResult old_result = MakeResult("from-v1", 0);
  {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    old_result.scenario.placements.clear();
    old_result.clock_offsets.clear();
    old_result.disk_util.clear();
    ASSERT_TRUE(store->SaveScenario(old_result).ok());
  }
  RawQuery(path_, "DROP TABLE placement");
  RawQuery(path_, "DROP TABLE scenario_clock");
  RawQuery(path_, "DROP TABLE scenario_disk_util");
  RawQuery(path_, "PRAGMA user_version = 1");
  const std::string before = testing::FileContents(path_);
  absl::StatusOr<std::unique_ptr<Store>> store = Store::OpenExisting(path_);
  ASSERT_TRUE(store.ok()) << store.status();
  absl::StatusOr<std::vector<ScenarioResult>> loaded = (*store)->LoadScenarios();
  ASSERT_TRUE(loaded.ok()) << loaded.status();
  ASSERT_EQ(loaded->size(), 1u);
  ExpectSameResult(old_result, (*loaded)[0]);
  EXPECT_EQ(testing::FileContents(path_), before);
  EXPECT_EQ(RawQuery(path_, "PRAGMA user_version"), 1);
}

}  // namespace
}  // namespace azbench
