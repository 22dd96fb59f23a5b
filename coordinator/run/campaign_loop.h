// The campaign loop: every planned scenario run in order on a connected fleet and stored in the
// results database, one at a time (`azbench run` minus argv and printing).
//
// What it guarantees:
//   - Results are never overwritten or mixed: without `resume`, an earlier database at the path is
//     moved aside first; if setting up the new one fails before any scenario runs, it is put back.
//   - `resume` skips exactly the scenarios stored complete, after CheckResumable (resume_check.h)
//     found each stored definition equal to the planned one; checked on a read-only view first,
//     so a refused resume leaves the file as it was.
//   - Each scenario is stored as soon as it ends (Store::SaveScenario commits it), whatever its
//     status: a lost agent makes it partial and the loop goes on. A scenario already stored stays
//     stored when a later one fails, or when storing a later one fails (that ends the loop).
//   - A warmup scenario is run and its result discarded. Every measured repeat is stored; the
//     campaign's `keep` only chooses what reports show.
//   - Each scenario's cooldown is waited before it, except before the first one run.
//   - An interrupt (RunOptions::interrupt) cancels the scenario in flight, which is stored as
//     partial, and runs no more; the run is recorded as interrupted.
//
//   CampaignLoopOptions options{.db_path = "results.db"};
//   ASSIGN_OR_RETURN(CampaignSummary summary, RunCampaignLoop(campaign, plan, fleet, options));
#ifndef AZBENCH_COORDINATOR_RUN_CAMPAIGN_LOOP_H_
#define AZBENCH_COORDINATOR_RUN_CAMPAIGN_LOOP_H_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/run/run.h"
#include "coordinator/scenario.h"

namespace azbench {

// What the loop tells as it goes (the CLI prints it). Called from the loop's thread; the defaults
// do nothing.
class CampaignLoopObserver {
 public:
  virtual ~CampaignLoopObserver() = default;
  // The earlier results database was moved to `aside` (a run without resume).
  virtual void MovedAside(const std::string& /*aside*/) {}
  // Scenario `number` (1-based, counted over the whole plan) of `total` starts.
  virtual void ScenarioStarting(int /*number*/, int /*total*/, const Scenario& /*scenario*/) {}
  // It ended; `result` is what is stored (or discarded, for a warmup).
  virtual void ScenarioFinished(const ScenarioResult& /*result*/) {}
};

struct CampaignLoopOptions {
  std::string db_path;  // the results database
  bool resume = false;  // skip the scenarios stored complete (see the header comment)
  // How each scenario runs: timeouts, lease, interrupt, progress and warnings. The loop sets
  // run_id_prefix (the campaign's name), op_log_dir (beside the database, one directory per
  // scenario) and stage_db_path (the database) for each scenario.
  RunOptions run;
  // Waits a scenario's cooldown; tests replace it to record the waits.
  std::function<void(absl::Duration)> sleep = [](absl::Duration d) { absl::SleepFor(d); };
};

struct CampaignSummary {
  std::string moved_aside;  // where the earlier database went; empty when none was moved
  int planned = 0;          // scenarios in the plan
  int run = 0;              // scenarios run, warmups included
  int stored = 0;           // results stored (every scenario run but warmups)
  int warmups_discarded = 0;
  int skipped_resume = 0;  // stored complete before, skipped (resume)
  int incomplete = 0;      // stored partial or failed
  bool interrupted = false;
  // Every scenario the database holds when the loop ends (Store::LoadScenarios), for the report;
  // none when interrupted or when they could not be loaded.
  std::optional<std::vector<ScenarioResult>> results;
};

// Runs `plan` (planned from `campaign`) on `fleet`, storing into options.db_path (see the header
// comment). `observer` may be null. Errors: a refused resume is FailedPrecondition from
// CheckResumable, marked so IsResumeRefusal() is true; a database that cannot be moved aside,
// opened or set up gives Store's or MoveResultsAside's error, with where the earlier results are
// when they were put back; a result that cannot be stored is the store's code with "storing
// <key>: " before its message (the scenarios stored before it stay).
absl::StatusOr<CampaignSummary> RunCampaignLoop(const Campaign& campaign,
                                                const std::vector<Scenario>& plan, Fleet& fleet,
                                                const CampaignLoopOptions& options,
                                                CampaignLoopObserver* observer = nullptr);

// True for RunCampaignLoop's error when a resume was refused because the stored scenarios differ
// from the plan (a usage error: the command line or the campaign must change).
bool IsResumeRefusal(const absl::Status& status);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_RUN_CAMPAIGN_LOOP_H_
