// A clone whose engine cannot get its requests back from the kernel (Quiesce fails, requests stay
// in inflight()): the kernel may still write into the clone's buffers after the engine is gone, so
// they are kept allocated (KeepBuffersForTheKernel), not freed, and the job says so. A fake engine
// (fake_engine.h) stands in for a kernel that never completes the requests.
#include <memory>
#include <string>
#include <utility>

#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/buffer_pool.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/workloads/block_io/fake_engine.h"

namespace azbench {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

// A kernel that never completes what it is given, and whose reaps fail, which ends the job.
testing::FakeKernel StuckKernel() {
  testing::FakeKernel kernel;
  kernel.completes = false;
  kernel.quiesce_fails = true;  // the wait for the held requests fails (they stay held)
  return kernel;
}

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
JobResult RunAndDestroy(testing::FakeKernel* kernel) {
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job =
      BlockIoJob::Prepare(StuckJob(), 0, testing::FakeEngineFactory(kernel));
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return JobResult{};
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  EXPECT_TRUE(result.ok()) << result.status();
  job->reset();
  EXPECT_TRUE(kernel->engine_destroyed);
  return result.ok() ? std::move(*result) : JobResult{};
}

TEST(BlockIoQuiesceFailureTest, BuffersOfRequestsLeftInTheKernelAreKeptNotFreed) {
  testing::FakeKernel kernel = StuckKernel();
  const size_t kept_before = BufferPoolsKeptForTheKernel();
  const JobResult result = RunAndDestroy(&kernel);
  EXPECT_THAT(result.error_message, HasSubstr("fake"));
  EXPECT_THAT(result.warnings,
              Contains(HasSubstr("requests are still in the kernel (clone 0): its buffers stay "
                                 "allocated until the agent exits")));
  EXPECT_EQ(BufferPoolsKeptForTheKernel(), kept_before + 2) << "one pool per clone (numjobs 2)";
}

TEST(BlockIoQuiesceFailureTest, BuffersAreFreedWhenTheEngineGotItsRequestsBack) {
  testing::FakeKernel kernel = StuckKernel();
  kernel.quiesce_fails = false;
  const size_t kept_before = BufferPoolsKeptForTheKernel();
  const JobResult result = RunAndDestroy(&kernel);
  EXPECT_THAT(result.error_message, HasSubstr("fake reap failed"));
  for (const std::string& w : result.warnings) EXPECT_THAT(w, Not(HasSubstr("in the kernel")));
  EXPECT_EQ(BufferPoolsKeptForTheKernel(), kept_before);
}

}  // namespace
}  // namespace azbench
