// Reports of a results database whose agent_result row holds a duration no run can have (a
// negative or absurd runtime_ns or interval_ns, as a hand edit or a damaged file leaves): every
// `azbench report` format and `azbench compare` refuse it with an error naming the file, the
// scenario, the agent and the field, as other corrupt rows are (store_schema_test.cc); none
// crashes. Loading itself: Store::LoadScenarios returns DataLoss.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "coordinator/cli/cli_commands.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/store_file.h"
#include "tests/testing/store_results.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::azbench::testing::MakeResult;
using ::azbench::testing::RawQuery;
using ::azbench::testing::RawText;
using ::testing::HasSubstr;

constexpr const char* kFormats[] = {"terminal", "md",        "csv",  "json",
                                    "fio-json", "fio-json+", "html", "scaling-csv"};

class ReportLoadTest : public testing::StoreFileTest {
 protected:
  // One complete scenario, "s", of two agents (10.0.0.1:7480 first).
  void SaveOneScenario() {
    std::unique_ptr<Store> store = OpenStore();
    ASSERT_NE(store, nullptr);
    ASSERT_TRUE(store->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE(store->SaveScenario(MakeResult("s", 0)).ok());
  }

  // The first agent's first result row gets `value` in `column`.
  void Corrupt(const std::string& column, const std::string& value) {
    RawQuery(path_, absl::StrCat("UPDATE agent_result SET ", column, " = ", value,
                                 " WHERE id = (SELECT min(id) FROM agent_result)"));
    ASSERT_EQ(
        RawQuery(path_, absl::StrCat("SELECT ", column, " FROM agent_result ORDER BY id LIMIT 1")),
        std::stoll(value));
  }

  // The last interval (its row of each op kind) of the first agent's first result gets index
  // `value`.
  void CorruptIntervalIndex(const std::string& value) {
    const std::string first_result = "(SELECT min(id) FROM agent_result)";
    RawQuery(path_,
             absl::StrCat("UPDATE interval SET idx = ", value,
                          " WHERE idx = (SELECT max(idx) FROM interval WHERE agent_result_id "
                          "= ",
                          first_result, ") AND agent_result_id = ", first_result));
    ASSERT_GE(RawQuery(path_, absl::StrCat("SELECT count(*) FROM interval WHERE idx = ", value)),
              1);
  }

  // `azbench report path_ --format FORMAT -o FILE`: the exit status; stderr into `err`.
  int Report(const std::string& format, std::string& err) {
    ::testing::internal::CaptureStderr();
    const int rc = cli_internal::ReportCommand(
        {path_, "--format", format, "-o", dir_.File(absl::StrCat("report.", format))});
    err = ::testing::internal::GetCapturedStderr();
    return rc;
  }

  // Every format (and compare, either side) fails with exit 1 and a message naming the file,
  // scenario, agent and `expected` (the field and its value).
  void ExpectEveryReportRefuses(const std::string& expected) {
    for (const char* format : kFormats) {
      SCOPED_TRACE(format);
      std::string err;
      EXPECT_EQ(Report(format, err), 1);
      EXPECT_THAT(err, HasSubstr(path_));
      EXPECT_THAT(err, HasSubstr("scenario 's'"));
      EXPECT_THAT(err, HasSubstr("agent 10.0.0.1:7480"));
      EXPECT_THAT(err, HasSubstr(expected));
    }
    const std::string other = dir_.File("other.db");
    {
      absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(other);
      ASSERT_TRUE(store.ok()) << store.status();
      ASSERT_TRUE((*store)->BeginCampaign("c", "c.yaml", "name: c\n").ok());
      ASSERT_TRUE((*store)->SaveScenario(MakeResult("s", 0)).ok());
    }
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{path_, other}, std::vector<std::string>{other, path_}}) {
      ::testing::internal::CaptureStderr();
      const int rc = cli_internal::CompareCommand(args);
      const std::string err = ::testing::internal::GetCapturedStderr();
      EXPECT_EQ(rc, 1);
      EXPECT_THAT(err, HasSubstr(absl::StrCat(path_, ": scenario 's'")));
      EXPECT_THAT(err, HasSubstr(expected));
    }
  }
};

TEST_F(ReportLoadTest, SaneResultsReportInEveryFormat) {
  SaveOneScenario();
  for (const char* format : kFormats) {
    std::string err;
    EXPECT_EQ(Report(format, err), 0) << format << ": " << err;
  }
}

// The database directory's entries, names and sizes ("-shm" would be 32768 bytes, "-wal" 0).
std::vector<std::string> Listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    std::error_code ec;
    const uintmax_t size = e.is_regular_file() ? e.file_size(ec) : 0;
    names.push_back(absl::StrCat(e.path().filename().string(), " ", size));
  }
  std::sort(names.begin(), names.end());
  return names;
}

