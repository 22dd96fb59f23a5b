// Trims through every engine that moves data, as fio 3.33's engines issue them: BLKDISCARD on the
// descriptor (which a regular file refuses with ENOTTY, so a trim job on a file fails as fio's
// does), a punched hole with falloc, nothing with null. Async engines take a trim inline, and only
// when no request waits for a submit (posixaio: none is in flight).
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <memory>
#include <string>
#include <vector>

#include "agent/engines/io_engine.h"
#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

using engine_test::TempDir;

constexpr uint32_t kBlockBytes = 4096;

class TrimEngineTest : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(engine_test::kLocalDiskBase);
    ASSERT_FALSE(dir_->path().empty());
    fd_ = open((dir_->path() + "/f").c_str(), O_RDWR | O_CREAT, 0600);
    ASSERT_GE(fd_, 0);
    ASSERT_EQ(ftruncate(fd_, 16 * kBlockBytes), 0);
    buffer_.assign(kBlockBytes, 0);
  }
  void TearDown() override {
    engine_.reset();
    if (fd_ >= 0) close(fd_);
    dir_.reset();
  }
  // False (and the test skipped) when the kernel offers no such engine (io_uring disabled).
  bool Start(const std::string& name, int iodepth) {
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(name);
    EXPECT_TRUE(engine.ok()) << engine.status();
    if (!engine.ok()) return false;
    engine_ = std::move(*engine);
    EngineOptions options;
    options.iodepth = std::min(iodepth, engine_->capabilities().max_iodepth);
    options.buffers = {iovec{buffer_.data(), buffer_.size()}};
    options.fds = {fd_};
    if (absl::Status s = engine_->Init(options); !s.ok()) {
      if (s.code() == absl::StatusCode::kUnavailable) return false;
      ADD_FAILURE() << s;
      return false;
    }
    return true;
  }
  IoRequest Request(OpKind op, uint64_t offset) {
    return IoRequest{.op = op,
                     .fd = fd_,
                     .buffer = buffer_.data(),
                     .length_bytes = kBlockBytes,
                     .offset_bytes = offset,
                     .buffer_index = 0};
  }
  std::unique_ptr<TempDir> dir_;
  int fd_ = -1;
  std::vector<char> buffer_;
  std::unique_ptr<IoEngine> engine_;
};

TEST_P(TrimEngineTest, ATrimOfARegularFileIsRefusedWithEnottyInsideQueue) {
  if (!Start(GetParam(), 4)) GTEST_SKIP() << GetParam() << " is not available here";
  EXPECT_FALSE(engine_->TrimMustWait());
  IoRequest trim = Request(OpKind::kTrim, kBlockBytes);
  trim.start_ns = 1;
  ASSERT_EQ(engine_->Queue(&trim), QueueResult::kCompleted);
  EXPECT_EQ(trim.result, -ENOTTY) << "BLKDISCARD is an ioctl of block devices";
  EXPECT_GE(trim.complete_ns, trim.issue_ns);
  EXPECT_EQ(engine_->inflight(), 0);
}

INSTANTIATE_TEST_SUITE_P(DataEngines, TrimEngineTest,
                         ::testing::Values("psync", "sync", "vsync", "pvsync", "pvsync2", "mmap",
                                           "libaio", "io_uring", "posixaio"));

class AsyncTrimEngineTest : public TrimEngineTest {};

TEST_P(AsyncTrimEngineTest, ATrimWaitsForTheQueuedRequestsToBeSubmitted) {
  if (!Start(GetParam(), 4)) GTEST_SKIP() << GetParam() << " is not available here";
  IoRequest read = Request(OpKind::kRead, 0);
  ASSERT_EQ(engine_->Queue(&read), QueueResult::kQueued);
  const bool posixaio = GetParam() == "posixaio";  // submits inside Queue: one is in flight
  EXPECT_TRUE(engine_->TrimMustWait());
  IoRequest trim = Request(OpKind::kTrim, kBlockBytes);
  EXPECT_EQ(engine_->Queue(&trim), QueueResult::kBusy);
  ASSERT_TRUE(engine_->Commit().ok());
  if (!posixaio) {
    EXPECT_FALSE(engine_->TrimMustWait()) << "the read is submitted: a trim runs beside it";
  }
  std::vector<IoRequest*> done(4);
  absl::StatusOr<int> got = engine_->GetEvents(1, std::span<IoRequest*>(done));
  ASSERT_TRUE(got.ok()) << got.status();
  ASSERT_EQ(*got, 1);
  EXPECT_EQ(done[0], &read);
  EXPECT_FALSE(engine_->TrimMustWait());
  ASSERT_EQ(engine_->Queue(&trim), QueueResult::kCompleted);
  EXPECT_EQ(trim.result, -ENOTTY);
}

INSTANTIATE_TEST_SUITE_P(AsyncEngines, AsyncTrimEngineTest,
                         ::testing::Values("libaio", "io_uring", "posixaio"));

TEST_F(TrimEngineTest, NullCompletesATrimOfItsWholeLength) {
  ASSERT_TRUE(Start("null", 1));
  IoRequest trim = Request(OpKind::kTrim, 0);
  ASSERT_EQ(engine_->Queue(&trim), QueueResult::kCompleted);
  EXPECT_EQ(trim.result, kBlockBytes);
}

TEST_F(TrimEngineTest, FallocPunchesAHoleThatFreesTheBlocksAndKeepsTheSize) {
  ASSERT_TRUE(Start("falloc", 1));
  IoRequest write = Request(OpKind::kWrite, 0);
  write.length_bytes = 16 * kBlockBytes;
  ASSERT_EQ(engine_->Queue(&write), QueueResult::kCompleted);
  if (write.result == -EOPNOTSUPP) GTEST_SKIP() << "the file system has no fallocate";
  struct stat before {};
  ASSERT_EQ(fstat(fd_, &before), 0);
  IoRequest trim = Request(OpKind::kTrim, 4 * kBlockBytes);
  trim.length_bytes = 8 * kBlockBytes;
  ASSERT_EQ(engine_->Queue(&trim), QueueResult::kCompleted);
  EXPECT_EQ(trim.result, 8 * kBlockBytes);
  struct stat after {};
  ASSERT_EQ(fstat(fd_, &after), 0);
  EXPECT_EQ(after.st_size, before.st_size);
  EXPECT_EQ(before.st_blocks - after.st_blocks, 8 * kBlockBytes / 512)
      << "st_blocks counts 512-byte units: the hole's 8 blocks are freed";
}

}  // namespace
}  // namespace azbench
