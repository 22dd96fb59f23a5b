// The null engine: no I/O, immediate completion with the request's length, one honest clock read.
#include "agent/engines/null_engine.h"

#include <vector>

#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

TEST(NullEngineTest, DeclaresNoIoAndALargeDepth) {
  NullEngine engine;
  const EngineCapabilities caps = engine.capabilities();
  EXPECT_FALSE(caps.is_async);
  EXPECT_FALSE(caps.does_io);
  EXPECT_GE(caps.max_iodepth, 4096);
  EXPECT_EQ(engine.name(), "null");
}

TEST(NullEngineTest, AcceptsAnyDepthInRangeAndTreatsItAsSync) {
  for (int iodepth : {1, 64, NullEngine::kMaxIodepth}) {
    NullEngine engine;
    EngineOptions options;
    options.iodepth = iodepth;
    EXPECT_TRUE(engine.Init(options).ok()) << iodepth;
  }
  for (int iodepth : {0, NullEngine::kMaxIodepth + 1}) {
    NullEngine engine;
    EngineOptions options;
    options.iodepth = iodepth;
    EXPECT_EQ(engine.Init(options).code(), absl::StatusCode::kInvalidArgument) << iodepth;
  }
}

TEST(NullEngineTest, CompletesEveryRequestAtOnceWithItsLengthAndTimestamps) {
  NullEngine engine;
  EngineOptions options;
  options.iodepth = 32;
  ASSERT_TRUE(engine.Init(options).ok());
  std::vector<IoRequest> requests(100);
  for (int i = 0; i < 100; ++i) {
    requests[i].op = i % 10 == 9 ? OpKind::kFsync : (i % 2 ? OpKind::kWrite : OpKind::kRead);
    requests[i].fd = -1;  // never touched
    requests[i].length_bytes = 4096 * (i % 3 + 1);
    requests[i].offset_bytes = i * 4096ull;
  }
  absl::StatusOr<std::vector<IoRequest*>> done = engine_test::RunToCompletion(engine, requests);
  ASSERT_TRUE(done.ok()) << done.status();
  ASSERT_EQ(done->size(), requests.size());
  for (size_t i = 0; i < requests.size(); ++i) {
    EXPECT_EQ((*done)[i], &requests[i]) << "completed in order, inside Queue()";
    const IoRequest& r = requests[i];
    EXPECT_EQ(r.result, r.op == OpKind::kFsync ? 0 : static_cast<int64_t>(r.length_bytes));
    EXPECT_EQ(r.issue_ns, r.start_ns);
    EXPECT_NE(r.complete_ns, 0u) << "the clock is read: the framework cost stays honest";
    EXPECT_GE(r.complete_ns, r.start_ns);
  }
  const engine_test::IoCounts c = engine_test::CountCompleted(*done);
  EXPECT_EQ(c.fsyncs, 10);
  EXPECT_EQ(c.reads + c.writes, 90);
  EXPECT_EQ(engine.inflight(), 0);
}

}  // namespace
}  // namespace azbench
