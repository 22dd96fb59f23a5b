#include "agent/engines/vsync_engine.h"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>

#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"

namespace azbench {
namespace {

int64_t ExecuteVectored(const IoRequest& request) {
  if (request.op == OpKind::kFsync) return ExecuteFsync(request);
  if (request.op == OpKind::kTrim) return ExecuteTrim(request);
  if (request.op != OpKind::kRead && request.op != OpKind::kWrite) return -EOPNOTSUPP;
  if (lseek(request.fd, static_cast<off_t>(request.offset_bytes), SEEK_SET) < 0) {
    return -static_cast<int64_t>(errno);
  }
  const iovec iov{.iov_base = request.buffer, .iov_len = request.length_bytes};
  ssize_t ret;
  do {
    ret = request.op == OpKind::kRead ? readv(request.fd, &iov, 1) : writev(request.fd, &iov, 1);
  } while (ret < 0 && errno == EINTR);
  return ret < 0 ? -static_cast<int64_t>(errno) : ret;
}

}  // namespace

EngineCapabilities VsyncEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = true,
                            .supports_direct = true,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status VsyncEngine::Init(const EngineOptions& options) {
  return CheckIodepth(name(), options, kMaxIodepth);
}

QueueResult VsyncEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  request->result = ExecuteVectored(*request);
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

}  // namespace azbench
