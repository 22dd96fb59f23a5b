#include "agent/engines/psync_engine.h"

#include "agent/engines/engine_util.h"

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

}  // namespace azbench
