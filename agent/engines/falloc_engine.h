// falloc: fallocate(2) in place of data transfer, as fio's falloc engine. A read is
// fallocate(FALLOC_FL_KEEP_SIZE), a write fallocate(0) (which extends the file), a trim
// fallocate(FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE), each over [offset, offset + length).
// As fio, an op that succeeds counts its whole length as transferred (result = length_bytes),
// though no data moved. fsync and fdatasync are the real calls (psync's); -errno on failure.
//
//   FallocEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 1}));
//   engine.Queue(&request);  // kCompleted; request.result holds length_bytes or -errno
#ifndef AZBENCH_AGENT_ENGINES_FALLOC_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_FALLOC_ENGINE_H_

#include "agent/engines/io_engine.h"

namespace azbench {

class FallocEngine final : public IoEngine {
 public:
  std::string_view name() const override { return "falloc"; }
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

#endif  // AZBENCH_AGENT_ENGINES_FALLOC_ENGINE_H_