// A run's database is in WAL mode: SQLite reads it read-only through "-wal"/"-shm" files it
// creates, and `report` and `compare` remove them again.
TEST_F(ReportLoadTest, ReportAndCompareLeaveTheDirectoryAsTheyFoundIt) {
  SaveOneScenario();
  const std::string other = dir_.File("other.db");
  {
    absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(other);
    ASSERT_TRUE(store.ok()) << store.status();
    ASSERT_TRUE((*store)->BeginCampaign("c", "c.yaml", "name: c\n").ok());
    ASSERT_TRUE((*store)->SaveScenario(MakeResult("s", 0)).ok());
  }
  ASSERT_EQ(RawText(path_, "PRAGMA journal_mode"), "wal");
  const std::vector<std::string> before = Listing(dir_.path());
  ASSERT_EQ(before.size(), 2u) << ::testing::PrintToString(before);
  testing::TempDir out;
  ASSERT_TRUE(out.ok());
  for (const char* format : kFormats) {
    ::testing::internal::CaptureStderr();
    EXPECT_EQ(cli_internal::ReportCommand(
                  {path_, "--format", format, "-o", out.File(absl::StrCat("report.", format))}),
              0)
        << format << ": " << ::testing::internal::GetCapturedStderr();
    if (::testing::Test::HasFailure()) break;
    (void)::testing::internal::GetCapturedStderr();
    EXPECT_EQ(Listing(dir_.path()), before) << "report --format " << format;
  }
  ::testing::internal::CaptureStdout();
  EXPECT_EQ(cli_internal::CompareCommand({path_, other}), 0);
  (void)::testing::internal::GetCapturedStdout();
  EXPECT_EQ(Listing(dir_.path()), before) << "compare";
}

// A run that has the database open keeps its "-wal"/"-shm": a report reading meanwhile removes
// nothing (SQLite removes them only with no other connection).
TEST_F(ReportLoadTest, AReportDuringARunLeavesTheRunsFiles) {
  SaveOneScenario();
  std::unique_ptr<Store> run = OpenStore();
  ASSERT_NE(run, nullptr);
  ASSERT_TRUE(std::filesystem::exists(path_ + "-shm"));
  std::unique_ptr<Store> reader = *Store::OpenExisting(path_);
  ASSERT_TRUE(reader->LoadScenarios().ok());
  reader.reset();
  EXPECT_TRUE(std::filesystem::exists(path_ + "-wal"));
  EXPECT_TRUE(std::filesystem::exists(path_ + "-shm"));
  ASSERT_TRUE(run->SaveScenario(MakeResult("t", 1)).ok()) << "the run still writes";
  run.reset();
  EXPECT_FALSE(std::filesystem::exists(path_ + "-wal")) << "the run's close removes them";
}

TEST_F(ReportLoadTest, ANegativeRuntimeIsACorruptRowInEveryFormat) {
  SaveOneScenario();
  Corrupt("runtime_ns", "-5");
  ExpectEveryReportRefuses("runtime_ns -5 out of range (allowed 0 to 31536000000000000 ns");
}

TEST_F(ReportLoadTest, ARuntimeOfInt64MaxIsACorruptRowInEveryFormat) {
  SaveOneScenario();
  const std::string max = absl::StrCat(std::numeric_limits<int64_t>::max());
  Corrupt("runtime_ns", max);
  ExpectEveryReportRefuses(absl::StrCat("runtime_ns ", max, " out of range"));
}

TEST_F(ReportLoadTest, ANegativeIntervalIsACorruptRowInEveryFormat) {
  SaveOneScenario();
  Corrupt("interval_ns", "-1000000000");
  ExpectEveryReportRefuses("interval_ns -1000000000 out of range");
}

TEST_F(ReportLoadTest, ANegativeIntervalIndexIsACorruptRowInEveryFormat) {
  SaveOneScenario();
  CorruptIntervalIndex("-1");
  ExpectEveryReportRefuses("interval index -1 out of range (allowed 0 to 31536000");
}

// An index the reports would multiply by interval_ns (1 s) past int64_t.
TEST_F(ReportLoadTest, AnIntervalIndexPastAYearIsACorruptRowInEveryFormat) {
  SaveOneScenario();
  CorruptIntervalIndex("36028797018963968");  // 2^55
  ExpectEveryReportRefuses(
      "interval index 36028797018963968 out of range (allowed 0 to 31536000, intervals of "
      "1000000000 ns beginning within one year)");
}

TEST_F(ReportLoadTest, IntervalsOfAJobWithoutAnIntervalLengthAreACorruptRowInEveryFormat) {
  SaveOneScenario();
  Corrupt("interval_ns", "0");
  ExpectEveryReportRefuses("stored for a job without an interval length (interval_ns 0)");
}

TEST_F(ReportLoadTest, LoadingSaysDataLossNamingTheAgentsJob) {
  SaveOneScenario();
  Corrupt("runtime_ns", "-5");
  std::unique_ptr<Store> store = OpenStore();
  ASSERT_NE(store, nullptr);
  absl::StatusOr<std::vector<ScenarioResult>> loaded = store->LoadScenarios();
  ASSERT_EQ(loaded.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_EQ(loaded.status().message(),
            absl::StrCat(path_,
                         ": scenario 's': agent 10.0.0.1:7480 job rand: runtime_ns -5 out of range "
                         "(allowed 0 to 31536000000000000 ns, one year)"));
}

}  // namespace
}  // namespace azbench
