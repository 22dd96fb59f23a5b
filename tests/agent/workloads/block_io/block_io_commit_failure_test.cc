// The async job loop when the engine's submit call fails or takes nothing: the job must end (no
// spin on requests that never reached the kernel), report the error, keep what it measured, and
// leave the engine quiesced. A fake engine (fake_engine.h, no I/O) stands in for a kernel that
// completes what it is given at once.
#include <cstdint>
#include <memory>

#include "absl/status/statusor.h"
#include "agent/workloads/block_io/block_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/workloads/block_io/fake_engine.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

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

// Runs `spec` on a fake kernel: Commit() number `fail_at` (1-based) fails; with `refuse`, every
// commit from `fail_at` on takes nothing instead (the kernel's EAGAIN) and succeeds again from
// `accept_again_at` (0: never).
absl::StatusOr<JobResult> RunWith(const JobSpec& spec, testing::FakeKernel* kernel, int fail_at,
                                  bool refuse, int accept_again_at = 0) {
  if (refuse) {
    kernel->commits_refused_from = fail_at;
    kernel->commits_accepted_again_at = accept_again_at;
  } else {
    kernel->commit_fails_at = fail_at;
  }
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job =
      BlockIoJob::Prepare(spec, 0, testing::FakeEngineFactory(kernel));
  if (!job.ok()) return job.status();
  return (*job)->Run(RunControl{});
}

TEST(BlockIoCommitFailureTest, AFailedSubmitEndsTheJobWithTheErrorAndWhatItMeasured) {
  testing::FakeKernel kernel;
  // Commit 3 fails: the first refill's two batches (8 reads) were submitted and complete.
  absl::StatusOr<JobResult> result = RunWith(FakeJob(), &kernel, /*fail_at=*/3, /*refuse=*/false);
  ASSERT_TRUE(result.ok()) << result.status();
  // One reap finds nothing (the failed commit's requests never reached the kernel); then the loop
  // must stop instead of reaping again.
  EXPECT_LE(kernel.empty_reaps, 1)
      << "the loop kept reaping requests that never reached the kernel";
  EXPECT_THAT(result->error_message, HasSubstr("fake submit failed"));
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 8u) << "the first refill's 8 reads, and nothing after the failure";
  EXPECT_TRUE(kernel.quiesced_with_queued) << "the requests queued at the failure were not dropped";
}

TEST(BlockIoCommitFailureTest, ASubmitThatTakesNothingIsRetriedAndTheJobCompletes) {
  testing::FakeKernel kernel;
  // Commits 3 to 5 take nothing (EAGAIN) with nothing in flight; commit 6 takes them again.
  absl::StatusOr<JobResult> result =
      RunWith(FakeJob(), &kernel, /*fail_at=*/3, /*refuse=*/true, /*accept_again_at=*/6);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_LT(kernel.empty_reaps, 1'000'000) << "the loop never committed the refused requests again";
  EXPECT_TRUE(result->error_message.empty()) << result->error_message;
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 256u) << "1 MiB in 4 KiB reads, every one done once";
  EXPECT_EQ(reads->bytes, uint64_t{1} << 20);
}

TEST(BlockIoCommitFailureTest, ARefusedLastCommitOfASizeBasedJobIsRetriedNotDropped) {
  testing::FakeKernel kernel;
  // 256 reads in refills of 8, two commits each: commits 63 and 64 carry the last 8 reads, and
  // the size is all issued by then. They must still be done, not dropped as past the budget.
  absl::StatusOr<JobResult> result =
      RunWith(FakeJob(), &kernel, /*fail_at=*/63, /*refuse=*/true, /*accept_again_at=*/65);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_LT(kernel.empty_reaps, 1'000'000);
  EXPECT_TRUE(result->error_message.empty()) << result->error_message;
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 256u);
  EXPECT_FALSE(kernel.quiesced_with_queued);
}

TEST(BlockIoCommitFailureTest,
     RequestsStillRefusedWhenTheRuntimeEndsAreDroppedAndEndFsyncIsNotRun) {
  testing::FakeKernel kernel;
  // Every commit from the third takes nothing: the writes refused at the end of the runtime are
  // dropped (they never started), and nothing more is submitted: the end_fsync is not run, and
  // the job says so.
  JobSpec spec = FakeJob();
  spec.rw = RwPattern::kWrite;
  spec.end_fsync = true;
  spec.time_based = true;
  spec.runtime = absl::Milliseconds(50);
  absl::StatusOr<JobResult> result = RunWith(spec, &kernel, /*fail_at=*/3, /*refuse=*/true);
  ASSERT_TRUE(result.ok()) << result.status();
  // Each retry sleeps at least 1 us: a loop that does not would reap far more often in 50 ms.
  EXPECT_LE(kernel.empty_reaps, 50'000) << "the loop spun on refused requests";
  EXPECT_TRUE(kernel.quiesced_with_queued);
  EXPECT_THAT(result->error_message, HasSubstr("end_fsync not run"));
  const OpStats* writes = result->Find(OpKind::kWrite);
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->ops, 8u) << "the two accepted commits' writes, and only those";
  EXPECT_GE(result->runtime_ns, 50'000'000u) << "the runtime ran to its end while retrying";
}

TEST(BlockIoCommitFailureTest, AnEndFsyncTheKernelRefusesAtFirstIsRetried) {
  testing::FakeKernel kernel;
  // 256 writes take commits 1 to 64; the end_fsync's commits 65 and 66 take nothing, 67 takes it.
  JobSpec spec = FakeJob();
  spec.rw = RwPattern::kWrite;
  spec.end_fsync = true;
  absl::StatusOr<JobResult> result =
      RunWith(spec, &kernel, /*fail_at=*/65, /*refuse=*/true, /*accept_again_at=*/67);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->error_message.empty()) << result->error_message;
  EXPECT_EQ(kernel.commits, 67);
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
  testing::FakeKernel kernel;
  kernel.quiesce_fails = true;
  absl::StatusOr<JobResult> result = RunWith(FakeJob(), &kernel, /*fail_at=*/0, /*refuse=*/false);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->error_message, HasSubstr("fake wait for the kernel failed"));
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, 256u);
}

}  // namespace
}  // namespace azbench
