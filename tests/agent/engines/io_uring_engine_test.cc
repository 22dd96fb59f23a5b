// io_uring specifics: buffers and files are registered as the options ask when the kernel allows
// it, and a registration failure falls back to plain ops (remembered and listed in
// InitFallbacks(), never an Init error).
#include "agent/engines/io_uring_engine.h"

#include <fcntl.h>
#include <sys/utsname.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <future>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/agent/engines/engine_test_util.h"

namespace azbench {
namespace {

using engine_test::AlignedBuffers;
using engine_test::FillPattern;
using engine_test::FirstPatternMismatch;
using engine_test::RunToCompletion;
using engine_test::TempDir;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class IoUringEngineTest : public ::testing::Test {
 protected:
  static constexpr int kBlocks = 8;

  void SetUp() override {
    dir_ = std::make_unique<TempDir>(engine_test::kLocalDiskBase);
    ASSERT_FALSE(dir_->path().empty());
    fd_ = open((dir_->path() + "/data").c_str(), O_RDWR | O_CREAT | O_DIRECT, 0600);
    ASSERT_GE(fd_, 0) << strerror(errno);
    buffers_ = std::make_unique<AlignedBuffers>(kBlocks, 4096);
    ASSERT_TRUE(buffers_->ok());
  }
  void TearDown() override {
    engine_.reset();
    if (fd_ >= 0) close(fd_);
    buffers_.reset();
    dir_.reset();
  }

  void Init(std::vector<iovec> buffers, std::vector<int> fds, bool register_buffers = true,
            bool register_files = true) {
    engine_ = std::make_unique<IoUringEngine>();
    EngineOptions options;
    options.iodepth = kBlocks;
    options.buffers = std::move(buffers);
    options.fds = std::move(fds);
    options.register_buffers = register_buffers;
    options.register_files = register_files;
    const absl::Status s = engine_->Init(options);
    ASSERT_TRUE(s.ok()) << s;
  }

  // Block i of the file through buffer i (buffer_index set).
  IoRequest BlockRequest(OpKind op, int i) {
    return IoRequest{.op = op,
                     .fd = fd_,
                     .buffer = buffers_->at(i),
                     .length_bytes = 4096,
                     .offset_bytes = i * 4096u,
                     .buffer_index = i};
  }

  // Writes then reads kBlocks blocks through the engine (buffer_index set) and checks the data.
  void ExpectRoundTrip() {
    std::vector<IoRequest> writes(kBlocks);
    for (int i = 0; i < kBlocks; ++i) {
      FillPattern(buffers_->at(i), i * 4096, 4096);
      writes[i] = BlockRequest(OpKind::kWrite, i);
    }
    ASSERT_TRUE(RunToCompletion(*engine_, writes).ok());
    std::vector<IoRequest> reads = writes;
    for (int i = 0; i < kBlocks; ++i) {
      std::memset(buffers_->at(i), 0, 4096);
      reads[i].op = OpKind::kRead;
    }
    ASSERT_TRUE(RunToCompletion(*engine_, reads).ok());
    for (int i = 0; i < kBlocks; ++i) {
      EXPECT_EQ(writes[i].result, 4096);
      EXPECT_EQ(reads[i].result, 4096);
      EXPECT_EQ(FirstPatternMismatch(buffers_->at(i), i * 4096, 4096), -1) << "block " << i;
    }
  }

  std::unique_ptr<TempDir> dir_;
  int fd_ = -1;
  std::unique_ptr<AlignedBuffers> buffers_;
  std::unique_ptr<IoUringEngine> engine_;
};

TEST_F(IoUringEngineTest, RegistersBuffersAndFilesWhenTheKernelAllows) {
  // Eight 4 KiB buffers fit the default 8 MiB memlock limit even without CAP_IPC_LOCK.
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_}));
  EXPECT_TRUE(engine_->buffer_registration().ok()) << engine_->buffer_registration();
  EXPECT_TRUE(engine_->file_registration().ok()) << engine_->file_registration();
  EXPECT_TRUE(engine_->buffers_registered());
  EXPECT_TRUE(engine_->files_registered());
  EXPECT_THAT(engine_->InitFallbacks(), IsEmpty());
  ExpectRoundTrip();
}

