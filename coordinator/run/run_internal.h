// Internal to running one scenario (coordinator/run/run.h): what the coordinator holds of each
// agent during a run, what the threads of a started run share, and the steps that run.cc (the
// sequence, the start, live progress and interrupts) hands to run_prepare.cc (the prepare barrier
// and the cleanup), run_stream.cc (each agent's event stream), run_phases.cc (the phase barrier)
// run_results.cc (op logs, the client_to_client join and the scenario's outcome) and
// run_fio_logs.cc (fio's log files). Not part of run.h's interface.
#ifndef AZBENCH_COORDINATOR_RUN_RUN_INTERNAL_H_
#define AZBENCH_COORDINATOR_RUN_RUN_INTERNAL_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <semaphore>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/synchronization/mutex.h"
#include "common/fio_log_writer.h"
#include "common/job_result.h"
#include "common/op_log_writer.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/run/agent_stream.h"
#include "coordinator/run/run.h"
#include "coordinator/run/run_progress.h"
#include "coordinator/scenario.h"
#include "coordinator/staged_interval.h"

namespace azbench::run_internal {

// What the coordinator holds of one agent during a run.
struct AgentRun {
  FleetMember* member = nullptr;
  std::string agent_id;
  int64_t offset_ns = 0;  // agent clock - coordinator clock
  bool prepared = false;
  bool started = false;
  bool finished = false;
  bool lost = false;
  std::string lost_reason;
  int64_t lost_at_ns = 0;
  int64_t start_ns = 0;  // coordinator clock
  int64_t end_ns = 0;
  size_t index = 0;  // its place in the run's agents (and in LiveRun::progress)
  // Its intervals and results as they stream in (agent_stream.h). Only its own stream thread
  // touches it until that thread ended, so it needs no lock.
  std::unique_ptr<AgentStream> stream;
  std::map<std::string, std::unique_ptr<OpLogWriter>> op_logs;  // by job name
  std::set<std::string> op_log_failed;  // jobs whose op log could not be written (said once)
  // fio's log files of its jobs (run_fio_logs.cc); null when no job writes one.
  std::unique_ptr<FioLogWriter> fio_logs;
  std::set<std::string> fio_log_only_jobs;  // their records are not op_log's: no CSV
  std::set<std::string> fio_log_failed;     // jobs whose fio logs could not be written (said once)
  // Raw records of client_to_client visibility jobs, kept until the run ends to be joined across
  // agents (visibility_join.h) before they are written.
  std::map<std::string, std::vector<OpRecord>> visibility_records;
  // Its results, taken from `stream` once every stream has ended, and where each one's interval
  // series is staged (with RunOptions::stage_db_path).
  std::vector<JobResult> results;
  std::vector<StagedSeries> staged;
  // Problems with this agent's part (its run failed after it finished, a result or an op log that
  // could not be read or written, a phase it could not be told to start): the scenario is not
  // complete.
  std::vector<std::string> errors;
  // The agent ended the run early on its own (it was stopping: SIGTERM, or a Cancel that did not
  // come from this coordinator).
  bool cancelled_by_agent = false;
  int phases_done = 0;  // PhaseDone events received (metadata's barrier)
  // From its RunFinished: the disks under its job directories over its run (fio's disk_util).
  std::vector<DiskUtil> disk_util;
  // Breaks of its stream that were resumed (resumable_run.h), said on each of its results.
  std::vector<std::string> resumed;
};

// What the threads of a started run share (its agents' streams, the phase barrier, the progress
// watcher): the run's settings and the locks over the agents' state.
struct LiveRun {
  LiveRun(std::vector<AgentRun>& runs, const RunOptions& options, const std::string& run_id,
          const std::vector<std::string>& c2c_jobs, int64_t start_ns);

