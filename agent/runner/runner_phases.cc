// The phase barrier of a run's phased (metadata) jobs, and Runner::Proceed that releases it.
#include <algorithm>
#include <memory>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "agent/runner/runner.h"
#include "agent/runner/runner_internal.h"
#include "common/clock.h"
#include "common/status_macros.h"

namespace azbench {

namespace runner_internal {

void PhaseBarrier::StartGroup(int phased_jobs) {
  absl::MutexLock lock(&mu_);
  phased_active_ = phased_jobs;
}

void PhaseBarrier::MaybeComplete(const PhaseDone& phase_done) {
  if (arrived_ == 0 || arrived_ < phased_active_ || reported_) return;
  reported_ = true;
  const int seq = barrier_seq_;
  if (!phase_done) {
    released_ = seq;
    release_at_realtime_ns_ = 0;
    return;
  }
  const std::string phase = arrived_phase_;
  mu_.Unlock();
  if (!phase_done(seq, phase)) cancel_->store(true);
  mu_.Lock();
}

absl::StatusOr<uint64_t> PhaseBarrier::Arrive(const std::string& phase,
                                              const PhaseDone& phase_done) {
  absl::MutexLock lock(&mu_);
  const int seq = barrier_seq_;
  ++arrived_;
  arrived_phase_ = phase;
  MaybeComplete(phase_done);
  auto released = [&]() ABSL_SHARED_LOCKS_REQUIRED(mu_) {
    return released_ >= seq || cancel_->load();
  };
  while (!released()) {
    mu_.AwaitWithTimeout(absl::Condition(&released), absl::Milliseconds(20));
  }
  if (barrier_seq_ == seq) {  // the first job through opens the next barrier
    barrier_seq_ = seq + 1;
    arrived_ = 0;
    reported_ = false;
  }
  if (cancel_->load()) return absl::CancelledError("run cancelled at a phase barrier");
  // Agent realtime -> monotonic. A release that reached this agent after its instant (a call lost
  // and made again, a slow link) gives that instant, in the past: the job starts at once and says
  // how late (agent/workloads/metadata/metadata.cc).
  const int64_t at = release_at_realtime_ns_;
  const int64_t now_real = RealtimeNanos();
  const uint64_t now_mono = MonotonicNanos();
  if (at == 0) return now_mono;  // "now"
  if (at >= now_real) return now_mono + static_cast<uint64_t>(at - now_real);
  return now_mono - std::min(static_cast<uint64_t>(now_real - at), now_mono - 1);
}

void PhaseBarrier::JobEnded(const PhaseDone& phase_done) {
  absl::MutexLock lock(&mu_);
  --phased_active_;
  MaybeComplete(phase_done);  // the others may be waiting for this job only
}

bool PhaseBarrier::Release(int phase_index, int64_t start_at_realtime_ns) {
  absl::MutexLock lock(&mu_);
  const bool waiting = reported_ && barrier_seq_ == phase_index;
  if (phase_index > released_) {
    released_ = phase_index;
    release_at_realtime_ns_ = start_at_realtime_ns;
  }
  return waiting;
}

}  // namespace runner_internal

absl::StatusOr<bool> Runner::Proceed(const std::string& run_id, int phase_index,
                                     int64_t start_at_realtime_ns) {
  RETURN_IF_ERROR(runner_internal::CheckStartAhead(start_at_realtime_ns));
  std::shared_ptr<PreparedRun> run;
  {
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) {
      return absl::NotFoundError(absl::StrCat("run '", run_id, "' is not known to this agent"));
    }
    run = it->second;
  }
  return run->barrier.Release(phase_index, start_at_realtime_ns);
}

}  // namespace azbench
