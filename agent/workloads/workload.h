// One prepared job of any workload family, as the runner sees it: Prepare happened in the family's
// factory; Run does the measured work and returns one or more results (block_io: one; metadata:
// one per phase; small_files: one per file size; large_stream: one per pass), each named
// "<job>" or "<job>.<part>" so reports keep them apart.
#ifndef AZBENCH_AGENT_WORKLOADS_WORKLOAD_H_
#define AZBENCH_AGENT_WORKLOADS_WORKLOAD_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/file_layout.h"
#include "agent/workloads/job_progress.h"
#include "agent/workloads/run_control.h"
#include "common/job_result.h"
#include "common/job_spec.h"

namespace azbench {

// fio's exitall, exitall_on_error and exit_what of a job, and its reporting group, for the runner
// (agent/runner/job_exits.h).
struct ExitPolicy {
  bool exitall = false;
  bool exitall_on_error = false;
  ExitWhat what = ExitWhat::kGroup;
  int group_id = 0;
};

// fio's steady-state detection of a job (common/steady_state.h), for the runner
// (agent/runner/steady_state_monitor.h): with group_reporting the jobs of its reporting group are
// judged together, on the sum of their rates.
struct SteadyStatePolicy {
  SteadyStateSpec spec;  // off unless spec.enabled()
  bool group_reporting = false;
  int group_id = 0;
  // fio's ramp_time: sampling counts from the measured start, after it.
  absl::Duration ramp_time = absl::ZeroDuration();
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual const std::string& name() const = 0;
  // Fails only when the job could not run at all; op errors are inside the results.
  virtual absl::StatusOr<std::vector<JobResult>> Run(const RunControl& control) = 0;
  // Removes what Prepare and Run created and did not remove themselves. Safe to call twice.
  virtual absl::Status RemoveCreatedFiles() = 0;
  virtual const std::vector<LaidOutFile>& files() const = 0;
  virtual const std::vector<std::string>& warnings() const = 0;
  virtual uint64_t ops_done() const = 0;
  virtual uint64_t bytes_done() const = 0;
  // Per-clone run states and per-direction counters while it runs (fio's status line); valid as
  // long as the workload. Null: the family keeps none.
  virtual const JobProgress* progress() const { return nullptr; }
  // Whether Run calls RunControl::await_phase between its phases.
  virtual bool phased() const { return false; }
  // The phase names, in order, of a phased workload (for PhaseDone events).
  virtual std::vector<std::string> phase_names() const { return {}; }
  virtual bool stonewall() const { return false; }
  // The earlier job this one starts after (fio's wait_for); empty: none.
  virtual std::string wait_for() const { return ""; }
  virtual ExitPolicy exit_policy() const { return {}; }
  virtual SteadyStatePolicy steady_state() const { return {}; }
  // Joins the job's clones to their fio flows (flow, flow_id) now, before any job of its group
  // runs, so that no job runs unheld while another one's thread is still starting. Run joins
  // whatever is not joined yet and leaves when its clones end.
  virtual void JoinFlows(FlowRegistry& /*flows*/) {}
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_WORKLOAD_H_
