#include "agent/engines/io_uring_engine.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {

// liburing returns -errno instead of setting errno.

IoUringEngine::~IoUringEngine() {
  if (!ring_ready_) return;
  // io_uring_queue_exit does not wait for the requests the kernel holds: it unmaps the rings and
  // closes the ring's fd, and the kernel tears the ring down later, on a workqueue
  // (io_ring_exit_work cancels what it can and waits there for the rest). A read still in flight
  // could then write into the job loop's buffers after they were freed and reused. So Quiesce
  // waits for them first. The job loop has normally done so on the submitting thread already
  // (nothing is left here); on another thread a DEFER_TASKRUN ring's wait fails (EEXIST), which
  // is why, and a clone whose requests remain keeps its buffers (KeepBuffersForTheKernel).
  Quiesce().IgnoreError();
  io_uring_queue_exit(&ring_);
}

absl::Status IoUringEngine::Quiesce() {
  if (!ring_ready_) return absl::OkStatus();
  // The kernel may still write into the job loop's buffers for requests it holds. (From a thread
  // other than a DEFER_TASKRUN ring's issuer the wait fails with EEXIST: the job loop quiesces on
  // its own thread first.)
  absl::Status status;
  while (in_kernel_ > 0) {
    io_uring_cqe* cqe = nullptr;
    const int ret = io_uring_wait_cqe_nr(&ring_, &cqe, static_cast<unsigned>(in_kernel_));
    if (ret < 0 && ret != -EINTR) {
      status = absl::InternalError(
          absl::StrCat("engine io_uring: waiting for the ", in_kernel_,
                       " requests still in the kernel failed: ", ErrnoText(-ret)));
      break;
    }
    const unsigned ready = io_uring_cq_ready(&ring_);
    io_uring_cq_advance(&ring_, ready);
    in_kernel_ -= static_cast<int>(ready);
    inflight_ -= static_cast<int>(ready);
  }
  // Queued requests that never reached the kernel are dropped. Those a submit wrote to the
  // submission ring but the kernel refused (EAGAIN/EBUSY) are still published there, and the next
  // io_uring_enter would send them, pointing at requests the job loop has let go: the ring's tail
  // is taken back to the kernel's head, which unpublishes them (the kernel reads the tail afresh
  // at every submit and keeps nothing else of them).
  const unsigned head = io_uring_smp_load_acquire(ring_.sq.khead);
  if (ring_.sq.sqe_tail != head) {
    ring_.sq.sqe_head = head;
    ring_.sq.sqe_tail = head;
    io_uring_smp_store_release(ring_.sq.ktail, head);
  }
  inflight_ -= pending_count_;
  pending_count_ = 0;
  prepared_ = 0;
  return status;
}

