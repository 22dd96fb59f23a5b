// What only the asynchronous engines (libaio, io_uring) promise: the queue really reaches iodepth,
// kBusy when it is full, batch_submit caps every Commit(), one clock read stamps a whole submit and
// a whole reap, GetEvents() never waits for requests that were not submitted and never returns more
// than asked.
#include <fcntl.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <ostream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "agent/engines/io_engine.h"
#include "agent/engines/io_uring_engine.h"
#include "agent/engines/libaio_engine.h"
#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

using engine_test::AlignedBuffers;
using engine_test::FillPattern;
using engine_test::FirstPatternMismatch;
using engine_test::TempDir;

struct Case {
  std::string engine;
  std::string base;
  bool direct = false;
};

// gtest prints the parameter in test names and failures; without this it dumps raw bytes.
void PrintTo(const Case& c, std::ostream* os) {
  *os << c.engine << " on " << c.base << (c.direct ? " O_DIRECT" : " buffered");
}

std::string CaseName(const ::testing::TestParamInfo<Case>& info) {
  return info.param.engine +
         (info.param.base == engine_test::kTmpfsBase ? "_Tmpfs" : "_LocalDisk") +
         (info.param.direct ? "_Direct" : "_Buffered");
}

class AsyncEngineTest : public ::testing::TestWithParam<Case> {
 protected:
  static constexpr int kDepth = 16;
  static constexpr int kBlocks = 64;
  static constexpr uint32_t kBlockBytes = 4096;

  void SetUp() override {
    const Case& c = GetParam();
    dir_ = std::make_unique<TempDir>(c.base);
    ASSERT_FALSE(dir_->path().empty()) << strerror(errno);
    path_ = dir_->path() + "/data";
    {
      // Lay out the file with the pattern, bypassing the engines.
      const int fd = open(path_.c_str(), O_WRONLY | O_CREAT, 0600);
      ASSERT_GE(fd, 0) << strerror(errno);
      std::vector<uint8_t> data(kBlocks * kBlockBytes);
      FillPattern(data.data(), 0, data.size());
      ASSERT_EQ(pwrite(fd, data.data(), data.size(), 0), static_cast<ssize_t>(data.size()));
      ASSERT_EQ(fsync(fd), 0);
      close(fd);
    }
    fd_ = open(path_.c_str(), O_RDWR | (c.direct ? O_DIRECT : 0));
    if (fd_ < 0 && c.direct && errno == EINVAL) GTEST_SKIP() << c.base << " refuses O_DIRECT";
    ASSERT_GE(fd_, 0) << strerror(errno);
    buffers_ = std::make_unique<AlignedBuffers>(kBlocks, kBlockBytes);
    ASSERT_TRUE(buffers_->ok());
  }

  void TearDown() override {
    engine_.reset();
    if (fd_ >= 0) close(fd_);
    buffers_.reset();
    dir_.reset();
  }

  void InitEngine(int iodepth, int batch_submit) {
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(GetParam().engine);
    ASSERT_TRUE(engine.ok()) << engine.status();
    engine_ = std::move(*engine);
    ASSERT_TRUE(engine_->capabilities().is_async);
    EngineOptions options;
    options.iodepth = iodepth;
    options.batch_submit = batch_submit;
    options.buffers = buffers_->iovecs();
    options.fds = {fd_};
    const absl::Status s = engine_->Init(options);
    ASSERT_TRUE(s.ok()) << s;
  }

  // Read request i: block (i * 7) % kBlocks into buffer i.
  std::vector<IoRequest> MakeReads(int count) {
    std::vector<IoRequest> reads(count);
    for (int i = 0; i < count; ++i) {
      IoRequest& r = reads[i];
      r.op = OpKind::kRead;
      r.fd = fd_;
      r.buffer = buffers_->at(i);
      r.buffer_index = i;
      r.length_bytes = kBlockBytes;
      r.offset_bytes = static_cast<uint64_t>((i * 7) % kBlocks) * kBlockBytes;
      std::memset(r.buffer, 0, kBlockBytes);
    }
    return reads;
  }

  // Reaps until `count` completions arrived; each call asks for at least one.
  std::vector<IoRequest*> ReapAll(int count, int out_size = kDepth) {
    std::vector<IoRequest*> done;
    std::vector<IoRequest*> out(out_size);
    while (static_cast<int>(done.size()) < count) {
      absl::StatusOr<int> n = engine_->GetEvents(1, std::span<IoRequest*>(out));
      EXPECT_TRUE(n.ok()) << n.status();
      if (!n.ok() || *n == 0) break;
      EXPECT_LE(*n, out_size);
      done.insert(done.end(), out.begin(), out.begin() + *n);
    }
    return done;
  }

  void ExpectReadsCorrect(const std::vector<IoRequest>& reads) {
    for (size_t i = 0; i < reads.size(); ++i) {
      EXPECT_EQ(reads[i].result, kBlockBytes) << "read " << i;
      EXPECT_EQ(FirstPatternMismatch(buffers_->at(i), reads[i].offset_bytes, kBlockBytes), -1)
          << "read " << i;
    }
  }

