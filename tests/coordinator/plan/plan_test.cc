#include "coordinator/plan/plan.h"

#include <filesystem>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "absl/time/time.h"
#include "coordinator/campaign/campaign.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::Pair;
using ::testing::SizeIs;

std::string TestData(const std::string& name) {
  return (std::filesystem::path(testing::kSourceDir) / "tests/coordinator/testdata" / name)
      .string();
}

AgentInfo Agent(const std::string& id, const std::string& az) {
  AgentInfo agent;
  agent.agent_id = id;
  agent.address = id + ":7480";
  agent.availability_zone = az;
  return agent;
}

// Four agents, two per AZ, listed out of order.
std::vector<AgentInfo> FourAgents() {
  return {Agent("d", "az-b"), Agent("a", "az-a"), Agent("c", "az-b"), Agent("b", "az-a")};
}

Campaign Parse(const std::string& text) {
  absl::StatusOr<Campaign> campaign = ParseCampaign(text, TestData("inline.yaml"));
  EXPECT_TRUE(campaign.ok()) << campaign.status();
  return campaign.ok() ? *std::move(campaign) : Campaign{};
}

// Two workloads, two targets, a 2 x 2 matrix, two repeats.
constexpr char kSweep[] = R"(name: sweep
fleet: {local: {agents: 4, azs: [az-a, az-b]}}
targets:
  - {name: efs, path: /mnt/efs}
  - {name: zfs, path: /mnt/zfs}
workloads:
  - name: randread
    options: {rw: randread, bs: 4k, size: 1m, iodepth: 4}
  - name: seqread
    options: {rw: read, bs: 1m, size: 4m}
matrix:
  iodepth: [1, 16]
  nodes: [1, 2]
repeats: 2
)";

std::vector<std::string> Keys(const std::vector<Scenario>& scenarios) {
  std::vector<std::string> keys;
  for (const Scenario& s : scenarios) keys.push_back(s.key);
  return keys;
}

