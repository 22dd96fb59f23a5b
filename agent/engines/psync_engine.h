// psync: pread(2) / pwrite(2) / fsync(2) / fdatasync(2), one request at a time inside Queue(), as
// fio's psync engine. Registered as "psync" and as its alias "sync".
//
// Queue() performs the syscall and answers kCompleted with `result` = bytes transferred (a short
// read or write is reported as is: the job loop decides what to do with it) or -errno; EINTR is
// retried. Timestamps: issue_ns = start_ns (a sync engine has no submission latency), complete_ns =
// one clock read after the syscall returned. Ops other than read, write and fsync complete with
// -EOPNOTSUPP.
//
// Capabilities: sync, max_iodepth 1; O_DIRECT files are accepted (alignment is the job loop's
// business: the engine itself needs no aligned buffers).
//
//   PsyncEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 1}));
//   engine.Queue(&request);  // kCompleted; request.result holds bytes or -errno
#ifndef AZBENCH_AGENT_ENGINES_PSYNC_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_PSYNC_ENGINE_H_

#include "agent/engines/engine_util.h"
#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"

namespace azbench {

class PsyncEngine final : public IoEngine {
 public:
  static constexpr int kMaxIodepth = 1;

  std::string_view name() const override { return "psync"; }
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth other than 1, negative batch_submit).
  absl::Status Init(const EngineOptions& options) override;
  // Inline, so that a job loop holding a PsyncEngine& (the class is final) calls it directly.
  QueueResult Queue(IoRequest* request) override {
    request->issue_ns = request->start_ns;
    request->result = ExecuteSync(*request);
    request->complete_ns = OpClockNanos();
    return QueueResult::kCompleted;
  }
  // Nothing is ever queued: returns 0.
  absl::StatusOr<int> Commit() override { return 0; }
  // Nothing is ever outstanding: returns 0 without waiting.
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> /*out*/) override {
    return 0;
  }
  int inflight() const override { return 0; }
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_PSYNC_ENGINE_H_