TEST_F(IoUringEngineTest, RegistersOnlyWhatTheOptionsAskFor) {
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_}, /*register_buffers=*/false,
                               /*register_files=*/true));
  EXPECT_FALSE(engine_->buffers_registered());
  EXPECT_TRUE(engine_->buffer_registration().ok()) << "not asked: not a failure";
  EXPECT_THAT(engine_->InitFallbacks(), IsEmpty());
  EXPECT_TRUE(engine_->files_registered());
  ExpectRoundTrip();  // buffer_index set, buffers not registered: plain reads and writes
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_}, /*register_buffers=*/true,
                               /*register_files=*/false));
  EXPECT_TRUE(engine_->buffers_registered());
  EXPECT_FALSE(engine_->files_registered());
  EXPECT_TRUE(engine_->file_registration().ok());
  EXPECT_THAT(engine_->InitFallbacks(), IsEmpty());
  ExpectRoundTrip();
}

TEST_F(IoUringEngineTest, NothingToRegisterIsNotAnError) {
  ASSERT_NO_FATAL_FAILURE(Init({}, {}));
  EXPECT_TRUE(engine_->buffer_registration().ok());
  EXPECT_TRUE(engine_->file_registration().ok());
  EXPECT_FALSE(engine_->buffers_registered());
  EXPECT_FALSE(engine_->files_registered());
  EXPECT_THAT(engine_->InitFallbacks(), IsEmpty());
  ExpectRoundTrip();  // buffer_index set, but no registered buffers: plain reads and writes
}

TEST_F(IoUringEngineTest, FailedBufferRegistrationFallsBackToPlainReadsAndWrites) {
  std::vector<iovec> buffers = buffers_->iovecs();
  buffers.push_back(iovec{reinterpret_cast<void*>(0x1000), 4096});  // unmapped: pinning fails
  ASSERT_NO_FATAL_FAILURE(Init(buffers, {fd_}));
  EXPECT_FALSE(engine_->buffers_registered());
  EXPECT_FALSE(engine_->buffer_registration().ok());
  EXPECT_NE(engine_->buffer_registration().message().find("io_uring_register_buffers"),
            std::string::npos)
      << engine_->buffer_registration();
  EXPECT_TRUE(engine_->files_registered());
  EXPECT_THAT(engine_->InitFallbacks(),
              ElementsAre(AllOf(HasSubstr("io_uring_register_buffers"),
                                HasSubstr("using plain reads and writes"))));
  ExpectRoundTrip();
}

TEST_F(IoUringEngineTest, FailedFileRegistrationFallsBackToPlainFds) {
  const int closed_fd = open("/dev/null", O_RDONLY);
  ASSERT_GE(closed_fd, 0);
  close(closed_fd);
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_, closed_fd}));
  EXPECT_FALSE(engine_->files_registered());
  EXPECT_FALSE(engine_->file_registration().ok());
  EXPECT_TRUE(engine_->buffers_registered());
  EXPECT_THAT(engine_->InitFallbacks(), ElementsAre(AllOf(HasSubstr("io_uring_register_files"),
                                                          HasSubstr("using plain fds"))));
  ExpectRoundTrip();
}

TEST_F(IoUringEngineTest, NegativeFdsAreNotRegistered) {
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_, -1}));
  EXPECT_FALSE(engine_->files_registered());
  EXPECT_EQ(engine_->file_registration().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(engine_->InitFallbacks(), ElementsAre(HasSubstr("using plain fds")));
  ExpectRoundTrip();
}

TEST_F(IoUringEngineTest, AnFdNotRegisteredStillWorksNextToRegisteredOnes) {
  const int other_fd = open((dir_->path() + "/other").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(other_fd, 0);
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_}));
  FillPattern(buffers_->at(0), 0, 4096);
  std::vector<IoRequest> requests = {
      {.op = OpKind::kWrite, .fd = other_fd, .buffer = buffers_->at(0), .length_bytes = 4096},
      {.op = OpKind::kFsync, .fd = other_fd},
  };
  ASSERT_TRUE(RunToCompletion(*engine_, requests).ok());
  EXPECT_EQ(requests[0].result, 4096);
  EXPECT_EQ(requests[1].result, 0);
  engine_.reset();
  close(other_fd);
}

