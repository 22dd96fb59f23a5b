// A fake asynchronous IoEngine without I/O for tests of the block_io job loop: a kernel that
// completes what it is given at once, or one that never does; submits that fail or take nothing
// (EAGAIN) at chosen calls; a wait for the kernel (Quiesce) that fails. The test keeps a
// FakeKernel (the job owns the engines) to set the behaviour and read what happened.
//
//   testing::FakeKernel kernel;
//   kernel.commit_fails_at = 3;
//   auto job = BlockIoJob::Prepare(spec, 0, testing::FakeEngineFactory(&kernel));
//   ... (*job)->Run(RunControl{}) ...;  EXPECT_LE(kernel.empty_reaps, 1);
#ifndef AZBENCH_TESTS_AGENT_WORKLOADS_BLOCK_IO_FAKE_ENGINE_H_
#define AZBENCH_TESTS_AGENT_WORKLOADS_BLOCK_IO_FAKE_ENGINE_H_

#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"
#include "agent/workloads/block_io/block_io.h"

namespace azbench::testing {

// What every FakeEngine made on it does, and what they saw. One kernel may serve several clones'
// engines (numjobs): the counts are their sums.
struct FakeKernel {
  // Set by the test.
  // true: a submitted request completes at once. false: it stays in the kernel for ever and every
  // reap fails ("fake reap failed"), as a kernel that never answers.
  bool completes = true;
  int commit_fails_at =
      0;  // the Commit() call (1-based) that fails ("fake submit failed"); 0: none
  // From this Commit() call on, every commit takes nothing (the kernel's EAGAIN), until
  // commits_accepted_again_at (0: never again). 0: none refused.
  int commits_refused_from = 0;
  int commits_accepted_again_at = 0;
  bool quiesce_fails = false;  // Quiesce() reports a failed wait; what the kernel holds stays there

  // Seen by the engines.
  int commits = 0;
  // Reaps that found nothing completed while requests were queued. With `completes`, after
  // 1,000,000 of them the queued requests complete anyway, so a job loop that spins fails its test
  // instead of hanging it.
  int empty_reaps = 0;
  bool quiesced_with_queued = false;  // Quiesce() dropped requests that were never submitted
  bool engine_destroyed = false;
};

class FakeEngine final : public IoEngine {
 public:
  explicit FakeEngine(FakeKernel* kernel) : kernel_(kernel) {}
  ~FakeEngine() override { kernel_->engine_destroyed = true; }

  std::string_view name() const override { return "fake"; }
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
    if (inflight() == iodepth_) return QueueResult::kBusy;
    queued_.push_back(request);
    return QueueResult::kQueued;
  }
  absl::StatusOr<int> Commit() override {
    const int n = ++kernel_->commits;
    if (n == kernel_->commit_fails_at) return absl::InternalError("fake submit failed");
    if (kernel_->commits_refused_from > 0 && n >= kernel_->commits_refused_from &&
        (kernel_->commits_accepted_again_at == 0 || n < kernel_->commits_accepted_again_at)) {
      return 0;
    }
    const int submitted = static_cast<int>(queued_.size());
    if (kernel_->completes) {
      const uint64_t now = OpClockNanos();
      for (IoRequest* r : queued_) {
        r->issue_ns = now;
        done_.push_back(r);
      }
    } else {
      in_kernel_ += submitted;
    }
    queued_.clear();
    return submitted;
  }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> out) override {
    if (!kernel_->completes) return absl::InternalError("fake reap failed");
    if (done_.empty() && !queued_.empty() && ++kernel_->empty_reaps >= 1'000'000) {
      done_.insert(done_.end(), queued_.begin(), queued_.end());
      queued_.clear();
    }
    int n = 0;
    const uint64_t now = OpClockNanos();
    while (!done_.empty() && n < static_cast<int>(out.size())) {
      IoRequest* r = done_.back();
      done_.pop_back();
      r->result = r->length_bytes;
      r->complete_ns = now;
      out[n++] = r;
    }
    return n;
  }
  int inflight() const override {
    return static_cast<int>(queued_.size() + done_.size()) + in_kernel_;
  }
  absl::Status Quiesce() override {
    if (!queued_.empty()) kernel_->quiesced_with_queued = true;
    queued_.clear();
    if (kernel_->quiesce_fails) {
      return absl::InternalError(
          absl::StrCat("fake wait for the kernel failed (", in_kernel_, " requests held)"));
    }
    in_kernel_ = 0;
    return absl::OkStatus();
  }

 private:
  FakeKernel* kernel_;
  int iodepth_ = 0;
  std::vector<IoRequest*> queued_;  // queued, or refused by the last commit
  std::vector<IoRequest*> done_;    // completed, not reaped yet
  int in_kernel_ = 0;               // submitted and never completing (!completes)
};

// BlockIoJob::Prepare's engine factory: a FakeEngine on `kernel` for each clone.
inline BlockIoJob::EngineFactory FakeEngineFactory(FakeKernel* kernel) {
  return [kernel](std::string_view) -> absl::StatusOr<std::unique_ptr<IoEngine>> {
    return std::make_unique<FakeEngine>(kernel);
  };
}

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_AGENT_WORKLOADS_BLOCK_IO_FAKE_ENGINE_H_
