// tests/testing/status_matchers.h: StatusIs matches by code and message, and a failure describes
// what was expected in words (it printed the message matcher as raw bytes).
#include "tests/testing/status_matchers.h"

#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::Not;

TEST(StatusIsTest, MatchesCodeAndMessageOfAStatusOrAStatusOr) {
  EXPECT_THAT(absl::NotFoundError("no such file"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("such")));
  EXPECT_THAT(absl::StatusOr<int>(absl::InternalError("x")),
              StatusIs(absl::StatusCode::kInternal, "x"));
  EXPECT_THAT(absl::NotFoundError("no such file"),
              Not(StatusIs(absl::StatusCode::kInternal, HasSubstr("such"))));
  EXPECT_THAT(absl::NotFoundError("no such file"),
              Not(StatusIs(absl::StatusCode::kNotFound, HasSubstr("other"))));
}

TEST(StatusIsTest, DescribesTheExpectedCodeAndMessageInWords) {
  const ::testing::Matcher<absl::Status> matcher =
      StatusIs(absl::StatusCode::kNotFound, HasSubstr("c.yaml:3"));
  EXPECT_EQ(::testing::DescribeMatcher<absl::Status>(matcher),
            "has code NOT_FOUND and a message that has substring \"c.yaml:3\"");
  EXPECT_EQ(::testing::DescribeMatcher<absl::Status>(matcher, /*negation=*/true),
            "has a code other than NOT_FOUND or a message that has no substring \"c.yaml:3\"");
  ::testing::StringMatchResultListener listener;
  EXPECT_FALSE(matcher.MatchAndExplain(absl::InternalError("boom"), &listener));
  EXPECT_EQ(listener.str(), "status is INTERNAL: boom");
}

}  // namespace
}  // namespace azbench