// The agent prepares a job (Init) on one thread and runs it on the clone's: the ring is enabled by
// the thread that first submits, which becomes its single issuer on kernels with DEFER_TASKRUN.
TEST_F(IoUringEngineTest, AThreadOtherThanInitsRunsTheRingAndQuiesceWaitsOnIt) {
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_}));
  struct utsname uts;
  ASSERT_EQ(uname(&uts), 0);
  int major = 0, minor = 0;
  ASSERT_EQ(sscanf(uts.release, "%d.%d", &major, &minor), 2);
  if (major > 6 || (major == 6 && minor >= 1)) {
    EXPECT_TRUE(engine_->defers_task_run()) << "kernel " << uts.release << " has DEFER_TASKRUN";
  }
  std::thread worker([&] {
    ExpectRoundTrip();
    // Requests left in the kernel, plus queued ones never submitted: Quiesce, on this thread,
    // waits for the first and drops the second.
    std::vector<IoRequest> reads(kBlocks);
    for (int i = 0; i < kBlocks; ++i) {
      std::memset(buffers_->at(i), 0, 4096);
      reads[i] = BlockRequest(OpKind::kRead, i);
      ASSERT_EQ(engine_->Queue(&reads[i]), QueueResult::kQueued);
      if (i == kBlocks / 2 - 1) {
        ASSERT_EQ(engine_->Commit().value_or(-1), kBlocks / 2);
      }
    }
    ASSERT_EQ(engine_->inflight(), kBlocks);
    EXPECT_TRUE(engine_->Quiesce().ok());
    EXPECT_EQ(engine_->inflight(), 0);
    for (int i = 0; i < kBlocks / 2; ++i) {
      EXPECT_EQ(FirstPatternMismatch(buffers_->at(i), i * 4096, 4096), -1) << "block " << i;
    }
  });
  worker.join();
  engine_.reset();  // on this thread, after the worker quiesced: nothing left to wait for
}

// A kernel that refuses a submit (EAGAIN, io_uring_enter's answer when it cannot allocate
// requests): io_uring_submit has already published the SQEs (advanced the ring's tail), then the
// kernel took none. `g_refusals_left` submits are answered that way, the rest go to the kernel.
int g_refusals_left = 0;
int SubmitRefusingAtFirst(io_uring* ring) {
  if (g_refusals_left > 0) {
    --g_refusals_left;
    ring->sq.sqe_head = ring->sq.sqe_tail;
    io_uring_smp_store_release(ring->sq.ktail, ring->sq.sqe_tail);
    return -EAGAIN;
  }
  return io_uring_submit(ring);
}

