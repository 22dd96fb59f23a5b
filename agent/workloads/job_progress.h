// A running job's live progress for fio's status line (agent/eta_status.h): per clone its run state
// and its bytes and ops per direction, written by the clone's own thread and read by any other,
// and the job's fixed figures that fio's ETA is computed from.
//
// Cost on the I/O path: the clone counts into plain members and publishes them with relaxed
// stores when it publishes the job's ops_done (every few hundred ops or 1 ms); state changes are a
// handful of stores per run.
#ifndef AZBENCH_AGENT_WORKLOADS_JOB_PROGRESS_H_
#define AZBENCH_AGENT_WORKLOADS_JOB_PROGRESS_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/time/time.h"
#include "common/job_spec.h"

namespace azbench {

// fio's run states of a job thread (its TD_*), as far as a clone has them.
enum class CloneRunState : uint8_t {
  kPending,    // not started: before its start instant, its startdelay or its stonewall group
  kRamp,       // in ramp_time
  kRunning,    // doing the job's I/O
  kVerifying,  // reading back what it wrote (do_verify, verify_only)
  kFsyncing,   // end_fsync
  kFinishing,  // waiting for its last requests, closing its series
  kDone,
  kFailed,  // ended with an error
};

// Read, write and trim, indexed as OpKind (fio's DDIR_RWDIR_CNT).
inline constexpr int kProgressDirections = 3;
using PerDirection = std::array<uint64_t, kProgressDirections>;

// One reading of a clone's progress. Fields read one by one: a reading may mix two instants a few
// ops apart, which a status line does not show.
struct CloneProgressSample {
  CloneRunState state = CloneRunState::kPending;
  PerDirection bytes{};  // since ramp_time ended (fio's io_bytes, which it resets then)
  PerDirection ops{};
  uint64_t epoch_monotonic_ns = 0;  // fio's epoch: I/O began, or ramp_time ended; 0: not yet
  uint64_t end_monotonic_ns = 0;    // 0: not ended
};

// Written by one clone's thread, read by any thread.
class CloneProgress {
 public:
  // The clone's I/O begins now; in ramp_time when `ramp`.
  void Start(uint64_t now_monotonic_ns, bool ramp);
  // ramp_time ended at `measured_start_monotonic_ns`.
  void EndRamp(uint64_t measured_start_monotonic_ns);
  void SetState(CloneRunState state) { state_.store(state, std::memory_order_release); }
  // The clone's totals since ramp_time ended.
  void Publish(const PerDirection& bytes, const PerDirection& ops);
  void End(uint64_t now_monotonic_ns, bool failed);
  CloneProgressSample Sample() const;

 private:
  std::atomic<CloneRunState> state_{CloneRunState::kPending};
  std::array<std::atomic<uint64_t>, kProgressDirections> bytes_{};
  std::array<std::atomic<uint64_t>, kProgressDirections> ops_{};
  std::atomic<uint64_t> epoch_ns_{0};
  std::atomic<uint64_t> end_ns_{0};
};

// What fio's status line knows of a job's clone before it runs (fio's per-thread options).
struct JobEtaProfile {
  char running_char = 'R';  // fio's R/r (read), W/w (write), M/m (mixed), D/d (trim): r = random
  std::array<bool, kProgressDirections> directions{};  // which directions the job does
  // fio's total_io_size: the clone's io_size (its own region's bytes where clones' regions differ)
  // x loops, twice that for a write job that verifies afterwards.
  uint64_t total_io_bytes = 0;
  bool time_based = false;
  absl::Duration runtime = absl::ZeroDuration();  // 0: none
  absl::Duration ramp_time = absl::ZeroDuration();
  absl::Duration start_delay = absl::ZeroDuration();
  PerDirection rate_bytes_per_s{};  // 0: none
  PerDirection rate_min_bytes_per_s{};
  PerDirection rate_iops{};
  PerDirection rate_iops_min{};
  bool stonewall = false;
  bool exitall = false;      // fio's exitall: the run ends with its first job
  bool kb_base_pow2 = true;  // kb_base=1024 (fio's is_pow2 for the rates' units)
  int files_open = 1;        // per clone while it runs
};

JobEtaProfile EtaProfileOf(const JobSpec& spec, int clone_index = 0);

// A job's progress: per numjobs clone, its profile and its CloneProgress.
struct JobProgress {
  explicit JobProgress(std::vector<JobEtaProfile> clone_profiles);
  std::vector<JobEtaProfile> profiles;
  std::vector<std::unique_ptr<CloneProgress>> clones;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_JOB_PROGRESS_H_
