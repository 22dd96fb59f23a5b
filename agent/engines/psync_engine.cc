#include "agent/engines/psync_engine.h"

#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {

EngineCapabilities PsyncEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status PsyncEngine::Init(const EngineOptions& options) {
  return CheckIodepth(name(), options, kMaxIodepth);
}

QueueResult PsyncEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  request->result = ExecuteSync(*request);
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

}  // namespace azbench
