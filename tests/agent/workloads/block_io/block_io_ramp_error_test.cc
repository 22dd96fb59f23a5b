// An op that fails during ramp_time: like every op of the ramp it is not measured (fio resets its
// statistics when the ramp ends), so the totals and the interval series agree; the job still
// reports the error and stops. A fake sync engine (no I/O) fails every request.
#include <cerrno>
#include <memory>
#include <string>

#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"
#include "agent/workloads/block_io/block_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

class FailingSyncEngine final : public IoEngine {
 public:
  std::string_view name() const override { return "failing"; }
  EngineCapabilities capabilities() const override {
    return EngineCapabilities{.is_async = false,
                              .does_io = false,
                              .supports_direct = true,
                              .needs_aligned_buffers = false,
                              .max_iodepth = 1};
  }
  absl::Status Init(const EngineOptions&) override { return absl::OkStatus(); }
  QueueResult Queue(IoRequest* request) override {
    request->issue_ns = OpClockNanos();
    request->complete_ns = request->issue_ns;
    request->result = -EIO;
    return QueueResult::kCompleted;
  }
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int, std::span<IoRequest*>) override { return 0; }
  int inflight() const override { return 0; }
};

TEST(BlockIoRampErrorTest, AnErrorDuringTheRampIsReportedButNotCountedInTheMeasuredTotals) {
  JobSpec spec;
  spec.name = "failing";
  spec.ioengine = "failing";
  spec.filename = "/nonexistent/failing";  // never opened: the engine does no I/O
  spec.rw = RwPattern::kRandRead;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 4096;
  spec.ramp_time = absl::Seconds(2);  // the first op fails inside it, and the clone stops there
  auto factory = [](std::string_view) -> absl::StatusOr<std::unique_ptr<IoEngine>> {
    return std::make_unique<FailingSyncEngine>();
  };
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec, 0, factory);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_errno, EIO);
  EXPECT_THAT(result->error_message, ::testing::HasSubstr("failed"));
  uint64_t interval_errors = 0;
  for (const IntervalStats& interval : result->intervals) {
    interval_errors += interval.by_kind[static_cast<int>(OpKind::kRead)].errors;
  }
  const OpStats* reads = result->Find(OpKind::kRead);
  const uint64_t total_errors = reads != nullptr ? reads->errors : 0;
  EXPECT_EQ(total_errors, interval_errors) << "totals and the interval series disagree";
  EXPECT_EQ(total_errors, 0u) << "the ramp is not measured";
}

}  // namespace
}  // namespace azbench