TEST(PlanTest, ScenarioCountIsWorkloadsTimesCellsTimesRepeatsTimesTargets) {
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(Parse(kSweep), FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(*plan, SizeIs(2 * 4 * 2 * 2));
  for (size_t i = 0; i < plan->size(); ++i) EXPECT_EQ((*plan)[i].index, static_cast<int>(i));
}

TEST(PlanTest, CampaignBuiltByHandAboveTheScenarioCapIsRefusedBeforeExpanding) {
  Campaign campaign = Parse(kSweep);
  MatrixAxis& iodepth = campaign.matrix[0];
  iodepth.values.clear();
  for (int i = 1; i <= 2000; ++i) iodepth.values.push_back(absl::StrCat(i));
  // 2 workloads x 2000 x 2 nodes x 2 repeats x 2 targets = 32000.
  EXPECT_THAT(
      ExpandCampaign(campaign, FourAgents()),
      StatusIs(absl::StatusCode::kInvalidArgument,
               HasSubstr("the campaign expands to 32000 scenarios; at most 10000 are allowed")));
}

TEST(PlanTest, OrderIsWorkloadThenMatrixThenRepeatThenTarget) {
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(Parse(kSweep), FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::vector<std::string> keys = Keys(*plan);
  EXPECT_THAT(std::vector<std::string>(keys.begin(), keys.begin() + 9),
              ElementsAre("workload=randread/iodepth=1/nodes=1/target=efs/repeat=1",
                          "workload=randread/iodepth=1/nodes=1/target=zfs/repeat=1",
                          "workload=randread/iodepth=1/nodes=1/target=efs/repeat=2",
                          "workload=randread/iodepth=1/nodes=1/target=zfs/repeat=2",
                          "workload=randread/iodepth=1/nodes=2/target=efs/repeat=1",
                          "workload=randread/iodepth=1/nodes=2/target=zfs/repeat=1",
                          "workload=randread/iodepth=1/nodes=2/target=efs/repeat=2",
                          "workload=randread/iodepth=1/nodes=2/target=zfs/repeat=2",
                          "workload=randread/iodepth=16/nodes=1/target=efs/repeat=1"));
  EXPECT_EQ(keys[16], "workload=seqread/iodepth=1/nodes=1/target=efs/repeat=1");
  EXPECT_EQ(keys.back(), "workload=seqread/iodepth=16/nodes=2/target=zfs/repeat=2");
  const Scenario& s = (*plan)[8];
  EXPECT_EQ(s.workload, "randread");
  EXPECT_EQ(s.target, "efs");
  EXPECT_THAT(s.parameters, ElementsAre(Pair("iodepth", "16"), Pair("nodes", "1")));
  EXPECT_EQ(s.repeat, 1);
  EXPECT_EQ(s.repeats, 2);
  EXPECT_FALSE(s.warmup);
}

TEST(PlanTest, KeysAreUniqueAndDoNotDependOnTheFleet) {
  const Campaign campaign = Parse(kSweep);
  absl::StatusOr<std::vector<Scenario>> four = ExpandCampaign(campaign, FourAgents());
  absl::StatusOr<std::vector<Scenario>> one = ExpandCampaign(campaign, {Agent("x", "")});
  ASSERT_TRUE(four.ok()) << four.status();
  ASSERT_TRUE(one.ok()) << one.status();
  const std::vector<std::string> keys = Keys(*four);
  EXPECT_EQ(std::set<std::string>(keys.begin(), keys.end()).size(), keys.size());
  EXPECT_EQ(Keys(*one), keys);
  EXPECT_EQ(Keys(*ExpandCampaign(campaign, FourAgents())), keys);
}

TEST(PlanTest, KeyValuesEscapeTheSeparators) {
  Campaign campaign = Parse(kSweep);
  campaign.matrix = {{"filename", {"a/b", "c=d e", "50%"}, {}}};
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ((*plan)[0].key, "workload=randread/filename=a%2Fb/target=efs/repeat=1");
  EXPECT_EQ((*plan)[4].key, "workload=randread/filename=c%3Dd%20e/target=efs/repeat=1");
  EXPECT_EQ((*plan)[8].key, "workload=randread/filename=50%25/target=efs/repeat=1");
  // The scenario's own values stay as written.
  EXPECT_THAT((*plan)[0].parameters, ElementsAre(Pair("filename", "a/b")));
}

TEST(PlanTest, JobsGetTheMatrixValuesAndTheTargetDirectory) {
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(Parse(kSweep), FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Scenario& s = (*plan)[9];  // randread, iodepth=16, nodes=1, zfs, repeat 1
  ASSERT_EQ(s.key, "workload=randread/iodepth=16/nodes=1/target=zfs/repeat=1");
  ASSERT_THAT(s.jobs, SizeIs(1));
  EXPECT_EQ(s.jobs[0].name, "randread");
  EXPECT_EQ(s.jobs[0].workload, "block_io");
  // The matrix's iodepth replaces the workload's; nodes is not a job option.
  EXPECT_THAT(s.jobs[0].options,
              ElementsAre(Pair("rw", "randread"), Pair("bs", "4k"), Pair("size", "1m"),
                          Pair("iodepth", "16"), Pair("directory", "/mnt/zfs")));
}

TEST(PlanTest, WithoutNodesAxisEveryAgentRunsInBalancedOrder) {
  Campaign campaign = Parse(kSweep);
  campaign.matrix.clear();
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (const Scenario& s : *plan) {
    EXPECT_THAT(s.agent_ids, ElementsAre("a", "c", "b", "d")) << s.key;
    EXPECT_FALSE(s.skipped);
  }
}

TEST(PlanTest, NodesAxisIsBalancedOverAzsSortedByNameThenAgentId) {
  const std::vector<AgentInfo> agents = {Agent("z1", "use1-az2"), Agent("a9", "use1-az1"),
                                         Agent("n1", ""),         Agent("a1", "use1-az1"),
                                         Agent("a5", "use1-az1"), Agent("m1", "use1-az3")};
  std::vector<std::string> order;
  for (const AgentInfo& a : BalancedAgentOrder(agents)) order.push_back(a.agent_id);
  // One from each AZ in turn (AZs by name, agents by id); agents with no AZ form the last group.
  EXPECT_THAT(order, ElementsAre("a1", "z1", "m1", "n1", "a5", "a9"));

  Campaign campaign = Parse(kSweep);
  campaign.targets.resize(1);
  campaign.workloads.resize(1);
  campaign.repeats = 1;
  campaign.matrix = {{"nodes", {"1", "2", "3", "5", "all"}, {}}};
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, agents);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_THAT(*plan, SizeIs(5));
  EXPECT_THAT((*plan)[0].agent_ids, ElementsAre("a1"));
  EXPECT_THAT((*plan)[1].agent_ids, ElementsAre("a1", "z1"));
  EXPECT_THAT((*plan)[2].agent_ids, ElementsAre("a1", "z1", "m1"));
  EXPECT_THAT((*plan)[3].agent_ids, ElementsAre("a1", "z1", "m1", "n1", "a5"));
  EXPECT_THAT((*plan)[4].agent_ids, SizeIs(6));
}

TEST(PlanTest, NodesAxisSkipsScenariosTheFleetIsTooSmallFor) {
  Campaign campaign = Parse(kSweep);
  campaign.matrix = {{"nodes", {"4", "8", "all"}, {}}};
  campaign.targets.resize(1);
  campaign.workloads.resize(1);
  campaign.repeats = 1;
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_THAT(*plan, SizeIs(3));
  EXPECT_FALSE((*plan)[0].skipped);
  EXPECT_THAT((*plan)[0].agent_ids, SizeIs(4));
  EXPECT_TRUE((*plan)[1].skipped);
  EXPECT_EQ((*plan)[1].skip_reason, "nodes=8 needs 8 agents; the fleet has 4");
  EXPECT_THAT((*plan)[1].agent_ids, IsEmpty());
  EXPECT_THAT((*plan)[1].jobs, SizeIs(1));  // still shown with what it would have run
  EXPECT_FALSE((*plan)[2].skipped);
  EXPECT_THAT((*plan)[2].agent_ids, SizeIs(4));
}

TEST(PlanTest, WarmupAddsOneDiscardedRunPerCellAndTargetBeforeTheRepeats) {
  Campaign campaign = Parse(kSweep);
  campaign.matrix.resize(1);  // iodepth only
  campaign.workloads.resize(1);
  campaign.repeats = 3;
  campaign.warmup = absl::Seconds(5);
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_THAT(*plan, SizeIs(2 * (1 + 3) * 2));
  const std::vector<std::string> keys = Keys(*plan);
  EXPECT_THAT(std::vector<std::string>(keys.begin(), keys.begin() + 8),
              ElementsAre("workload=randread/iodepth=1/target=efs/warmup",
                          "workload=randread/iodepth=1/target=zfs/warmup",
                          "workload=randread/iodepth=1/target=efs/repeat=1",
                          "workload=randread/iodepth=1/target=zfs/repeat=1",
                          "workload=randread/iodepth=1/target=efs/repeat=2",
                          "workload=randread/iodepth=1/target=zfs/repeat=2",
                          "workload=randread/iodepth=1/target=efs/repeat=3",
                          "workload=randread/iodepth=1/target=zfs/repeat=3"));
  const Scenario& warm = (*plan)[0];
  EXPECT_TRUE(warm.warmup);
  EXPECT_EQ(warm.repeat, 0);
  EXPECT_EQ(warm.repeats, 3);
  EXPECT_FALSE((*plan)[2].warmup);
  // The warmup runs for the warmup duration; the measured runs keep the workload's options.
  EXPECT_THAT(warm.jobs[0].options,
              ElementsAre(Pair("rw", "randread"), Pair("bs", "4k"), Pair("size", "1m"),
                          Pair("iodepth", "1"), Pair("directory", "/mnt/efs"),
                          Pair("runtime", "5s"), Pair("time_based", "1")));
  EXPECT_THAT((*plan)[2].jobs[0].options, Not(Contains(Pair("time_based", "1"))));
  EXPECT_EQ((*plan)[6].repeat, 3);
  EXPECT_EQ((*plan)[8].key, "workload=randread/iodepth=16/target=efs/warmup");
}

TEST(PlanTest, CooldownPrecedesEveryScenarioButTheFirst) {
  Campaign campaign = Parse(kSweep);
  campaign.cooldown = absl::Milliseconds(2500);
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ((*plan)[0].cooldown_s, 0);
  for (size_t i = 1; i < plan->size(); ++i) EXPECT_EQ((*plan)[i].cooldown_s, 2.5);
}

TEST(PlanTest, FioJobWorkloadContributesEveryJobOfTheFileOnTheTarget) {
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(TestData("study-c.yaml"));
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  absl::StatusOr<std::vector<Scenario>> plan =
      ExpandCampaign(*campaign, {Agent("10.0.1.5:7480", "use1-az1")});
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_THAT(*plan, SizeIs(3));  // three repeats, as study C did
  EXPECT_EQ((*plan)[2].key, "workload=web-root/target=efs/repeat=3");
  const std::vector<ScenarioJob>& jobs = (*plan)[0].jobs;
  ASSERT_THAT(jobs, SizeIs(2));
  EXPECT_EQ(jobs[0].name, "rand-read");
  EXPECT_EQ(jobs[1].name, "seq-read");
  EXPECT_EQ(jobs[0].group_id, jobs[1].group_id);  // both run at once
  // The file's directory=/mnt/efs gives way to the target's path.
  EXPECT_THAT(jobs[0].options,
              ElementsAre(Pair("rw", "randread"), Pair("size", "1m"), Pair("numjobs", "1"),
                          Pair("directory", "/mnt/efs/azbench")));
  EXPECT_THAT(jobs[1].options, Contains(Pair("size", "1g")));
  EXPECT_THAT(jobs[1].options, Not(Contains(Pair("directory", "/mnt/efs"))));
}

TEST(PlanTest, FleetProblemsAreErrors) {
  const Campaign campaign = Parse(kSweep);
  EXPECT_EQ(ExpandCampaign(campaign, {}).status().code(), absl::StatusCode::kFailedPrecondition);
  absl::Status duplicate =
      ExpandCampaign(campaign, {Agent("a", "az-a"), Agent("a", "az-b")}).status();
  EXPECT_EQ(duplicate.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(duplicate.message()), HasSubstr("agent_id 'a'"));
}

TEST(PlanTest, HandBuiltCampaignWithCollidingNamesIsRefused) {
  Campaign campaign = Parse(kSweep);
  campaign.targets[1].name = campaign.targets[0].name;
  absl::Status status = ExpandCampaign(campaign, FourAgents()).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("occurs twice"));
}

TEST(PlanTest, HandBuiltCampaignWithAnInvalidJobIsRefused) {
  Campaign campaign = Parse(kSweep);
  campaign.matrix = {{"bs", {"64m"}, {}}};
  absl::Status status = ExpandCampaign(campaign, FourAgents()).status();
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              AllOf(HasSubstr("workload=randread/bs=64m"), HasSubstr("must not exceed size")));
}

