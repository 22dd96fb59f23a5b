// How a block-I/O job sets up its engines: the options a job's spec gives them
// (EngineOptionsForJob), and what an engine could not set up as asked (InitFallbacks) reaching the
// job's warnings once per job, saying how many clones it concerns when not all. A fake engine (no
// I/O) stands in for one whose registration failed.
#include "agent/workloads/block_io/block_io.h"

#include <algorithm>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"
#include "agent/engines/wait_pause.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

// A sync engine without I/O: every request completes at once, in full. Its Init is the job's
// `*inits`-th; from the `fallback_from`-th on (1-based) it reports `fallbacks`, as when a memlock
// limit runs out part-way through the clones.
class FallbackEngine final : public IoEngine {
 public:
  FallbackEngine(std::vector<std::string> fallbacks, int* inits, int fallback_from)
      : fallbacks_(std::move(fallbacks)), inits_(inits), fallback_from_(fallback_from) {}
  std::string_view name() const override { return "fake"; }
  EngineCapabilities capabilities() const override {
    return EngineCapabilities{.is_async = false,
                              .does_io = false,
                              .supports_direct = true,
                              .needs_aligned_buffers = false,
                              .max_iodepth = 1};
  }
  absl::Status Init(const EngineOptions&) override {
    falls_back_ = ++*inits_ >= fallback_from_;
    return absl::OkStatus();
  }
  QueueResult Queue(IoRequest* request) override {
    request->issue_ns = request->start_ns;
    request->result = request->length_bytes;
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int, std::span<IoRequest*>) override { return 0; }
  int inflight() const override { return 0; }
  std::vector<std::string> InitFallbacks() const override {
    return falls_back_ ? fallbacks_ : std::vector<std::string>{};
  }

 private:
  std::vector<std::string> fallbacks_;
  int* inits_;
  int fallback_from_;
  bool falls_back_ = false;
};

TEST(BlockIoEngineSetupTest, EngineOptionsCarryTheDepthTheBatchAndTheJobsWaitPause) {
  JobSpec spec;
  spec.ioengine = "io_uring";
  spec.iodepth_batch_submit = 4;
  EngineOptions options = EngineOptionsForJob(spec, 16);
  EXPECT_EQ(options.iodepth, 16);
  EXPECT_EQ(options.batch_submit, 4);
  EXPECT_EQ(options.wait_pause.pause_ns, WaitPauseOptions{}.pause_ns) << "unset: engine default";
  spec.uring_wait_pause = absl::ZeroDuration();
  EXPECT_EQ(EngineOptionsForJob(spec, 16).wait_pause.pause_ns, 0u);
  spec.uring_wait_pause = absl::Nanoseconds(500);
  EXPECT_EQ(EngineOptionsForJob(spec, 16).wait_pause.pause_ns, 500u);
  EXPECT_EQ(EngineOptionsForJob(spec, 16).wait_pause.short_wait_ns,
            WaitPauseOptions{}.short_wait_ns);
}

TEST(BlockIoEngineSetupTest,
     BuffersAreRegisteredForDirectIoAndFilesAlwaysUnlessTheJobSaysOtherwise) {
  JobSpec spec;
  spec.ioengine = "io_uring";
  EXPECT_FALSE(EngineOptionsForJob(spec, 16).register_buffers) << "buffered: plain reads";
  EXPECT_TRUE(EngineOptionsForJob(spec, 16).register_files);
  spec.direct = true;
  EXPECT_TRUE(EngineOptionsForJob(spec, 16).register_buffers);
  spec.fixedbufs = false;
  spec.registerfiles = false;
  EXPECT_FALSE(EngineOptionsForJob(spec, 16).register_buffers);
  EXPECT_FALSE(EngineOptionsForJob(spec, 16).register_files);
  spec.direct = false;
  spec.fixedbufs = true;
  EXPECT_TRUE(EngineOptionsForJob(spec, 16).register_buffers);
}

absl::StatusOr<JobResult> RunWithFallbacks(std::vector<std::string> fallbacks, int numjobs,
                                           int fallback_from = 1) {
  int inits = 0;
  JobSpec spec;
  spec.name = "fallback";
  spec.ioengine = "fake";
  spec.filename = "/nonexistent/fake";  // never opened: the engine does no I/O
  spec.rw = RwPattern::kRandRead;
  spec.size_bytes = 64 << 10;
  spec.block_size_bytes = 4096;
  spec.numjobs = numjobs;
  auto factory = [&](std::string_view) -> absl::StatusOr<std::unique_ptr<IoEngine>> {
    return std::make_unique<FallbackEngine>(fallbacks, &inits, fallback_from);
  };
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec, 0, factory);
  if (!job.ok()) return job.status();
  return (*job)->Run(RunControl{});
}

TEST(BlockIoEngineSetupTest, EachFallbackIsOneWarningOfTheJob) {
  const std::string buffers = "engine fake: buffers not registered; using plain reads and writes";
  const std::string files = "engine fake: files not registered; using plain fds";
  absl::StatusOr<JobResult> result = RunWithFallbacks({buffers, files}, /*numjobs=*/3);
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_NE(result->Find(OpKind::kRead), nullptr);
  EXPECT_EQ(result->Find(OpKind::kRead)->ops, 3u * 16) << "the job still ran";
  const std::vector<std::string>& w = result->warnings;
  EXPECT_EQ(std::count(w.begin(), w.end(), buffers), 1);
  EXPECT_EQ(std::count(w.begin(), w.end(), files), 1);
}

TEST(BlockIoEngineSetupTest, AFallbackOfSomeClonesSaysHowMany) {
  const std::string buffers = "engine fake: buffers not registered; using plain reads and writes";
  absl::StatusOr<JobResult> result =
      RunWithFallbacks({buffers}, /*numjobs=*/3, /*fallback_from=*/2);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->warnings, ::testing::ElementsAre(buffers + " (in 2 of 3 clones)"));
}

TEST(BlockIoEngineSetupTest, NoFallbackNoWarning) {
  absl::StatusOr<JobResult> result = RunWithFallbacks({}, /*numjobs=*/2);
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_TRUE(result->warnings.empty()) << result->warnings.front();
}

}  // namespace
}  // namespace azbench
