// The agent-count axes (nodes, nodes_per_az), the sharing option, and the scaling examples plan as
// the README says.
#include <algorithm>
#include <filesystem>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/plan/plan.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string SourceRoot() { return std::filesystem::path(testing::kSourceDir).string(); }

AgentInfo Agent(const std::string& id, const std::string& az) {
  AgentInfo agent;
  agent.agent_id = id;
  agent.address = id + ":7480";
  agent.availability_zone = az;
  return agent;
}

// 3 agents in az-a, 2 in az-b, 1 in az-c, 1 without an AZ.
std::vector<AgentInfo> Fleet() {
  return {Agent("a3", "az-a"), Agent("b1", "az-b"), Agent("x", ""),     Agent("a1", "az-a"),
          Agent("c1", "az-c"), Agent("a2", "az-a"), Agent("b2", "az-b")};
}

Campaign WithAxes(std::vector<MatrixAxis> axes) {
  Campaign c;
  c.name = "scale";
  CampaignTarget target;
  target.name = "t";
  target.path = "/mnt/t";
  c.targets.push_back(std::move(target));
  Workload w;
  w.name = "w";
  w.jobs.push_back({"w", {{"rw", "read"}, {"size", "1m"}}, 0});
  c.workloads.push_back(std::move(w));
  c.matrix = std::move(axes);
  return c;
}

TEST(ScalingPlanTest, BalancedOrderDependsOnlyOnIdsAndAzsNotOnListingOrder) {
  const std::vector<AgentInfo> fleet = Fleet();
  std::vector<std::string> expected;
  for (const AgentInfo& a : BalancedAgentOrder(fleet)) expected.push_back(a.agent_id);
  // AZs by name, the no-AZ group last; one agent per group in turn.
  EXPECT_THAT(expected, ElementsAre("a1", "b1", "c1", "x", "a2", "b2", "a3"));
  std::mt19937 rng(3);
  for (int i = 0; i < 20; ++i) {
    std::vector<AgentInfo> shuffled = fleet;
    std::shuffle(shuffled.begin(), shuffled.end(), rng);
    std::vector<std::string> got;
    for (const AgentInfo& a : BalancedAgentOrder(shuffled)) got.push_back(a.agent_id);
    EXPECT_EQ(got, expected);
  }
}

TEST(ScalingPlanTest, NodesTakesTheFirstOfTheBalancedOrderAndAllTakesEveryAgent) {
  auto plan = ExpandCampaign(WithAxes({{kNodesAxis, {"1", "2", "4", "all", "8"}, {}}}), Fleet());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 5u);
  EXPECT_THAT((*plan)[0].agent_ids, ElementsAre("a1"));
  EXPECT_THAT((*plan)[1].agent_ids, ElementsAre("a1", "b1"));
  EXPECT_THAT((*plan)[2].agent_ids, ElementsAre("a1", "b1", "c1", "x"));
  EXPECT_EQ((*plan)[3].agent_ids.size(), 7u);
  EXPECT_TRUE((*plan)[4].skipped);
  EXPECT_THAT((*plan)[4].skip_reason, HasSubstr("the fleet has 7"));
}

TEST(ScalingPlanTest, NodesPerAzTakesThatManyFromEveryAzOrSkipsNamingTheShortAz) {
  std::vector<AgentInfo> fleet = Fleet();
  fleet.erase(std::remove_if(fleet.begin(), fleet.end(),
                             [](const AgentInfo& a) { return a.agent_id == "x"; }),
              fleet.end());
  auto plan = ExpandCampaign(WithAxes({{kNodesPerAzAxis, {"1", "2", "all"}, {}}}), fleet);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 3u);
  EXPECT_THAT((*plan)[0].agent_ids, ElementsAre("a1", "b1", "c1"));
  EXPECT_TRUE((*plan)[1].skipped);
  EXPECT_THAT((*plan)[1].skip_reason, HasSubstr("AZ az-c"));
  EXPECT_EQ((*plan)[2].agent_ids.size(), 6u);
  EXPECT_THAT((*plan)[0].key, HasSubstr("/nodes_per_az=1/"));
  // The axis is not a job option: it never reaches the jobs.
  for (const auto& [key, value] : (*plan)[0].jobs[0].options) EXPECT_NE(key, kNodesPerAzAxis);
}