TEST(PlanTest, AParsedCampaignRecordsThatItsJobsWereCheckedUntilItIsChanged) {
  Campaign campaign = Parse(kSweep);
  EXPECT_TRUE(JobsCheckedAtParse(campaign));
  Campaign axes_changed = campaign;
  axes_changed.matrix.front().values.push_back("64");
  EXPECT_FALSE(JobsCheckedAtParse(axes_changed));
  Campaign options_changed = campaign;
  options_changed.workloads[0].jobs[0].options.push_back({"bs", "64m"});
  EXPECT_FALSE(JobsCheckedAtParse(options_changed));
  Campaign nodes_changed = campaign;  // `nodes` does not change any job
  nodes_changed.matrix.back().values = {"3"};
  EXPECT_TRUE(JobsCheckedAtParse(nodes_changed));
  Campaign built_by_hand = campaign;
  built_by_hand.checked_jobs.reset();
  EXPECT_FALSE(JobsCheckedAtParse(built_by_hand));
}

TEST(PlanTest, AParsedCampaignWhoseJobWasChangedAfterwardsIsCheckedAgain) {
  Campaign campaign = Parse(kSweep);
  campaign.workloads[0].jobs[0].options.push_back({"bs", "64m"});  // larger than size: 1m
  absl::Status status = ExpandCampaign(campaign, FourAgents()).status();
  EXPECT_THAT(status,
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("job 'randread'"), HasSubstr("must not exceed size"))));
}

