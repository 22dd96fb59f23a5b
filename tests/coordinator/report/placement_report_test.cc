#include "coordinator/report/placement_report.h"

#include <sstream>
#include <string>
#include <vector>

#include "coordinator/report/json_report.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

constexpr int64_t kSecond = 1'000'000'000;

// One scenario: each agent did `ops` reads of 4 KiB in exactly 1 s, each taking `latency_ns`.
ScenarioResult Scenario(const std::string& target, const std::string& placement,
                        const std::vector<std::string>& agents, uint64_t ops, uint64_t latency_ns) {
  ScenarioResult result;
  azbench::Scenario& s = result.scenario;
  s.target = target;
  s.workload = "read";
  s.parameters = {{"direct", "1"}, {"placement", placement}};
  s.repeat = 1;
  s.key = "workload=read/direct=1/placement=" + placement + "/target=" + target + "/repeat=1";
  s.agent_ids = agents;
  for (const std::string& agent : agents) {
    JobResult job;
    job.name = "read";
    job.start_realtime_ns = 1'700'000'000 * kSecond;
    job.end_realtime_ns = job.start_realtime_ns + kSecond;
    job.runtime_ns = kSecond;
    OpStats& read = job.Stats(OpKind::kRead);
    for (uint64_t i = 0; i < ops; ++i) read.lat.Record(latency_ns);
    read.ops = ops;
    read.bytes = ops * 4096;
    result.results.push_back(AgentJobResult{agent, std::move(job)});
    PlacementEvidence e;
    e.agent_id = agent;
    e.target = target;
    e.placement = placement == "same-az" ? Placement::kSameAz : Placement::kCrossAz;
    e.agent_az = agent == "a1" ? "az-a" : "az-b";
    e.az_source = "imds";
    e.server_address = "10.0.1.20";
    e.address_source = "addr=";
    e.subnet = "10.0.1.0/24";
    e.subnet_source = "imds a1";
    e.server_az = "az-a";
    e.server_az_source = "subnet map";
    e.reason = "addr=10.0.1.20 in 10.0.1.0/24 (az-a, imds a1)";
    s.placements.push_back(e);
  }
  return result;
}

ScenarioResult Skipped(const std::string& target, const std::string& placement) {
  ScenarioResult result;
  result.scenario.target = target;
  result.scenario.workload = "read";
  result.scenario.parameters = {{"direct", "1"}, {"placement", placement}};
  result.scenario.repeat = 1;
  result.scenario.key = "skipped/" + target + "/" + placement;
  result.scenario.skipped = true;
  result.scenario.skip_reason = "placement=" + placement + ": no agent is " + placement +
                                " to target '" + target + "' (same-az: a1,b1)";
  result.status = ScenarioStatus::kSkipped;
  return result;
}

std::string RowOf(const std::string& text, const std::string& heading, const std::string& label) {
  const size_t at = text.find(heading);
  if (at == std::string::npos) return "";
  std::istringstream lines(text.substr(at));
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("| " + label + " |", 0) == 0) return line;
  }
  return "";
}

TEST(PlacementReportTest, SameAndCrossAzSideBySideWithTheRatio) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario("fsx", "same-az", {"a1"}, 2000, 500'000));
  scenarios.push_back(Scenario("fsx", "cross-az", {"b1"}, 1000, 1'000'000));
  const ReportInput input = MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll);
  const std::string view = RenderPlacementView(input);
  EXPECT_THAT(view, HasSubstr("## Placement: same-AZ vs cross-AZ"));
  EXPECT_THAT(view, HasSubstr("### read (direct=1): fsx"));
  EXPECT_EQ(RowOf(view, "### read (direct=1): fsx", "IOPS"), "| IOPS | 2,000 | 1,000 | 0.50x |");
  EXPECT_EQ(RowOf(view, "### read (direct=1): fsx", "MiB/s"), "| MiB/s | 7.81 | 3.91 | 0.50x |");
  EXPECT_EQ(RowOf(view, "### read (direct=1): fsx", "mean lat"),
            "| mean lat | 500us | 1.00ms | 2.00x |");
  EXPECT_EQ(RowOf(view, "### read (direct=1): fsx", "agents"), "| agents | 1 | 1 | |");
}

