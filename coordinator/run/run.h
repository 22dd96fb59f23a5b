// Running one scenario on its agents: prepare everywhere (a barrier: nothing starts until every
// agent has laid out its files), start everyone at one instant chosen by the coordinator and
// expressed in each agent's own clock (corrected by its measured offset), stream events, collect
// results.
//
// Phased workloads (metadata): an agent's stream reports PhaseDone after each phase and the agent
// waits; when every agent still running has reported it, the coordinator releases the next phase
// on all of them with Proceed at one instant (phase_start_margin ahead), mdtest's barrier across
// all clients.
//
// Failure semantics: an agent's stream that breaks is resumed (coordinator/fleet/resumable_run.h)
// within the agent's reattach grace, with nothing lost or counted twice, and a warning on its
// results; an agent whose stream cannot be resumed before it finished is recorded as lost (who,
// when, why); the results of the other agents are complete and kept, and what the lost agent
// streamed before (its interval series) is kept as its partial result; the scenario is then
// `partial`; with RunOptions::stage_db_path its streamed intervals are already in the database. A
// prepare failure on any agent fails the scenario before anything runs and removes what the others
// laid out.
#ifndef AZBENCH_COORDINATOR_RUN_RUN_H_
#define AZBENCH_COORDINATOR_RUN_RUN_H_

#include <atomic>
#include <functional>
#include <string>

#include "absl/time/time.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/scenario.h"

namespace azbench {

struct LiveProgress {
  int agents = 0;
  int running = 0;
  int done = 0;
  int lost = 0;
  uint64_t ops = 0;
  uint64_t bytes = 0;
  double elapsed_s = 0;
  // The running agents' rates, each from its own counters over its own clock (run_progress.h).
  double ops_per_s = 0;
  double bytes_per_s = 0;
};

struct RunOptions {
  absl::Duration prepare_timeout = absl::Minutes(30);  // laying out large files takes time
  // How long a prepared run waits on an agent for its Run (renewed while other agents prepare):
  // if the coordinator dies in between, the agents remove the run's files after this.
  absl::Duration prepared_lease = absl::Seconds(30);
  // How far in the future the common start is set: covers the Run RPC reaching every agent.
  absl::Duration start_margin = absl::Milliseconds(500);
  // The same for each later phase of a phased workload (metadata), after its barrier.
  absl::Duration phase_start_margin = absl::Milliseconds(50);
  uint32_t interval_ms = 1000;
  uint32_t progress_interval_ms = 250;
  std::function<void(const LiveProgress&)> on_progress;  // called from one thread
  // Said as it happens (from the agents' stream threads): an agent's stream that broke and was
  // resumed. Each is also kept among that agent's results' warnings.
  std::function<void(const std::string&)> on_warning;
  const std::atomic<bool>* interrupt = nullptr;  // set: cancel the runs, keep what came back
  std::string run_id_prefix = "azbench";
  // Where jobs with `op_log` have their raw records written, as "<agent>.<job>.csv.gz" (created on
  // the first record), and jobs with fio's log options their log files, as
  // "<agent>.<prefix>_<type>.<N>.log" (created when the run starts). Empty: records are received
  // and counted but not written.
  std::string op_log_dir;
  // Keep interval latency per agent, not per job (coordinator/run/interval_fold.h). false only to
  // measure the old behaviour (bench/coordinator_cost simulate --fold 0).
  bool fold_interval_latency = true;
  // The results database (after Store::BeginCampaign) to stream intervals into as they arrive
  // (coordinator/run/interval_spool.h): the coordinator then holds no interval series, the result
  // carries ScenarioResult::staged_stream_id and Store::SaveScenario completes their rows. Empty:
  // the series are held in memory until the run ends (callers without a database; tests).
  std::string stage_db_path;
};

ScenarioResult RunScenario(Fleet& fleet, const Scenario& scenario, const RunOptions& options);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_RUN_H_