TEST(PlanTest, ExpectedAgentsOfALocalFleetAlternateOverItsAzs) {
  FleetSpec fleet;
  fleet.kind = FleetSpec::Kind::kLocal;
  fleet.local_agents = 3;
  fleet.local_azs = {"local-a", "local-b"};
  const std::vector<AgentInfo> agents = ExpectedAgents(fleet);
  ASSERT_THAT(agents, SizeIs(3));
  EXPECT_EQ(agents[0].agent_id, "local-1");
  EXPECT_EQ(agents[0].availability_zone, "local-a");
  EXPECT_EQ(agents[1].availability_zone, "local-b");
  EXPECT_EQ(agents[2].availability_zone, "local-a");

  FleetSpec hosts;
  hosts.kind = FleetSpec::Kind::kHosts;
  hosts.hosts = {"10.0.1.5:7480"};
  EXPECT_EQ(ExpectedAgents(hosts)[0].agent_id, "10.0.1.5:7480");
  EXPECT_EQ(ExpectedAgents(hosts)[0].address, "10.0.1.5:7480");
}

TEST(PlanTest, FormatPlanPrintsOneLinePerScenarioWithAgentsAndNotes) {
  Campaign campaign = Parse(kSweep);
  campaign.workloads.resize(1);
  campaign.targets.resize(1);
  campaign.matrix = {{"nodes", {"2", "8"}, {}}};
  campaign.repeats = 1;
  campaign.warmup = absl::Seconds(1);
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  const std::string text = FormatPlan(*plan);
  const std::vector<std::string> lines = absl::StrSplit(text, '\n', absl::SkipEmpty());
  ASSERT_THAT(lines, SizeIs(plan->size() + 2));  // header, scenarios, summary
  EXPECT_THAT(lines[0], AllOf(HasSubstr("#"), HasSubstr("scenario"), HasSubstr("agents")));
  EXPECT_THAT(lines[1], AllOf(HasSubstr("0  workload=randread/nodes=2/target=efs/warmup"),
                              HasSubstr("2: a,c"), HasSubstr("warmup (discarded)")));
  EXPECT_THAT(lines[2], AllOf(HasSubstr("workload=randread/nodes=2/target=efs/repeat=1"),
                              Not(HasSubstr("warmup ("))));
  EXPECT_THAT(lines[4], AllOf(HasSubstr("workload=randread/nodes=8/target=efs/repeat=1"),
                              HasSubstr("skipped: nodes=8 needs 8 agents; the fleet has 4")));
  EXPECT_EQ(lines.back(), "4 scenarios: 1 to measure, 1 warmup, 2 skipped");
}

