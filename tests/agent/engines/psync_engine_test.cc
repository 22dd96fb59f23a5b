// psync specifics: sync, depth 1, timestamps of a sync engine. Data paths:
// engine_conformance_test.cc.
#include "agent/engines/psync_engine.h"

#include <fcntl.h>
#include <unistd.h>

#include <memory>
#include <vector>

#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

TEST(PsyncEngineTest, DeclaresSyncDepthOne) {
  PsyncEngine engine;
  const EngineCapabilities caps = engine.capabilities();
  EXPECT_FALSE(caps.is_async);
  EXPECT_TRUE(caps.does_io);
  EXPECT_TRUE(caps.supports_direct);
  EXPECT_FALSE(caps.needs_aligned_buffers);
  EXPECT_EQ(caps.max_iodepth, 1);
  EXPECT_EQ(engine.name(), "psync");
}

TEST(PsyncEngineTest, InitAcceptsDepthOneOnly) {
  for (int iodepth : {0, 2, 64}) {
    PsyncEngine engine;
    EngineOptions options;
    options.iodepth = iodepth;
    const absl::Status s = engine.Init(options);
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << iodepth;
    EXPECT_NE(s.message().find("psync"), std::string::npos) << s;
  }
  PsyncEngine engine;
  EXPECT_TRUE(engine.Init(EngineOptions{}).ok());
}

TEST(PsyncEngineTest, ReadCompletesInsideQueueWithIssueEqualToStart) {
  engine_test::TempDir dir(engine_test::kTmpfsBase);
  ASSERT_FALSE(dir.path().empty());
  const int fd = open((dir.path() + "/f").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(fd, 0);
  std::vector<uint8_t> data(512);
  engine_test::FillPattern(data.data(), 0, data.size());
  ASSERT_EQ(pwrite(fd, data.data(), data.size(), 0), 512);

  PsyncEngine engine;
  ASSERT_TRUE(engine.Init(EngineOptions{}).ok());
  std::vector<uint8_t> buffer(512);
  IoRequest r{.op = OpKind::kRead, .fd = fd, .buffer = buffer.data(), .length_bytes = 512};
  r.start_ns = MonotonicNanos();
  EXPECT_EQ(engine.Queue(&r), QueueResult::kCompleted);
  EXPECT_EQ(r.result, 512);
  EXPECT_EQ(r.issue_ns, r.start_ns);
  EXPECT_GE(r.complete_ns, r.issue_ns);
  EXPECT_EQ(buffer, data);
  EXPECT_EQ(engine.inflight(), 0);
  EXPECT_EQ(engine.Commit().value_or(-1), 0);
  std::vector<IoRequest*> out(1);
  EXPECT_EQ(engine.GetEvents(1, std::span<IoRequest*>(out)).value_or(-1), 0);
  close(fd);
}

TEST(PsyncEngineTest, WriteToAReadOnlyFdCompletesWithEbadf) {
  const int fd = open("/dev/null", O_RDONLY);
  ASSERT_GE(fd, 0);
  PsyncEngine engine;
  char byte = 0;
  IoRequest r{.op = OpKind::kWrite, .fd = fd, .buffer = &byte, .length_bytes = 1};
  EXPECT_EQ(engine.Queue(&r), QueueResult::kCompleted);
  EXPECT_EQ(r.result, -EBADF);
  close(fd);
}

}  // namespace
}  // namespace azbench
