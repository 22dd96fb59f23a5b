// vsync: lseek(2) then readv(2) / writev(2), one request at a time inside Queue(), as fio's vsync
// engine in its plain case.
//
// fio's vsync queues requests and, when the next one starts where the previous one ended in the
// same file, merges them into one readv/writev of several iovecs. This engine issues each request
// as its own one-iovec readv/writev: the same syscalls and the same bytes, but never merged, so at
// iodepth 1 (fio's default, where fio never merges either) the two agree; at higher depths fio
// would issue fewer, larger syscalls for sequential patterns.
//
// Results, timestamps and fsync as psync (psync_engine.h): bytes transferred or -errno, EINTR
// retried, issue_ns = start_ns, complete_ns after the syscall. Ops other than read, write and
// fsync complete with -EOPNOTSUPP.
//
//   VsyncEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 1}));
//   engine.Queue(&request);  // kCompleted; request.result holds bytes or -errno
#ifndef AZBENCH_AGENT_ENGINES_VSYNC_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_VSYNC_ENGINE_H_

#include "agent/engines/io_engine.h"

namespace azbench {

class VsyncEngine final : public IoEngine {
 public:
  static constexpr int kMaxIodepth = 1;

  std::string_view name() const override { return "vsync"; }
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth other than 1, negative batch_submit).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> /*out*/) override {
    return 0;
  }
  int inflight() const override { return 0; }
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_VSYNC_ENGINE_H_