TEST(PlanTest, QuickstartPlansEightShortScenariosOnItsLocalFleet) {
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(
      (std::filesystem::path(testing::kSourceDir) / "examples" / "quickstart.yaml").string());
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  absl::StatusOr<std::vector<Scenario>> plan =
      ExpandCampaign(*campaign, ExpectedAgents(campaign->fleet));
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_THAT(*plan, SizeIs(8));  // 2 workloads x nodes [1, all] x 2 repeats: about a minute
  for (const Scenario& s : *plan) EXPECT_FALSE(s.skipped) << s.key;
  EXPECT_THAT((*plan)[0].agent_ids, ElementsAre("local-1"));
  // `all` = the four agents, alternating between the two simulated AZs.
  EXPECT_THAT((*plan)[2].agent_ids, ElementsAre("local-1", "local-2", "local-3", "local-4"));
}

TEST(PlanTest, FormatPlanShortensLongAgentLists) {
  std::vector<AgentInfo> agents;
  for (int i = 0; i < 10; ++i) agents.push_back(Agent("agent-" + std::to_string(i), "az"));
  Campaign campaign = Parse(kSweep);
  campaign.workloads.resize(1);
  campaign.targets.resize(1);
  campaign.matrix.clear();
  campaign.repeats = 1;
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, agents);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(FormatPlan(*plan), HasSubstr("10: agent-0,agent-1,agent-2,agent-3,+6 more"));
}

}  // namespace
}  // namespace azbench

