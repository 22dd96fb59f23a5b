#include "common/percentile_choice.h"

#include <string>

#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(PercentileChoiceTest, DefaultsAreFiosClatOnlyWithItsSeventeenValues) {
  const PercentileChoice choice;
  EXPECT_TRUE(choice.clat);
  EXPECT_FALSE(choice.lat);
  EXPECT_FALSE(choice.slat);
  ASSERT_EQ(choice.list.size(), 17u);
  EXPECT_EQ(choice.list.front(), 1.0);
  EXPECT_EQ(choice.list.back(), 99.99);
  EXPECT_EQ(choice.precision, 2);
}

TEST(PercentileChoiceTest, AListIsSortedAndItsPrecisionIsItsLongestFraction) {
  PercentileChoice choice;
  ASSERT_TRUE(ParsePercentileList("99.999:50:1.5", choice).ok());
  EXPECT_THAT(choice.list, ElementsAre(1.5, 50, 99.999));
  EXPECT_EQ(choice.precision, 3);
  ASSERT_TRUE(ParsePercentileList("90:10", choice).ok());
  EXPECT_THAT(choice.list, ElementsAre(10, 90));
  EXPECT_EQ(choice.precision, 0);
}

TEST(PercentileChoiceTest, AZeroEndsTheListAsInFio) {
  PercentileChoice choice;
  ASSERT_TRUE(ParsePercentileList("50:0:99", choice).ok());
  EXPECT_THAT(choice.list, ElementsAre(50));
}

TEST(PercentileChoiceTest, BadValuesAndTooManyAreRefusedNamingThem) {
  PercentileChoice choice;
  absl::Status s = ParsePercentileList("50:100.5", choice);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("'100.5'"));
  EXPECT_THAT(s.message(), HasSubstr("0 to 100"));
  EXPECT_FALSE(ParsePercentileList("-1", choice).ok());
  EXPECT_FALSE(ParsePercentileList("p99", choice).ok());
  EXPECT_FALSE(ParsePercentileList("50::90", choice).ok());
  s = ParsePercentileList("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20:21", choice);
  EXPECT_THAT(s.message(), HasSubstr("at most 20"));
  EXPECT_TRUE(
      ParsePercentileList("1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20", choice).ok());
  EXPECT_EQ(choice.list.size(), 20u);
}

TEST(PercentileChoiceTest, TheJobOptionsSetTheChoice) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "percentile_list", "50:99.5").ok());
  ASSERT_TRUE(ApplyJobOption(job, "clat_percentiles", "0").ok());
  ASSERT_TRUE(ApplyJobOption(job, "lat_percentiles", "1").ok());
  ASSERT_TRUE(ApplyJobOption(job, "slat_percentiles", "1").ok());
  EXPECT_THAT(job.percentiles.list, ElementsAre(50, 99.5));
  EXPECT_EQ(job.percentiles.precision, 1);
  EXPECT_FALSE(job.percentiles.clat);
  EXPECT_TRUE(job.percentiles.lat);
  EXPECT_TRUE(job.percentiles.slat);
  EXPECT_FALSE(ApplyJobOption(job, "percentile_list", "200").ok());
}

}  // namespace
}  // namespace azbench
