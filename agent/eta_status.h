// fio's status figures (eta.c's calc_thread_status and thread_eta) from the clones' progress
// (agent/workloads/job_progress.h): who runs, the run string, the rates over the last display
// interval, the percentage done and the ETA. agent/eta_line.h prints them.
//
// As fio 3.33: no ETA before 3 s have elapsed; a clone's ETA comes from its bytes done against
// its total (io_size x loops, doubled by a verify phase), or from time for time_based, bounded by
// its runtime; a pending clone's from its runtime, startdelay and ramp_time or from its rate; the
// run's ETA is the longest, plus the ETA of each stonewalled job still waiting (the shortest with
// exitall). A line is due once 95% of --eta-interval passed since the last.
#ifndef AZBENCH_AGENT_ETA_STATUS_H_
#define AZBENCH_AGENT_ETA_STATUS_H_

#include <cstdint>
#include <optional>
#include <vector>

#include "absl/time/time.h"
#include "agent/eta_line.h"
#include "agent/workloads/job_progress.h"

namespace azbench {

// One clone at one instant.
struct CloneEtaInput {
  const JobEtaProfile* profile = nullptr;  // not null
  bool first_clone = true;                 // fio's stonewall belongs to a job's first clone only
  CloneProgressSample sample;
};

// fio's state character of a clone: P (pending), / (ramp_time), the profile's running_char,
// V (verifying), F (fsyncing), f (finishing), _ (done), X (failed).
char RunStateChar(const JobEtaProfile& profile, CloneRunState state);

// fio's thread_eta: the seconds the clone has left at `now_monotonic_ns`. `done_secs` is fio's
// global sum of the whole seconds that ended clones ran.
uint64_t CloneEtaSeconds(const JobEtaProfile& profile, const CloneProgressSample& sample,
                         uint64_t now_monotonic_ns, uint64_t done_secs);

class EtaCalculator {
 public:
  // `genesis_monotonic_ns`: the instant the run's clock starts (fio's genesis), which the
  // elapsed seconds count from.
  EtaCalculator(absl::Duration eta_interval, uint64_t genesis_monotonic_ns)
      : eta_interval_ms_(absl::ToInt64Milliseconds(eta_interval)),
        genesis_ns_(genesis_monotonic_ns),
        prev_ns_(genesis_monotonic_ns) {}
  // The figures of a line due at `now_monotonic_ns`; nullopt when none is (too early since the
  // last one, or no clone running or pending). The rates are over the time since the last line.
  std::optional<JobsEta> Calc(const std::vector<CloneEtaInput>& clones, uint64_t now_monotonic_ns);

 private:
  int64_t eta_interval_ms_;
  uint64_t genesis_ns_;
  uint64_t prev_ns_;
  PerDirection prev_bytes_{};
  PerDirection prev_ops_{};
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ETA_STATUS_H_
