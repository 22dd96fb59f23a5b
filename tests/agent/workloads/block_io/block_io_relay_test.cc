// A block-I/O job hands its intervals to an EventRelay: a sink that blocks (a congested
// coordinator stream) does not stop the clones' I/O.
#include <chrono>
#include <memory>
#include <thread>

#include "agent/workloads/block_io/block_io.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

// The first interval's delivery waits until the job has done 1000 more ops. Delivered on the clone
// thread, as before the relay, it would wait for ever (here: 60 s, then the job ends with the
// wait failed); through the relay the clone keeps issuing meanwhile.
TEST(BlockIoRelayTest, ABlockIoJobKeepsIssuingWhileItsIntervalSinkIsBlocked) {
  JobSpec spec;
  spec.name = "null";
  spec.filename = "/nonexistent/never-opened";
  spec.ioengine = "null";
  spec.size_bytes = 1 << 30;
  spec.block_size_bytes = 4096;
  spec.time_based = true;
  spec.runtime = absl::Milliseconds(300);
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  RunControl control;
  control.interval_ns = 50'000'000;
  bool progressed_while_blocked = false;
  int intervals = 0;
  control.on_interval = [&](const IntervalOrigin&, const IntervalStats&) {
    if (intervals++ > 0) return;
    const uint64_t ops_then = (*job)->ops_done();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      if ((*job)->ops_done() >= ops_then + 1000) {
        progressed_while_blocked = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  absl::StatusOr<JobResult> result = (*job)->Run(control);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(progressed_while_blocked) << "the clone stopped while its interval was delivered";
  EXPECT_EQ(intervals, static_cast<int>(result->intervals.size()))
      << "every interval of the result was delivered before Run returned";
}

}  // namespace
}  // namespace azbench
