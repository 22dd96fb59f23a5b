#include "agent/engines/posixaio_engine.h"

#include <fcntl.h>

#include <algorithm>
#include <cerrno>

#include "absl/strings/str_cat.h"
#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"
#include "common/status_macros.h"

namespace azbench {

PosixAioEngine::~PosixAioEngine() { (void)Quiesce(); }

EngineCapabilities PosixAioEngine::capabilities() const {
  return EngineCapabilities{.is_async = true,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status PosixAioEngine::Init(const EngineOptions& options) {
  RETURN_IF_ERROR(CheckIodepth(name(), options, kMaxIodepth));
  slots_.assign(options.iodepth, Slot{});
  waiting_.assign(options.iodepth, nullptr);
  inflight_ = 0;
  return absl::OkStatus();
}

QueueResult PosixAioEngine::Queue(IoRequest* request) {
  if (inflight_ == static_cast<int>(slots_.size())) return QueueResult::kBusy;
  if (request->op == OpKind::kTrim) {
    // POSIX AIO has no trim: as fio's posixaio engine, it runs inline once nothing is in flight.
    if (inflight_ > 0) return QueueResult::kBusy;
    request->issue_ns = request->start_ns;
    request->result = ExecuteTrim(*request);
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  int index = 0;
  while (slots_[index].request != nullptr) ++index;
  Slot& slot = slots_[index];
  slot.cb = aiocb{};
  slot.cb.aio_fildes = request->fd;
  slot.cb.aio_buf = request->buffer;
  slot.cb.aio_nbytes = request->length_bytes;
  slot.cb.aio_offset = static_cast<off_t>(request->offset_bytes);
  slot.cb.aio_sigevent.sigev_notify = SIGEV_NONE;
  int ret;
  switch (request->op) {
    case OpKind::kRead:
      ret = aio_read(&slot.cb);
      break;
    case OpKind::kWrite:
      ret = aio_write(&slot.cb);
      break;
    case OpKind::kFsync:
      ret = aio_fsync(request->datasync ? O_DSYNC : O_SYNC, &slot.cb);
      break;
    default:
      ret = -1;
      errno = EOPNOTSUPP;
      break;
  }
  request->issue_ns = OpClockNanos();
  if (ret < 0) {
    // Refused at submission (EBADF for fsync of a bad fd, EAGAIN, EOPNOTSUPP): done now.
    request->result = -static_cast<int64_t>(errno);
    request->complete_ns = request->issue_ns;
    return QueueResult::kCompleted;
  }
  slot.request = request;
  waiting_[index] = &slot.cb;
  ++inflight_;
  return QueueResult::kQueued;
}

int PosixAioEngine::Reap(std::span<IoRequest*> out, int count) {
  for (size_t i = 0; i < slots_.size() && count < static_cast<int>(out.size()); ++i) {
    Slot& slot = slots_[i];
    if (slot.request == nullptr) continue;
    const int error = aio_error(&slot.cb);
    if (error == EINPROGRESS) continue;
    const ssize_t ret = aio_return(&slot.cb);
    IoRequest* request = slot.request;
    request->result = error != 0 ? -static_cast<int64_t>(error) : ret;
    if (request->op == OpKind::kFsync && error == 0) request->result = 0;
    request->complete_ns = OpClockNanos();
    slot.request = nullptr;
    waiting_[i] = nullptr;
    --inflight_;
    out[count++] = request;
  }
  return count;
}

absl::StatusOr<int> PosixAioEngine::GetEvents(int min_events, std::span<IoRequest*> out) {
  int count = Reap(out, 0);
  const int wanted = std::min<int>(min_events, out.size());
  while (count < wanted && inflight_ > 0) {
    if (aio_suspend(waiting_.data(), static_cast<int>(waiting_.size()), nullptr) < 0 &&
        errno != EINTR && errno != EAGAIN) {
      return absl::InternalError(absl::StrCat("posixaio: aio_suspend: ", ErrnoText(errno)));
    }
    count = Reap(out, count);
  }
  return count;
}

absl::Status PosixAioEngine::Quiesce() {
  // aio_cancel rarely cancels a request glibc's threads already hold: wait for all of them.
  for (size_t i = 0; i < slots_.size(); ++i) {
    Slot& slot = slots_[i];
    if (slot.request == nullptr) continue;
    while (aio_error(&slot.cb) == EINPROGRESS) {
      const aiocb* one[] = {&slot.cb};
      if (aio_suspend(one, 1, nullptr) < 0 && errno != EINTR && errno != EAGAIN) {
        return absl::InternalError(absl::StrCat("posixaio: aio_suspend: ", ErrnoText(errno), "; ",
                                                inflight_, " requests left in flight"));
      }
    }
    (void)aio_return(&slot.cb);
    slot.request = nullptr;
    waiting_[i] = nullptr;
    --inflight_;
  }
  return absl::OkStatus();
}

}  // namespace azbench
