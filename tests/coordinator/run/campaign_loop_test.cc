// The campaign loop (coordinator/run/campaign_loop.h) without the binary: a campaign parsed and
// planned as `azbench run` does, run on fake agents that answer every job at once, stored in a real
// SQLite file in a temporary directory, and read back as another process would.
#include "coordinator/run/campaign_loop.h"

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/synchronization/mutex.h"
#include "common/clock.h"
#include "common/proto_convert.h"
#include "coordinator/plan/plan.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/minimal_campaign.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_file.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/unimplemented_agent_client.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

// An agent that prepares and runs a scenario's jobs at once, answering one result per job. Runs
// are counted over this agent's Run calls (1-based): those in `lose_runs` end the stream after the
// start without finishing (the agent is lost: it grants no reattach grace), those in
// `fail_prepare_runs` fail their Prepare instead (counted as runs too).
class FakeAgent final : public testing::UnimplementedAgentClient {
 public:
  FakeAgent(std::set<int> lose_runs = {}, std::set<int> fail_prepare_runs = {})
      : lose_runs_(std::move(lose_runs)), fail_prepare_runs_(std::move(fail_prepare_runs)) {}

  absl::StatusOr<v1::PrepareResponse> Prepare(const v1::PrepareRequest& request,
                                              absl::Duration) override {
    absl::MutexLock lock(&mu_);
    ++attempts_;
    if (fail_prepare_runs_.count(attempts_) > 0) {
      return absl::ResourceExhaustedError("not enough free space");
    }
    std::vector<std::string>& names = jobs_[request.run_id()];
    for (const v1::JobSpec& job : request.jobs()) names.push_back(job.name());
    return v1::PrepareResponse();
  }
  absl::Status Run(const v1::RunRequest& request,
                   const std::function<bool(const v1::RunEvent&)>& on_event) override {
    std::vector<std::string> names;
    bool lose = false;
    {
      absl::MutexLock lock(&mu_);
      ++runs_;
      names = jobs_[request.run_id()];
      lose = lose_runs_.count(attempts_) > 0;
    }
    uint64_t seq = 0;
    v1::RunEvent started;
    started.set_seq(++seq);
    started.mutable_started()->set_start_realtime_ns(request.start_at_agent_realtime_ns());
    on_event(started);
    if (lose) return absl::UnavailableError("Socket closed");
    for (size_t i = 0; i < names.size(); ++i) {
      JobResult result;
      result.name = names[i];
      result.Stats(OpKind::kRead).ops = 100;
      v1::RunEvent event;
      event.set_seq(++seq);
      JobResultToProto(result, event.mutable_result());
      event.mutable_result()->set_job_index(static_cast<int32_t>(i));
      on_event(event);
    }
    v1::RunEvent finished;
    finished.set_seq(++seq);
    finished.mutable_finished()->set_end_realtime_ns(request.start_at_agent_realtime_ns() +
                                                     1'000'000);
    RunOutcomeToProto(absl::OkStatus(), finished.mutable_finished()->mutable_outcome());
    on_event(finished);
    return absl::OkStatus();
  }
  absl::Status Cancel(const std::string&, absl::Duration) override { return absl::OkStatus(); }
  absl::StatusOr<v1::CleanupResponse> Cleanup(const v1::CleanupRequest&, absl::Duration) override {
    return v1::CleanupResponse();
  }
  absl::Status Renew(const v1::RenewRequest&, absl::Duration) override { return absl::OkStatus(); }

  int runs() {
    absl::MutexLock lock(&mu_);
    return runs_;
  }

 private:
  absl::Mutex mu_;
  std::set<int> lose_runs_;
  std::set<int> fail_prepare_runs_;
  int attempts_ = 0;
  int runs_ = 0;
  std::map<std::string, std::vector<std::string>> jobs_;  // by run id
};

// Records what the loop tells; can interrupt the campaign after a given scenario ends.
class RecordingObserver final : public CampaignLoopObserver {
 public:
  void MovedAside(const std::string& aside) override { moved_aside.push_back(aside); }
  void ScenarioStarting(int number, int total, const Scenario& scenario) override {
    started.push_back(absl::StrCat(number, "/", total, " ", scenario.key));
  }
  void ScenarioFinished(const ScenarioResult& result) override {
    finished.push_back(result.scenario.key);
    if (interrupt != nullptr && static_cast<int>(finished.size()) == interrupt_after) {
      interrupt->store(true);
    }
  }
  std::vector<std::string> moved_aside;
  std::vector<std::string> started;
  std::vector<std::string> finished;
  std::atomic<bool>* interrupt = nullptr;
  int interrupt_after = 0;
};

class CampaignLoopTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  // The minimal campaign (two local agents, one workload) with `extra` lines, planned on a fleet
  // of `agents` (a1, a2, ...), each the fleet's client.
  void Plan(const std::string& extra, std::vector<std::unique_ptr<FakeAgent>> agents) {
    absl::StatusOr<Campaign> campaign = testing::ParseMinimalPlus(extra);
    ASSERT_TRUE(campaign.ok()) << campaign.status();
    campaign_ = std::move(*campaign);
    fleet_ = Fleet();
    fakes_.clear();
    for (size_t i = 0; i < agents.size(); ++i) {
      FleetMember& member = fleet_.members.emplace_back();
      member.info.agent_id = absl::StrCat("a", i + 1);
      member.info.availability_zone = "local";
      fakes_.push_back(agents[i].get());
      member.client = std::move(agents[i]);
    }
    absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign_, fleet_.Infos());
    ASSERT_TRUE(plan.ok()) << plan.status();
    plan_ = std::move(*plan);
  }
  void Plan(const std::string& extra) {
    std::vector<std::unique_ptr<FakeAgent>> agents;
    agents.push_back(std::make_unique<FakeAgent>());
    agents.push_back(std::make_unique<FakeAgent>());
    Plan(extra, std::move(agents));
  }

  CampaignLoopOptions Options(bool resume = false) {
    CampaignLoopOptions options;
    options.db_path = path_;
    options.resume = resume;
    options.run.start_margin = absl::Milliseconds(1);
    options.run.progress_interval_ms = 10;
    options.run.interrupt = &interrupt_;
    options.sleep = [this](absl::Duration d) { sleeps_.push_back(d); };
    return options;
  }

  absl::StatusOr<CampaignSummary> Run(bool resume = false) {
    return RunCampaignLoop(campaign_, plan_, fleet_, Options(resume), &observer_);
  }

  // "key status" of every stored scenario, in plan order.
  std::vector<std::string> Stored() {
    std::vector<std::string> rows;
    for (int i = 0;; ++i) {
      const std::string row = testing::RawText(
          path_, absl::StrCat("SELECT key || ' ' || status FROM scenario ORDER BY idx LIMIT 1 "
                              "OFFSET ",
                              i));
      if (row.empty()) break;
      rows.push_back(row);
    }
    return rows;
  }
  std::string LastRunOutcome() {
    return testing::RawText(path_, "SELECT outcome FROM run ORDER BY id DESC LIMIT 1");
  }

  testing::TempDir dir_;
  std::string path_ = dir_.File("results.db");
  Campaign campaign_;
  std::vector<Scenario> plan_;
  Fleet fleet_;
  std::vector<FakeAgent*> fakes_;
  std::atomic<bool> interrupt_{false};
  std::vector<absl::Duration> sleeps_;
  RecordingObserver observer_;
};

constexpr char kKey1[] = "workload=randread/target=scratch/repeat=1";
constexpr char kKey2[] = "workload=randread/target=scratch/repeat=2";
constexpr char kKey3[] = "workload=randread/target=scratch/repeat=3";

TEST_F(CampaignLoopTest, EveryScenarioIsStoredAsItEndsAndTheRunIsRecordedAsFinished) {
  Plan("repeats: 2\n");
  absl::StatusOr<CampaignSummary> summary = Run();
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_THAT(Stored(),
              ElementsAre(absl::StrCat(kKey1, " complete"), absl::StrCat(kKey2, " complete")));
  EXPECT_EQ(summary->planned, 2);
  EXPECT_EQ(summary->run, 2);
  EXPECT_EQ(summary->stored, 2);
  EXPECT_EQ(summary->incomplete, 0);
  EXPECT_FALSE(summary->interrupted);
  ASSERT_TRUE(summary->results.has_value());
  EXPECT_EQ(summary->results->size(), 2u);
  EXPECT_EQ(LastRunOutcome(), "finished");
  EXPECT_NE(testing::RawQuery(path_, "SELECT finished_at_ns FROM campaign"), 0);
  EXPECT_EQ(testing::RawQuery(path_, "SELECT count(*) FROM agent"), 2);
  EXPECT_THAT(observer_.started,
              ElementsAre(absl::StrCat("1/2 ", kKey1), absl::StrCat("2/2 ", kKey2)));
}

