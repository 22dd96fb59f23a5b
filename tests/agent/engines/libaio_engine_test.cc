// libaio specifics: fsync is done synchronously once the queue is idle (kBusy before), as in fio.
#include "agent/engines/libaio_engine.h"

#include <fcntl.h>
#include <unistd.h>

#include <memory>
#include <string>
#include <vector>

#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

using engine_test::AlignedBuffers;
using engine_test::FillPattern;
using engine_test::TempDir;

class LibaioEngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::make_unique<TempDir>(engine_test::kLocalDiskBase);
    ASSERT_FALSE(dir_->path().empty());
    fd_ = open((dir_->path() + "/data").c_str(), O_RDWR | O_CREAT | O_DIRECT, 0600);
    ASSERT_GE(fd_, 0) << strerror(errno);
    buffers_ = std::make_unique<AlignedBuffers>(4, 4096);
    ASSERT_TRUE(buffers_->ok());
    EngineOptions options;
    options.iodepth = 4;
    ASSERT_TRUE(engine_.Init(options).ok());
  }
  void TearDown() override {
    // Reap anything a failed test left, so the engine is idle before the fd and buffers go.
    std::vector<IoRequest*> out(4);
    while (engine_.inflight() > 0) {
      (void)engine_.Commit();
      if (engine_.GetEvents(1, std::span<IoRequest*>(out)).value_or(0) == 0) break;
    }
    if (fd_ >= 0) close(fd_);
    dir_.reset();
  }

  IoRequest Write(int i) {
    FillPattern(buffers_->at(i), i * 4096, 4096);
    IoRequest r;
    r.op = OpKind::kWrite;
    r.fd = fd_;
    r.buffer = buffers_->at(i);
    r.length_bytes = 4096;
    r.offset_bytes = i * 4096;
    return r;
  }

  std::unique_ptr<TempDir> dir_;
  int fd_ = -1;
  std::unique_ptr<AlignedBuffers> buffers_;
  LibaioEngine engine_;  // last member: destroyed first
};

TEST_F(LibaioEngineTest, DeclaresAsyncWithoutAlignedBufferRequirement) {
  const EngineCapabilities caps = engine_.capabilities();
  EXPECT_TRUE(caps.is_async);
  EXPECT_TRUE(caps.does_io);
  EXPECT_TRUE(caps.supports_direct);
  EXPECT_FALSE(caps.needs_aligned_buffers);
  EXPECT_EQ(caps.max_iodepth, LibaioEngine::kMaxIodepth);
  EXPECT_EQ(engine_.name(), "libaio");
}

TEST_F(LibaioEngineTest, FsyncIsBusyWhileAnythingIsQueuedOrInFlightThenRunsSynchronously) {
  IoRequest w0 = Write(0);
  IoRequest w1 = Write(1);
  IoRequest sync;
  sync.op = OpKind::kFsync;
  sync.fd = fd_;
  sync.datasync = true;

  ASSERT_EQ(engine_.Queue(&w0), QueueResult::kQueued);
  EXPECT_EQ(engine_.Queue(&sync), QueueResult::kBusy) << "queued, not submitted";
  ASSERT_EQ(engine_.Queue(&w1), QueueResult::kQueued);
  ASSERT_EQ(engine_.Commit().value_or(-1), 2);
  EXPECT_EQ(engine_.Queue(&sync), QueueResult::kBusy) << "in flight";

  std::vector<IoRequest*> out(4);
  int reaped = 0;
  while (reaped < 2) {
    absl::StatusOr<int> n = engine_.GetEvents(1, std::span<IoRequest*>(out));
    ASSERT_TRUE(n.ok()) << n.status();
    reaped += *n;
  }
  EXPECT_EQ(w0.result, 4096);
  EXPECT_EQ(w1.result, 4096);

  sync.start_ns = MonotonicNanos();
  ASSERT_EQ(engine_.Queue(&sync), QueueResult::kCompleted);
  EXPECT_EQ(sync.result, 0);
  EXPECT_EQ(sync.issue_ns, sync.start_ns);
  EXPECT_GE(sync.complete_ns, sync.issue_ns);
  EXPECT_EQ(engine_.inflight(), 0);
}

TEST_F(LibaioEngineTest, RequestsRefusedBySubmitComeBackFirstFromGetEvents) {
  IoRequest good = Write(0);
  IoRequest bad = Write(1);
  bad.fd = -1;
  ASSERT_EQ(engine_.Queue(&bad), QueueResult::kQueued);
  ASSERT_EQ(engine_.Queue(&good), QueueResult::kQueued);
  ASSERT_EQ(engine_.Commit().value_or(-1), 2) << "a refused request counts as submitted";
  EXPECT_EQ(engine_.inflight(), 2) << "refused but not yet reaped";
  std::vector<IoRequest*> out(4);
  absl::StatusOr<int> n = engine_.GetEvents(2, std::span<IoRequest*>(out));
  ASSERT_TRUE(n.ok()) << n.status();
  ASSERT_EQ(*n, 2);
  EXPECT_EQ(out[0], &bad);
  EXPECT_EQ(bad.result, -EBADF);
  EXPECT_EQ(bad.issue_ns, bad.complete_ns);
  EXPECT_EQ(out[1], &good);
  EXPECT_EQ(good.result, 4096);
  EXPECT_EQ(engine_.inflight(), 0);
}

}  // namespace
}  // namespace azbench