// Requests the kernel refused stay in the submission ring; a job loop that gives up on them
// (runtime over, job failed) drops them with Quiesce() and then lets them go. No later submit may
// send them: the kernel would write into buffers, and complete requests, that are no longer the
// engine's.
TEST_F(IoUringEngineTest, QuiesceTakesRefusedRequestsBackOutOfTheRing) {
  engine_ = std::make_unique<IoUringEngine>(&SubmitRefusingAtFirst);
  EngineOptions options;
  options.iodepth = kBlocks;
  ASSERT_TRUE(engine_->Init(options).ok());
  std::vector<IoRequest> writes(kBlocks);
  for (int i = 0; i < kBlocks; ++i) {
    FillPattern(buffers_->at(i), i * 4096, 4096);
    writes[i] = BlockRequest(OpKind::kWrite, i);
  }
  ASSERT_TRUE(RunToCompletion(*engine_, writes).ok());

  constexpr int kDropped = kBlocks - 1;
  g_refusals_left = 1;
  {
    std::vector<IoRequest> dropped(kDropped);
    for (int i = 0; i < kDropped; ++i) {
      std::memset(buffers_->at(i), 0, 4096);
      dropped[i] = BlockRequest(OpKind::kRead, i);
      ASSERT_EQ(engine_->Queue(&dropped[i]), QueueResult::kQueued);
    }
    ASSERT_EQ(engine_->Commit().value_or(-1), 0) << "the first submit is refused";
    ASSERT_EQ(engine_->inflight(), kDropped);
    EXPECT_TRUE(engine_->Quiesce().ok());
    EXPECT_EQ(engine_->inflight(), 0);
  }  // the dropped requests are gone

  IoRequest read = BlockRequest(OpKind::kRead, kBlocks - 1);
  std::memset(buffers_->at(kBlocks - 1), 0, 4096);
  ASSERT_EQ(engine_->Queue(&read), QueueResult::kQueued);
  ASSERT_EQ(engine_->Commit().value_or(-1), 1);
  std::vector<IoRequest*> out(kBlocks);
  ASSERT_EQ(engine_->GetEvents(1, std::span<IoRequest*>(out)).value_or(-1), 1);
  EXPECT_EQ(out[0], &read) << "a completion of a dropped request came back";
  EXPECT_EQ(read.result, 4096);
  EXPECT_EQ(FirstPatternMismatch(buffers_->at(kBlocks - 1), (kBlocks - 1) * 4096, 4096), -1);
  EXPECT_TRUE(engine_->Quiesce().ok());
  // The kernel never read into the dropped requests' buffers.
  const std::vector<char> zeros(4096, 0);
  for (int i = 0; i < kDropped; ++i) {
    EXPECT_EQ(std::memcmp(buffers_->at(i), zeros.data(), 4096), 0) << "dropped read " << i;
  }
}

// Quiesce() on a thread that cannot wait for the ring (a DEFER_TASKRUN ring's completions run only
// for its issuer: the wait fails with EEXIST) says so instead of returning as if the kernel held
// nothing; the issuer's own Quiesce() then waits for the requests.
TEST_F(IoUringEngineTest, AQuiesceThatCannotWaitReportsTheRequestsLeft) {
  ASSERT_NO_FATAL_FAILURE(Init(buffers_->iovecs(), {fd_}));
  if (!engine_->defers_task_run()) {
    GTEST_SKIP() << "the ring has no DEFER_TASKRUN (kernel before 6.1): any thread can wait on it";
  }
  std::vector<IoRequest> writes(kBlocks);
  for (int i = 0; i < kBlocks; ++i) {
    FillPattern(buffers_->at(i), i * 4096, 4096);
    writes[i] = BlockRequest(OpKind::kWrite, i);
  }
  std::promise<void> submitted;
  std::promise<void> others_tried;
  std::thread issuer([&] {
    for (IoRequest& w : writes) EXPECT_EQ(engine_->Queue(&w), QueueResult::kQueued);
    EXPECT_EQ(engine_->Commit().value_or(-1), kBlocks);
    submitted.set_value();
    others_tried.get_future().wait();
    EXPECT_TRUE(engine_->Quiesce().ok());
    EXPECT_EQ(engine_->inflight(), 0);
  });
  submitted.get_future().wait();
  const absl::Status status = engine_->Quiesce();  // not the issuer
  EXPECT_THAT(status.message(),
              AllOf(HasSubstr("requests still in the kernel failed"), HasSubstr("EEXIST")));
  EXPECT_EQ(engine_->inflight(), kBlocks);
  others_tried.set_value();
  issuer.join();
}

