// The campaign loop (coordinator/run/campaign_loop.h): the results database set up (moved aside or
// resumed), then each planned scenario run and stored in turn.
#include "coordinator/run/campaign_loop.h"

#include <filesystem>
#include <memory>
#include <set>
#include <system_error>
#include <utility>

#include "absl/strings/cord.h"
#include "absl/strings/str_cat.h"
#include "common/version.h"
#include "coordinator/run/resume_check.h"
#include "coordinator/store/results_file.h"
#include "coordinator/store/store.h"

namespace azbench {

namespace {

constexpr char kResumeRefusedPayload[] = "azbench/resume-refused";

class CampaignLoop {
 public:
  CampaignLoop(const Campaign& campaign, const std::vector<Scenario>& plan, Fleet& fleet,
               const CampaignLoopOptions& options, CampaignLoopObserver* observer)
      : campaign_(campaign),
        plan_(plan),
        fleet_(fleet),
        options_(options),
        observer_(observer != nullptr ? observer : &silent_) {}

  absl::StatusOr<CampaignSummary> Run() {
    summary_.planned = static_cast<int>(plan_.size());
    absl::Status set_up = SetUpStore();
    if (!set_up.ok()) return set_up;
    if (absl::Status s = RunScenarios(); !s.ok()) return s;
    Finish();
    return std::move(summary_);
  }

 private:
  // Until the first scenario runs, a failure puts the earlier results back where they were.
  absl::Status SetUpFailed(const absl::Status& status) {
    store_.reset();
    if (summary_.moved_aside.empty()) return status;
    const absl::Status restored = RestoreResults(summary_.moved_aside, options_.db_path);
    return absl::Status(
        status.code(),
        absl::StrCat(status.message(), restored.ok() ? "; the earlier results are back in " : "; ",
                     restored.ok() ? options_.db_path : restored.message()));
  }

  // --resume: a scenario is skipped only if it is stored as the plan defines it now (a key names a
  // scenario, not what it measures). A file that stores no campaign, or another one, skips none.
  absl::Status CheckResume(Store& stored_in) {
    absl::StatusOr<CampaignRecord> stored_campaign = stored_in.LoadCampaign();
    if (!stored_campaign.ok() || stored_campaign->name != campaign_.name) return absl::OkStatus();
    absl::StatusOr<std::vector<Scenario>> stored = stored_in.CompletedScenarioDefinitions();
    if (!stored.ok()) return SetUpFailed(stored.status());
    if (absl::Status s = CheckResumable(options_.db_path, *stored, plan_); !s.ok()) {
      s.SetPayload(kResumeRefusedPayload, absl::Cord("1"));
      return s;
    }
    for (const Scenario& s : *stored) done_.insert(s.key);
    return absl::OkStatus();
  }

  absl::Status SetUpStore() {
    const std::string& db_path = options_.db_path;
    // An earlier run of this campaign in the same file, finished or not, is kept aside unless
    // resuming: results are never overwritten and never mixed.
    std::error_code exists_error;
    const bool db_exists = std::filesystem::exists(db_path, exists_error);
    if (exists_error) {
      return absl::FailedPreconditionError(
          absl::StrCat("results database '", db_path, "': ", exists_error.message()));
    }
    if (!options_.resume && db_exists) {
      absl::StatusOr<std::string> moved = MoveResultsAside(db_path);
      if (!moved.ok()) return moved.status();
      summary_.moved_aside = *moved;
      observer_->MovedAside(*moved);
    }
    // Checked on a read-only view first: Store::Open upgrades an older schema in place, and a
    // refused resume leaves the file as it was. A file the view cannot open (empty, not a results
    // database) stores no campaign, or Store::Open says what is wrong with it.
    bool resume_checked = false;
    if (options_.resume && db_exists) {
      if (absl::StatusOr<std::unique_ptr<Store>> view = Store::OpenExisting(db_path); view.ok()) {
        if (absl::Status s = CheckResume(**view); !s.ok()) return s;
        resume_checked = true;
      }
    }
    absl::StatusOr<std::unique_ptr<Store>> opened = Store::Open(db_path);
    if (!opened.ok()) return SetUpFailed(opened.status());
    store_ = std::move(*opened);
    if (options_.resume && !resume_checked) {
      if (absl::Status s = CheckResume(*store_); !s.ok()) {
        store_.reset();
        return s;
      }
    }
    absl::StatusOr<int64_t> campaign_id =
        store_->BeginCampaign(campaign_.name, campaign_.file, campaign_.text, kAzbenchVersion);
    if (!campaign_id.ok()) return SetUpFailed(campaign_id.status());
    if (absl::StatusOr<int64_t> run = store_->BeginRun(options_.resume); !run.ok()) {
      return SetUpFailed(run.status());
    }
    if (absl::Status s = store_->SaveAgents(fleet_.Infos()); !s.ok()) return SetUpFailed(s);
    return absl::OkStatus();
  }