namespace azbench {
namespace {

// Study A's shape on four agents: EFS with a mount target per AZ, FSx active in az-a.
constexpr char kPlacementCampaign[] = R"(name: placed
fleet: {hosts: [a1, a2, b1, b2]}
targets:
  - {name: fsx, path: /mnt/fsx}
  - {name: efs, path: /mnt/efs}
workloads:
  - name: read
    options: {rw: read, bs: 4m, size: 16m}
matrix:
  placement: [same-az, cross-az]
  nodes: [1, all]
)";

v1::MountInfo Nfs(const std::string& path, const std::string& addr) {
  v1::MountInfo m;
  m.set_target_path(path);
  m.set_fstype("nfs4");
  m.set_server("server");
  m.set_addr(addr);
  return m;
}

PlacementTable StudyAPlacements(const std::vector<AgentInfo>& agents) {
  std::vector<PlacementAgent> described;
  for (const AgentInfo& a : agents) {
    PlacementAgent p;
    p.agent_id = a.agent_id;
    p.availability_zone = a.availability_zone;
    p.az_source = "imds";
    const bool in_a = a.availability_zone == "az-a";
    p.subnets.push_back({"", in_a ? "10.0.1.0/24" : "10.0.2.0/24"});
    p.mounts = {Nfs("/mnt/fsx", "10.0.1.20"), Nfs("/mnt/efs", in_a ? "10.0.1.10" : "10.0.2.10")};
    described.push_back(std::move(p));
  }
  return ClassifyPlacements(described, {{"fsx", "/mnt/fsx", ""}, {"efs", "/mnt/efs", ""}}, {});
}

std::vector<AgentInfo> StudyAAgents() {
  return {Agent("b2", "az-b"), Agent("a1", "az-a"), Agent("b1", "az-b"), Agent("a2", "az-a")};
}

const Scenario& ByKey(const std::vector<Scenario>& plan, const std::string& key) {
  for (const Scenario& s : plan) {
    if (s.key == key) return s;
  }
  static const Scenario kNone;
  ADD_FAILURE() << "no scenario " << key;
  return kNone;
}

TEST(PlanPlacementTest, EachTargetGetsOnlyAgentsWithThePlacementOfTheCell) {
  const Campaign campaign = Parse(kPlacementCampaign);
  const std::vector<AgentInfo> agents = StudyAAgents();
  const PlacementTable placements = StudyAPlacements(agents);
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, agents, &placements);
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_THAT(*plan, SizeIs(8));
  const std::string p = "workload=read/placement=";
  EXPECT_THAT(ByKey(*plan, p + "same-az/nodes=all/target=fsx/repeat=1").agent_ids,
              ElementsAre("a1", "a2"));
  const Scenario& fsx_cross = ByKey(*plan, p + "cross-az/nodes=all/target=fsx/repeat=1");
  EXPECT_THAT(fsx_cross.agent_ids, ElementsAre("b1", "b2"));
  ASSERT_EQ(fsx_cross.placements.size(), 2u) << "the evidence travels with the scenario";
  EXPECT_EQ(fsx_cross.placements[0].agent_id, "b1");
  EXPECT_EQ(fsx_cross.placements[0].placement, Placement::kCrossAz);
  EXPECT_EQ(fsx_cross.placements[0].server_address, "10.0.1.20");
  EXPECT_THAT(ByKey(*plan, p + "same-az/nodes=all/target=efs/repeat=1").agent_ids,
              ElementsAre("a1", "b1", "a2", "b2"))
      << "balanced over AZs among the candidates";
  EXPECT_THAT(ByKey(*plan, p + "same-az/nodes=1/target=efs/repeat=1").agent_ids, ElementsAre("a1"));
  const Scenario& efs_cross = ByKey(*plan, p + "cross-az/nodes=1/target=efs/repeat=1");
  EXPECT_TRUE(efs_cross.skipped);
  EXPECT_THAT(efs_cross.agent_ids, IsEmpty());
  EXPECT_EQ(efs_cross.skip_reason,
            "placement=cross-az: no agent is cross-az to target 'efs' (same-az: a1,b1,a2,b2)");
}

TEST(PlanPlacementTest, NodesCountAmongTheAgentsWithThePlacement) {
  Campaign campaign = Parse(absl::StrReplaceAll(kPlacementCampaign, {{"[1, all]", "[2, 3]"}}));
  const std::vector<AgentInfo> agents = StudyAAgents();
  const PlacementTable placements = StudyAPlacements(agents);
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, agents, &placements);
  ASSERT_TRUE(plan.ok()) << plan.status();
  const Scenario& three =
      ByKey(*plan, "workload=read/placement=cross-az/nodes=3/target=fsx/repeat=1");
  EXPECT_TRUE(three.skipped);
  EXPECT_EQ(three.skip_reason, "nodes=3 needs 3 agents; 2 are cross-az to 'fsx'");
  EXPECT_THAT(
      ByKey(*plan, "workload=read/placement=cross-az/nodes=2/target=fsx/repeat=1").agent_ids,
      ElementsAre("b1", "b2"));
}

