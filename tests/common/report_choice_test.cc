#include "common/report_choice.h"

#include <string>

#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ReportChoiceTest, DefaultsAreFiosClatOnlyWithItsSeventeenValues) {
  const ReportChoice choice;
  EXPECT_TRUE(choice.clat);
  EXPECT_FALSE(choice.lat);
  EXPECT_FALSE(choice.slat);
  ASSERT_EQ(choice.list.size(), 17u);
  EXPECT_EQ(choice.list.front(), 1.0);
  EXPECT_EQ(choice.list.back(), 99.99);
  EXPECT_EQ(choice.precision, 2);
}

TEST(ReportChoiceTest, AListIsSortedAndItsPrecisionIsItsLongestFraction) {
  ReportChoice choice;
  ASSERT_TRUE(ParsePercentileList("99.999:50:1.5", choice).ok());
  EXPECT_THAT(choice.list, ElementsAre(1.5, 50, 99.999));
  EXPECT_EQ(choice.precision, 3);
  ASSERT_TRUE(ParsePercentileList("90:10", choice).ok());
  EXPECT_THAT(choice.list, ElementsAre(10, 90));
  EXPECT_EQ(choice.precision, 0);
}

TEST(ReportChoiceTest, AZeroEndsTheListAsInFio) {
  ReportChoice choice;
  ASSERT_TRUE(ParsePercentileList("50:0:99", choice).ok());
  EXPECT_THAT(choice.list, ElementsAre(50));
}

TEST(ReportChoiceTest, BadValuesAndTooManyAreRefusedNamingThem) {
  ReportChoice choice;
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

TEST(ReportChoiceTest, TheJobOptionsSetTheChoice) {
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "percentile_list", "50:99.5").ok());
  ASSERT_TRUE(ApplyJobOption(job, "clat_percentiles", "0").ok());
  ASSERT_TRUE(ApplyJobOption(job, "lat_percentiles", "1").ok());
  ASSERT_TRUE(ApplyJobOption(job, "slat_percentiles", "1").ok());
  EXPECT_THAT(job.report.list, ElementsAre(50, 99.5));
  EXPECT_EQ(job.report.precision, 1);
  EXPECT_FALSE(job.report.clat);
  EXPECT_TRUE(job.report.lat);
  EXPECT_TRUE(job.report.slat);
  EXPECT_FALSE(ApplyJobOption(job, "percentile_list", "200").ok());
}

TEST(ReportChoiceTest, UnifiedRwTakesFiosNamesAndFormerNumbers) {
  EXPECT_EQ(*ParseUnifiedRw("none"), UnifiedRw::kNone);
  EXPECT_EQ(*ParseUnifiedRw("0"), UnifiedRw::kNone);
  EXPECT_EQ(*ParseUnifiedRw("mixed"), UnifiedRw::kMixed);
  EXPECT_EQ(*ParseUnifiedRw("1"), UnifiedRw::kMixed);
  EXPECT_EQ(*ParseUnifiedRw("both"), UnifiedRw::kBoth);
  EXPECT_EQ(*ParseUnifiedRw("2"), UnifiedRw::kBoth);
  const absl::StatusOr<UnifiedRw> bad = ParseUnifiedRw("3");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("'3' is not one of none, mixed, both, 0, 1, 2"));
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "unified_rw_reporting", "both").ok());
  EXPECT_EQ(job.report.unified, UnifiedRw::kBoth);
  EXPECT_FALSE(ApplyJobOption(job, "unified_rw_reporting", "all").ok());
}

TEST(ReportChoiceTest, MixedDirectionsSumReadWriteAndTrimOverallAndPerInterval) {
  JobResult result;
  result.runtime_ns = 2'000'000'000;
  auto add = [&](OpKind kind, uint64_t ops, uint64_t latency_ns) {
    OpStats& stats = result.Stats(kind);
    for (uint64_t i = 0; i < ops; ++i) stats.lat.Record(latency_ns);
    stats.ops += ops;
    stats.bytes += ops * 4096;
  };
  add(OpKind::kRead, 3, 1'000);
  add(OpKind::kWrite, 2, 9'000);
  add(OpKind::kTrim, 1, 5'000);
  add(OpKind::kFsync, 4, 20'000);
  result.Stats(OpKind::kWrite).errors = 1;
  IntervalStats& interval = result.intervals.emplace_back();
  interval.by_kind[static_cast<int>(OpKind::kRead)].ops = 3;
  interval.by_kind[static_cast<int>(OpKind::kWrite)].ops = 2;
  interval.by_kind[static_cast<int>(OpKind::kWrite)].bytes = 8192;

  const JobResult mixed = WithMixedDirections(result);
  const OpStats* read = mixed.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->ops, 6u);
  EXPECT_EQ(read->bytes, 6u * 4096);
  EXPECT_EQ(read->errors, 1u);
  EXPECT_EQ(read->lat.count(), 6u);
  EXPECT_EQ(read->lat.min_ns(), 1'000u);
  EXPECT_EQ(read->lat.max_ns(), 9'000u);
  EXPECT_EQ(mixed.Find(OpKind::kWrite), nullptr);
  EXPECT_EQ(mixed.Find(OpKind::kTrim), nullptr);
  ASSERT_NE(mixed.Find(OpKind::kFsync), nullptr);
  EXPECT_EQ(mixed.Find(OpKind::kFsync)->ops, 4u);
  EXPECT_EQ(mixed.intervals[0].by_kind[static_cast<int>(OpKind::kRead)].ops, 5u);
  EXPECT_EQ(mixed.intervals[0].by_kind[static_cast<int>(OpKind::kRead)].bytes, 8192u);
  EXPECT_EQ(mixed.intervals[0].by_kind[static_cast<int>(OpKind::kWrite)].ops, 0u);
  // The original is untouched.
  EXPECT_EQ(result.Find(OpKind::kRead)->ops, 3u);
}

}  // namespace
}  // namespace azbench