  bool Interrupted() const {
    return options_.run.interrupt != nullptr && options_.run.interrupt->load();
  }

  absl::Status RunScenarios() {
    RunOptions run = options_.run;
    run.run_id_prefix = campaign_.name;
    run.stage_db_path = options_.db_path;  // intervals are stored as they arrive
    const int total = static_cast<int>(plan_.size());
    int number = 0;
    bool first = true;
    for (const Scenario& scenario : plan_) {
      ++number;
      if (Interrupted()) break;
      if (done_.count(scenario.key) > 0) {
        ++summary_.skipped_resume;
        continue;
      }
      if (!first && scenario.cooldown_s > 0) options_.sleep(absl::Seconds(scenario.cooldown_s));
      first = false;
      observer_->ScenarioStarting(number, total, scenario);
      // Raw op records (jobs with op_log) go beside the database, one directory per scenario.
      run.op_log_dir = absl::StrCat(options_.db_path, ".oplog/", ScenarioFileStem(scenario));
      ScenarioResult result = RunScenario(fleet_, scenario, run);
      ++summary_.run;
      // The clock offsets the scenario ran with (re-measured just before a client_to_client one),
      // stored with it: the agent rows keep the connect-time ones.
      if (result.clock_offsets.empty() && result.status != ScenarioStatus::kSkipped) {
        result.clock_offsets = ClockOffsetsOf(fleet_, scenario.agent_ids);
      }
      observer_->ScenarioFinished(result);
      if (scenario.warmup) {  // a warmup is run and discarded
        if (result.staged_stream_id != 0) (void)store_->DiscardStaged(result.staged_stream_id);
        ++summary_.warmups_discarded;
        continue;
      }
      if (result.status != ScenarioStatus::kComplete && result.status != ScenarioStatus::kSkipped) {
        ++summary_.incomplete;
      }
      if (absl::Status s = store_->SaveScenario(result); !s.ok()) {
        return absl::Status(s.code(), absl::StrCat("storing ", scenario.key, ": ", s.message()));
      }
      ++summary_.stored;
    }
    return absl::OkStatus();
  }

  void Finish() {
    if (Interrupted()) {
      summary_.interrupted = true;
      (void)store_->FinishRun("interrupted");
      return;
    }
    (void)store_->FinishRun(summary_.incomplete > 0 ? "incomplete" : "finished");
    (void)store_->FinishCampaign();
    if (absl::StatusOr<std::vector<ScenarioResult>> stored = store_->LoadScenarios(); stored.ok()) {
      summary_.results = std::move(*stored);
    }
  }

  const Campaign& campaign_;
  const std::vector<Scenario>& plan_;
  Fleet& fleet_;
  const CampaignLoopOptions& options_;
  CampaignLoopObserver silent_;
  CampaignLoopObserver* observer_;
  std::unique_ptr<Store> store_;
  std::set<std::string> done_;
  CampaignSummary summary_;
};

}  // namespace

absl::StatusOr<CampaignSummary> RunCampaignLoop(const Campaign& campaign,
                                                const std::vector<Scenario>& plan, Fleet& fleet,
                                                const CampaignLoopOptions& options,
                                                CampaignLoopObserver* observer) {
  return CampaignLoop(campaign, plan, fleet, options, observer).Run();
}

bool IsResumeRefusal(const absl::Status& status) {
  return status.GetPayload(kResumeRefusedPayload).has_value();
}

}  // namespace azbench
