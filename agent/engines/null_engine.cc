#include "agent/engines/null_engine.h"

#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {

EngineCapabilities NullEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = false,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status NullEngine::Init(const EngineOptions& options) {
  return CheckIodepth(name(), options, kMaxIodepth);
}

QueueResult NullEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  request->result = request->op == OpKind::kFsync ? 0 : static_cast<int64_t>(request->length_bytes);
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

}  // namespace azbench
