// posixaio: POSIX asynchronous I/O (aio_read(3) / aio_write(3) / aio_fsync(3), reaped with
// aio_error(3) / aio_return(3) and waited for with aio_suspend(3)), as fio's posixaio engine.
// glibc implements it with a pool of threads doing pread/pwrite, so it measures that pool.
//
// Queue() submits at once (there is no batch to commit) and answers kQueued, or kBusy when
// iodepth requests are in flight. issue_ns is read after aio_read/aio_write returned; a request
// the library refuses at submission completes inside Queue() (kCompleted) with -errno. GetEvents()
// scans the in-flight control blocks and, while fewer than min_events are done, blocks in
// aio_suspend. fsync is aio_fsync (O_SYNC, or O_DSYNC for datasync); other ops complete with
// -EOPNOTSUPP inside Queue().
//
//   PosixAioEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 8}));
//   engine.Queue(&r);  engine.Commit();  engine.GetEvents(1, out);
#ifndef AZBENCH_AGENT_ENGINES_POSIXAIO_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_POSIXAIO_ENGINE_H_

#include <aio.h>

#include <vector>

#include "agent/engines/io_engine.h"

namespace azbench {

class PosixAioEngine final : public IoEngine {
 public:
  // As libaio and io_uring: the control blocks are allocated once, at Init.
  static constexpr int kMaxIodepth = 4096;

  ~PosixAioEngine() override;

  std::string_view name() const override { return "posixaio"; }
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth outside 1..4096, negative batch_submit).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  // Requests are submitted inside Queue(): returns 0.
  absl::StatusOr<int> Commit() override { return 0; }
  // Errors: Internal (aio_suspend failed other than by EINTR or EAGAIN).
  absl::StatusOr<int> GetEvents(int min_events, std::span<IoRequest*> out) override;
  int inflight() const override { return inflight_; }
  bool TrimMustWait() const override { return inflight_ > 0; }
  // Waits for every submitted request; their results are dropped.
  absl::Status Quiesce() override;

 private:
  struct Slot {
    aiocb cb{};
    IoRequest* request = nullptr;  // null: free
  };
  // Reaps finished slots into `out` (from `count`), returns the new count.
  int Reap(std::span<IoRequest*> out, int count);

  std::vector<Slot> slots_;
  // aio_suspend's list: the in-flight control blocks, null where a slot is free.
  std::vector<const aiocb*> waiting_;
  int inflight_ = 0;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_POSIXAIO_ENGINE_H_
