#include "agent/engines/libaio_engine.h"

#include <errno.h>
#include <time.h>

#include <algorithm>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {

// libaio's wrappers (io_setup, io_submit, io_getevents) return -errno instead of setting errno.

LibaioEngine::~LibaioEngine() {
  if (ctx_ == nullptr) return;
  Quiesce().IgnoreError();  // io_destroy still waits for what the kernel holds
  io_destroy(ctx_);
}

absl::Status LibaioEngine::Quiesce() {
  if (ctx_ == nullptr) return absl::OkStatus();
  absl::Status status;
  while (in_kernel_ > 0) {
    const int ret = io_getevents(ctx_, in_kernel_, iodepth_, events_.data(), nullptr);
    if (ret == -EINTR) continue;
    if (ret < 0) {
      status = absl::InternalError(
          absl::StrCat("engine libaio: waiting for the ", in_kernel_,
                       " requests still in the kernel failed: ", ErrnoText(-ret)));
      break;
    }
    for (int i = 0; i < ret; ++i) free_iocbs_[free_count_++] = events_[i].obj;
    in_kernel_ -= ret;
    inflight_ -= ret;
  }
  // Queued requests that never reached the kernel, and refused ones, are dropped.
  for (int i = 0; i < pending_count_; ++i) free_iocbs_[free_count_++] = pending_[i];
  inflight_ -= pending_count_ + refused_count_;
  pending_count_ = 0;
  refused_count_ = 0;
  return status;
}

EngineCapabilities LibaioEngine::capabilities() const {
  return EngineCapabilities{.is_async = true,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status LibaioEngine::Init(const EngineOptions& options) {
  if (ctx_ != nullptr) return absl::FailedPreconditionError("engine libaio: Init called twice");
  if (absl::Status s = CheckIodepth(name(), options, kMaxIodepth); !s.ok()) return s;
  io_context_t ctx = nullptr;
  if (int ret = io_setup(options.iodepth, &ctx); ret < 0) {
    return absl::UnavailableError(
        absl::StrCat("engine libaio: io_setup(", options.iodepth, "): ", ErrnoText(-ret)));
  }
  ctx_ = ctx;
  iodepth_ = options.iodepth;
  batch_submit_ = options.batch_submit;
  iocb_pool_.assign(iodepth_, iocb{});
  free_iocbs_.resize(iodepth_);
  for (int i = 0; i < iodepth_; ++i) free_iocbs_[i] = &iocb_pool_[iodepth_ - 1 - i];
  free_count_ = iodepth_;
  pending_.assign(iodepth_, nullptr);
  refused_.assign(iodepth_, nullptr);
  events_.assign(iodepth_, io_event{});
  return absl::OkStatus();
}

QueueResult LibaioEngine::Queue(IoRequest* request) {
  if (request->op == OpKind::kFsync) {
    if (inflight_ > 0) return QueueResult::kBusy;
    request->issue_ns = request->start_ns;
    request->result = ExecuteSync(*request);
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  if (request->op == OpKind::kTrim) {
    // As fio's libaio engine: a trim waits until the queued requests are submitted, then runs
    // inline (libaio has no trim), beside those in flight.
    if (pending_count_ > 0) return QueueResult::kBusy;
    request->issue_ns = request->start_ns;
    request->result = ExecuteTrim(*request);
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  if (request->op != OpKind::kRead && request->op != OpKind::kWrite) {
    request->issue_ns = request->start_ns;
    request->result = -EOPNOTSUPP;
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  if (inflight_ == iodepth_) return QueueResult::kBusy;
  iocb* cb = free_iocbs_[--free_count_];
  const long long offset = static_cast<long long>(request->offset_bytes);
  if (request->op == OpKind::kRead) {
    io_prep_pread(cb, request->fd, request->buffer, request->length_bytes, offset);
  } else {
    io_prep_pwrite(cb, request->fd, request->buffer, request->length_bytes, offset);
  }
  cb->data = request;
  pending_[pending_count_++] = cb;
  ++inflight_;
  return QueueResult::kQueued;
}

absl::StatusOr<int> LibaioEngine::Commit() {
  int batch = pending_count_;
  if (batch_submit_ > 0) batch = std::min(batch, batch_submit_);
  int done = 0;  // leading pending_ entries consumed (accepted or refused)
  while (done < batch) {
    const int ret = io_submit(ctx_, batch - done, pending_.data() + done);
    const uint64_t now = OpClockNanos();
    if (ret > 0) {
      for (int i = done; i < done + ret; ++i)
        static_cast<IoRequest*>(pending_[i]->data)->issue_ns = now;
      in_kernel_ += ret;
      done += ret;
    } else if (ret == -EINTR) {
      continue;
    } else if (ret == 0 || ret == -EAGAIN || ret == -ENOMEM) {
      break;  // out of kernel resources: the rest stays pending
    } else if (ret == -ENOSYS) {
      if (done > 0) break;
      return absl::InternalError(absl::StrCat("engine libaio: io_submit: ", ErrnoText(-ret)));
    } else {
      // io_submit names the first iocb it could not accept: complete that request with the error.
      iocb* cb = pending_[done++];
      auto* request = static_cast<IoRequest*>(cb->data);
      request->issue_ns = now;
      request->complete_ns = now;
      request->result = ret;
      refused_[refused_count_++] = request;
      free_iocbs_[free_count_++] = cb;
    }
  }
  if (done > 0) {
    // Only after a partial commit do entries remain; keep them in queue order at the front.
    pending_count_ -= done;
    if (pending_count_ > 0) {
      std::memmove(pending_.data(), pending_.data() + done, pending_count_ * sizeof(iocb*));
    }
  }
  return done;
}

absl::StatusOr<int> LibaioEngine::GetEvents(int min_events, std::span<IoRequest*> out) {
  const int capacity =
      static_cast<int>(std::min<size_t>(out.size(), static_cast<size_t>(iodepth_)));
  int n = 0;
  if (refused_count_ > 0 && capacity > 0) {
    n = std::min(refused_count_, capacity);
    std::copy_n(refused_.begin(), n, out.begin());
    refused_count_ -= n;
    if (refused_count_ > 0) {
      std::memmove(refused_.data(), refused_.data() + n, refused_count_ * sizeof(IoRequest*));
    }
  }
  const int max_events = std::min(capacity - n, in_kernel_);
  if (max_events > 0) {
    const int min_wait = std::clamp(min_events - n, 0, max_events);
    // A zero timeout lets libaio check the user-space ring and skip the syscall when it is empty.
    timespec no_wait{};
    int ret;
    do {
      ret = io_getevents(ctx_, min_wait, max_events, events_.data(),
                         min_wait == 0 ? &no_wait : nullptr);
    } while (ret == -EINTR);
    if (ret < 0) {
      if (n > 0) {  // hand out the refused requests now; the error shows again on the next call
        inflight_ -= n;
        return n;
      }
      return absl::InternalError(absl::StrCat("engine libaio: io_getevents: ", ErrnoText(-ret)));
    }
    const uint64_t now = OpClockNanos();
    for (int i = 0; i < ret; ++i) {
      const io_event& event = events_[i];
      auto* request = static_cast<IoRequest*>(event.data);
      request->result = static_cast<int64_t>(static_cast<long>(event.res));
      request->complete_ns = now;
      free_iocbs_[free_count_++] = event.obj;
      out[n++] = request;
    }
    in_kernel_ -= ret;
  }
  inflight_ -= n;
  return n;
}

}  // namespace azbench
