// fio's flow, flow_id and flow_sleep in block-I/O jobs: jobs sharing a flow keep the ratio of their
// I/Os to that of their weights, as fio 3.33 keeps 1:8 for examples/flow.fio.
#include <memory>
#include <thread>

#include "absl/time/time.h"
#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/flow_registry.h"
#include "common/clock.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

JobSpec NullJob(const char* name, RwPattern rw, uint32_t weight) {
  JobSpec spec;
  spec.name = name;
  spec.filename = "/nonexistent/never-opened";
  spec.ioengine = "null";
  spec.rw = rw;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 4096;
  spec.flow_id = 1;
  spec.flow_weight = weight;
  return spec;
}

uint64_t DataOps(const JobResult& r) {
  uint64_t ops = 0;
  for (OpKind kind : {OpKind::kRead, OpKind::kWrite}) {
    if (const OpStats* s = r.Find(kind)) ops += s->ops;
  }
  return ops;
}

// Runs both jobs at once with one FlowRegistry, as the runner does for a run's jobs.
std::pair<JobResult, JobResult> RunBoth(const JobSpec& a, const JobSpec& b) {
  FlowRegistry flows;
  RunControl control;
  control.flows = &flows;
  auto job_a = BlockIoJob::Prepare(a);
  auto job_b = BlockIoJob::Prepare(b);
  EXPECT_TRUE(job_a.ok()) << job_a.status();
  EXPECT_TRUE(job_b.ok()) << job_b.status();
  if (!job_a.ok() || !job_b.ok()) return {};
  // Both join the flow before either starts, and start at one instant, as the runner does for a
  // group's jobs: a job that joined alone would run unheld until the other joined.
  (*job_a)->JoinFlows(flows);
  (*job_b)->JoinFlows(flows);
  control.start_monotonic_ns = MonotonicNanos() + 200'000'000;
  absl::StatusOr<JobResult> result_a, result_b;
  std::thread thread_a([&] { result_a = (*job_a)->Run(control); });
  result_b = (*job_b)->Run(control);
  thread_a.join();
  EXPECT_TRUE(result_a.ok()) << result_a.status();
  EXPECT_TRUE(result_b.ok()) << result_b.status();
  if (!result_a.ok() || !result_b.ok()) return {};
  return {std::move(*result_a), std::move(*result_b)};
}

TEST(BlockIoFlowTest, TimeBasedJobsKeepTheRatioOfTheirWeights) {
  for (const absl::Duration flow_sleep : {absl::ZeroDuration(), absl::Microseconds(100)}) {
    SCOPED_TRACE(absl::FormatDuration(flow_sleep));
    JobSpec slow = NullJob("job2", RwPattern::kWrite, 1);
    JobSpec fast = NullJob("job1", RwPattern::kRandRead, 8);
    for (JobSpec* spec : {&slow, &fast}) {
      spec->time_based = true;
      // A second, so that the last moments (a clone whose runtime is over leaves the flow, and
      // the other one may issue unheld until it sees its own end) weigh little in the ratio.
      spec->runtime = absl::Seconds(1);
      spec->flow_sleep = flow_sleep;
    }
    auto [slow_result, fast_result] = RunBoth(slow, fast);
    ASSERT_GT(DataOps(slow_result), 10u);
    // fio 3.33 gives 7.99 for examples/flow.fio.
    EXPECT_NEAR(static_cast<double>(DataOps(fast_result)) / DataOps(slow_result), 8.0, 0.3);
  }
}

TEST(BlockIoFlowTest, AJobThatEndsDoesNotHoldBackTheRestOfItsFlow) {
  // job1 ends after 256 ops; job2 (weight 1 of 9) must still do its 2560 alone.
  JobSpec fast = NullJob("job1", RwPattern::kRandRead, 8);
  JobSpec slow = NullJob("job2", RwPattern::kRead, 1);
  slow.size_bytes = 10 << 20;
  auto [fast_result, slow_result] = RunBoth(fast, slow);
  EXPECT_EQ(DataOps(fast_result), 256u);
  EXPECT_EQ(DataOps(slow_result), 2560u);
}

TEST(BlockIoFlowTest, FlowIsRefusedForFileOperationEngines) {
  JobSpec spec;
  spec.name = "create";
  spec.ioengine = "filecreate";
  spec.directory = "/tmp";
  spec.flow_weight = 1;
  absl::Status status = ValidateJobSpec(spec);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("flow"), std::string::npos) << status;
}

}  // namespace
}  // namespace azbench