TEST(PlanPlacementTest, UnknownPlacementIsNeverScheduledAsSameAz) {
  const Campaign campaign = Parse(kPlacementCampaign);
  std::vector<AgentInfo> agents = StudyAAgents();
  agents.push_back(Agent("x1", ""));  // no AZ: unknown to everything
  std::vector<PlacementAgent> described;
  PlacementTable placements = StudyAPlacements(StudyAAgents());
  PlacementEvidence unknown;
  unknown.agent_id = "x1";
  unknown.target = "efs";
  placements.entries.push_back(unknown);
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, agents, &placements);
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (const Scenario& s : *plan) {
    EXPECT_THAT(s.agent_ids, Not(Contains("x1"))) << s.key;
  }
  EXPECT_THAT(
      ByKey(*plan, "workload=read/placement=cross-az/nodes=all/target=efs/repeat=1").skip_reason,
      HasSubstr("unknown: x1"));
}

TEST(PlanPlacementTest, WithoutDescribedAgentsPlacementCellsAreSkippedWithTheReason) {
  const Campaign campaign = Parse(kPlacementCampaign);
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, StudyAAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  for (const Scenario& s : *plan) {
    EXPECT_TRUE(s.skipped) << s.key;
    EXPECT_THAT(s.skip_reason, HasSubstr("known only once they are described")) << s.key;
  }
}

TEST(PlanPlacementTest, StudyAExampleExpandsForItsFleet) {
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(
      (std::filesystem::path(testing::kSourceDir) / "examples" / "study-a-cross-az.yaml").string());
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  absl::StatusOr<std::vector<Scenario>> plan =
      ExpandCampaign(*campaign, ExpectedAgents(campaign->fleet));
  ASSERT_TRUE(plan.ok()) << plan.status();
  // 2 workloads x 2 direct x 2 placements x 3 repeats x 2 targets.
  ASSERT_THAT(*plan, SizeIs(48));
  EXPECT_EQ((*plan)[0].key,
            "workload=write-4m/direct=0/placement=same-az/target=fsx-openzfs/repeat=1");
  const Scenario& direct = (*plan)[12];
  EXPECT_THAT(direct.jobs[0].options, Contains(Pair("direct", "1")));
  EXPECT_THAT(direct.jobs[0].options, Contains(Pair("bs", "4m")));
  EXPECT_THAT(direct.jobs[0].options, Contains(Pair("ioengine", "libaio")));
  for (const auto& option : direct.jobs[0].options) EXPECT_NE(option.first, "placement");
  // Remote agents are placed once described: the plan says so instead of guessing.
  EXPECT_THAT(direct.skip_reason, HasSubstr("known only once they are described"));
}

TEST(PlanPlacementTest, PlanPreviewPlacesTargetsWithServerAz) {
  const Campaign campaign = Parse(absl::StrReplaceAll(
      kPlacementCampaign,
      {{"{name: fsx, path: /mnt/fsx}", "{name: fsx, path: /mnt/fsx, server_az: az-a}"}}));
  const std::vector<AgentInfo> agents = StudyAAgents();
  const PlacementTable placements =
      ClassifyCampaignPlacements(campaign, PlacementAgentsFromInfos(agents));
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, agents, &placements);
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT(
      ByKey(*plan, "workload=read/placement=cross-az/nodes=all/target=fsx/repeat=1").agent_ids,
      ElementsAre("b1", "b2"));
  EXPECT_TRUE(
      ByKey(*plan, "workload=read/placement=same-az/nodes=all/target=efs/repeat=1").skipped);
}

TEST(PlanTest, WriteVerifyWithOneAgentIsSkippedSayingWhy) {
  Campaign campaign = Parse(R"(name: xverify
fleet: {local: {agents: 4, azs: [az-a, az-b]}}
targets:
  - {name: efs, path: /mnt/efs}
workloads:
  - name: wv
    options: {rw: write, bs: 4k, size: 1m, verify: crc32c, sharing: write-verify}
matrix:
  nodes: [1, 2]
warmup: 1s
)");
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(campaign, FourAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_THAT(*plan, SizeIs(4));  // a warmup and a repeat per cell
  for (const Scenario& s : *plan) {
    const bool one = s.key.find("nodes=1") != std::string::npos;
    EXPECT_EQ(s.skipped, one) << s.key;
    if (one) {
      EXPECT_THAT(s.skip_reason, HasSubstr("sharing=write-verify needs at least 2 agents"));
    }
    // The verifiers replay the writer's writes: the warmup is not made time-based.
    for (const auto& [key, value] : s.jobs[0].options) EXPECT_NE(key, "time_based") << s.key;
  }
}

}  // namespace
}  // namespace azbench