  std::unique_ptr<TempDir> dir_;
  std::string path_;
  int fd_ = -1;
  std::unique_ptr<AlignedBuffers> buffers_;
  std::unique_ptr<IoEngine> engine_;
};

TEST_P(AsyncEngineTest, QueueReachesIodepthAndAnswersBusyWhenFull) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 0));
  std::vector<IoRequest> reads = MakeReads(kDepth + 1);
  for (int i = 0; i < kDepth; ++i) {
    reads[i].start_ns = MonotonicNanos();
    ASSERT_EQ(engine_->Queue(&reads[i]), QueueResult::kQueued) << "request " << i;
  }
  EXPECT_EQ(engine_->inflight(), kDepth);
  EXPECT_EQ(engine_->Queue(&reads[kDepth]), QueueResult::kBusy) << "queued requests count as well";

  absl::StatusOr<int> submitted = engine_->Commit();
  ASSERT_TRUE(submitted.ok()) << submitted.status();
  EXPECT_EQ(*submitted, kDepth);
  EXPECT_EQ(engine_->inflight(), kDepth) << "all iodepth requests in flight before any reap";
  EXPECT_EQ(engine_->Queue(&reads[kDepth]), QueueResult::kBusy);

  std::vector<IoRequest*> done = ReapAll(kDepth);
  EXPECT_EQ(done.size(), static_cast<size_t>(kDepth));
  EXPECT_EQ(std::set<IoRequest*>(done.begin(), done.end()).size(), done.size()) << "no duplicates";
  EXPECT_EQ(engine_->inflight(), 0);
  reads.pop_back();
  ExpectReadsCorrect(reads);

  // Room again after the reap.
  std::vector<IoRequest> more = MakeReads(1);
  more[0].start_ns = MonotonicNanos();
  EXPECT_EQ(engine_->Queue(&more[0]), QueueResult::kQueued);
  ASSERT_TRUE(engine_->Commit().ok());
  EXPECT_EQ(ReapAll(1).size(), 1u);
}

TEST_P(AsyncEngineTest, BatchSubmitCapsEveryCommit) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 4));
  std::vector<IoRequest> reads = MakeReads(10);
  for (IoRequest& r : reads) ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  for (int expected : {4, 4, 2, 0}) {
    absl::StatusOr<int> n = engine_->Commit();
    ASSERT_TRUE(n.ok()) << n.status();
    EXPECT_EQ(*n, expected);
    EXPECT_EQ(engine_->inflight(), 10) << "submitted or not, nothing is reaped yet";
  }
  EXPECT_EQ(ReapAll(10).size(), 10u);
  ExpectReadsCorrect(reads);
}

TEST_P(AsyncEngineTest, OneClockReadStampsAWholeSubmitAndAWholeReap) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 0));
  std::vector<IoRequest> reads = MakeReads(kDepth);
  for (IoRequest& r : reads) {
    r.start_ns = MonotonicNanos();
    ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  }
  ASSERT_EQ(engine_->Commit().value_or(-1), kDepth);
  for (const IoRequest& r : reads) {
    EXPECT_EQ(r.issue_ns, reads[0].issue_ns) << "one clock read after the submit call";
    EXPECT_GE(r.issue_ns, r.start_ns);
  }
  std::vector<IoRequest*> out(kDepth);
  int reaped = 0;
  while (reaped < kDepth) {
    absl::StatusOr<int> n = engine_->GetEvents(1, std::span<IoRequest*>(out));
    ASSERT_TRUE(n.ok()) << n.status();
    ASSERT_GT(*n, 0);
    for (int i = 0; i < *n; ++i) {
      EXPECT_EQ(out[i]->complete_ns, out[0]->complete_ns) << "one clock read per reap call";
      EXPECT_GE(out[i]->complete_ns, out[i]->issue_ns);
    }
    reaped += *n;
  }
  ExpectReadsCorrect(reads);
}

TEST_P(AsyncEngineTest, GetEventsNeverWaitsForRequestsNotSubmitted) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 0));
  std::vector<IoRequest*> out(kDepth);
  absl::StatusOr<int> n = engine_->GetEvents(4, std::span<IoRequest*>(out));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 0) << "nothing in flight: returns at once";

  std::vector<IoRequest> reads = MakeReads(2);
  for (IoRequest& r : reads) ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  n = engine_->GetEvents(2, std::span<IoRequest*>(out));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 0) << "queued but not committed: returns at once";
  EXPECT_EQ(engine_->inflight(), 2);

  ASSERT_EQ(engine_->Commit().value_or(-1), 2);
  n = engine_->GetEvents(8, std::span<IoRequest*>(out));  // min capped at the 2 in the kernel
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 2);
  EXPECT_EQ(engine_->inflight(), 0);
  ExpectReadsCorrect(reads);
}

