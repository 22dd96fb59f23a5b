// Reports of a results database whose agent_result row holds a duration no run can have (a
// negative or absurd runtime_ns or interval_ns, as a hand edit or a damaged file leaves): every
// `azbench report` format and `azbench compare` refuse it with an error naming the file, the
// scenario, the agent and the field, as other corrupt rows are (store_schema_test.cc); none
// crashes. Loading itself: Store::LoadScenarios returns DataLoss.
#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "coordinator/cli_commands.h"
#include "coordinator/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/store_file.h"
#include "tests/testing/store_results.h"

namespace azbench {
namespace {

using ::azbench::testing::MakeResult;
using ::azbench::testing::RawQuery;
using ::testing::HasSubstr;

constexpr const char* kFormats[] = {"terminal", "md",   "csv",        "json",
                                    "fio-json", "html", "scaling-csv"};

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