// A request whose completion needs the kernel's deferred work (here a pipe read woken by a write;
// on a page-cache file system, a buffered read that found its page locked by read-ahead) completes
// while other requests keep completing inline at every submit: each Commit() also runs the
// deferred work. Before, a ring with DEFER_TASKRUN ran it only when a reap found nothing ready,
// so in a busy loop such a request stayed "in flight" until the end of the run (seen as a
// 2 s maximum latency in a 2 s buffered read at iodepth 4 on ext4, and the loop ran at depth 1).
TEST_F(IoUringEngineTest, ARequestWaitingForDeferredWorkCompletesWhileOthersCompleteInline) {
  ASSERT_NO_FATAL_FAILURE(Init({}, {}));
  int pipe_fds[2];
  ASSERT_EQ(pipe(pipe_fds), 0) << strerror(errno);
  // Buffered, on the local disk, in the page cache: io_uring reads it inline at submit (on tmpfs
  // an io-wq worker would, and its completion would go through the deferred work too).
  const int file_fd = open((dir_->path() + "/cached").c_str(), O_RDWR | O_CREAT, 0600);
  ASSERT_GE(file_fd, 0) << strerror(errno);
  ASSERT_EQ(pwrite(file_fd, buffers_->at(1), 4096, 0), 4096);

  char byte = 0;
  IoRequest pipe_read{.op = OpKind::kRead, .fd = pipe_fds[0], .buffer = &byte, .length_bytes = 1};
  ASSERT_EQ(engine_->Queue(&pipe_read), QueueResult::kQueued);
  ASSERT_EQ(engine_->Commit().value_or(-1), 1);
  ASSERT_EQ(write(pipe_fds[1], "x", 1), 1);  // the read can complete now, through deferred work

  // A busy loop: one cached read at a time, complete by the time its submit returns, and a reap of
  // at least one completion, which finds it ready.
  bool pipe_read_done = false;
  int cycles = 0;
  for (; cycles < 50 && !pipe_read_done; ++cycles) {
    IoRequest file_read{.op = OpKind::kRead,
                        .fd = file_fd,
                        .buffer = buffers_->at(0),
                        .length_bytes = 4096,
                        .offset_bytes = 0,
                        .buffer_index = -1};
    ASSERT_EQ(engine_->Queue(&file_read), QueueResult::kQueued);
    ASSERT_EQ(engine_->Commit().value_or(-1), 1);
    bool file_read_done = false;
    while (!file_read_done) {
      IoRequest* done[2];
      const absl::StatusOr<int> got = engine_->GetEvents(1, done);
      ASSERT_TRUE(got.ok()) << got.status();
      for (int i = 0; i < *got; ++i) {
        if (done[i] == &file_read) file_read_done = true;
        if (done[i] == &pipe_read) pipe_read_done = true;
      }
    }
    EXPECT_EQ(file_read.result, 4096);
  }
  const bool drained = engine_->Quiesce().ok();
  close(file_fd);
  close(pipe_fds[0]);
  close(pipe_fds[1]);
  ASSERT_TRUE(drained);
  EXPECT_TRUE(pipe_read_done) << "the pipe read was still in flight after " << cycles
                              << " submit-and-reap cycles";
  EXPECT_LE(cycles, 2) << "cycles before the pipe read completed";
  EXPECT_EQ(pipe_read.result, 1);
  EXPECT_EQ(byte, 'x');
}

// Reads one byte from each of two pipes whose writer sends them `delay` after the reads were
// submitted, waiting for one completion at a time: the first wait (which may return both) lasts
// at least `delay`.
void ReadTwoBytesWrittenAfter(IoUringEngine& engine, std::chrono::milliseconds delay) {
  int fds[2][2];
  ASSERT_EQ(pipe(fds[0]), 0) << strerror(errno);
  ASSERT_EQ(pipe(fds[1]), 0) << strerror(errno);
  char bytes[2] = {0, 0};
  IoRequest reads[2];
  for (int i = 0; i < 2; ++i) {
    reads[i] =
        IoRequest{.op = OpKind::kRead, .fd = fds[i][0], .buffer = &bytes[i], .length_bytes = 1};
    ASSERT_EQ(engine.Queue(&reads[i]), QueueResult::kQueued);
  }
  ASSERT_EQ(engine.Commit().value_or(-1), 2);
  std::thread writer([&] {
    std::this_thread::sleep_for(delay);
    for (int i = 0; i < 2; ++i) EXPECT_EQ(write(fds[i][1], "x", 1), 1);
  });
  IoRequest* done[2];
  int reaped = 0;
  absl::Status status;
  while (reaped < 2 && status.ok()) {
    const absl::StatusOr<int> got =
        engine.GetEvents(1, std::span<IoRequest*>(done + reaped, 2 - reaped));
    if (got.ok())
      reaped += *got;
    else
      status = got.status();
  }
  writer.join();
  for (auto& fd : fds) {
    close(fd[0]);
    close(fd[1]);
  }
  ASSERT_TRUE(status.ok()) << status;
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(reads[i].result, 1);
    EXPECT_EQ(bytes[i], 'x');
  }
}

