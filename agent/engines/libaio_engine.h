// libaio: Linux native AIO (io_setup / io_submit / io_getevents), as fio's libaio engine.
//
// Queue() puts the request's iocb in a pending array (kQueued) or answers kBusy when queued + in
// flight + not-yet-reaped requests already equal iodepth. Commit() hands pending iocbs to
// io_submit: at most `batch_submit` of them per Commit() (0 = all pending), in queue order; a
// partial submit is retried for the rest of that batch, EAGAIN/ENOMEM end the Commit with what was
// submitted (the rest stay pending: call Commit() again after reaping). issue_ns of every request
// an io_submit call accepted = one clock read after that call returned. GetEvents() reaps with
// io_getevents(min, max) and stamps every event it returns with one clock read per call. result =
// bytes transferred or -errno (the kernel's res).
//
// A request io_submit refuses (it names the first iocb: EBADF for a bad fd, EINVAL for a bad offset
// or an fd without AIO support, EFAULT) is not an engine error: it completes with result = -errno,
// issue_ns = complete_ns = the clock after that io_submit call, and is returned by the next
// GetEvents() ahead of kernel events. Commit() counts it as submitted.
//
// fsync/fdatasync: most file systems reject IOCB_CMD_FSYNC/FDSYNC, so, as fio, the engine answers
// kBusy while anything is queued or in flight (the job loop commits and reaps, then queues it
// again) and, once idle, performs fsync(2)/fdatasync(2) inside Queue() and answers kCompleted
// (issue_ns = start_ns). That makes an fsync a barrier: it covers every write queued before it. Ops
// other than read, write and fsync complete inside Queue() with -EOPNOTSUPP.
//
// Capabilities: async, max_iodepth kMaxIodepth, supports_direct. needs_aligned_buffers is false
// because the engine itself does not need them; but libaio is only truly asynchronous on O_DIRECT
// files (on buffered files io_submit does the copy before it returns, so slat holds the whole I/O),
// and O_DIRECT needs buffers aligned to the logical block size, which the job loop provides for
// every engine.
//
//   LibaioEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 32}));
//   engine.Queue(&r);  ASSIGN_OR_RETURN(int n, engine.Commit());  engine.GetEvents(1, out);
#ifndef AZBENCH_AGENT_ENGINES_LIBAIO_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_LIBAIO_ENGINE_H_

#include <libaio.h>

#include <vector>

#include "agent/engines/io_engine.h"
#include "common/job_spec.h"

namespace azbench {

class LibaioEngine final : public IoEngine {
 public:
  static constexpr int kMaxIodepth = kMaxKernelAsyncIodepth;

  LibaioEngine() = default;
  // Waits for requests still in the kernel (Quiesce; io_destroy also blocks until they complete),
  // so buffers handed to the kernel are not written after the engine is gone.
  ~LibaioEngine() override;
  LibaioEngine(const LibaioEngine&) = delete;
  LibaioEngine& operator=(const LibaioEngine&) = delete;

  std::string_view name() const override { return "libaio"; }
  EngineCapabilities capabilities() const override;
  // io_setup(iodepth) and preallocation of every array the hot path uses. Errors: InvalidArgument
  // (iodepth outside 1..kMaxIodepth, negative batch_submit), FailedPrecondition (called twice),
  // Unavailable (io_setup refused, e.g. EAGAIN when fs.aio-max-nr is exhausted, with the errno
  // text).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  // Errors: Internal (ENOSYS from io_submit: no AIO in this kernel).
  absl::StatusOr<int> Commit() override;
  // min_events is capped at the number of requests the kernel holds, so it never waits for requests
  // that were not submitted. Errors: Internal (io_getevents failed other than EINTR, with the errno
  // text).
  absl::StatusOr<int> GetEvents(int min_events, std::span<IoRequest*> out) override;
  int inflight() const override { return inflight_; }
  bool TrimMustWait() const override { return pending_count_ > 0; }
  // Waits for every request the kernel holds (io_getevents until none is left; their results are
  // dropped) and drops queued requests never submitted and refused ones not yet reaped: afterwards
  // inflight() is 0 and the kernel writes into no buffer, unless io_getevents fails, when the
  // requests still in the kernel stay counted, the error says so, and the destructor's io_destroy
  // waits for them. The job loop calls it before the job's buffers can be freed.
  absl::Status Quiesce() override;

 private:
  io_context_t ctx_ = nullptr;
  int iodepth_ = 0;
  int batch_submit_ = 0;
  std::vector<iocb> iocb_pool_;    // one per queue slot
  std::vector<iocb*> free_iocbs_;  // stack of unused pool entries; free_count_ valid
  int free_count_ = 0;
  std::vector<iocb*> pending_;  // queued, not submitted, in queue order; pending_count_ valid
  int pending_count_ = 0;
  std::vector<IoRequest*> refused_;  // refused by io_submit, not yet reaped; refused_count_ valid
  int refused_count_ = 0;
  std::vector<io_event> events_;  // io_getevents output, iodepth entries
  int in_kernel_ = 0;             // accepted by io_submit, not yet reaped
  int inflight_ = 0;              // pending + in kernel + refused
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_LIBAIO_ENGINE_H_
