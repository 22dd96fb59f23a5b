// A block_io job checks the file descriptors it will need (each clone opens each of its files)
// against RLIMIT_NOFILE before laying out any file: nrfiles=30000 under a soft limit of 20000 used
// to lay out every file and then fail on "Too many open files".
#include <sys/resource.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/buffer_pool.h"
#include "agent/workloads/file_layout.h"
#include "common/job_result.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

// Lowers RLIMIT_NOFILE's soft limit for the test's lifetime.
class ScopedNofileLimit {
 public:
  explicit ScopedNofileLimit(rlim_t soft) {
    saved_ok_ = getrlimit(RLIMIT_NOFILE, &saved_) == 0;
    rlimit lowered = saved_;
    lowered.rlim_cur = soft;
    ok_ = saved_ok_ && setrlimit(RLIMIT_NOFILE, &lowered) == 0;
  }
  ~ScopedNofileLimit() {
    if (saved_ok_) (void)setrlimit(RLIMIT_NOFILE, &saved_);  // never {0, 0}
  }
  bool ok() const { return ok_; }

 private:
  rlimit saved_{};
  bool saved_ok_ = false;
  bool ok_ = false;
};

TEST(BlockIoDescriptorsTest, AJobNeedingMoreDescriptorsThanTheLimitIsRefusedBeforeItsLayout) {
  testing::TempDir dir;
  JobSpec spec;
  spec.name = "many";
  spec.directory = dir.path();
  spec.rw = RwPattern::kRead;
  spec.block_size_bytes = 4096;
  spec.nrfiles = 300;
  spec.numjobs = 2;
  spec.size_bytes = 300 * 4096;
  spec.ioengine = "psync";
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job;
  {
    ScopedNofileLimit limit(256);
    ASSERT_TRUE(limit.ok());
    job = BlockIoJob::Prepare(spec);
  }
  ASSERT_EQ(job.status().code(), absl::StatusCode::kResourceExhausted) << job.status();
  const std::string message(job.status().message());
  EXPECT_THAT(message, HasSubstr("opens 600 files (nrfiles 300 x numjobs 2)"));
  EXPECT_THAT(message, HasSubstr("RLIMIT_NOFILE soft limit 256"));
  EXPECT_EQ(FilesIn(dir.path()), 0u) << "nothing is laid out";
}

TEST(BlockIoDescriptorsTest, TheCheckCountsWhatIsOpenAlready) {
  EXPECT_TRUE(CheckDescriptorsAvailable(1, 1, 1).ok());
  const absl::Status refused = CheckDescriptorsAvailable(uint64_t{1} << 62, 1 << 20, 4);
  ASSERT_EQ(refused.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(refused.message()), HasSubstr("nrfiles 1048576 x numjobs 4"));
  EXPECT_THAT(std::string(refused.message()), HasSubstr("open)"));
}

// SIGTERM (serve's CancelAll) or SIGINT (one-shot) during a long layout: the run's cancel flag ends
// it between files instead of after the last one.
TEST(BlockIoLayoutCancelTest, ACancelledLayoutStopsBetweenFilesAndRemovesThem) {
  testing::TempDir dir;
  std::vector<LayoutRequest> requests;
  for (int i = 0; i < 3; ++i) {
    requests.push_back({dir.File("f" + std::to_string(i)), 4096, /*needs_data=*/true});
  }
  absl::StatusOr<BufferPool> filler = BufferPool::Create({.count = 1, .size_bytes = 4096});
  ASSERT_TRUE(filler.ok()) << filler.status();
  std::atomic<bool> cancel{true};
  absl::StatusOr<std::vector<LaidOutFile>> files = LayOutFiles(requests, *filler, &cancel);
  ASSERT_EQ(files.status().code(), absl::StatusCode::kCancelled) << files.status();
  EXPECT_THAT(std::string(files.status().message()), HasSubstr("after 0 of 3 files"));
  EXPECT_EQ(FilesIn(dir.path()), 0u);
  cancel.store(false);
  files = LayOutFiles(requests, *filler, &cancel);
  ASSERT_TRUE(files.ok()) << files.status();
  EXPECT_EQ(FilesIn(dir.path()), 3u);
  (void)RemoveCreatedFiles(*files);

  JobSpec spec;
  spec.name = "cancelled";
  spec.directory = dir.path();
  spec.rw = RwPattern::kRead;
  spec.block_size_bytes = 4096;
  spec.nrfiles = 4;
  spec.size_bytes = 4 * 4096;
  spec.ioengine = "psync";
  cancel.store(true);
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job =
      BlockIoJob::Prepare(spec, 0, CreateEngine, &cancel);
  ASSERT_EQ(job.status().code(), absl::StatusCode::kCancelled) << job.status();
  EXPECT_EQ(FilesIn(dir.path()), 0u) << "nothing is left behind";
}

}  // namespace
}  // namespace azbench
