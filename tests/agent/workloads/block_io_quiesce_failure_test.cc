// A clone whose engine cannot get its requests back from the kernel (Quiesce fails, requests stay
// in inflight()): the kernel may still write into the clone's buffers after the engine is gone, so
// they are kept allocated (KeepBuffersForTheKernel), not freed, and the job says so. A fake engine
// stands in for a kernel that never completes the requests.
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "agent/engines/io_engine.h"
#include "agent/workloads/block_io.h"
#include "agent/workloads/buffer_pool.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

struct FakeKernel {
  bool quiesce_fails = true;  // the wait for the held requests fails (they stay held)
  bool engine_destroyed = false;
};

// An async engine without I/O: committed requests are "in the kernel" and never complete; a reap
// with requests held fails, which ends the job.
class StuckEngine final : public IoEngine {
 public:
  explicit StuckEngine(FakeKernel* kernel) : kernel_(kernel) {}
  ~StuckEngine() override { kernel_->engine_destroyed = true; }

  std::string_view name() const override { return "stuck"; }
  EngineCapabilities capabilities() const override {
    return EngineCapabilities{.is_async = true,
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
    if (static_cast<int>(queued_.size()) + held_ == iodepth_) return QueueResult::kBusy;
    queued_.push_back(request);
    return QueueResult::kQueued;
  }
  absl::StatusOr<int> Commit() override {
    const int n = static_cast<int>(queued_.size());
    held_ += n;
    queued_.clear();
    return n;
  }
  absl::StatusOr<int> GetEvents(int, std::span<IoRequest*>) override {
    return absl::InternalError("fake reap failed");
  }
  int inflight() const override { return static_cast<int>(queued_.size()) + held_; }
  absl::Status Quiesce() override {
    queued_.clear();
    if (held_ > 0 && kernel_->quiesce_fails) {
      return absl::InternalError(absl::StrCat("fake wait for the ", held_, " requests failed"));
    }
    held_ = 0;
    return absl::OkStatus();
  }

 private:
  FakeKernel* kernel_;
  int iodepth_ = 0;
  int held_ = 0;
  std::vector<IoRequest*> queued_;
};

JobSpec StuckJob() {
  JobSpec spec;
  spec.name = "stuck";
  spec.ioengine = "stuck";
  spec.filename = "/nonexistent/stuck";  // never opened: the engine does no I/O
  spec.rw = RwPattern::kRandRead;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 4096;
  spec.iodepth = 8;
  spec.numjobs = 2;
  return spec;
}

// Runs the job, destroys it, and returns its result.
JobResult RunAndDestroy(FakeKernel* kernel) {
  auto factory = [kernel](std::string_view) -> absl::StatusOr<std::unique_ptr<IoEngine>> {
    return std::make_unique<StuckEngine>(kernel);
  };
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(StuckJob(), 0, factory);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return JobResult{};
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  EXPECT_TRUE(result.ok()) << result.status();
  job->reset();
  EXPECT_TRUE(kernel->engine_destroyed);
  return result.ok() ? std::move(*result) : JobResult{};
}

TEST(BlockIoQuiesceFailureTest, BuffersOfRequestsLeftInTheKernelAreKeptNotFreed) {
  FakeKernel kernel;
  const size_t kept_before = BufferPoolsKeptForTheKernel();
  const JobResult result = RunAndDestroy(&kernel);
  EXPECT_THAT(result.error_message, HasSubstr("fake"));
  EXPECT_THAT(result.warnings,
              Contains(HasSubstr("requests are still in the kernel (clone 0): its buffers stay "
                                 "allocated until the agent exits")));
  EXPECT_EQ(BufferPoolsKeptForTheKernel(), kept_before + 2) << "one pool per clone (numjobs 2)";
}

TEST(BlockIoQuiesceFailureTest, BuffersAreFreedWhenTheEngineGotItsRequestsBack) {
  FakeKernel kernel;
  kernel.quiesce_fails = false;
  const size_t kept_before = BufferPoolsKeptForTheKernel();
  const JobResult result = RunAndDestroy(&kernel);
  EXPECT_THAT(result.error_message, HasSubstr("fake reap failed"));
  for (const std::string& w : result.warnings) EXPECT_THAT(w, Not(HasSubstr("in the kernel")));
  EXPECT_EQ(BufferPoolsKeptForTheKernel(), kept_before);
}

}  // namespace
}  // namespace azbench