TEST_F(CampaignLoopTest, AWarmupIsRunAndItsResultDiscarded) {
  Plan("repeats: 2\nwarmup: 1s\n");
  ASSERT_EQ(plan_.size(), 3u);
  ASSERT_TRUE(plan_[0].warmup);
  absl::StatusOr<CampaignSummary> summary = Run();
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(fakes_[0]->runs(), 3) << "the warmup runs like any scenario";
  EXPECT_EQ(summary->warmups_discarded, 1);
  EXPECT_EQ(summary->stored, 2);
  EXPECT_THAT(Stored(),
              ElementsAre(absl::StrCat(kKey1, " complete"), absl::StrCat(kKey2, " complete")));
  EXPECT_EQ(testing::RawQuery(path_, "SELECT count(*) FROM scenario WHERE repeat = 0"), 0);
}

TEST_F(CampaignLoopTest, EveryRepeatIsStoredWhateverTheKeepPolicy) {
  for (const char* keep : {"all", "last", "median"}) {
    SCOPED_TRACE(keep);
    std::filesystem::remove(path_);
    Plan(absl::StrCat("repeats: 3\nkeep: ", keep, "\n"));
    absl::StatusOr<CampaignSummary> summary = Run();
    ASSERT_TRUE(summary.ok()) << summary.status();
    EXPECT_THAT(Stored(),
                ElementsAre(absl::StrCat(kKey1, " complete"), absl::StrCat(kKey2, " complete"),
                            absl::StrCat(kKey3, " complete")));
  }
}

TEST_F(CampaignLoopTest, TheCooldownIsWaitedBeforeEveryScenarioButTheFirst) {
  Plan("repeats: 3\ncooldown: 2s\n");
  ASSERT_TRUE(Run().ok());
  EXPECT_THAT(sleeps_, ElementsAre(absl::Seconds(2), absl::Seconds(2)));
}

TEST_F(CampaignLoopTest, AnAgentLostMidCampaignLeavesAPartialScenarioAndTheCampaignGoesOn) {
  std::vector<std::unique_ptr<FakeAgent>> agents;
  agents.push_back(std::make_unique<FakeAgent>());
  agents.push_back(std::make_unique<FakeAgent>(std::set<int>{1}));
  Plan("repeats: 2\n", std::move(agents));
  absl::StatusOr<CampaignSummary> summary = Run();
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_THAT(Stored(),
              ElementsAre(absl::StrCat(kKey1, " partial"), absl::StrCat(kKey2, " complete")));
  EXPECT_EQ(summary->incomplete, 1);
  EXPECT_EQ(testing::RawText(path_, "SELECT agent_id FROM event WHERE kind = 'lost'"), "a2");
  // What the agent that stayed returned is kept.
  EXPECT_EQ(testing::RawQuery(path_,
                              "SELECT count(*) FROM agent_result r JOIN scenario s ON "
                              "r.scenario_id = s.id WHERE s.repeat = 1"),
            1);
  EXPECT_EQ(LastRunOutcome(), "incomplete");
}

TEST_F(CampaignLoopTest, ResultsStoredBeforeSurviveALaterScenarioThatFails) {
  std::vector<std::unique_ptr<FakeAgent>> agents;
  agents.push_back(std::make_unique<FakeAgent>(std::set<int>{}, std::set<int>{2}));
  agents.push_back(std::make_unique<FakeAgent>());
  Plan("repeats: 2\n", std::move(agents));
  absl::StatusOr<CampaignSummary> summary = Run();
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_THAT(Stored(),
              ElementsAre(absl::StrCat(kKey1, " complete"), absl::StrCat(kKey2, " failed")));
  EXPECT_THAT(testing::RawText(path_, absl::StrCat("SELECT status_detail FROM scenario WHERE "
                                                   "key = '",
                                                   kKey2, "'")),
              HasSubstr("not enough free space"));
  EXPECT_EQ(summary->incomplete, 1);
}

TEST_F(CampaignLoopTest, AnInterruptRunsNoMoreScenariosAndKeepsThoseStored) {
  Plan("repeats: 3\n");
  observer_.interrupt = &interrupt_;
  observer_.interrupt_after = 1;
  absl::StatusOr<CampaignSummary> summary = Run();
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_TRUE(summary->interrupted);
  EXPECT_FALSE(summary->results.has_value());
  EXPECT_EQ(summary->run, 1);
  EXPECT_THAT(Stored(), ElementsAre(absl::StrCat(kKey1, " complete")));
  EXPECT_EQ(LastRunOutcome(), "interrupted");
}

