// Tests of campaign files (coordinator/campaign/campaign.h): a minimal valid campaign that a test
// changes in one place (its lines are numbered for the error positions a test expects), and the
// paths of the source tree's examples and test data.
//
//   EXPECT_THAT(testing::ParseMinimalPlus("repeats: 0\n"),
//               testing::StatusIs(testing::kInvalid, StartsWith("test.yaml:10:10: ")));
#ifndef AZBENCH_TESTS_TESTING_MINIMAL_CAMPAIGN_H_
#define AZBENCH_TESTS_TESTING_MINIMAL_CAMPAIGN_H_

#include <filesystem>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_replace.h"
#include "coordinator/campaign/campaign.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"

namespace azbench::testing {

// The source tree, as CMake recorded it (tests/testing/dependencies.h).
inline std::string SourceRoot() { return kSourceDir; }
// A file of tests/coordinator/testdata.
inline std::string TestData(const std::string& name) {
  return SourceRoot() + "/tests/coordinator/testdata/" + name;
}

// A valid campaign; tests replace one part of it. Lines are numbered for the error positions.
inline constexpr char kMinimal[] = R"(name: mini
fleet:
  local: {agents: 2}
targets:
  - name: scratch
    path: scratch
workloads:
  - name: randread
    options: {rw: randread, bs: 4k, size: 1m}
)";

// kMinimal with `from` replaced by `to` (the test fails if `from` is not in it), parsed as
// test.yaml.
inline absl::StatusOr<Campaign> ParseMinimalWith(const std::string& from, const std::string& to) {
  const std::string text = absl::StrReplaceAll(kMinimal, {{from, to}});
  EXPECT_NE(text, kMinimal) << "the replacement did not apply: " << from;
  return ParseCampaign(text, "test.yaml");
}

// kMinimal followed by `extra` (from line 10 on), parsed as test.yaml.
inline absl::StatusOr<Campaign> ParseMinimalPlus(const std::string& extra) {
  return ParseCampaign(std::string(kMinimal) + extra, "test.yaml");
}

inline constexpr absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_MINIMAL_CAMPAIGN_H_
