#include "common/job_result.h"

#include <cstdint>

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(DepthStatsTest, LevelBucketsAreFiosDepthRanges) {
  // fio's io_u_mark_depth: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >= 64.
  const std::pair<int, int> expected[] = {{1, 0},  {2, 1},  {3, 1},  {4, 2},   {7, 2},
                                          {8, 3},  {15, 3}, {16, 4}, {31, 4},  {32, 5},
                                          {63, 5}, {64, 6}, {65, 6}, {4096, 6}};
  for (const auto& [depth, bucket] : expected) {
    EXPECT_EQ(DepthStats::LevelBucket(depth), bucket) << "depth " << depth;
  }
}

TEST(DepthStatsTest, CallBucketsAreFiosSubmitAndCompleteRanges) {
  // fio's io_u_mark_submit / io_u_mark_complete: 0, 1-4, 5-8, 9-16, 17-32, 33-64, > 64.
  const std::pair<int, int> expected[] = {{0, 0},  {1, 1},  {4, 1},   {5, 2},  {8, 2},
                                          {9, 3},  {16, 3}, {17, 4},  {32, 4}, {33, 5},
                                          {64, 5}, {65, 6}, {1000, 6}};
  for (const auto& [requests, bucket] : expected) {
    EXPECT_EQ(DepthStats::CallBucket(requests), bucket) << requests << " requests";
  }
}

TEST(DepthStatsTest, ASubmitCountsItsRequestsAtTheDepthBeforeItAndOneCall) {
  DepthStats depth;
  EXPECT_FALSE(depth.measured());
  depth.RecordSubmit(/*depth_before=*/16, /*submitted=*/16);
  depth.RecordSubmit(/*depth_before=*/16, /*submitted=*/1);
  depth.RecordSubmit(/*depth_before=*/3, /*submitted=*/0);  // nothing sent: not a submit
  depth.RecordComplete(15);
  depth.RecordComplete(0);
  EXPECT_TRUE(depth.measured());
  EXPECT_EQ(depth.level, (DepthStats::Buckets{0, 0, 0, 0, 17, 0, 0}));
  EXPECT_EQ(depth.submit, (DepthStats::Buckets{0, 1, 0, 1, 0, 0, 0}));
  EXPECT_EQ(depth.complete, (DepthStats::Buckets{1, 0, 0, 1, 0, 0, 0}));
}

TEST(DepthStatsTest, PercentSharesAddUpTo100AndAnEmptySetIsAllZero) {
  const auto pct = DepthStats::Percent({1, 0, 3, 0, 0, 0, 4});
  EXPECT_DOUBLE_EQ(pct[0], 12.5);
  EXPECT_DOUBLE_EQ(pct[2], 37.5);
  EXPECT_DOUBLE_EQ(pct[6], 50.0);
  for (double share : DepthStats::Percent({})) EXPECT_EQ(share, 0.0);
}

TEST(DepthStatsTest, MergeOfResultsAddsTheBuckets) {
  JobResult a, b;
  a.depth.RecordSyncOp();
  b.depth.RecordSyncOp();
  b.depth.RecordSubmit(40, 8);
  a.Merge(b);
  EXPECT_EQ(a.depth.level, (DepthStats::Buckets{2, 0, 0, 0, 0, 8, 0}));
  EXPECT_EQ(a.depth.submit, (DepthStats::Buckets{0, 2, 1, 0, 0, 0, 0}));  // 8 requests: 5-8
  EXPECT_EQ(a.depth.complete, (DepthStats::Buckets{0, 2, 0, 0, 0, 0, 0}));
  EXPECT_TRUE(a.Clone().depth == a.depth);
}

TEST(JobResultMergeTest, VerifyFailuresAddUpAndKeepTheFirstTenOffsets) {
  JobResult a, b;
  a.verify_failures = 8;
  for (uint64_t i = 0; i < 8; ++i) a.verify_failure_offsets.push_back(i * 4096);
  b.verify_failures = 5;
  b.verify_failure_offsets = {100, 200, 300, 400, 500};
  a.Merge(b);
  EXPECT_EQ(a.verify_failures, 13u);
  ASSERT_EQ(a.verify_failure_offsets.size(), JobResult::kMaxVerifyFailureOffsets);
  EXPECT_EQ(a.verify_failure_offsets[8], 100u);
  EXPECT_EQ(a.verify_failure_offsets[9], 200u);
  EXPECT_EQ(a.Clone().verify_failure_offsets, a.verify_failure_offsets);
}

}  // namespace
}  // namespace azbench
