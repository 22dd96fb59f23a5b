// io_uring: one ring per engine (liburing), as fio's io_uring engine.
//
// Ring: io_uring_queue_init_params(iodepth) with, where the kernel has them, SUBMIT_ALL (a bad SQE
// fails alone, as a CQE, instead of stopping the batch), COOP_TASKRUN, and SINGLE_ISSUER |
// DEFER_TASKRUN (completion work runs only when the submitting thread asks for events, which on
// tmpfs, where io-wq workers do the reads, lets them run without waking it for each completion;
// 1.5x the IOPS at qd16 here, bench/README.md). Every submit asks for events (GETEVENTS with no
// minimum, in the same io_uring_enter): a ring that ran the deferred work only when a reap found
// nothing ready left a request whose completion needed it (a buffered read that found its page
// locked by read-ahead) in flight while others completed inline, until the end of the run. The ring
// is created disabled (R_DISABLED) and enabled by the first Commit(), so that the thread that
// submits becomes its single issuer, whichever thread called Init(); after that, Commit(),
// GetEvents() and Quiesce() belong to that thread. Each flag set falls back on EINVAL
// (DEFER_TASKRUN 6.1, COOP_TASKRUN 5.19, SUBMIT_ALL 5.18). The SQ holds iodepth rounded up to a
// power of two, the CQ twice that, so the CQ never overflows.
//
// Queue() records the request in a pending array (kQueued), or answers kBusy when queued + in
// flight + not-yet-reaped requests already equal iodepth. Commit() turns at most `batch_submit`
// pending requests (0 = all) into SQEs, in queue order, and calls io_uring_submit once: so
// batch_submit is exactly the number of I/Os per io_uring_enter, as fio's iodepth_batch_submit.
// (SQEs are written at Commit() rather than at Queue() for that reason; the cost is the same.)
// EAGAIN/EBUSY/EINTR from the submit end the Commit with 0; the SQEs stay in the ring and go with
// the next Commit(), unless Quiesce() drops them first (it takes them back out of the ring).
// issue_ns of the submitted requests = one clock read after io_uring_submit returned.
// GetEvents() peeks a batch of CQEs (io_uring_peek_batch_cqe), waits with
// io_uring_wait_cqe_nr only if fewer than min_events are ready, stamps every CQE with one clock
// read per call and advances the CQ once. Before it blocks, when the call may return more than
// min_events (more requests in the kernel, room in `out`), it pauses options.wait_pause.pause_ns
// (2 us) while the recent blocking waits averaged under short_wait_ns (20 us), so that one wait
// collects several completions from io-wq (agent/engines/wait_pause.h); during the pause it stops
// early when a ring without DEFER_TASKRUN already shows min_events completions. So iodepth 1, and
// O_DIRECT's default of one completion per reap, never pause. user_data is the
// IoRequest*. result = cqe->res (bytes or -errno: a bad fd gives -EBADF, never an engine error).
//
// Registration, best effort (a failure never fails Init; it is remembered and readable below):
//   - EngineOptions::buffers -> io_uring_register_buffers; a request whose buffer_index names one
//   of
//     them uses IORING_OP_READ_FIXED / WRITE_FIXED (no per-I/O page pinning). The buffer must lie
//     inside buffers[buffer_index], else the kernel completes it with -EFAULT. Registration pins
//     the pages and counts against RLIMIT_MEMLOCK for users without CAP_IPC_LOCK: on failure
//     requests use plain IORING_OP_READ / WRITE.
//   - EngineOptions::fds -> io_uring_register_files; requests on those fds use the fixed-file index
//     (IOSQE_FIXED_FILE), found through an fd-indexed table. Other fds go as plain fds. The ring
//     keeps a reference to every registered file until the engine is destroyed: the job loop must
//     not close one of those fds and reuse its number for another file while the engine lives (the
//     table would still point at the old file).
//
// fsync/fdatasync: IORING_OP_FSYNC (IORING_FSYNC_DATASYNC for datasync), queued like any request
// and, as in fio, not a barrier: it covers the writes that completed before it started, not those
// still in flight next to it. Ops other than read, write and fsync complete inside Queue() with
// -EOPNOTSUPP.
//
// Capabilities: async, max_iodepth kMaxIodepth, supports_direct, no aligned buffers needed by the
// engine. Trap (reference/benchmarking.md): on tmpfs every read is handed to an io-wq worker
// thread; use a page-cached ext4 file as the fast io_uring target.
//
//   IoUringEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 64, .buffers = iovecs, .fds =
//   fds})); engine.Queue(&r);  ASSIGN_OR_RETURN(int n, engine.Commit());  engine.GetEvents(1, out);
#ifndef AZBENCH_AGENT_ENGINES_IO_URING_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_IO_URING_ENGINE_H_

