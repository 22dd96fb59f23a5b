#include "common/error_policy.h"

#include <cerrno>
#include <vector>

#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::StatusIs;

constexpr uint32_t kReadBit = 1u << static_cast<int>(ErrorType::kRead);
constexpr uint32_t kWriteBit = 1u << static_cast<int>(ErrorType::kWrite);
constexpr uint32_t kVerifyBit = 1u << static_cast<int>(ErrorType::kVerify);

TEST(ErrorPolicyTest, ContinueOnErrorTakesFiosWordsAndTheirNumbers) {
  EXPECT_EQ(*ParseContinueOnError("none"), 0u);
  EXPECT_EQ(*ParseContinueOnError("read"), kReadBit);
  EXPECT_EQ(*ParseContinueOnError("write"), kWriteBit);
  EXPECT_EQ(*ParseContinueOnError("io"), kReadBit | kWriteBit);
  EXPECT_EQ(*ParseContinueOnError("verify"), kVerifyBit);
  EXPECT_EQ(*ParseContinueOnError("all"), kContinueOnAll);
  EXPECT_EQ(*ParseContinueOnError("0"), 0u);
  EXPECT_EQ(*ParseContinueOnError("1"), kContinueOnAll);
  EXPECT_THAT(ParseContinueOnError("bogus"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("none, read, write, io, verify, all, 0, 1")));
}

TEST(ErrorPolicyTest, IgnoreErrorReadsPerTypeListsOfNamesAndNumbers) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "ignore_error", "EAGAIN,ENOSPC:122,-84").ok());
  EXPECT_THAT(job.ignore_error[0], ElementsAre(EAGAIN));
  EXPECT_THAT(job.ignore_error[1], ElementsAre(ENOSPC, 122));
  EXPECT_THAT(job.ignore_error[2], ElementsAre(84));
  EXPECT_EQ(job.continue_on_error, kReadBit | kWriteBit | kVerifyBit);
}

TEST(ErrorPolicyTest, AnEmptyIgnoreErrorListLeavesItsTypeAlone) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "ignore_error", ",ENOSPC").ok());
  EXPECT_THAT(job.ignore_error[0], IsEmpty());
  EXPECT_EQ(job.continue_on_error, kWriteBit);
  // As fio, a list ends at an empty entry.
  ASSERT_TRUE(ApplyJobOption(job, "ignore_error", "EIO::ENOSPC").ok());
  EXPECT_THAT(job.ignore_error[0], ElementsAre(EIO));
}

TEST(ErrorPolicyTest, IgnoreErrorRefusesWhatFioRefuses) {
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "ignore_error", ",ENOSPC:EFOO"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unknown error 'EFOO'")));
  // fio's table of names stops at ERANGE.
  EXPECT_THAT(ApplyJobOption(job, "ignore_error", "EILSEQ"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("EPERM to ERANGE")));
  EXPECT_THAT(ApplyJobOption(job, "ignore_error", ",0"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("ignore_error")));
  EXPECT_THAT(ApplyJobOption(job, "ignore_error", ",,,ENOSPC"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("at most three")));
  EXPECT_EQ(job.continue_on_error, 0u) << "a refused value changes nothing";
}

TEST(ErrorPolicyTest, ErrorTypesAreFiosVerifyForEilseqReadForReadsWriteForTheRest) {
  EXPECT_EQ(ErrorTypeOf(OpKind::kRead, EIO), ErrorType::kRead);
  EXPECT_EQ(ErrorTypeOf(OpKind::kWrite, EIO), ErrorType::kWrite);
  EXPECT_EQ(ErrorTypeOf(OpKind::kFsync, EIO), ErrorType::kWrite);
  EXPECT_EQ(ErrorTypeOf(OpKind::kRead, EILSEQ), ErrorType::kVerify);
}

TEST(ErrorPolicyTest, WithoutAListOnlyEioAndEilseqAreNonFatal) {
  JobSpec job;
  EXPECT_FALSE(IsNonFatalError(job, ErrorType::kWrite, EIO)) << "continue_on_error=none";
  ASSERT_TRUE(ApplyJobOption(job, "continue_on_error", "all").ok());
  EXPECT_TRUE(IsNonFatalError(job, ErrorType::kWrite, EIO));
  EXPECT_TRUE(IsNonFatalError(job, ErrorType::kVerify, EILSEQ));
  EXPECT_FALSE(IsNonFatalError(job, ErrorType::kWrite, ENOSPC));
  ASSERT_TRUE(ApplyJobOption(job, "ignore_error", ",ENOSPC").ok());
  EXPECT_TRUE(IsNonFatalError(job, ErrorType::kWrite, ENOSPC));
  EXPECT_FALSE(IsNonFatalError(job, ErrorType::kWrite, EIO)) << "the list replaces the default";
  EXPECT_TRUE(IsNonFatalError(job, ErrorType::kRead, EIO));
}

TEST(ErrorPolicyTest, ContinueOnErrorAfterIgnoreErrorSetsTheTypesAgainAsFio) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "ignore_error", ",ENOSPC").ok());
  ASSERT_TRUE(ApplyJobOption(job, "continue_on_error", "none").ok());
  EXPECT_FALSE(IsNonFatalError(job, ErrorType::kWrite, ENOSPC));
}

}  // namespace
}  // namespace azbench
