// fio's latency_target through the job loop on a real file. The search itself is worked by hand in
// latency_target_test.cc; here: a job whose windows all pass (a target no read comes near) ramps
// 1, 2, 4, 8, runs its last window at iodepth 8 and ends itself long before its runtime, with
// latency_depth 8; and at depth 1 with latency_percentile 100 a read over the target fails the job
// with ETIMEDOUT, as fio's does.
#include <cerrno>
#include <fstream>
#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

class BlockIoLatencyTargetTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    file_ = dir_.File("data");
    std::ofstream out(file_, std::ios::binary);
    const std::string block(1 << 20, 'x');
    for (int i = 0; i < 4; ++i) out << block;
  }

  JobSpec ReadJob(const std::string& engine, int iodepth) {
    JobSpec spec;
    spec.name = "lat";
    spec.filename = file_;
    spec.ioengine = engine;
    spec.iodepth = iodepth;
    spec.rw = RwPattern::kRandRead;
    spec.block_size_bytes = 4096;
    spec.size_bytes = 4 << 20;
    spec.time_based = true;
    spec.runtime = absl::Seconds(60);
    return spec;
  }

  absl::StatusOr<JobResult> Run(const JobSpec& spec) {
    EXPECT_TRUE(ValidateJobSpec(spec).ok()) << ValidateJobSpec(spec);
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
    if (!job.ok()) return job.status();
    return (*job)->Run(RunControl{});
  }

  testing::TempDir dir_;
  std::string file_;
};

TEST_F(BlockIoLatencyTargetTest, APassingSearchEndsAtIodepthAndEndsTheJob) {
  for (const std::string engine : {"libaio", "io_uring", "psync"}) {
    SCOPED_TRACE(engine);
    JobSpec spec = ReadJob(engine, 8);
    spec.latency_target = absl::Seconds(10);
    spec.latency_window = absl::Milliseconds(20);
    absl::StatusOr<JobResult> result = Run(spec);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->error_errno, 0) << result->error_message;
    EXPECT_EQ(result->latency_depth, 8);
    // Five windows, then the search ends the job: not its runtime.
    EXPECT_LT(absl::Nanoseconds(result->runtime_ns), spec.runtime);
    const OpStats* reads = result->Find(OpKind::kRead);
    ASSERT_NE(reads, nullptr);
    EXPECT_GT(reads->ops, 0u);
  }
}

TEST_F(BlockIoLatencyTargetTest, LatencyRunKeepsTheDepthWithinOneToIodepthUntilTheRuntime) {
  JobSpec spec = ReadJob("libaio", 4);
  spec.runtime = absl::Milliseconds(300);
  spec.latency_target = absl::Microseconds(50);
  spec.latency_window = absl::Milliseconds(10);
  spec.latency_percentile = 50;
  spec.latency_run = true;
  absl::StatusOr<JobResult> result = Run(spec);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_errno, 0) << result->error_message;
  EXPECT_GE(result->latency_depth, 1);
  EXPECT_LE(result->latency_depth, 4);
  EXPECT_GE(absl::Nanoseconds(result->runtime_ns), spec.runtime);
}

TEST_F(BlockIoLatencyTargetTest, AReadOverTheTargetAtDepthOneFailsWithPercentileHundred) {
  for (const std::string engine : {"psync", "libaio"}) {
    SCOPED_TRACE(engine);
    JobSpec spec = ReadJob(engine, 4);
    spec.latency_target = absl::Nanoseconds(1);  // no read takes 1 ns
    absl::StatusOr<JobResult> result = Run(spec);
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->error_errno, ETIMEDOUT);
    EXPECT_THAT(result->error_message, HasSubstr("latency_target"));
    EXPECT_EQ(result->latency_depth, 1);
  }
}

TEST_F(BlockIoLatencyTargetTest, WithoutATargetNoDepthIsReported) {
  JobSpec spec = ReadJob("psync", 1);
  spec.time_based = false;
  absl::StatusOr<JobResult> result = Run(spec);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->latency_depth, 0);
}

}  // namespace
}  // namespace azbench
