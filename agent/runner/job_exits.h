// fio's exitall, exit_what and exitall_on_error across the jobs of one run: when a clone ends,
// which jobs end with it. Each job runs with its own cancel flag (RunControl::cancel), set when the
// run is cancelled or when another job's end ends it; an ended job keeps and reports what it did.
//
//   JobExits exits(policies);                // one ExitPolicy per job, in run order
//   exits.Started(begin, end);               // a stonewall group starts
//   control.cancel = exits.cancel(i);
//   exits.CloneEnded(i, /*failed=*/false);   // RunControl::on_clone_end
#ifndef AZBENCH_AGENT_RUNNER_JOB_EXITS_H_
#define AZBENCH_AGENT_RUNNER_JOB_EXITS_H_

#include <atomic>
#include <cstddef>
#include <memory>
#include <vector>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "agent/workloads/workload.h"

namespace azbench {

class JobExits {
 public:
  explicit JobExits(std::vector<ExitPolicy> policies);

  // Job `job`'s cancel flag, for its RunControl::cancel.
  const std::atomic<bool>* cancel(size_t job) const { return flags_[job].get(); }
  // Jobs [begin, end) (a stonewall group) start running: they are the ones exit_what=stonewall
  // ends.
  void Started(size_t begin, size_t end);
  // A clone of `job` ended, with an error when `failed`. As fio: when any job of the run sets
  // exitall, or this one sets exitall_on_error and failed, the jobs its exit_what names end
  // (group: its reporting group; stonewall: the running stonewall group; all: every job, and the
  // later groups never start).
  void CloneEnded(size_t job, bool failed);
  // `job` reached its end early (fio's steady state): it ends, and no other job with it.
  void EndJob(size_t job) { End(job); }
  // The run was cancelled: every job ends.
  void CancelAll();
  // Whether `job` was ended, e.g. before it started (it then does not run, as in fio).
  bool Ended(size_t job) const { return flags_[job]->load(); }

 private:
  void End(size_t job) { flags_[job]->store(true); }

  const std::vector<ExitPolicy> policies_;
  bool any_exitall_ = false;
  std::vector<std::unique_ptr<std::atomic<bool>>> flags_;
  absl::Mutex mu_;
  size_t running_begin_ ABSL_GUARDED_BY(mu_) = 0;
  size_t running_end_ ABSL_GUARDED_BY(mu_) = 0;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_RUNNER_JOB_EXITS_H_
