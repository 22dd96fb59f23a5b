// What the files of agent/runner/runner.h's Runner share: a run as the runner holds it and the
// phase barrier of its phased jobs. runner.cc has the run lifecycle (reserve, run, cancel, renew,
// reap, clean up), runner_layout.cc parses each job through its family and lays out its files,
// runner_phases.cc has the phase barrier and Runner::Proceed.
#ifndef AZBENCH_AGENT_RUNNER_RUNNER_INTERNAL_H_
#define AZBENCH_AGENT_RUNNER_RUNNER_INTERNAL_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/synchronization/mutex.h"
#include "agent/confinement/job_confinement.h"
#include "agent/runner/runner.h"
#include "agent/workloads/dedupe_working_set.h"
#include "agent/workloads/workload.h"

namespace azbench {

namespace runner_internal {

// The status Runner::Run ends with, given each job's status in job order (nullopt: the job did
// not run, the run having been cancelled before its stonewall group): the first failed job's error,
// whatever its code (UNKNOWN too: s3_error.cc gives it to unexpected HTTP statuses); else OK.
absl::Status RunOutcome(const std::vector<std::optional<absl::Status>>& job_statuses);

// A start instant (agent realtime, 0 = now) at most kMaxStartAheadNs ahead.
absl::Status CheckStartAhead(int64_t start_at_realtime_ns);

// The phase barrier of a run (metadata): the phased jobs of the stonewall group that is running
// wait for each other between their phases. Once every phased job still running waits at the
// current barrier, it is reported (PhaseDone) and released by Runner::Proceed, or released at once
// when the sink does not drive phases. Barriers are counted over the run.
class PhaseBarrier {
 public:
  // Sends PhaseDone(phase_index, phase) to a sink that drives phases; false means the sink broke
  // (the run is then cancelled). Empty: the sink does not drive phases.
  using PhaseDone = std::function<bool(int phase_index, const std::string& phase)>;

  // `cancel` is the run's: it ends the waits at a barrier.
  explicit PhaseBarrier(std::atomic<bool>* cancel) : cancel_(cancel) {}

  // A stonewall group starts with `phased_jobs` phased jobs.
  void StartGroup(int phased_jobs);
  // RunControl::await_phase of a phased job that finished `phase`: waits at the current barrier
  // until it is released; returns the monotonic instant the next phase starts at, or Cancelled.
  absl::StatusOr<uint64_t> Arrive(const std::string& phase, const PhaseDone& phase_done);
  // A phased job ended: the others may be waiting for this job only.
  void JobEnded(const PhaseDone& phase_done);
  // Runner::Proceed: releases barrier `phase_index`, the next phase starting at
  // `start_at_realtime_ns` (0 = now). Returns whether the run was waiting at that barrier.
  bool Release(int phase_index, int64_t start_at_realtime_ns);

 private:
  // Sends PhaseDone when every phased job still running waits at the current barrier; without a
  // driving sink, releases it at once. Unlocks mu_ while the sink is called.
  void MaybeComplete(const PhaseDone& phase_done) ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_);

  std::atomic<bool>* const cancel_;
  absl::Mutex mu_;
  int barrier_seq_ ABSL_GUARDED_BY(mu_) = 0;    // barriers completed so far in the run
  int phased_active_ ABSL_GUARDED_BY(mu_) = 0;  // phased jobs still running
  int arrived_ ABSL_GUARDED_BY(mu_) = 0;        // of them, waiting at barrier_seq_
  std::string arrived_phase_ ABSL_GUARDED_BY(mu_);
  bool reported_ ABSL_GUARDED_BY(mu_) = false;  // PhaseDone(barrier_seq_) was sent
  int released_ ABSL_GUARDED_BY(mu_) = -1;      // highest barrier released
  int64_t release_at_realtime_ns_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace runner_internal

struct Runner::PreparedRun {
  std::vector<ConfinedJob> confined;  // directory descriptors the jobs' paths go through
  DedupeThreads dedupe_threads;       // every job's clones, for dedupe_global; outlives `jobs`
  std::vector<std::unique_ptr<Workload>> jobs;
  std::vector<std::string> created_dirs;  // per-agent subdirectories this run made
  std::vector<bool> stonewall;            // per job: waits for every job before it
  std::vector<int> wait_for;              // per job: the earlier job it starts after, or -1
  uint64_t interval_ns = 1'000'000'000;
  std::atomic<bool> cancel{false};
  // Held while `cancel` (through RequestCancel) or the end of a run is set, so that Runner::Run's
  // watcher, waiting on it with a condition, wakes at once instead of polling for them.
  absl::Mutex wake_mu;
  void RequestCancel() {
    absl::MutexLock lock(&wake_mu);
    cancel.store(true);
  }
  // Being laid out by its Prepare, which owns the fields above until it clears this (guarded by
  // Runner::mu_): nobody else runs, cleans up, reaps or cancels it meanwhile.
  bool preparing = false;
  std::string request_key;      // see PrepareAll; set before the run is published
  absl::Status prepare_status;  // a failed Prepare's answer (guarded by Runner::mu_)
  PrepareOutcome outcome;       // a finished Prepare's answer (guarded by Runner::mu_)
  bool running = false;
  bool ran = false;
  uint64_t lease_end_ns = 0;  // monotonic; 0 = no lease (guarded by Runner::mu_)

  // Phase barrier of the stonewall group that is running (see Runner::Run).
  runner_internal::PhaseBarrier barrier{&cancel};

  // Removes the files the jobs created and the per-agent subdirectories left empty; counts the
  // removed files in `*removed` when not null.
  void RemoveFiles(int* removed);
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_RUNNER_RUNNER_INTERNAL_H_
