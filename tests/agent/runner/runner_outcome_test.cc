// The status a run ends with (runner_internal::RunOutcome, agent/runner/runner_internal.h): the
// first failed job's error in job order, whatever its code; jobs that did not run count for
// nothing.
#include <optional>
#include <vector>

#include "absl/status/status.h"
#include "agent/runner/runner_internal.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using runner_internal::RunOutcome;

TEST(RunOutcomeTest, EveryJobOkIsOk) {
  EXPECT_TRUE(RunOutcome({absl::OkStatus(), absl::OkStatus(), absl::OkStatus()}).ok());
}

TEST(RunOutcomeTest, NoJobsIsOk) { EXPECT_TRUE(RunOutcome({}).ok()); }

// UNKNOWN is a job's real error (s3_error.cc gives it to an unexpected HTTP status), not a marker
// of a job that did not run.
TEST(RunOutcomeTest, AJobErrorWithCodeUnknownIsTheRunsError) {
  const absl::Status outcome = RunOutcome(
      {absl::OkStatus(), absl::UnknownError("job 's3': PUT: unexpected HTTP status 418")});
  EXPECT_EQ(outcome.code(), absl::StatusCode::kUnknown);
  EXPECT_EQ(outcome.message(), "job 's3': PUT: unexpected HTTP status 418");
}

TEST(RunOutcomeTest, JobsThatDidNotRunAreIgnored) {
  EXPECT_TRUE(RunOutcome({absl::OkStatus(), std::nullopt, std::nullopt}).ok());
  EXPECT_TRUE(RunOutcome({std::nullopt}).ok()) << "cancelled before any job ran";
  const absl::Status outcome =
      RunOutcome({std::nullopt, absl::InternalError("job 'b': write failed"), std::nullopt});
  EXPECT_EQ(outcome.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(outcome.message(), "job 'b': write failed");
}

TEST(RunOutcomeTest, OfSeveralFailedJobsTheFirstInJobOrderWins) {
  const absl::Status internal_first =
      RunOutcome({absl::OkStatus(), absl::InternalError("job 'b': write failed"),
                  absl::NotFoundError("job 'c': no such bucket")});
  EXPECT_EQ(internal_first.code(), absl::StatusCode::kInternal);
  EXPECT_EQ(internal_first.message(), "job 'b': write failed");
  // An UNKNOWN error ahead of another wins as any other code would.
  const absl::Status unknown_first =
      RunOutcome({absl::UnknownError("job 'a': unexpected HTTP status 418"),
                  absl::InternalError("job 'b': write failed")});
  EXPECT_EQ(unknown_first.code(), absl::StatusCode::kUnknown);
  EXPECT_EQ(unknown_first.message(), "job 'a': unexpected HTTP status 418");
}

}  // namespace
}  // namespace azbench
