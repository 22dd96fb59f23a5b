// fio's steadystate_check over the jobs of one stonewall group: once per second it reads each
// job's measured ops and bytes, turns them into rates as fio does (per job, over the whole
// milliseconds since its last sample, in integers), sums them over a reporting group when the
// jobs set group_reporting, feeds the group's detector (agent/workloads/steady_state_detector.h)
// and ends every job of a group that became steady.
//
//   SteadyStateMonitor monitor(jobs, [&](size_t i) { exits.EndJob(i); }, is_running);
//   monitor.Start(start_ns);  ...  monitor.Stop();
//   if (auto ss = monitor.Result(i)) result.steadystate = *ss;
#ifndef AZBENCH_AGENT_RUNNER_STEADY_STATE_MONITOR_H_
#define AZBENCH_AGENT_RUNNER_STEADY_STATE_MONITOR_H_

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <thread>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "absl/synchronization/notification.h"
#include "agent/workloads/steady_state_detector.h"
#include "agent/workloads/workload.h"

namespace azbench {

class SteadyStateMonitor {
 public:
  struct Job {
    size_t index = 0;  // the job's index in the run, as end_job and running take it
    const Workload* workload = nullptr;
    SteadyStatePolicy policy;
  };
  // `jobs` in run order; those whose policy is off are left alone. `end_job` ends a job,
  // `running` says whether one still runs (fio samples only running jobs).
  SteadyStateMonitor(std::vector<Job> jobs, std::function<void(size_t)> end_job,
                     std::function<bool(size_t)> running);
  ~SteadyStateMonitor();  // Stop()

  bool active() const { return active_; }
  // Samples once per second from `start_ns` (monotonic), the jobs' start (Arm), on a thread of its
  // own until Stop. Nothing when no job asks for steady state.
  void Start(uint64_t start_ns);
  void Stop();
  // The jobs start at `start_ns`; each one's measured phase begins its ramp_time later.
  void Arm(uint64_t start_ns);
  // One check at monotonic `now_ns` (what the sampling thread does each second), after Arm.
  void Check(uint64_t now_ns);
  // The verdict of the job's group, once the job asked for steady state.
  std::optional<SteadyStateResult> Result(size_t index) const;

 private:
  struct Member {
    Job job;
    uint64_t epoch_ns = 0;  // measured start
    uint64_t prev_ns = 0;   // last sample
    uint64_t prev_ops = 0;
    uint64_t prev_bytes = 0;
    bool ramp_over = false;
  };
  // The jobs judged together: one reporting group with group_reporting, else one job.
  struct Unit {
    std::vector<Member> members;
    std::unique_ptr<SteadyStateDetector> detector;
  };

  const std::function<void(size_t)> end_job_;
  const std::function<bool(size_t)> running_;
  bool active_ = false;
  mutable absl::Mutex mu_;
  std::vector<Unit> units_ ABSL_GUARDED_BY(mu_);
  absl::Notification stop_;
  std::thread thread_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_RUNNER_STEADY_STATE_MONITOR_H_
