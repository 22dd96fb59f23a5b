#include "agent/workloads/interval_accumulator.h"

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(IntervalAccumulatorTest, CloseMovesTheIntervalIntoItsStatsAndTheTotalsThenResets) {
  JobResult result;
  IntervalAccumulator acc;
  acc.Activate(OpKind::kRead, result);
  acc.Activate(OpKind::kWrite, result);
  EXPECT_TRUE(acc.active(OpKind::kRead));
  EXPECT_FALSE(acc.active(OpKind::kFsync));
  ASSERT_NE(result.Find(OpKind::kWrite), nullptr) << "an active kind is in the result";

  IntervalAccumulator::Kind& read = acc.kind(OpKind::kRead);
  read.ops = 2;
  read.bytes = 8192;
  read.lat.Record(1000);
  read.lat.Record(3000);
  acc.kind(OpKind::kWrite).errors = 1;

  IntervalStats first;
  EXPECT_TRUE(acc.Close(result, first));
  EXPECT_EQ(first.by_kind[static_cast<int>(OpKind::kRead)].ops, 2u);
  EXPECT_EQ(first.by_kind[static_cast<int>(OpKind::kRead)].bytes, 8192u);
  EXPECT_EQ(first.by_kind[static_cast<int>(OpKind::kRead)].lat.count, 2u);
  EXPECT_EQ(first.by_kind[static_cast<int>(OpKind::kWrite)].errors, 1u);

  acc.kind(OpKind::kRead).ops = 1;
  acc.kind(OpKind::kRead).bytes = 4096;
  acc.kind(OpKind::kRead).lat.Record(5000);
  IntervalStats second;
  EXPECT_TRUE(acc.Close(result, second));
  EXPECT_EQ(second.by_kind[static_cast<int>(OpKind::kRead)].ops, 1u);
  EXPECT_EQ(second.by_kind[static_cast<int>(OpKind::kWrite)].errors, 0u) << "reset after Close";

  const OpStats& total = *result.Find(OpKind::kRead);
  EXPECT_EQ(total.ops, 3u);
  EXPECT_EQ(total.bytes, 12288u);
  EXPECT_EQ(total.lat.count(), 3u);
  EXPECT_EQ(total.lat.min_ns(), 1000u);
  EXPECT_EQ(total.lat.max_ns(), 5000u);
  EXPECT_EQ(result.Find(OpKind::kWrite)->errors, 1u);

  IntervalStats empty;
  EXPECT_FALSE(acc.Close(result, empty)) << "nothing happened";
  EXPECT_EQ(result.Find(OpKind::kRead)->ops, 3u);
}

}  // namespace
}  // namespace azbench
