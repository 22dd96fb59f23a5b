// A block_io job's end instant (end_realtime_ns) is the end of its measured phase: the coordinator
// takes it as the job's end for the stonewall window, the agents' spans and the skew figures
// (coordinator/merge.h, rule 2), so the work after it (the engine's quiesce, the last interval's
// delivery) must not be in it. A fake engine (no I/O) whose quiesce takes kDrainNs stands in for a
// slow drain; the job's realtime span must then agree with its runtime_ns, which ends at the last
// completion (end_fsync's included) or the runtime's end.
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"
#include "agent/workloads/block_io/block_io.h"
#include "common/clock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

// How long the fake's Quiesce() takes (a sleep: at least this long). The drain it stands for
// was measured at up to ~21 ms; a larger one keeps the test's bound far from scheduling noise.
constexpr uint64_t kDrainNs = 100'000'000;

// An engine without I/O. Async: committed requests complete at the next reap. Sync: every request
// completes inside Queue(). Quiesce() sleeps kDrainNs.
class SlowDrainEngine final : public IoEngine {
 public:
  explicit SlowDrainEngine(bool async) : async_(async) {}

  std::string_view name() const override { return "slow-drain"; }
  EngineCapabilities capabilities() const override {
    return EngineCapabilities{.is_async = async_,
                              .does_io = false,
                              .supports_direct = true,
                              .needs_aligned_buffers = false,
                              .max_iodepth = 64};
  }
  absl::Status Init(const EngineOptions& options) override {
    iodepth_ = options.iodepth;
    return absl::OkStatus();
  }
  QueueResult Queue(IoRequest* request) override {
    if (!async_) {
      request->issue_ns = request->start_ns;
      Complete(*request);
      return QueueResult::kCompleted;
    }
    if (static_cast<int>(queued_.size() + in_kernel_.size()) == iodepth_ + 1) {
      return QueueResult::kBusy;
    }
    queued_.push_back(request);
    return QueueResult::kQueued;
  }
  absl::StatusOr<int> Commit() override {
    const uint64_t now_ns = OpClockNanos();
    for (IoRequest* r : queued_) {
      r->issue_ns = now_ns;
      in_kernel_.push_back(r);
    }
    const int submitted = static_cast<int>(queued_.size());
    queued_.clear();
    return submitted;
  }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> out) override {
    int n = 0;
    while (!in_kernel_.empty() && n < static_cast<int>(out.size())) {
      IoRequest* r = in_kernel_.back();
      in_kernel_.pop_back();
      Complete(*r);
      out[n++] = r;
    }
    return n;
  }
  int inflight() const override { return static_cast<int>(queued_.size() + in_kernel_.size()); }
  absl::Status Quiesce() override {
    (void)SleepUntilMonotonicOrCancelled(MonotonicNanos() + kDrainNs, nullptr);
    return absl::OkStatus();
  }

 private:
  static void Complete(IoRequest& r) {
    r.result = r.op == OpKind::kFsync ? 0 : static_cast<int64_t>(r.length_bytes);
    r.complete_ns = OpClockNanos();
  }

  bool async_;
  int iodepth_ = 0;
  std::vector<IoRequest*> queued_;
  std::vector<IoRequest*> in_kernel_;
};

JobResult RunWithSlowDrain(const JobSpec& spec, bool async) {
  auto factory = [async](std::string_view) -> absl::StatusOr<std::unique_ptr<IoEngine>> {
    return std::make_unique<SlowDrainEngine>(async);
  };
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec, 0, factory);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return JobResult{};
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? std::move(*result) : JobResult{};
}

JobSpec SlowDrainJob() {
  JobSpec spec;
  spec.name = "drain";
  spec.ioengine = "slow-drain";
  spec.filename = "/nonexistent/drain";  // never opened: the engine does no I/O
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 4096;
  return spec;
}

// end - start - runtime: 0 but for the realtime/op-clock conversions at the start and the end
// (two clock reads each, and the TSC's drift from CLOCK_MONOTONIC over the run, at most 500 ppm).
// A job end taken after the drain would be off by at least kDrainNs, so half of it separates the
// two without timing anything against the wall clock.
void ExpectSpanMatchesRuntime(const JobResult& result) {
  ASSERT_GT(result.start_realtime_ns, 0);
  const int64_t span_ns = result.end_realtime_ns - result.start_realtime_ns;
  const int64_t off_ns = span_ns - static_cast<int64_t>(result.runtime_ns);
  EXPECT_LT(std::llabs(off_ns), static_cast<int64_t>(kDrainNs / 2))
      << "span " << span_ns << " ns, runtime " << result.runtime_ns << " ns";
}

TEST(BlockIoEndInstantTest, AnAsyncJobEndsAtItsLastCompletionNotAfterTheDrain) {
  // Time-based at iodepth 8: requests are in flight when the runtime ends; their completions are
  // measured, the quiesce after them is not.
  JobSpec spec = SlowDrainJob();
  spec.rw = RwPattern::kRandRead;
  spec.iodepth = 8;
  spec.time_based = true;
  spec.runtime = absl::Milliseconds(50);
  const JobResult result = RunWithSlowDrain(spec, /*async=*/true);
  EXPECT_TRUE(result.error_message.empty()) << result.error_message;
  ASSERT_NE(result.Find(OpKind::kRead), nullptr);
  EXPECT_GT(result.Find(OpKind::kRead)->ops, 0u);
  ExpectSpanMatchesRuntime(result);
}

TEST(BlockIoEndInstantTest, AJobWithEndFsyncEndsWhenTheFsyncCompletedNotAfterTheDrain) {
  JobSpec spec = SlowDrainJob();
  spec.rw = RwPattern::kWrite;
  spec.end_fsync = true;
  const JobResult result = RunWithSlowDrain(spec, /*async=*/false);
  EXPECT_TRUE(result.error_message.empty()) << result.error_message;
  ASSERT_NE(result.Find(OpKind::kWrite), nullptr);
  EXPECT_EQ(result.Find(OpKind::kWrite)->bytes, 1u << 20);
  ASSERT_NE(result.Find(OpKind::kFsync), nullptr);
  EXPECT_EQ(result.Find(OpKind::kFsync)->ops, 1u) << "end_fsync ran and is measured";
  ExpectSpanMatchesRuntime(result);
}

TEST(BlockIoEndInstantTest, AnAsyncJobWithEndFsyncCountsTheFsyncButNotTheDrainAfterIt) {
  JobSpec spec = SlowDrainJob();
  spec.rw = RwPattern::kRandWrite;
  spec.iodepth = 8;
  spec.end_fsync = true;
  const JobResult result = RunWithSlowDrain(spec, /*async=*/true);
  EXPECT_TRUE(result.error_message.empty()) << result.error_message;
  ASSERT_NE(result.Find(OpKind::kFsync), nullptr);
  EXPECT_EQ(result.Find(OpKind::kFsync)->ops, 1u);
  ExpectSpanMatchesRuntime(result);
}

}  // namespace
}  // namespace azbench
