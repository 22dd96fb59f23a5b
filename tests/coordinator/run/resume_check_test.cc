// `run --resume` refuses when a scenario it would skip is stored with another definition
// (coordinator/run/resume_check.h): campaigns parsed from YAML, planned, stored as a run stores
// them (a real SQLite file), read back with Store::CompletedScenarioDefinitions and compared with
// the plan of the edited campaign.
#include "coordinator/run/resume_check.h"

#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/plan/plan.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/store_file.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr char kBase[] = R"yaml(name: c
fleet:
  local: {agents: 2, azs: [local-a]}
targets:
  - {name: scratch, path: scratch}
workloads:
  - name: rr
    options: {rw: randread, bs: 4k, size: 1m, runtime: 1s, time_based: 1}
matrix:
  iodepth: [1, 4]
)yaml";

std::vector<Scenario> Plan(const std::string& yaml) {
  absl::StatusOr<Campaign> campaign = ParseCampaign(yaml, "c.yaml");
  EXPECT_TRUE(campaign.ok()) << campaign.status();
  if (!campaign.ok()) return {};
  absl::StatusOr<std::vector<Scenario>> plan =
      ExpandCampaign(*campaign, ExpectedAgents(campaign->fleet));
  EXPECT_TRUE(plan.ok()) << plan.status();
  return plan.ok() ? *plan : std::vector<Scenario>{};
}

std::string Replace(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

class ResumeCheckTest : public testing::StoreFileTest {
 protected:
  // Stores every scenario of `plan` as a run would (the first one complete, the others as
  // `rest`) and reads back the definitions a resume skips.
  std::vector<Scenario> StoreAndReload(const std::vector<Scenario>& plan,
                                       ScenarioStatus rest = ScenarioStatus::kComplete) {
    {
      std::unique_ptr<Store> store = OpenStore();
      EXPECT_NE(store, nullptr);
      if (store == nullptr) return {};
      EXPECT_TRUE(store->BeginCampaign("c", "c.yaml", kBase).ok());
      for (size_t i = 0; i < plan.size(); ++i) {
        ScenarioResult result;
        result.scenario = plan[i];
        result.status = i == 0 ? ScenarioStatus::kComplete : rest;
        EXPECT_TRUE(store->SaveScenario(result).ok());
      }
    }
    std::unique_ptr<Store> store = OpenStore();
    if (store == nullptr) return {};
    absl::StatusOr<std::vector<Scenario>> stored = store->CompletedScenarioDefinitions();
    EXPECT_TRUE(stored.ok()) << stored.status();
    return stored.ok() ? *stored : std::vector<Scenario>{};
  }
};

TEST_F(ResumeCheckTest, TheSameCampaignWrittenDifferentlyResumes) {
  const std::vector<Scenario> stored = StoreAndReload(Plan(kBase));
  ASSERT_EQ(stored.size(), 2u);
  // Comments, blank lines, quoting, flow vs block style and option order change nothing stored.
  const std::string rewritten = R"yaml(# the same campaign, written again
name: "c"
fleet:
  local: {agents: 2, azs: [local-a]}

targets:
  - name: scratch   # relative: in each agent's work directory
    path: scratch
workloads:
  - name: rr
    options:
      time_based: 1
      runtime: 1s
      size: 1m
      bs: "4k"
      rw: randread
matrix:
  iodepth: [1, 4]
)yaml";
  EXPECT_THAT(CompareStoredWithPlan(stored, Plan(rewritten)), IsEmpty());
  EXPECT_TRUE(CheckResumable("t1.db", stored, Plan(rewritten)).ok());
}

TEST_F(ResumeCheckTest, AChangedOptionOfAStoredScenarioRefusesNamingItAndTheChange) {
  const std::vector<Scenario> stored = StoreAndReload(Plan(kBase));
  const std::vector<Scenario> now = Plan(Replace(kBase, "rw: randread", "rw: read"));
  const std::vector<ResumeMismatch> mismatches = CompareStoredWithPlan(stored, now);
  ASSERT_EQ(mismatches.size(), 2u);
  EXPECT_EQ(mismatches[0].key, stored[0].key);
  EXPECT_THAT(mismatches[0].changes,
              ElementsAre("workload 'rr' option rw: stored randread, now read"));

  const absl::Status status = CheckResumable("t1.db", stored, now);
  EXPECT_THAT(status, StatusIs(absl::StatusCode::kFailedPrecondition, HasSubstr("'t1.db'")));
  EXPECT_THAT(status.message(), HasSubstr("'t1.db'"));
  EXPECT_THAT(status.message(),
              HasSubstr(absl::StrCat(stored[1].key,
                                     ": workload 'rr' option rw: stored randread, now read")));
  EXPECT_THAT(status.message(), HasSubstr("run it without --resume into a new --db"));
}