TEST_F(CampaignLoopTest, ResumeRunsOnlyTheScenariosNotStoredComplete) {
  std::vector<std::unique_ptr<FakeAgent>> agents;
  agents.push_back(std::make_unique<FakeAgent>());
  agents.push_back(std::make_unique<FakeAgent>(std::set<int>{2}));
  Plan("repeats: 3\n", std::move(agents));
  ASSERT_TRUE(Run().ok());
  ASSERT_THAT(Stored(),
              ElementsAre(absl::StrCat(kKey1, " complete"), absl::StrCat(kKey2, " partial"),
                          absl::StrCat(kKey3, " complete")));

  Plan("repeats: 3\n");  // the same campaign, fresh agents
  observer_ = RecordingObserver();
  absl::StatusOr<CampaignSummary> summary = Run(/*resume=*/true);
  ASSERT_TRUE(summary.ok()) << summary.status();
  EXPECT_EQ(summary->skipped_resume, 2);
  EXPECT_EQ(fakes_[0]->runs(), 1);
  EXPECT_THAT(observer_.started, ElementsAre(absl::StrCat("2/3 ", kKey2)));
  EXPECT_THAT(observer_.moved_aside, IsEmpty()) << "a resume keeps the file";
  EXPECT_THAT(Stored(),
              ElementsAre(absl::StrCat(kKey1, " complete"), absl::StrCat(kKey2, " complete"),
                          absl::StrCat(kKey3, " complete")));
  EXPECT_EQ(testing::RawQuery(path_, "SELECT count(*) FROM run"), 2);
  EXPECT_EQ(testing::RawQuery(path_, "SELECT resumed FROM run ORDER BY id DESC LIMIT 1"), 1);
}

TEST_F(CampaignLoopTest, AResumeOfAChangedWorkloadIsRefusedAndLeavesTheFileAsItWas) {
  Plan("repeats: 2\n");
  ASSERT_TRUE(Run().ok());
  const std::vector<std::string> before = Stored();

  Plan("repeats: 2\n");
  for (Scenario& s : plan_) s.jobs[0].options.push_back({"rw", "read"});  // the workload changed
  absl::StatusOr<CampaignSummary> summary = Run(/*resume=*/true);
  EXPECT_THAT(summary, testing::StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr(kKey1)));
  EXPECT_TRUE(IsResumeRefusal(summary.status()));
  EXPECT_EQ(fakes_[0]->runs(), 0);
  EXPECT_EQ(Stored(), before);
  EXPECT_EQ(testing::RawQuery(path_, "SELECT count(*) FROM run"), 1) << "no run was begun";
}

TEST_F(CampaignLoopTest, WithoutResumeTheEarlierResultsAreMovedAsideNotMixed) {
  Plan("repeats: 2\n");
  ASSERT_TRUE(Run().ok());
  Plan("repeats: 1\n");
  absl::StatusOr<CampaignSummary> summary = Run();
  ASSERT_TRUE(summary.ok()) << summary.status();
  ASSERT_FALSE(summary->moved_aside.empty());
  EXPECT_THAT(observer_.moved_aside, ElementsAre(summary->moved_aside));
  EXPECT_THAT(Stored(), ElementsAre(absl::StrCat(kKey1, " complete")));
  EXPECT_EQ(testing::RawQuery(summary->moved_aside, "SELECT count(*) FROM scenario"), 2);
}

// Writes a file that is no results database where the new one would go, once the earlier one is
// moved aside: Store::Open then refuses it.
class ClobberingObserver final : public CampaignLoopObserver {
 public:
  explicit ClobberingObserver(std::string path) : path_(std::move(path)) {}
  void MovedAside(const std::string&) override { std::ofstream(path_) << std::string(4096, 'x'); }

 private:
  std::string path_;
};

TEST_F(CampaignLoopTest, ASetUpFailurePutsTheEarlierResultsBack) {
  Plan("repeats: 2\n");
  ASSERT_TRUE(Run().ok());
  Plan("repeats: 1\n");
  ClobberingObserver clobbering(path_);
  absl::StatusOr<CampaignSummary> summary =
      RunCampaignLoop(campaign_, plan_, fleet_, Options(), &clobbering);
  ASSERT_FALSE(summary.ok());
  EXPECT_THAT(std::string(summary.status().message()),
              HasSubstr(absl::StrCat("the earlier results are back in ", path_)));
  EXPECT_FALSE(IsResumeRefusal(summary.status()));
  EXPECT_EQ(fakes_[0]->runs(), 0);
  EXPECT_EQ(testing::RawQuery(path_, "SELECT count(*) FROM scenario"), 2);
}

}  // namespace
}  // namespace azbench