EngineCapabilities IoUringEngine::capabilities() const {
  return EngineCapabilities{.is_async = true,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status IoUringEngine::Init(const EngineOptions& options) {
  if (ring_ready_) return absl::FailedPreconditionError("engine io_uring: Init called twice");
  if (absl::Status s = CheckIodepth(name(), options, kMaxIodepth); !s.ok()) return s;
  io_uring_params params{};
  // See the header: COOP_TASKRUN lets io-wq completions (tmpfs, buffered writes) wait for this
  // thread's next kernel entry instead of interrupting it, DEFER_TASKRUN goes further and runs them
  // only when the issuer asks for events; R_DISABLED lets the submitting thread enable the ring.
  const unsigned flag_sets[] = {
      IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_SINGLE_ISSUER |
          IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED,
      IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN, IORING_SETUP_SUBMIT_ALL, 0};
  int ret = -EINVAL;
  for (unsigned flags : flag_sets) {
    params = io_uring_params{};
    params.flags = flags;
    ret = io_uring_queue_init_params(static_cast<unsigned>(options.iodepth), &ring_, &params);
    if (ret != -EINVAL) break;
  }
  if (ret < 0) {
    return absl::UnavailableError(absl::StrCat("engine io_uring: io_uring_queue_init(",
                                               options.iodepth, "): ", ErrnoText(-ret)));
  }
  ring_ready_ = true;
  disabled_ = (params.flags & IORING_SETUP_R_DISABLED) != 0;
  defer_task_run_ = (params.flags & IORING_SETUP_DEFER_TASKRUN) != 0;
  iodepth_ = options.iodepth;
  batch_submit_ = options.batch_submit;
  wait_pause_ = WaitPause(options.wait_pause);
  pending_.assign(iodepth_, nullptr);
  cqes_.assign(params.cq_entries, nullptr);
  if (options.register_buffers) RegisterBuffers(options.buffers);
  if (options.register_files) RegisterFiles(options.fds);
  return absl::OkStatus();
}

void IoUringEngine::RegisterBuffers(const std::vector<iovec>& buffers) {
  if (buffers.empty()) return;
  const int ret =
      io_uring_register_buffers(&ring_, buffers.data(), static_cast<unsigned>(buffers.size()));
  if (ret < 0) {
    // ENOMEM: the pinned pages would exceed RLIMIT_MEMLOCK; anything else: the buffers do not
    // qualify.
    buffer_registration_ = absl::Status(
        ret == -ENOMEM ? absl::StatusCode::kResourceExhausted : absl::StatusCode::kInvalidArgument,
        absl::StrCat(
            "engine io_uring: io_uring_register_buffers(", buffers.size(),
            " buffers): ", ErrnoText(-ret),
            ret == -ENOMEM ? " (the pinned pages exceed RLIMIT_MEMLOCK, see ulimit -l)" : "",
            "; using plain reads and writes"));
    return;
  }
  registered_buffer_count_ = static_cast<int>(buffers.size());
}

void IoUringEngine::RegisterFiles(const std::vector<int>& fds) {
  if (fds.empty()) return;
  const int max_fd = *std::max_element(fds.begin(), fds.end());
  if (max_fd >= kMaxRegisteredFd || *std::min_element(fds.begin(), fds.end()) < 0) {
    file_registration_ = absl::InvalidArgumentError(
        absl::StrCat("engine io_uring: fds must lie in 0..", kMaxRegisteredFd - 1,
                     " to be registered; using plain fds"));
    return;
  }
  const int ret = io_uring_register_files(&ring_, fds.data(), static_cast<unsigned>(fds.size()));
  if (ret < 0) {
    file_registration_ =
        absl::UnavailableError(absl::StrCat("engine io_uring: io_uring_register_files(", fds.size(),
                                            " fds): ", ErrnoText(-ret), "; using plain fds"));
    return;
  }
  fixed_file_index_.assign(max_fd + 1, -1);
  // A duplicated fd keeps its first index; both indices refer to the same file.
  for (int i = static_cast<int>(fds.size()) - 1; i >= 0; --i) fixed_file_index_[fds[i]] = i;
}

std::vector<std::string> IoUringEngine::InitFallbacks() const {
  std::vector<std::string> fallbacks;
  for (const absl::Status* s : {&buffer_registration_, &file_registration_}) {
    if (!s->ok()) fallbacks.emplace_back(s->message());
  }
  return fallbacks;
}

QueueResult IoUringEngine::Queue(IoRequest* request) {
  if (request->op == OpKind::kTrim) {
    // As fio 3.33's io_uring engine: a trim waits until the queued requests are submitted, then
    // runs inline as BLKDISCARD, beside those in flight.
    if (pending_count_ > 0) return QueueResult::kBusy;
    request->issue_ns = request->start_ns;
    request->result = ExecuteTrim(*request);
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  if (request->op != OpKind::kRead && request->op != OpKind::kWrite &&
      request->op != OpKind::kFsync) {
    request->issue_ns = request->start_ns;
    request->result = -EOPNOTSUPP;
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  if (inflight_ == iodepth_) return QueueResult::kBusy;
  pending_[pending_count_++] = request;
  ++inflight_;
  return QueueResult::kQueued;
}

void IoUringEngine::PrepareSqe(io_uring_sqe* sqe, IoRequest* request) const {
  int fd = request->fd;
  bool fixed_file = false;
  if (fd >= 0 && fd < static_cast<int>(fixed_file_index_.size()) && fixed_file_index_[fd] >= 0) {
    fd = fixed_file_index_[fd];
    fixed_file = true;
  }
  const bool fixed_buffer =
      request->buffer_index >= 0 && request->buffer_index < registered_buffer_count_;
  switch (request->op) {
    case OpKind::kRead:
      if (fixed_buffer) {
        io_uring_prep_read_fixed(sqe, fd, request->buffer, request->length_bytes,
                                 request->offset_bytes, request->buffer_index);
      } else {
        io_uring_prep_read(sqe, fd, request->buffer, request->length_bytes, request->offset_bytes);
      }
      break;
    case OpKind::kWrite:
      if (fixed_buffer) {
        io_uring_prep_write_fixed(sqe, fd, request->buffer, request->length_bytes,
                                  request->offset_bytes, request->buffer_index);
      } else {
        io_uring_prep_write(sqe, fd, request->buffer, request->length_bytes, request->offset_bytes);
      }
      break;
    default:  // kFsync: Queue() let nothing else through
      io_uring_prep_fsync(sqe, fd, request->datasync ? IORING_FSYNC_DATASYNC : 0);
      break;
  }
  if (fixed_file) sqe->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data(sqe, request);
}

absl::StatusOr<int> IoUringEngine::Commit() {
  if (disabled_) {
    // This thread becomes the ring's single issuer. (liburing 2.3 declares io_uring_enable_rings
    // but its library does not export it.)
    if (syscall(__NR_io_uring_register, ring_.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0) <
        0) {
      return absl::InternalError(absl::StrCat(
          "engine io_uring: io_uring_register(IORING_REGISTER_ENABLE_RINGS): ", ErrnoText(errno)));
    }
    disabled_ = false;
  }
  int batch = pending_count_;
  if (batch_submit_ > 0) batch = std::min(batch, batch_submit_);
  while (prepared_ < batch) {
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) break;  // SQ full of entries the kernel has not consumed yet
    PrepareSqe(sqe, pending_[prepared_++]);
  }
  if (prepared_ == 0) return 0;
  const int ret = submit_(&ring_);
  if (ret < 0) {
    if (ret == -EAGAIN || ret == -EBUSY || ret == -EINTR) return 0;
    return absl::InternalError(absl::StrCat("engine io_uring: io_uring_submit: ", ErrnoText(-ret)));
  }
  const uint64_t now = OpClockNanos();
  // The kernel consumes SQEs in ring order, which is queue order.
  const int submitted = std::min(ret, prepared_);
  for (int i = 0; i < submitted; ++i) pending_[i]->issue_ns = now;
  in_kernel_ += submitted;
  prepared_ -= submitted;
  pending_count_ -= submitted;
  if (pending_count_ > 0) {
    std::memmove(pending_.data(), pending_.data() + submitted, pending_count_ * sizeof(IoRequest*));
  }
  return submitted;
}

absl::StatusOr<int> IoUringEngine::GetEvents(int min_events, std::span<IoRequest*> out) {
  const int max_events = static_cast<int>(
      std::min<size_t>({out.size(), cqes_.size(), static_cast<size_t>(std::max(in_kernel_, 0))}));
  if (max_events == 0) return 0;
  const unsigned min_wait = static_cast<unsigned>(std::clamp(min_events, 0, max_events));
  unsigned n = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(max_events));
  if (n == 0 && min_wait == 0 && defer_task_run_) {
    // Deferred completion work runs only inside io_uring_enter(GETEVENTS): a poll must enter too.
    const int ret = io_uring_get_events(&ring_);
    if (ret < 0 && ret != -EINTR) {
      return absl::InternalError(
          absl::StrCat("engine io_uring: io_uring_get_events: ", ErrnoText(-ret)));
    }
    n = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(max_events));
  }
  const bool blocks = n < min_wait;
  uint64_t wait_start_ns = 0;
  if (blocks) {
    ++blocking_waits_;
    wait_start_ns = OpClockNanos();
    // Only a wait that may return more than its minimum has anything to gain from the pause.
    if (static_cast<unsigned>(max_events) > min_wait && wait_pause_.ShouldPause()) {
      ++paused_waits_;
      const uint64_t pause_end_ns = wait_start_ns + wait_pause_.pause_ns();
      // A DEFER_TASKRUN ring shows nothing new until it enters the kernel: pause the whole time.
      while (OpClockNanos() < pause_end_ns &&
             (defer_task_run_ || io_uring_cq_ready(&ring_) < min_wait)) {
        CpuRelax();
      }
    }
    io_uring_cqe* cqe = nullptr;
    int ret;
    do {
      ret = io_uring_wait_cqe_nr(&ring_, &cqe, min_wait);
    } while (ret == -EINTR);
    if (ret < 0) {
      return absl::InternalError(
          absl::StrCat("engine io_uring: io_uring_wait_cqe_nr: ", ErrnoText(-ret)));
    }
    n = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(max_events));
  }
  const uint64_t now = OpClockNanos();
  if (blocks) wait_pause_.RecordWait(now - wait_start_ns);
  for (unsigned i = 0; i < n; ++i) {
    auto* request = static_cast<IoRequest*>(io_uring_cqe_get_data(cqes_[i]));
    request->result = cqes_[i]->res;
    request->complete_ns = now;
    out[i] = request;
  }
  io_uring_cq_advance(&ring_, n);
  in_kernel_ -= static_cast<int>(n);
  inflight_ -= static_cast<int>(n);
  return static_cast<int>(n);
}

}  // namespace azbench