TEST_P(AsyncEngineTest, GetEventsReturnsNoMoreThanTheOutputHolds) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 0));
  std::vector<IoRequest> reads = MakeReads(kDepth);
  for (IoRequest& r : reads) ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  ASSERT_EQ(engine_->Commit().value_or(-1), kDepth);
  std::vector<IoRequest*> out(5);
  absl::StatusOr<int> n = engine_->GetEvents(5, std::span<IoRequest*>(out));
  ASSERT_TRUE(n.ok()) << n.status();
  EXPECT_EQ(*n, 5);
  EXPECT_EQ(engine_->inflight(), kDepth - 5);
  EXPECT_EQ(ReapAll(kDepth - 5, 5).size(), static_cast<size_t>(kDepth - 5));
  EXPECT_EQ(engine_->inflight(), 0);
  ExpectReadsCorrect(reads);
}

TEST_P(AsyncEngineTest, DestroyingTheEngineWithRequestsInFlightWaitsForThem) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 0));
  std::vector<IoRequest> reads = MakeReads(kDepth);
  for (IoRequest& r : reads) ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  ASSERT_EQ(engine_->Commit().value_or(-1), kDepth);
  engine_.reset();  // must not return while the kernel may still write into the buffers
  for (int i = 0; i < kDepth; ++i) {
    EXPECT_EQ(FirstPatternMismatch(buffers_->at(i), reads[i].offset_bytes, kBlockBytes), -1);
  }
}

// A job loop that stops early (an error) leaves requests in the kernel and queued ones: Quiesce()
// waits for the first (their data has landed when it returns) and drops the second, so the job's
// buffers can be freed; the engine is idle and usable afterwards.
TEST_P(AsyncEngineTest, QuiesceWaitsForRequestsInTheKernelAndDropsQueuedOnes) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, kDepth / 2));
  std::vector<IoRequest> reads = MakeReads(kDepth);
  for (IoRequest& r : reads) ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  ASSERT_EQ(engine_->Commit().value_or(-1), kDepth / 2);  // the other half stays queued
  ASSERT_EQ(engine_->inflight(), kDepth);
  EXPECT_TRUE(engine_->Quiesce().ok());
  EXPECT_EQ(engine_->inflight(), 0);
  for (int i = 0; i < kDepth / 2; ++i) {
    EXPECT_EQ(FirstPatternMismatch(buffers_->at(i), reads[i].offset_bytes, kBlockBytes), -1)
        << "read " << i << " had not completed when Quiesce returned";
  }
  // The dropped half never reached the kernel: their buffers are as MakeReads left them.
  const std::vector<uint8_t> zeros(kBlockBytes, 0);
  for (int i = kDepth / 2; i < kDepth; ++i) {
    EXPECT_EQ(std::memcmp(buffers_->at(i), zeros.data(), kBlockBytes), 0) << "read " << i;
  }
  std::vector<IoRequest*> out(kDepth);
  EXPECT_EQ(engine_->GetEvents(0, std::span<IoRequest*>(out)).value_or(-1), 0);
  // Every slot is free again: a full queue fits and completes.
  std::vector<IoRequest> again = MakeReads(kDepth);
  for (IoRequest& r : again) ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
  while (engine_->inflight() > 0 && engine_->Commit().value_or(0) > 0) {
  }
  EXPECT_EQ(ReapAll(kDepth).size(), static_cast<size_t>(kDepth));
  ExpectReadsCorrect(again);
}

// A job is prepared (Init) on one thread and run on another.
TEST_P(AsyncEngineTest, AnotherThreadThanInitsSubmitsAndReaps) {
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 0));
  std::vector<IoRequest> reads = MakeReads(kDepth);
  std::thread worker([&] {
    for (IoRequest& r : reads) ASSERT_EQ(engine_->Queue(&r), QueueResult::kQueued);
    ASSERT_EQ(engine_->Commit().value_or(-1), kDepth);
    EXPECT_EQ(ReapAll(kDepth).size(), static_cast<size_t>(kDepth));
    EXPECT_TRUE(engine_->Quiesce().ok());
    EXPECT_EQ(engine_->inflight(), 0);
  });
  worker.join();
  ExpectReadsCorrect(reads);
}

TEST_P(AsyncEngineTest, InitRejectsIodepthOutsideTheRangeAndASecondInit) {
  for (int iodepth : {0, -1, 4097}) {
    absl::StatusOr<std::unique_ptr<IoEngine>> engine = CreateEngine(GetParam().engine);
    ASSERT_TRUE(engine.ok());
    EngineOptions options;
    options.iodepth = iodepth;
    EXPECT_EQ((*engine)->Init(options).code(), absl::StatusCode::kInvalidArgument) << iodepth;
  }
  ASSERT_NO_FATAL_FAILURE(InitEngine(kDepth, 0));
  EXPECT_EQ(engine_->Init(EngineOptions{}).code(), absl::StatusCode::kFailedPrecondition);
}

INSTANTIATE_TEST_SUITE_P(AsyncEngines, AsyncEngineTest,
                         ::testing::Values(Case{"libaio", engine_test::kLocalDiskBase, true},
                                           Case{"io_uring", engine_test::kLocalDiskBase, true},
                                           Case{"libaio", engine_test::kTmpfsBase, false},
                                           Case{"io_uring", engine_test::kTmpfsBase, false},
                                           Case{"io_uring", engine_test::kLocalDiskBase, false}),
                         CaseName);

}  // namespace
}  // namespace azbench
