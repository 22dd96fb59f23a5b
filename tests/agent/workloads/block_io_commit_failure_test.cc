// The async job loop when the engine's submit call fails or takes nothing: the job must end (no
// spin on requests that never reached the kernel), report the error, keep what it measured, and
// leave the engine quiesced. A fake engine (no I/O) stands in for the kernel.
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "agent/engines/io_engine.h"
#include "agent/workloads/block_io.h"
#include "common/op_clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

// What the fake saw, shared with the test (the job owns the engine).
struct FakeLog {
  int commits = 0;
  int empty_reaps = 0;  // GetEvents calls that returned nothing while requests were held
  bool quiesced_with_held = false;
  bool quiesce_fails = false;  // set by the test: Quiesce() reports a failed wait
};

// An async engine without I/O. Commit() number `fail_at` (1-based) fails; with `refuse`, every
// commit from `fail_at` on takes nothing instead (the kernel's EAGAIN) and succeeds again from
// `accept_again_at`. Submitted requests complete at once. After 1,000,000 empty reaps with requests
// held it completes them anyway, so a job loop that spins fails the test instead of hanging it.
class FakeCommitEngine final : public IoEngine {
 public:
  FakeCommitEngine(FakeLog* log, int fail_at, bool refuse, int accept_again_at)
      : log_(log), fail_at_(fail_at), refuse_(refuse), accept_again_at_(accept_again_at) {}

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
    if (static_cast<int>(pending_.size() + done_.size()) == iodepth_) return QueueResult::kBusy;
    pending_.push_back(request);
    return QueueResult::kQueued;
  }
  absl::StatusOr<int> Commit() override {
    const int n = ++log_->commits;
    if (!refuse_ && n == fail_at_) return absl::InternalError("fake submit failed");
    if (refuse_ && n >= fail_at_ && (accept_again_at_ == 0 || n < accept_again_at_)) return 0;
    const uint64_t now = OpClockNanos();
    for (IoRequest* r : pending_) {
      r->issue_ns = now;
      done_.push_back(r);
    }
    const int submitted = static_cast<int>(pending_.size());
    pending_.clear();
    return submitted;
  }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> out) override {
    if (done_.empty() && !pending_.empty() && ++log_->empty_reaps >= 1'000'000) {
      done_.insert(done_.end(), pending_.begin(), pending_.end());
      pending_.clear();
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
  int inflight() const override { return static_cast<int>(pending_.size() + done_.size()); }
  absl::Status Quiesce() override {
    if (!pending_.empty()) log_->quiesced_with_held = true;
    pending_.clear();
    if (log_->quiesce_fails) return absl::InternalError("fake wait for the kernel failed");
    return absl::OkStatus();
  }

 private:
  FakeLog* log_;
  int fail_at_;
  bool refuse_;
  int accept_again_at_;
  int iodepth_ = 0;
  std::vector<IoRequest*> pending_;
  std::vector<IoRequest*> done_;
};

JobSpec FakeJob() {
  JobSpec spec;
  spec.name = "fake";
  spec.ioengine = "fake";
  spec.filename = "/nonexistent/fake";  // never opened: the engine does no I/O
  spec.rw = RwPattern::kRandRead;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 4096;
  spec.iodepth = 8;
  spec.iodepth_batch_submit = 4;  // two commits per refill of 8
  return spec;
}

absl::StatusOr<JobResult> RunWith(const JobSpec& spec, FakeLog* log, int fail_at, bool refuse,
                                  int accept_again_at = 0) {
  auto factory = [&](std::string_view) -> absl::StatusOr<std::unique_ptr<IoEngine>> {
    return std::make_unique<FakeCommitEngine>(log, fail_at, refuse, accept_again_at);
  };
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec, 0, factory);
  if (!job.ok()) return job.status();
  return (*job)->Run(RunControl{});
}

TEST(BlockIoCommitFailureTest, AFailedSubmitEndsTheJobWithTheErrorAndWhatItMeasured) {
  FakeLog log;
  // Commit 3 fails: the first refill's two batches (8 reads) were submitted and complete.
  absl::StatusOr<JobResult> result = RunWith(FakeJob(), &log, /*fail_at=*/3, /*refuse=*/false);
  ASSERT_TRUE(result.ok()) << result.status();
  // One reap finds nothing (the failed commit's requests never reached the kernel); then the loop
  // must stop instead of reaping again.
  EXPECT_LE(log.empty_reaps, 1) << "the loop kept reaping requests that never reached the kernel";
  EXPECT_THAT(result->error_message, HasSubstr("fake submit failed"));
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 8u) << "the first refill's 8 reads, and nothing after the failure";
  EXPECT_TRUE(log.quiesced_with_held) << "the requests queued at the failure were not dropped";
}

