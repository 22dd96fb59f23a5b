// gMock matchers for absl::Status and absl::StatusOr.
//
//   EXPECT_THAT(ParseCampaign(text, "c.yaml"),
//               testing::StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("c.yaml:3:1")));
//
// A failure says what was expected and what the status was:
//   Expected: has code INVALID_ARGUMENT and a message that has substring "c.yaml:3:1"
//     Actual: ... status is NOT_FOUND: no such file
#ifndef AZBENCH_TESTS_TESTING_STATUS_MATCHERS_H_
#define AZBENCH_TESTS_TESTING_STATUS_MATCHERS_H_

#include <ostream>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"

namespace azbench::testing {

inline const absl::Status& GetStatus(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// The polymorphic matcher StatusIs makes (an absl::Status or any absl::StatusOr).
class StatusIsMatcher {
 public:
  StatusIsMatcher(absl::StatusCode code, ::testing::Matcher<const std::string&> message)
      : code_(code), message_(std::move(message)) {}

  template <typename StatusType>
  bool MatchAndExplain(const StatusType& arg, ::testing::MatchResultListener* listener) const {
    const absl::Status& status = GetStatus(arg);
    *listener << "status is " << status;
    return status.code() == code_ &&
           ::testing::ExplainMatchResult(message_, std::string(status.message()), listener);
  }
  void DescribeTo(std::ostream* os) const {
    *os << "has code " << absl::StatusCodeToString(code_) << " and a message that ";
    message_.DescribeTo(os);
  }
  void DescribeNegationTo(std::ostream* os) const {
    *os << "has a code other than " << absl::StatusCodeToString(code_) << " or a message that ";
    message_.DescribeNegationTo(os);
  }

 private:
  absl::StatusCode code_;
  ::testing::Matcher<const std::string&> message_;
};

// Matches an absl::Status (or the status of a StatusOr) by code and message (a matcher of the
// message text, or the text itself).
template <typename MessageMatcher>
::testing::PolymorphicMatcher<StatusIsMatcher> StatusIs(absl::StatusCode code,
                                                        MessageMatcher&& message_matcher) {
  return ::testing::MakePolymorphicMatcher(StatusIsMatcher(
      code,
      ::testing::MatcherCast<const std::string&>(std::forward<MessageMatcher>(message_matcher))));
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_STATUS_MATCHERS_H_
