#include "agent/engines/ftruncate_engine.h"

#include <unistd.h>

#include <cerrno>

#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {

EngineCapabilities FtruncateEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = 1};
}

absl::Status FtruncateEngine::Init(const EngineOptions& options) {
  return CheckIodepth(name(), options, 1);
}

QueueResult FtruncateEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  if (request->op == OpKind::kFsync) {
    request->result = ExecuteFsync(*request);
  } else if (request->op != OpKind::kWrite) {
    request->result = -EINVAL;
  } else {
    int ret;
    do {
      ret = ftruncate(request->fd, static_cast<off_t>(request->offset_bytes));
    } while (ret < 0 && errno == EINTR);
    request->result = ret < 0 ? -static_cast<int64_t>(errno) : request->length_bytes;
  }
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

}  // namespace azbench
