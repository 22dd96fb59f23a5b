#include "agent/engines/pvsync_engine.h"

#include <sys/uio.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {

EngineCapabilities PvsyncEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status PvsyncEngine::Init(const EngineOptions& options) {
  if (options.rw_flags != 0 && variant_ == Variant::kPvsync) {
    return absl::InvalidArgumentError(absl::StrCat(
        "engine pvsync: per-call flags (hipri) need pvsync2, got flags ", options.rw_flags));
  }
  rw_flags_ = options.rw_flags;
  return CheckIodepth(name(), options, kMaxIodepth);
}

QueueResult PvsyncEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  const iovec iov{.iov_base = request->buffer, .iov_len = request->length_bytes};
  const off_t offset = static_cast<off_t>(request->offset_bytes);
  int64_t result;
  if (request->op == OpKind::kFsync) {
    result = ExecuteFsync(*request);
  } else if (request->op == OpKind::kTrim) {
    result = ExecuteTrim(*request);
  } else if (request->op != OpKind::kRead && request->op != OpKind::kWrite) {
    result = -EOPNOTSUPP;
  } else {
    const bool read = request->op == OpKind::kRead;
    ssize_t ret;
    do {
      if (variant_ == Variant::kPvsync) {
        ret = read ? preadv(request->fd, &iov, 1, offset) : pwritev(request->fd, &iov, 1, offset);
      } else {
        ret = read ? preadv2(request->fd, &iov, 1, offset, rw_flags_)
                   : pwritev2(request->fd, &iov, 1, offset, rw_flags_);
      }
    } while (ret < 0 && errno == EINTR);
    result = ret < 0 ? -static_cast<int64_t>(errno) : ret;
  }
  request->result = result;
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

}  // namespace azbench
