#include "agent/engines/falloc_engine.h"

#include <fcntl.h>

#include <cerrno>

#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {

EngineCapabilities FallocEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = 1};
}

absl::Status FallocEngine::Init(const EngineOptions& options) {
  return CheckIodepth(name(), options, 1);
}

QueueResult FallocEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  int mode = -1;
  switch (request->op) {
    case OpKind::kRead:
      mode = FALLOC_FL_KEEP_SIZE;
      break;
    case OpKind::kWrite:
      mode = 0;
      break;
    case OpKind::kTrim:
      mode = FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE;
      break;
    default:
      break;
  }
  if (request->op == OpKind::kFsync) {
    request->result = ExecuteFsync(*request);
  } else if (mode < 0) {
    request->result = -EOPNOTSUPP;
  } else {
    int ret;
    do {
      ret = fallocate(request->fd, mode, static_cast<off_t>(request->offset_bytes),
                      static_cast<off_t>(request->length_bytes));
    } while (ret < 0 && errno == EINTR);
    request->result = ret < 0 ? -static_cast<int64_t>(errno) : request->length_bytes;
  }
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

}  // namespace azbench