TEST(BlockIoCommitFailureTest, ASubmitThatTakesNothingIsRetriedAndTheJobCompletes) {
  FakeLog log;
  // Commits 3 to 5 take nothing (EAGAIN) with nothing in flight; commit 6 takes them again.
  absl::StatusOr<JobResult> result =
      RunWith(FakeJob(), &log, /*fail_at=*/3, /*refuse=*/true, /*accept_again_at=*/6);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_LT(log.empty_reaps, 1'000'000) << "the loop never committed the refused requests again";
  EXPECT_TRUE(result->error_message.empty()) << result->error_message;
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 256u) << "1 MiB in 4 KiB reads, every one done once";
  EXPECT_EQ(reads->bytes, uint64_t{1} << 20);
}

TEST(BlockIoCommitFailureTest, ARefusedLastCommitOfASizeBasedJobIsRetriedNotDropped) {
  FakeLog log;
  // 256 reads in refills of 8, two commits each: commits 63 and 64 carry the last 8 reads, and
  // the size is all issued by then. They must still be done, not dropped as past the budget.
  absl::StatusOr<JobResult> result =
      RunWith(FakeJob(), &log, /*fail_at=*/63, /*refuse=*/true, /*accept_again_at=*/65);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_LT(log.empty_reaps, 1'000'000);
  EXPECT_TRUE(result->error_message.empty()) << result->error_message;
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 256u);
  EXPECT_FALSE(log.quiesced_with_held);
}

TEST(BlockIoCommitFailureTest,
     RequestsStillRefusedWhenTheRuntimeEndsAreDroppedAndEndFsyncIsNotRun) {
  FakeLog log;
  // Every commit from the third takes nothing: the writes refused at the end of the runtime are
  // dropped (they never started), and nothing more is submitted: the end_fsync is not run, and
  // the job says so.
  JobSpec spec = FakeJob();
  spec.rw = RwPattern::kWrite;
  spec.end_fsync = true;
  spec.time_based = true;
  spec.runtime = absl::Milliseconds(50);
  absl::StatusOr<JobResult> result = RunWith(spec, &log, /*fail_at=*/3, /*refuse=*/true);
  ASSERT_TRUE(result.ok()) << result.status();
  // Each retry sleeps at least 1 us: a loop that does not would reap far more often in 50 ms.
  EXPECT_LE(log.empty_reaps, 50'000) << "the loop spun on refused requests";
  EXPECT_TRUE(log.quiesced_with_held);
  EXPECT_THAT(result->error_message, HasSubstr("end_fsync not run"));
  const OpStats* writes = result->Find(OpKind::kWrite);
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->ops, 8u) << "the two accepted commits' writes, and only those";
  EXPECT_GE(result->runtime_ns, 50'000'000u) << "the runtime ran to its end while retrying";
}

TEST(BlockIoCommitFailureTest, AnEndFsyncTheKernelRefusesAtFirstIsRetried) {
  FakeLog log;
  // 256 writes take commits 1 to 64; the end_fsync's commits 65 and 66 take nothing, 67 takes it.
  JobSpec spec = FakeJob();
  spec.rw = RwPattern::kWrite;
  spec.end_fsync = true;
  absl::StatusOr<JobResult> result =
      RunWith(spec, &log, /*fail_at=*/65, /*refuse=*/true, /*accept_again_at=*/67);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->error_message.empty()) << result->error_message;
  EXPECT_EQ(log.commits, 67);
  const OpStats* writes = result->Find(OpKind::kWrite);
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->ops, 256u);
  const OpStats* fsyncs = result->Find(OpKind::kFsync);
  ASSERT_NE(fsyncs, nullptr);
  EXPECT_EQ(fsyncs->ops, 1u);
}

// A job whose engine cannot wait for what the kernel holds (Quiesce fails) is not presented as a
// clean run: it fails with the engine's error, and keeps what it measured.
TEST(BlockIoCommitFailureTest, AFailedQuiesceFailsTheJob) {
  FakeLog log;
  log.quiesce_fails = true;
  absl::StatusOr<JobResult> result = RunWith(FakeJob(), &log, /*fail_at=*/0, /*refuse=*/false);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->error_message, HasSubstr("fake wait for the kernel failed"));
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 256u);
}

}  // namespace
}  // namespace azbench
