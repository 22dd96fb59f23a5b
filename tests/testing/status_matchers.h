// gMock matchers for absl::Status and absl::StatusOr.
//
//   EXPECT_THAT(ParseCampaign(text, "c.yaml"),
//               testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("c.yaml:3:1")));
#ifndef AZBENCH_TESTS_TESTING_STATUS_MATCHERS_H_
#define AZBENCH_TESTS_TESTING_STATUS_MATCHERS_H_

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace azbench::testing {

inline const absl::Status& GetStatus(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// Matches an absl::Status (or the status of a StatusOr) by code and message.
MATCHER_P2(StatusIs, code, message_matcher, "") {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "status is " << status;
  return status.code() == code &&
         ::testing::ExplainMatchResult(message_matcher, std::string(status.message()),
                                       result_listener);
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_STATUS_MATCHERS_H_