#include <liburing.h>

#include <string>
#include <vector>

#include "agent/engines/io_engine.h"
#include "common/job_spec.h"

namespace azbench {

class IoUringEngine final : public IoEngine {
 public:
  static constexpr int kMaxIodepth = kMaxKernelAsyncIodepth;
  // Files are registered only when every fd is below this (the fd -> index table is fd-indexed).
  static constexpr int kMaxRegisteredFd = 1 << 20;

  // How Commit() enters the kernel: io_uring_submit_and_get_events, which publishes the prepared
  // SQEs (advances the ring's tail) and calls io_uring_enter once with IORING_ENTER_GETEVENTS and
  // no minimum, so the kernel also runs the completion work it deferred to this thread (as fio's
  // commit does). Tests pass one that publishes and then answers as a refusing kernel would.
  using SubmitFunction = int (*)(io_uring* ring);

  explicit IoUringEngine(SubmitFunction submit = &io_uring_submit_and_get_events)
      : submit_(submit) {}
  // Waits for every request the kernel still holds, then tears the ring down, so buffers handed to
  // the kernel are not written after the engine is gone.
  ~IoUringEngine() override;
  IoUringEngine(const IoUringEngine&) = delete;
  IoUringEngine& operator=(const IoUringEngine&) = delete;

  std::string_view name() const override { return "io_uring"; }
  EngineCapabilities capabilities() const override;
  // Sets up the ring, registers buffers and files as the options ask (best effort), preallocates
  // the hot-path arrays.
  // Errors: InvalidArgument (iodepth outside 1..kMaxIodepth, negative batch_submit),
  // FailedPrecondition (called twice), Unavailable (io_uring_queue_init refused, e.g. ENOSYS or
  // EPERM from kernel.io_uring_disabled, with the errno text). Registration failures are not
  // errors: see buffer_registration() and file_registration().
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  // Errors: Internal (io_uring_enter failed other than EAGAIN/EBUSY/EINTR, with the errno text).
  absl::StatusOr<int> Commit() override;
  // min_events is capped at the number of requests the kernel holds, so it never waits for requests
  // that were not submitted. Errors: Internal (waiting failed other than EINTR, with the errno
  // text).
  absl::StatusOr<int> GetEvents(int min_events, std::span<IoRequest*> out) override;
  int inflight() const override { return inflight_; }
  bool TrimMustWait() const override { return pending_count_ > 0; }
  // Also takes back the SQEs a refused submit left published in the ring, so no later Commit()
  // sends them.
  absl::Status Quiesce() override;
  // The failed registrations (buffer_registration(), file_registration()).
  std::vector<std::string> InitFallbacks() const override;

  // OK when the buffers were registered (or none were given); else why not (the errno text). Valid
  // after Init().
  const absl::Status& buffer_registration() const { return buffer_registration_; }
  // OK when the files were registered (or none were given); else why not.
  const absl::Status& file_registration() const { return file_registration_; }
  bool buffers_registered() const { return registered_buffer_count_ > 0; }
  bool files_registered() const { return !fixed_file_index_.empty(); }
  // Whether the ring defers completion work to the submitting thread (kernel 6.1 and later).
  bool defers_task_run() const { return defer_task_run_; }
  // Blocking waits so far, and how many of them began with a pause.
  uint64_t blocking_waits() const { return blocking_waits_; }
  uint64_t paused_waits() const { return paused_waits_; }

 private:
  void PrepareSqe(io_uring_sqe* sqe, IoRequest* request) const;
  void RegisterBuffers(const std::vector<iovec>& buffers);
  void RegisterFiles(const std::vector<int>& fds);

  SubmitFunction submit_;
  io_uring ring_{};
  bool ring_ready_ = false;
  bool disabled_ = false;  // created with R_DISABLED, not yet enabled by the submitting thread
  bool defer_task_run_ = false;
  int iodepth_ = 0;
  int batch_submit_ = 0;
  int registered_buffer_count_ = 0;
  std::vector<int>
      fixed_file_index_;  // fd -> fixed-file index, -1 when not registered; empty: none
  absl::Status buffer_registration_;
  absl::Status file_registration_;
  std::vector<IoRequest*> pending_;  // queued, not submitted, in queue order; pending_count_ valid
  int pending_count_ = 0;
  int prepared_ = 0;                 // leading pending_ entries already written to SQEs
  std::vector<io_uring_cqe*> cqes_;  // peek output, 2 * iodepth entries
  int in_kernel_ = 0;                // submitted, not yet reaped
  int inflight_ = 0;                 // pending + in kernel
  WaitPause wait_pause_;
  uint64_t blocking_waits_ = 0;
  uint64_t paused_waits_ = 0;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_IO_URING_ENGINE_H_