TEST(PlacementReportTest, AMissingSideSaysWhyAndHasNoRatio) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario("efs", "same-az", {"a1", "b1"}, 1500, 600'000));
  scenarios.push_back(Skipped("efs", "cross-az"));
  const std::string view =
      RenderPlacementView(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_EQ(RowOf(view, "### read (direct=1): efs", "IOPS"), "| IOPS | 3,000 | - | - |");
  EXPECT_THAT(view, HasSubstr("cross-az: skipped: placement=cross-az: no agent is cross-az to "
                              "target 'efs' (same-az: a1,b1)"));
}

TEST(PlacementReportTest, EvidenceIsListedOncePerAgentAndTarget) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario("fsx", "cross-az", {"b1"}, 1000, 1'000'000));
  ScenarioResult again = Scenario("fsx", "cross-az", {"b1"}, 1100, 1'000'000);
  again.scenario.repeat = 2;
  again.scenario.key += "2";
  scenarios.push_back(std::move(again));
  const std::string view =
      RenderPlacementView(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll));
  const std::string row =
      "| b1 | fsx | cross-az | az-b (imds) | 10.0.1.20 (addr=) | 10.0.1.0/24 (imds a1) | az-a "
      "(subnet map) | addr=10.0.1.20 in 10.0.1.0/24 (az-a, imds a1) |";
  const size_t first = view.find(row);
  ASSERT_NE(first, std::string::npos) << view;
  EXPECT_EQ(view.find(row, first + 1), std::string::npos) << "listed twice:\n" << view;
}

TEST(PlacementReportTest, EvidenceShowsEachAgentsMountOfTheTarget) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario("efs", "same-az", {"a1", "b1"}, 1000, 1'000'000));
  scenarios[0].scenario.placements[0].mount =
      "nfs4 fs-1.efs:/ on /mnt/efs (hard,nconnect=4,vers=4.1)";
  const std::string view =
      RenderPlacementView(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_THAT(view,
              HasSubstr("| reason | mount and options |\n|---|---|---|---|---|---|---|---|---|"));
  EXPECT_THAT(view,
              HasSubstr("| addr=10.0.1.20 in 10.0.1.0/24 (az-a, imds a1) | nfs4 fs-1.efs:/ on "
                        "/mnt/efs (hard,nconnect=4,vers=4.1) |\n"));
  // b1 reported no mount: a dash, not an empty cell.
  EXPECT_THAT(view, HasSubstr("| b1 | efs | same-az | az-b (imds) |"));
  EXPECT_THAT(view, HasSubstr("(az-a, imds a1) | - |\n"));
}

TEST(PlacementReportTest, AMountWithAPipeDoesNotSplitTheCell) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario("efs", "same-az", {"a1"}, 1000, 1'000'000));
  scenarios[0].scenario.placements[0].mount = "fuse a|b on /mnt/x (rw)";
  const std::string view =
      RenderPlacementView(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_THAT(view, HasSubstr("| fuse a\\|b on /mnt/x (rw) |"));
}

TEST(PlacementReportTest, JsonCarriesTheEvidenceOfEachScenario) {
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(Scenario("fsx", "cross-az", {"b1"}, 1000, 1'000'000));
  const nlohmann::json json =
      JsonReport(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll));
  const nlohmann::json& evidence = json["scenarios"][0]["placements"];
  ASSERT_EQ(evidence.size(), 1u) << json.dump(2);
  EXPECT_EQ(evidence[0]["agent_id"], "b1");
  EXPECT_EQ(evidence[0]["placement"], "cross-az");
  EXPECT_EQ(evidence[0]["server_address"], "10.0.1.20");
  EXPECT_EQ(evidence[0]["subnet_source"], "imds a1");
}

TEST(PlacementReportTest, NothingWithoutPlacement) {
  ScenarioResult plain = Scenario("fsx", "same-az", {"a1"}, 10, 1000);
  plain.scenario.parameters = {{"direct", "1"}};
  plain.scenario.placements.clear();
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(plain));
  EXPECT_THAT(RenderPlacementView(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll)),
              IsEmpty());
}

TEST(PlacementReportTest, OnlyUnknownEvidenceWithoutAnAxisIsNoView) {
  ScenarioResult plain = Scenario("disk", "same-az", {"a1"}, 10, 1000);
  plain.scenario.parameters = {};
  plain.scenario.placements[0].placement = Placement::kUnknown;
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(plain));
  EXPECT_THAT(RenderPlacementView(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll)),
              IsEmpty());
}

TEST(PlacementReportTest, EvidenceWithoutAnAxisStillShowsWhereAgentsRan) {
  ScenarioResult plain = Scenario("fsx", "same-az", {"a1"}, 10, 1000);
  plain.scenario.parameters = {{"direct", "1"}};
  std::vector<ScenarioResult> scenarios;
  scenarios.push_back(std::move(plain));
  const std::string view =
      RenderPlacementView(MakeReportInput("a", {}, std::move(scenarios), KeepPolicy::kAll));
  EXPECT_THAT(view, HasSubstr("No `placement` axis"));
  EXPECT_THAT(view, HasSubstr("| a1 | fsx | same-az |"));
  EXPECT_THAT(view, Not(HasSubstr("cross/same")));
}

}  // namespace
}  // namespace azbench