// The pause before a blocking wait (agent/engines/wait_pause.h) is taken while waits are short:
// the first wait pauses, and its 20 ms turn the pause off for the next round. (A second wait in
// a round, for the one request left, could return no more than its minimum: it never pauses.)
TEST(IoUringEngineWaitPauseTest, PausesOnlyWhileWaitsAreShort) {
  IoUringEngine engine;
  EngineOptions options;
  options.iodepth = 2;
  options.wait_pause = {.pause_ns = 2000, .short_wait_ns = 100000};
  ASSERT_TRUE(engine.Init(options).ok());
  ASSERT_NO_FATAL_FAILURE(ReadTwoBytesWrittenAfter(engine, std::chrono::milliseconds(20)));
  const uint64_t first_round_waits = engine.blocking_waits();
  EXPECT_GE(first_round_waits, 1u);
  EXPECT_EQ(engine.paused_waits(), 1u);
  ASSERT_NO_FATAL_FAILURE(ReadTwoBytesWrittenAfter(engine, std::chrono::milliseconds(20)));
  EXPECT_GT(engine.blocking_waits(), first_round_waits);
  EXPECT_EQ(engine.paused_waits(), 1u);
}

TEST(IoUringEngineWaitPauseTest, ZeroPauseNeverPauses) {
  IoUringEngine engine;
  EngineOptions options;
  options.iodepth = 2;
  options.wait_pause.pause_ns = 0;
  ASSERT_TRUE(engine.Init(options).ok());
  ASSERT_NO_FATAL_FAILURE(ReadTwoBytesWrittenAfter(engine, std::chrono::milliseconds(5)));
  EXPECT_GE(engine.blocking_waits(), 1u);
  EXPECT_EQ(engine.paused_waits(), 0u);
}

// With one request in the kernel a wait can return only it: nothing to collect, no pause.
TEST(IoUringEngineWaitPauseTest, AWaitForTheOnlyRequestInFlightNeverPauses) {
  IoUringEngine engine;
  EngineOptions options;
  options.wait_pause = {.pause_ns = 2000, .short_wait_ns = 100000};
  ASSERT_TRUE(engine.Init(options).ok());
  int fds[2];
  ASSERT_EQ(pipe(fds), 0) << strerror(errno);
  char byte = 0;
  IoRequest read{.op = OpKind::kRead, .fd = fds[0], .buffer = &byte, .length_bytes = 1};
  ASSERT_EQ(engine.Queue(&read), QueueResult::kQueued);
  ASSERT_EQ(engine.Commit().value_or(-1), 1);
  std::thread writer([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    EXPECT_EQ(write(fds[1], "x", 1), 1);
  });
  IoRequest* done[1];
  const absl::StatusOr<int> got = engine.GetEvents(1, done);
  writer.join();
  close(fds[0]);
  close(fds[1]);
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, 1);
  EXPECT_EQ(byte, 'x');
  EXPECT_EQ(engine.blocking_waits(), 1u);
  EXPECT_EQ(engine.paused_waits(), 0u);
}

TEST_F(IoUringEngineTest, DeclaresAsyncWithDepthUpTo4096) {
  IoUringEngine engine;
  const EngineCapabilities caps = engine.capabilities();
  EXPECT_TRUE(caps.is_async);
  EXPECT_TRUE(caps.does_io);
  EXPECT_TRUE(caps.supports_direct);
  EXPECT_FALSE(caps.needs_aligned_buffers);
  EXPECT_EQ(caps.max_iodepth, 4096);
  EXPECT_EQ(engine.name(), "io_uring");
  EngineOptions options;
  options.iodepth = 4096;
  EXPECT_TRUE(engine.Init(options).ok());
}

}  // namespace
}  // namespace azbench