  std::vector<AgentRun>& runs;
  const RunOptions& options;
  const std::string& run_id;
  const std::vector<std::string>& c2c_jobs;  // their op records are kept for the join
  const int64_t start_ns;                    // the common start, in the coordinator's clock
  absl::Mutex mu;  // guards every AgentRun's flags, counters and errors (not its stream)
  std::atomic<bool> all_done{false};  // every stream has ended and the results are collected
  absl::Mutex done_mu;  // set all_done under it: wakes the watcher as soon as every stream ended
  // At most one stream thread per core parses at a time: more would not go faster, only lengthen
  // the run queue, and on a loaded host starve gRPC's own threads (keepalive acks). No agent
  // waits for another's network: a slot is held only while parsing a message already received.
  std::counting_semaphore<> parse_slots;
  ProgressMeter progress;  // the agents' progress reports (under mu)
};

// run_stream.cc

// Starts the run on `r`'s agent at the common start (in the agent's clock) and reads its event
// stream until it ends, resuming it when it breaks (resumable_run.h): intervals and results into
// its AgentStream, the rest (started, progress, op logs, phases done, finished) into `r` under
// live.mu. A stream that ended before the agent finished makes it lost. Blocks; one thread per
// agent.
void StreamAgent(LiveRun& live, AgentRun& r);

// run_phases.cc

// The phase barrier of a phased workload (metadata), until live.all_done: once every agent still
// running has reported PhaseDone(k), phase k+1 is released on all of them at one instant (Proceed,
// phase_start_margin ahead, in each agent's own clock). An agent that cannot be told is cancelled.
void DrivePhaseBarriers(LiveRun& live);

// run_prepare.cc

// Prepares `run_id` on every agent of `runs` that is in the fleet (in parallel; with
// sharing=shared-file the first one alone before the others), keeping the prepared ones alive with
// Renew until the last has answered. Sets each agent's `prepared`, or adds its error to its
// `errors`; returns every agent's errors.
std::vector<std::string> PrepareEverywhere(std::vector<AgentRun>& runs, const Scenario& scenario,
                                           const std::string& run_id, const RunOptions& options);

// Cleanup (removing the files) of `run_id` on every agent that prepared it and was not lost, in
// parallel.
void CleanupEverywhere(std::vector<AgentRun>& runs, const std::string& run_id,
                       bool remove_files = true);

// run_results.cc

// Appends `records` to the op log file of (agent, job) under `dir`, creating it on first use.
absl::Status AppendOpLog(AgentRun& r, const std::string& dir, const std::string& job,
                         const std::vector<OpRecord>& records);

// The scenario's client_to_client visibility jobs (their agents' halves are joined after the run).
std::vector<std::string> ClientToClientJobs(const Scenario& scenario);

// Once every stream has ended (under the lock that guards `runs`): takes each agent's results from
// its stream, joins the client_to_client jobs `c2c_jobs` (writing their op logs under
// `op_log_dir`) and says on their results which clock offsets could not be measured again
// (`stale_clocks`).
void CollectResults(std::vector<AgentRun>& runs, const std::vector<std::string>& c2c_jobs,
                    const std::vector<std::string>& stale_clocks, const std::string& op_log_dir);

// run_fio_logs.cc

// Once the agents prepared: creates the fio log files of every prepared agent in `dir` (nothing
// when `dir` is empty or no job writes a fio log). A failure is an error of that agent.
void OpenFioLogs(std::vector<AgentRun>& runs, const Scenario& scenario, const std::string& dir);

// Appends a batch of `job`'s records to `r`'s fio logs when the job writes any (the first failure
// per job becomes an error of the agent). True when the records are for the fio logs only (the job
// has no op_log), so they go to no op log file.
bool AppendFioLogs(AgentRun& r, const std::string& job, int clone,
                   const std::vector<OpRecord>& records);

// Closes every agent's op logs and fio logs; a failure is an error of that agent.
void CloseOpLogs(std::vector<AgentRun>& runs);

// Fills `out` (results, lost agents, actual start and end instants, status and its detail) from
// the agents' runs once everything has ended. `spool_problem`: why streamed intervals were not
// (all) stored, or empty.
void AssembleOutcome(std::vector<AgentRun>& runs, const RunOptions& options,
                     const std::string& spool_problem, ScenarioResult& out);

}  // namespace azbench::run_internal

#endif  // AZBENCH_COORDINATOR_RUN_RUN_INTERNAL_H_
