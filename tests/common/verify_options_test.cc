// fio's verify options as the option table parses them (common/verify_options.h).
#include "common/verify_options.h"

#include "common/fio_option_table.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::HasSubstr;

TEST(VerifyOptionsTest, PatternsAreParsedAsFioWritesThem) {
  EXPECT_EQ(*ParseVerifyPattern("0x0102030405"), std::string("\x01\x02\x03\x04\x05"));
  EXPECT_EQ(*ParseVerifyPattern("0xabc"), std::string("\x0a\xbc"));
  EXPECT_EQ(*ParseVerifyPattern("258"), std::string("\x02\x01"));  // least significant first
  EXPECT_EQ(*ParseVerifyPattern("\"ab\""), "ab");
  EXPECT_EQ(*ParseVerifyPattern("\"x\"0x00"), std::string("x\0", 2));
  EXPECT_THAT(ParseVerifyPattern("%o"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("%o offset format")));
  EXPECT_THAT(ParseVerifyPattern("\"x\" 0x00"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unexpected ' '")));
  EXPECT_THAT(ParseVerifyPattern("\"ab"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not closed")));
}

TEST(VerifyOptionsTest, VerifyNamesFiosTypesAndRefusesTheOnesAzbenchLacks) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "verify", "crc32c-intel").ok());
  EXPECT_EQ(job.EffectiveVerify(), VerifyType::kCrc32c);
  ASSERT_TRUE(ApplyJobOption(job, "verify", "pattern").ok());
  EXPECT_EQ(job.EffectiveVerify(), VerifyType::kPatternNoHeader);
  EXPECT_THAT(ApplyJobOption(job, "verify", "crc64"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("not implemented")));
  EXPECT_THAT(ApplyJobOption(job, "verify", "crc33"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("allowed: 0, md5")));
}

TEST(VerifyOptionsTest, AVerifyPatternAloneMeansAHeaderThenThePattern) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "verify_pattern", "0xff").ok());
  EXPECT_EQ(job.EffectiveVerify(), VerifyType::kPattern);
  ASSERT_TRUE(ApplyJobOption(job, "verify", "md5").ok());
  EXPECT_EQ(job.EffectiveVerify(), VerifyType::kMd5);
}

TEST(VerifyOptionsTest, JobsThatMixReadsAndWritesAreRefused) {
  JobSpec job;
  job.size_bytes = 1 << 20;
  job.rw = RwPattern::kRandRw;
  job.verify = VerifyType::kCrc32c;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("verify with rw=randrw")));
  job.rw = RwPattern::kRead;
  job.verify_only = true;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("verify_only=1 applies")));
  job.rw = RwPattern::kWrite;
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  job.verify = VerifyType::kPatternNoHeader;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("needs verify_pattern")));
}

}  // namespace
}  // namespace azbench