TEST(ScalingPlanTest, NodesAfterNodesPerAzCutsThatSelectionInBalancedOrder) {
  auto plan = ExpandCampaign(WithAxes({{kNodesPerAzAxis, {"2"}, {}}, {kNodesAxis, {"3", "5"}, {}}}),
                             {Agent("a1", "az-a"), Agent("a2", "az-a"), Agent("a3", "az-a"),
                              Agent("b1", "az-b"), Agent("b2", "az-b")});
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 2u);
  EXPECT_THAT((*plan)[0].agent_ids, ElementsAre("a1", "b1", "a2"));
  EXPECT_TRUE((*plan)[1].skipped);
  EXPECT_THAT((*plan)[1].skip_reason, HasSubstr("nodes_per_az selects 4"));
}

TEST(ScalingPlanTest, CampaignAcceptsNodesPerAzAndSharingAndRefusesBadValues) {
  const std::string head =
      "name: s\nfleet: {local: {agents: 2}}\ntargets: [{name: t, path: /tmp}]\n"
      "workloads: [{name: w, options: {rw: read, size: 1m, sharing: shared-dir}}]\n";
  auto ok =
      ParseCampaign(head + "matrix: {nodes_per_az: [1, all], sharing: [shared-file]}\n", "s.yaml");
  ASSERT_TRUE(ok.ok()) << ok.status();
  auto plan = ExpandCampaign(*ok, ExpectedAgents(ok->fleet));
  ASSERT_TRUE(plan.ok()) << plan.status();
  // The axis value overrides the workload's own sharing.
  bool shared_file = false;
  for (const auto& [key, value] : (*plan)[0].jobs[0].options) {
    if (key == "sharing") shared_file = value == "shared-file";
  }
  EXPECT_TRUE(shared_file);
  EXPECT_THAT(ParseCampaign(head + "matrix: {sharing: [per-node]}\n", "s.yaml"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("allowed: file-per-agent, shared-dir, shared-file")));
  EXPECT_THAT(ParseCampaign(head + "matrix: {nodes_per_az: [0]}\n", "s.yaml"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("matrix.nodes_per_az")));
}

// examples/scaling-efs.yaml on a real fleet of 9 agents in 3 AZs (its hosts_file is not read by
// the planner: the fleet is given here as Describe would report it).
TEST(ScalingPlanTest, TheEfsScalingExamplePlansBalancedCountsForEverySharingMode) {
  auto campaign = ParseCampaignFile(SourceRoot() + "/examples/scaling-efs.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  std::vector<AgentInfo> fleet;
  for (const char* az : {"use1-az1", "use1-az2", "use1-az4"}) {
    for (int i = 1; i <= 3; ++i)
      fleet.push_back(Agent(std::string(az) + "-" + std::to_string(i), az));
  }
  auto plan = ExpandCampaign(*campaign, fleet);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 30u) << "2 workloads x 3 sharing modes x 5 node counts";
  for (const Scenario& s : *plan) {
    EXPECT_FALSE(s.skipped) << s.key;
    std::string sharing;
    for (const auto& [key, value] : s.jobs[0].options) {
      if (key == "sharing") sharing = value;
    }
    EXPECT_FALSE(sharing.empty()) << s.key;
    std::map<std::string, int> per_az;
    for (const std::string& id : s.agent_ids) ++per_az[id.substr(0, 8)];
    int lo = 1 << 30, hi = 0;
    for (const auto& [az, n] : per_az) {
      lo = std::min(lo, n);
      hi = std::max(hi, n);
    }
    if (s.agent_ids.size() >= 3) {
      EXPECT_LE(hi - lo, 1) << s.key << ": balanced over AZs";
    }
  }
  EXPECT_EQ((*plan)[4].agent_ids.size(), 9u) << (*plan)[4].key;
  EXPECT_THAT((*plan)[4].key, HasSubstr("sharing=file-per-agent/nodes=all"));
  EXPECT_THAT((*plan)[1].agent_ids, ElementsAre("use1-az1-1", "use1-az2-1"));
}

TEST(ScalingPlanTest, TheLocalScalingExamplePlansOneToEightLocalAgents) {
  auto campaign = ParseCampaignFile(SourceRoot() + "/examples/scaling-local.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  auto plan = ExpandCampaign(*campaign, ExpectedAgents(campaign->fleet));
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 16u);
  for (const Scenario& s : *plan) EXPECT_FALSE(s.skipped) << s.key;
  EXPECT_THAT((*plan)[1].agent_ids, ElementsAre("local-1", "local-2"));
  EXPECT_EQ((*plan)[3].agent_ids.size(), 8u);
}

}  // namespace
}  // namespace azbench
