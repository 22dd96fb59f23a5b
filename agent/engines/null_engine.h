// null: performs no I/O; every request completes inside Queue() with result = length_bytes (fsync:
// 0). It measures the framework: the job loop, accounting and histograms without any syscall. It
// still reads the clock once per request (complete_ns), as a real sync engine does, so the
// framework cost it shows is honest. issue_ns = start_ns.
//
// Capabilities: sync, does_io = false, max_iodepth kMaxIodepth. An iodepth above 1 is accepted and
// has no effect (fio's null engine behaves the same way for sync use).
//
//   NullEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 32}));
//   engine.Queue(&request);  // kCompleted, request.result == request.length_bytes
#ifndef AZBENCH_AGENT_ENGINES_NULL_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_NULL_ENGINE_H_

#include "agent/engines/io_engine.h"

namespace azbench {

class NullEngine final : public IoEngine {
 public:
  static constexpr int kMaxIodepth = 65536;

  std::string_view name() const override { return "null"; }
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth outside 1..kMaxIodepth, negative batch_submit).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> /*out*/) override {
    return 0;
  }
  int inflight() const override { return 0; }
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_NULL_ENGINE_H_
