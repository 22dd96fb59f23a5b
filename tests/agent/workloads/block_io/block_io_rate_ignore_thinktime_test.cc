// fio's rate_ignore_thinktime through the job loop: a clone rated at 1000 IOPS that thinks 50 ms
// after every 50 I/Os catches up on its rate after each pause by default (about 1000 I/Os a
// second), and with rate_ignore_thinktime goes on at its rate instead (about half as many).
#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

uint64_t ReadsInOneSecond(bool ignore_thinktime) {
  JobSpec spec;
  spec.name = "t";
  spec.filename = "/nonexistent/t";  // the null engine opens nothing
  spec.ioengine = "null";
  spec.size_bytes = 1 << 20;
  spec.time_based = true;
  spec.runtime = absl::Seconds(1);
  spec.rate_iops = {1000, 0};
  spec.thinktime = absl::Milliseconds(50);
  spec.thinktime_blocks = 50;
  spec.rate_ignore_thinktime = ignore_thinktime;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return 0;
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  EXPECT_TRUE(result.ok()) << result.status();
  if (!result.ok()) return 0;
  const OpStats* reads = result->Find(OpKind::kRead);
  return reads == nullptr ? 0 : reads->ops;
}

TEST(BlockIoRateIgnoreThinktimeTest, ThinkTimeIsNotCaughtUpOnWithRateIgnoreThinktime) {
  const uint64_t catching_up = ReadsInOneSecond(false);
  const uint64_t ignoring = ReadsInOneSecond(true);
  EXPECT_GT(catching_up, 800u);
  EXPECT_LT(ignoring * 10, catching_up * 7) << ignoring << " vs " << catching_up;
  EXPECT_GT(ignoring * 10, catching_up * 3) << ignoring << " vs " << catching_up;
}

}  // namespace
}  // namespace azbench