TEST_F(ResumeCheckTest, AddedRemovedOptionsAndAnotherTargetPathAreDifferences) {
  const std::vector<Scenario> stored = StoreAndReload(Plan(kBase));
  std::string changed = Replace(kBase, ", time_based: 1}", ", direct: 1}");
  changed = Replace(changed, "path: scratch", "path: other");
  const std::vector<ResumeMismatch> mismatches = CompareStoredWithPlan(stored, Plan(changed));
  ASSERT_EQ(mismatches.size(), 2u);
  EXPECT_THAT(mismatches[0].changes,
              ElementsAre("workload 'rr' option direct: stored (not set), now 1",
                          "workload 'rr' option directory: stored scratch, now other",
                          "workload 'rr' option time_based: stored 1, now (not set)"));
}

TEST_F(ResumeCheckTest, AnotherNumberOfAgentsIsADifference) {
  const std::vector<Scenario> stored = StoreAndReload(Plan(kBase));
  const std::vector<ResumeMismatch> mismatches =
      CompareStoredWithPlan(stored, Plan(Replace(kBase, "agents: 2", "agents: 3")));
  ASSERT_EQ(mismatches.size(), 2u);
  EXPECT_THAT(mismatches[0].changes,
              ElementsAre("agents: stored 2 [local-1, local-2], now 3 [local-1, local-2, "
                          "local-3]"));
}

// A fleet provisioned again has other agent ids (instance ids, hostnames): the same number of
// agents runs the same scenario. One the plan now skips (an agent missing) keeps its result.
TEST_F(ResumeCheckTest, OtherAgentIdsAndAScenarioNowSkippedResume) {
  const std::vector<Scenario> stored = StoreAndReload(Plan(kBase));
  std::vector<Scenario> plan = Plan(kBase);
  for (Scenario& s : plan) s.agent_ids = {"i-0a", "i-0b"};
  EXPECT_THAT(CompareStoredWithPlan(stored, plan), IsEmpty());
  plan[0].agent_ids = {"i-0a"};
  plan[0].skipped = true;
  plan[0].skip_reason = "needs 2 agents, 1 reachable";
  EXPECT_THAT(CompareStoredWithPlan(stored, plan), IsEmpty());
}

TEST_F(ResumeCheckTest, OnlyScenariosTheResumeSkipsAreCompared) {
  // Scenario 2 is stored partial: it runs again with the new definition, which is fine; new keys
  // (another iodepth) and more repeats are new scenarios.
  const std::vector<Scenario> stored = StoreAndReload(Plan(kBase), ScenarioStatus::kPartial);
  ASSERT_EQ(stored.size(), 1u);
  std::string more = Replace(kBase, "iodepth: [1, 4]", "iodepth: [1, 4, 8]");
  more += "repeats: 2\ncooldown: 3s\n";
  EXPECT_THAT(CompareStoredWithPlan(stored, Plan(more)), IsEmpty());
  // The partial one (iodepth 4) changed: not compared; the complete one (iodepth 1) did not.
  const std::vector<Scenario> plan = Plan(kBase);
  std::vector<Scenario> changed_second = plan;
  changed_second[1].jobs[0].options.emplace_back("rw", "read");
  EXPECT_THAT(CompareStoredWithPlan(stored, changed_second), IsEmpty());
  std::vector<Scenario> changed_first = plan;
  changed_first[0].jobs[0].options.emplace_back("rw", "read");
  EXPECT_THAT(CompareStoredWithPlan(stored, changed_first), Not(IsEmpty()));
}

TEST(ResumeCheckListTest, ManyMismatchesListTenKeysAndCountTheRest) {
  std::vector<Scenario> stored, now;
  for (int i = 0; i < 12; ++i) {
    Scenario s;
    s.key = absl::StrCat("k", i);
    s.workload = "w";
    s.jobs.push_back({.name = "j", .options = {{"bs", "4k"}}});
    stored.push_back(s);
    s.jobs[0].options[0].second = "8k";
    now.push_back(s);
  }
  const absl::Status status = CheckResumable("x.db", stored, now);
  EXPECT_THAT(status.message(), HasSubstr("--resume: 'x.db' holds 12 scenarios as complete"));
  EXPECT_THAT(status.message(), HasSubstr("k9: workload 'w' option bs: stored 4k, now 8k"));
  EXPECT_THAT(status.message(), Not(HasSubstr("k10:")));
  EXPECT_THAT(status.message(), HasSubstr("... and 2 more"));
}

}  // namespace
}  // namespace azbench
