// ftruncate: a write is ftruncate(2) of the file to the write's offset, as fio's ftruncate engine;
// any other data op completes with -EINVAL, as in fio. As fio, a truncate that succeeds counts the
// write's whole length as transferred (result = length_bytes), though no data moved. fsync and
// fdatasync are the real calls (psync's), where fio's engine refuses them with EINVAL too.
//
//   FtruncateEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 1}));
//   engine.Queue(&request);  // kCompleted; request.result holds length_bytes or -errno
#ifndef AZBENCH_AGENT_ENGINES_FTRUNCATE_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_FTRUNCATE_ENGINE_H_

#include "agent/engines/io_engine.h"

namespace azbench {

class FtruncateEngine final : public IoEngine {
 public:
  std::string_view name() const override { return "ftruncate"; }
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

#endif  // AZBENCH_AGENT_ENGINES_FTRUNCATE_ENGINE_H_
