// pvsync and pvsync2: preadv(2) / pwritev(2), or preadv2(2) / pwritev2(2) with per-call flags,
// one request at a time inside Queue(), as fio's engines of those names.
//
// pvsync2 passes EngineOptions::rw_flags on every read and write: RWF_HIPRI for fio's `hipri`
// (polled completion, which the kernel honours only for O_DIRECT on a device with poll queues and
// otherwise treats as a plain request), RWF_NOWAIT for `nowait`. Results, timestamps and fsync as
// psync (psync_engine.h): bytes transferred or -errno, EINTR retried, issue_ns = start_ns,
// complete_ns after the syscall. Ops other than read, write and fsync complete with -EOPNOTSUPP.
//
//   PvsyncEngine engine(PvsyncEngine::Variant::kPvsync2);
//   RETURN_IF_ERROR(engine.Init({.iodepth = 1}));  engine.Queue(&request);  // kCompleted
#ifndef AZBENCH_AGENT_ENGINES_PVSYNC_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_PVSYNC_ENGINE_H_

#include "agent/engines/io_engine.h"

namespace azbench {

class PvsyncEngine final : public IoEngine {
 public:
  enum class Variant { kPvsync, kPvsync2 };
  static constexpr int kMaxIodepth = 1;

  explicit PvsyncEngine(Variant variant) : variant_(variant) {}

  std::string_view name() const override {
    return variant_ == Variant::kPvsync ? "pvsync" : "pvsync2";
  }
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth other than 1, negative batch_submit, rw_flags with pvsync).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  absl::StatusOr<int> Commit() override { return 0; }
  absl::StatusOr<int> GetEvents(int /*min_events*/, std::span<IoRequest*> /*out*/) override {
    return 0;
  }
  int inflight() const override { return 0; }

 private:
  Variant variant_;
  int rw_flags_ = 0;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_PVSYNC_ENGINE_H_
