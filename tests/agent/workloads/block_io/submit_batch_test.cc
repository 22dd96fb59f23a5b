#include "agent/workloads/block_io/submit_batch.h"

#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

// Queues `n` requests and returns after which of them (1-based) a batch submit was due.
std::vector<int> Fill(SubmitBatch& batch, int n) {
  std::vector<int> due;
  for (int i = 1; i <= n; ++i) {
    if (batch.Queued()) due.push_back(i);
  }
  batch.FillSubmitted();
  return due;
}

TEST(SubmitBatchTest, FioCountsQueuedRequestsAcrossTheSubmitBeforeAWait) {
  // iodepth 16, iodepth_batch_submit=16: the first fill is one batch; each refill of 3 after a
  // reap is submitted before the wait without restarting the count, so after four of them the
  // count is 12 and a refill of 15 is split after its fourth request.
  SubmitBatch batch(16, /*count_across_fills=*/true);
  EXPECT_EQ(Fill(batch, 16), std::vector<int>({16}));
  EXPECT_TRUE(Fill(batch, 3).empty());
  EXPECT_TRUE(Fill(batch, 3).empty());
  EXPECT_TRUE(Fill(batch, 3).empty());
  EXPECT_TRUE(Fill(batch, 3).empty());
  EXPECT_EQ(batch.count(), 12);
  EXPECT_EQ(Fill(batch, 15), std::vector<int>({4}));
  EXPECT_EQ(batch.count(), 11);
}

TEST(SubmitBatchTest, AzbenchsOwnBatchRestartsWithEveryFill) {
  SubmitBatch batch(16, /*count_across_fills=*/false);
  EXPECT_EQ(Fill(batch, 16), std::vector<int>({16}));
  for (int i = 0; i < 10; ++i) EXPECT_TRUE(Fill(batch, 15).empty());
  EXPECT_EQ(batch.count(), 0);
}

TEST(SubmitBatchTest, BatchesOfOneSubmitEveryRequest) {
  for (bool across : {false, true}) {
    SubmitBatch batch(1, across);
    EXPECT_EQ(Fill(batch, 3), std::vector<int>({1, 2, 3}));
  }
  SubmitBatch clamped(0, false);  // a batch size below 1 means 1
  EXPECT_EQ(Fill(clamped, 2), std::vector<int>({1, 2}));
}

TEST(SubmitBatchTest, ABatchInsideAFillRestartsTheCount) {
  SubmitBatch batch(4, /*count_across_fills=*/true);
  EXPECT_EQ(Fill(batch, 10), std::vector<int>({4, 8}));
  EXPECT_EQ(batch.count(), 2);
  EXPECT_EQ(Fill(batch, 3), std::vector<int>({2}));
}

}  // namespace
}  // namespace azbench
