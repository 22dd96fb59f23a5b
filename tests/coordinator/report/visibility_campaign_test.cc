// Campaigns with `workload: visibility`: study D's example plans, options are checked at parse
// time with errors naming the file, line and option, and jobs carry the target's directory.
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/plan/plan.h"
#include "coordinator/report/html_report.h"
#include "coordinator/report/report_input.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/report_scenarios.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Pair;

constexpr char kHead[] = R"(name: vis
fleet:
  local: {agents: 2}
targets:
  - name: scratch
    path: /mnt/shared/vis
workloads:
)";

absl::StatusOr<Campaign> Parse(const std::string& workloads) {
  return ParseCampaign(std::string(kHead) + workloads, "vis.yaml");
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(VisibilityCampaignTest, StudyDExamplePlansEveryProbeOnEveryMountVariantWithBothAgents) {
  const std::string path =
      (std::filesystem::path(testing::kSourceDir) / "examples" / "study-d-s3files-sync.yaml")
          .string();
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(path);
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  absl::StatusOr<std::vector<Scenario>> plan =
      ExpandCampaign(*campaign, ExpectedAgents(campaign->fleet));
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 5u * 4u) << "5 probes x 4 mount-option targets";
  std::map<std::string, int> per_workload;
  for (const Scenario& s : *plan) {
    EXPECT_FALSE(s.skipped) << s.key << ": " << s.skip_reason;
    EXPECT_EQ(s.agent_ids.size(), 2u) << s.key;
    ASSERT_EQ(s.jobs.size(), 1u);
    EXPECT_EQ(s.jobs[0].workload, "visibility");
    ++per_workload[s.workload];
  }
  EXPECT_EQ(per_workload.size(), 5u);
  for (const auto& [workload, n] : per_workload) EXPECT_EQ(n, 4) << workload;
  const Scenario& c2c = plan->back();
  EXPECT_EQ(c2c.key, "workload=client-to-client/nodes=all/target=lookupcache-positive/repeat=1");
  EXPECT_THAT(c2c.jobs[0].options, Contains(Pair("probe", "client_to_client")));
  EXPECT_THAT(c2c.jobs[0].options, Contains(Pair("directory", "/mnt/azbench/s3files-lcp")));
}

TEST(VisibilityCampaignTest, OptionsGoToTheJobWithTheTargetDirectoryAndAreAMatrixAxis) {
  absl::StatusOr<Campaign> c = Parse(
      "  - {name: c2c, workload: visibility, options: {probe: client_to_client, trials: 3}}\n"
      "matrix:\n  poll_interval: [10ms, 100ms]\n");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(*c, ExpectedAgents(c->fleet));
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 2u);
  EXPECT_THAT((*plan)[0].jobs[0].options,
              AllOf(Contains(Pair("probe", "client_to_client")), Contains(Pair("trials", "3")),
                    Contains(Pair("directory", "/mnt/shared/vis")),
                    Contains(Pair("poll_interval", "10ms"))));
  EXPECT_THAT((*plan)[1].jobs[0].options, Contains(Pair("poll_interval", "100ms")));
}

TEST(VisibilityCampaignTest, BadOptionsAreRefusedNamingTheLineAndTheOption) {
  struct Case {
    std::string options;
    std::string expected;
  };
  const std::vector<Case> cases = {
      {"{probe: export}", "needs option bucket"},
      {"{bucket: b}", "needs option probe"},
      {"{probe: teleport}", "allowed are client_to_client, export, import, append, conflict"},
      {"{probe: client_to_client, poll_interval: 0s}", "must be > 0"},
      {"{probe: client_to_client, spacing: soon}", "spacing"},
      {"{probe: client_to_client, read_method: peek}", "allowed are stat, open_read, readdir"},
      {"{probe: client_to_client, role: boss}", "allowed are local, writer, reader"},
      {"{probe: import, bucket: b, fsync: maybe}", "fsync"},
      {"{probe: client_to_client, rw: read}",
       "option 'rw' is not supported by workload visibility"},
  };
  for (const Case& c : cases) {
    absl::StatusOr<Campaign> campaign =
        Parse("  - {name: v, workload: visibility, options: " + c.options + "}\n");
    ASSERT_FALSE(campaign.ok()) << c.options;
    EXPECT_THAT(Message(campaign.status()), AllOf(HasSubstr("vis.yaml:"), HasSubstr(c.expected)))
        << c.options;
  }
}

TEST(VisibilityReportTest, HtmlListsEveryReaderWithItsTimeoutsAndMountEvenWhenNothingWasSeen) {
  std::vector<ScenarioResult> scenarios;
  testing::FakeScenario fake;
  fake.target = "noac";
  fake.workload = "c2c";
  fake.agents = 2;
  fake.ops_per_agent = 5;
  fake.latency_ns = 120'000'000;
  fake.bytes_per_op = 0;
  fake.kind = OpKind::kProbe;
  scenarios.push_back(testing::MakeFakeScenario(fake));
  ScenarioResult& s = scenarios[0];
  s.results[0].result.Stats(OpKind::kProbe).errors = 2;
  s.results[0].result.warnings.push_back("mount /mnt/s3files-noac nfs4 fs:/ rw,noac");
  // agent-2 saw nothing: every trial timed out.
  OpStats& none = s.results[1].result.Stats(OpKind::kProbe);
  none.lat.Reset();
  none.ops = 0;
  none.errors = 5;
  const std::string html =
      RenderHtmlReport(MakeReportInput("vis", {}, std::move(scenarios), KeepPolicy::kAll), {});
  const size_t at = html.find("<section id=\"visibility\"");
  ASSERT_NE(at, std::string::npos);
  const std::string section = html.substr(at);
  EXPECT_THAT(section, HasSubstr("<th>timed out or failed</th><th>mount</th>"));
  EXPECT_THAT(section, HasSubstr("<td>agent-1</td><td class=\"num\">5</td>"));
  EXPECT_THAT(section, HasSubstr("120ms"));
  EXPECT_THAT(section, HasSubstr("<td class=\"num\">2</td><td>/mnt/s3files-noac nfs4 fs:/ "
                                 "rw,noac</td>"));
  EXPECT_THAT(section, HasSubstr("<td>agent-2</td><td class=\"num\">0</td><td class=\"num\">-"
                                 "</td>"));
  EXPECT_THAT(section, HasSubstr("<td class=\"num\">5</td><td>-</td>"));
}

}  // namespace
}  // namespace azbench
