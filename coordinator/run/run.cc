// Running one scenario (coordinator/run/run.h), as its steps: the agents' run state set up, the
// prepare barrier passed (run_prepare.cc), intervals staged in the results database when there is
// one, the common start chosen and every agent's event stream read until it ends (run_stream.cc)
// while the phases of a phased workload are released at one instant (run_phases.cc), live progress
// is reported and an interrupt turned into Cancel; then the run cleaned up and what came back made
// into the ScenarioResult (run_results.cc).
#include "coordinator/run/run.h"

#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/clock.h"
#include "coordinator/run/agent_stream.h"
#include "coordinator/run/interval_spool.h"
#include "coordinator/run/run_internal.h"

namespace azbench {

namespace run_internal {

LiveRun::LiveRun(std::vector<AgentRun>& runs, const RunOptions& options, const std::string& run_id,
                 const std::vector<std::string>& c2c_jobs, int64_t start_ns)
    : runs(runs),
      options(options),
      run_id(run_id),
      c2c_jobs(c2c_jobs),
      start_ns(start_ns),
      parse_slots(static_cast<std::ptrdiff_t>(std::max(2u, std::thread::hardware_concurrency()))),
      progress(runs.size(), start_ns) {}

}  // namespace run_internal

namespace {

using run_internal::AgentRun;
using run_internal::LiveRun;

std::string MakeRunId(const std::string& prefix, const Scenario& scenario) {
  static std::mt19937_64 rng(std::random_device{}());
  return absl::StrCat(prefix, "-", scenario.index, "-", absl::Hex(rng()));
}

// One AgentRun per agent of the scenario, in its order; an agent not in the fleet (unreachable at
// connect) is lost from the start.
std::vector<AgentRun> SetUpAgentRuns(Fleet& fleet, const Scenario& scenario,
                                     const RunOptions& options) {
  std::vector<AgentRun> runs;
  for (const std::string& id : scenario.agent_ids) {
    AgentRun r;
    r.agent_id = id;
    r.index = runs.size();
    r.member = fleet.Find(id);
    if (r.member == nullptr) {
      r.lost = true;
      r.lost_reason = "not in the fleet (unreachable at connect)";
      r.lost_at_ns = RealtimeNanos();
    } else {
      r.offset_ns = r.member->info.clock_offset_ns;
    }
    r.stream = std::make_unique<AgentStream>(r.offset_ns, options.interval_ms * 1'000'000ULL,
                                             options.fold_interval_latency);
    runs.push_back(std::move(r));
  }
  return runs;
}

// Where the intervals go as they arrive: with a results database, written there (interval_spool.h)
// through new AgentStreams; when it cannot be opened, they are held in memory as without one, and
// `problem` says why.
struct Staging {
  std::unique_ptr<IntervalSpool> spool;
  std::string problem;
};

Staging StageIntervals(std::vector<AgentRun>& runs, const Scenario& scenario,
                       const RunOptions& options) {
  Staging staging;
  if (options.stage_db_path.empty()) return staging;
  absl::StatusOr<std::unique_ptr<IntervalSpool>> opened =
      IntervalSpool::Open(options.stage_db_path, scenario.key);
  if (!opened.ok()) {
    staging.problem = absl::StrCat("intervals held in memory: ", opened.status().message());
    return staging;
  }
  staging.spool = std::move(*opened);
  for (AgentRun& r : runs) {
    r.stream = std::make_unique<AgentStream>(r.offset_ns, options.interval_ms * 1'000'000ULL,
                                             options.fold_interval_latency, staging.spool.get(),
                                             r.agent_id);
  }
  return staging;
}

// Every agent (of the run) cancelled, in parallel: an unresponsive agent holds no other.
void CancelEverywhere(LiveRun& live) {
  std::vector<std::thread> cancels;
  for (AgentRun& r : live.runs) {
    if (r.member == nullptr) continue;
    cancels.emplace_back([&] { (void)r.member->client->Cancel(live.run_id, absl::Seconds(5)); });
  }
  for (auto& t : cancels) t.join();
}

// Live progress and interrupt handling, every progress interval until every stream has ended.
void WatchUntilDone(LiveRun& live) {
  const RunOptions& options = live.options;
  bool cancelled = false;
  while (!live.all_done.load()) {
    {
      absl::MutexLock lock(&live.done_mu);
      live.done_mu.AwaitWithTimeout(
          absl::Condition(
              +[](std::atomic<bool>* done) { return done->load(); }, &live.all_done),
          absl::Milliseconds(options.progress_interval_ms));
    }
    if (options.interrupt != nullptr && options.interrupt->load() && !cancelled) {
      cancelled = true;
      CancelEverywhere(live);
    }
    if (!options.on_progress) continue;
    LiveProgress p;
    {
      absl::MutexLock lock(&live.mu);
      for (const AgentRun& r : live.runs) {
        ++p.agents;
        if (r.lost) {
          ++p.lost;
        } else if (r.finished) {
          ++p.done;
        } else if (r.started) {
          ++p.running;
        }
      }
      live.progress.Sample(RealtimeNanos(), p);
    }
    options.on_progress(p);
  }
}

// Starts the run on every agent in the fleet at `start_ns` and reads their streams until every one
// has ended, with the phase barrier and the progress watcher beside them; then takes the results
// (CollectResults) and closes the op logs before the watcher and the barrier stop.
void RunAndCollect(std::vector<AgentRun>& runs, const RunOptions& options,
                   const std::string& run_id, const std::vector<std::string>& c2c_jobs,
                   const std::vector<std::string>& stale_clocks, int64_t start_ns) {
  LiveRun live(runs, options, run_id, c2c_jobs, start_ns);
  std::vector<std::thread> streams;
  for (AgentRun& r : runs) {
    if (r.member == nullptr) continue;
    streams.emplace_back([&live, &r] { run_internal::StreamAgent(live, r); });
  }
  std::thread phase_driver([&live] { run_internal::DrivePhaseBarriers(live); });
  std::thread watcher([&live] { WatchUntilDone(live); });
  for (auto& t : streams) t.join();
  {
    absl::MutexLock lock(&live.mu);  // the watcher and phase driver still read `runs`
    run_internal::CollectResults(runs, c2c_jobs, stale_clocks, options.op_log_dir);
  }
  run_internal::CloseOpLogs(runs);
  {
    absl::MutexLock lock(&live.done_mu);  // Await re-checks all_done when this unlocks
    live.all_done.store(true);
  }
  watcher.join();
  phase_driver.join();
}

}  // namespace

ScenarioResult RunScenario(Fleet& fleet, const Scenario& scenario, const RunOptions& options) {
  ScenarioResult out;
  out.scenario = scenario;
  if (scenario.skipped) {
    out.status = ScenarioStatus::kSkipped;
    out.status_detail = scenario.skip_reason;
    return out;
  }
  const std::string run_id = MakeRunId(options.run_id_prefix, scenario);
  const std::vector<std::string> c2c_jobs = run_internal::ClientToClientJobs(scenario);
  // A client_to_client join compares the writer's and the readers' clocks: measure the offsets now,
  // not only at connect, which may be hours ago (clocks drift apart). A failed measurement keeps
  // the earlier offset and says so on the readers' results.
  std::vector<std::string> stale_clocks;
  if (!c2c_jobs.empty()) {
    stale_clocks = RemeasureClockOffsets(fleet, scenario.agent_ids, 8, absl::Seconds(5));
  }
  out.clock_offsets = ClockOffsetsOf(fleet, scenario.agent_ids);  // the offsets this run uses
  std::vector<AgentRun> runs = SetUpAgentRuns(fleet, scenario, options);

  // The prepare barrier: nothing starts unless every agent laid out its files.
  const std::vector<std::string> prepare_errors =
      run_internal::PrepareEverywhere(runs, scenario, run_id, options);
  if (!prepare_errors.empty()) {
    run_internal::CleanupEverywhere(runs, run_id);
    out.status = ScenarioStatus::kFailed;
    out.status_detail = absl::StrCat("prepare failed: ", absl::StrJoin(prepare_errors, "; "));
    return out;
  }

  Staging staging = StageIntervals(runs, scenario, options);
  run_internal::OpenFioLogs(runs, scenario, options.op_log_dir);
  // The common start, in the coordinator's clock (each agent is told it in its own).
  const int64_t start_ns = RealtimeNanos() + absl::ToInt64Nanoseconds(options.start_margin);
  out.planned_start_realtime_ns = start_ns;
  RunAndCollect(runs, options, run_id, c2c_jobs, stale_clocks, start_ns);

  // sharing=write-verify keeps the written files, so that a later run with verify_only=1 checks
  // them again (after a fault, a failover) from wherever its agents are.
  run_internal::CleanupEverywhere(runs, run_id, !ScenarioUsesSharing(scenario, "write-verify"));
  if (staging.spool != nullptr) {
    // Everything streamed is committed now; a write error loses staged intervals, so says so.
    if (absl::Status s = staging.spool->Finish(); !s.ok()) {
      staging.problem = absl::StrCat("some intervals were not stored: ", s.message());
    }
    out.staged_stream_id = staging.spool->stream_id();
  }
  run_internal::AssembleOutcome(runs, options, staging.problem, out);
  return out;
}

}  // namespace azbench
