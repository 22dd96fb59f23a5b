// OpRecorder (metadata, small_files, large_stream): the op records it keeps reach on_op_log in
// batches of at most kOpLogBatchRecords, every one of them, in order.
#include "agent/workloads/op_recorder.h"

#include <cstdint>
#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(OpRecorderTest, OpLogRecordsArriveInBoundedBatchesWithinAnInterval) {
  std::vector<size_t> batch_sizes;
  std::vector<OpRecord> records;
  RunControl control;
  control.interval_ns = 3'600'000'000'000;  // one interval: every op below
  control.on_op_log = [&](int, std::vector<OpRecord>&& batch) {
    batch_sizes.push_back(batch.size());
    records.insert(records.end(), batch.begin(), batch.end());
  };
  constexpr uint64_t kOps = 10'000;
  constexpr uint64_t kStartNs = 1'000'000;
  OpRecorder recorder("md.create", 0, control, kStartNs, nullptr, nullptr, /*op_log=*/true,
                      /*op_log_rate=*/1'000'000);
  for (uint64_t i = 0; i < kOps; ++i) {
    recorder.Record(OpKind::kCreate, kStartNs + i * 10, kStartNs + i * 10 + 5, 0, i, "f");
  }
  const JobResult result = recorder.Finish();
  EXPECT_EQ(result.op_log_records, kOps);
  ASSERT_EQ(records.size(), kOps);
  EXPECT_GE(batch_sizes.size(), 3u);
  for (size_t n : batch_sizes) EXPECT_LE(n, kOpLogBatchRecords);
  for (uint64_t i = 0; i < kOps; ++i) {
    ASSERT_EQ(records[i].offset_bytes, i) << "record " << i << " out of order";
    EXPECT_EQ(records[i].latency_ns, 5u);
  }
}

}  // namespace
}  // namespace azbench
