#include "coordinator/plan/placement.h"

#include "absl/strings/str_cat.h"
#include "coordinator/campaign/cidr.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

v1::MountInfo NfsMount(const std::string& path, const std::string& server, const std::string& addr,
                       std::vector<std::string> resolved = {}) {
  v1::MountInfo m;
  m.set_target_path(path);
  m.set_mount_point(path);
  m.set_fstype("nfs4");
  m.set_server(server);
  m.set_source(server + ":/");
  m.set_addr(addr);
  for (const auto& a : resolved) m.add_server_addresses(a);
  return m;
}

PlacementAgent Agent(const std::string& id, const std::string& az, const std::string& az_id,
                     const std::string& cidr, std::vector<v1::MountInfo> mounts) {
  PlacementAgent a;
  a.agent_id = id;
  a.availability_zone = az;
  a.availability_zone_id = az_id;
  a.az_source = az.empty() && az_id.empty() ? "none" : "imds";
  if (!cidr.empty()) a.subnets.push_back({"subnet-" + id, cidr});
  a.mounts = std::move(mounts);
  return a;
}

// Study A: two AZs; EFS with a mount target in each; FSx OpenZFS Multi-AZ active in 1a.
class StudyATopology : public ::testing::Test {
 protected:
  std::vector<PlacementAgent> agents_ = {
      Agent("a1", "ap-northeast-1a", "apne1-az4", "10.0.1.0/24",
            {NfsMount("/mnt/efs", "fs-1.efs", "10.0.1.10", {"10.0.1.10"}),
             NfsMount("/mnt/fsx", "fs-2.fsx", "10.0.1.20", {"10.0.1.20"})}),
      Agent("c1", "ap-northeast-1c", "apne1-az1", "10.0.2.0/24",
            {NfsMount("/mnt/efs", "fs-1.efs", "10.0.2.10", {"10.0.2.10"}),
             NfsMount("/mnt/fsx", "fs-2.fsx", "10.0.1.20", {"10.0.1.20"})}),
  };
  std::vector<PlacementTargetSpec> targets_ = {{"efs", "/mnt/efs", ""}, {"fsx", "/mnt/fsx", ""}};
};

TEST_F(StudyATopology, EfsIsSameAzEverywhereAndFsxIsCrossAzOutsideTheActiveAz) {
  const PlacementTable t = ClassifyPlacements(agents_, targets_, {});
  EXPECT_TRUE(t.warnings.empty());
  ASSERT_EQ(t.entries.size(), 4u);
  EXPECT_EQ(t.Find("a1", "efs")->placement, Placement::kSameAz);
  EXPECT_EQ(t.Find("c1", "efs")->placement, Placement::kSameAz);
  EXPECT_EQ(t.Find("a1", "fsx")->placement, Placement::kSameAz);
  const PlacementEvidence* cross = t.Find("c1", "fsx");
  EXPECT_EQ(cross->placement, Placement::kCrossAz);
  EXPECT_EQ(cross->server_address, "10.0.1.20");
  EXPECT_EQ(cross->address_source, "addr=");
  EXPECT_EQ(cross->subnet, "10.0.1.0/24");
  EXPECT_EQ(cross->subnet_source, "imds a1");
  EXPECT_EQ(cross->server_az, "ap-northeast-1a");
  EXPECT_EQ(cross->server_az_source, "subnet map");
  EXPECT_EQ(cross->az_source, "imds");
  EXPECT_THAT(cross->reason, HasSubstr("addr=10.0.1.20 in 10.0.1.0/24"));
  EXPECT_THAT(cross->reason, HasSubstr("agent in ap-northeast-1c/apne1-az1 (imds)"));
}

TEST_F(StudyATopology, TheStandbySubnetDeclaredInTheCampaignChangesNothing) {
  // The FSx standby sits in 1c's subnet: only the active address counts.
  const PlacementTable t =
      ClassifyPlacements(agents_, targets_, {{"10.0.2.0/24", "ap-northeast-1c"}});
  EXPECT_TRUE(t.warnings.empty()) << t.warnings.front();
  EXPECT_EQ(t.Find("c1", "fsx")->placement, Placement::kCrossAz);
  EXPECT_EQ(t.Find("c1", "efs")->subnet_source, "campaign, imds c1");
}

TEST_F(StudyATopology, ServerSubnetKnownOnlyFromTheCampaignWorks) {
  // Servers in a dedicated subnet no agent is in.
  agents_[1].mounts[1] = NfsMount("/mnt/fsx", "fs-2.fsx", "10.0.9.20");
  const PlacementTable without = ClassifyPlacements(agents_, targets_, {});
  EXPECT_EQ(without.Find("c1", "fsx")->placement, Placement::kUnknown);
  EXPECT_THAT(without.Find("c1", "fsx")->reason, HasSubstr("in no known subnet"));
  const PlacementTable with = ClassifyPlacements(agents_, targets_, {{"10.0.9.0/24", "apne1-az4"}});
  const PlacementEvidence* e = with.Find("c1", "fsx");
  EXPECT_EQ(e->placement, Placement::kCrossAz) << e->reason;
  EXPECT_EQ(e->subnet_source, "campaign");
}

TEST_F(StudyATopology, ExplicitServerAzWinsOverTheSubnetMap) {
  targets_[1].server_az = "apne1-az1";  // as if FSx had failed over to 1c
  const PlacementTable t = ClassifyPlacements(agents_, targets_, {});
  EXPECT_EQ(t.Find("c1", "fsx")->placement, Placement::kSameAz);
  EXPECT_EQ(t.Find("a1", "fsx")->placement, Placement::kCrossAz);
  EXPECT_EQ(t.Find("a1", "fsx")->server_az_source, "target server_az");
  EXPECT_EQ(t.Find("a1", "fsx")->server_address, "10.0.1.20") << "kept as evidence";
}

TEST(PlacementTest, AnUnknownAgentAzIsUnknownNeverSameAz) {
  const std::vector<PlacementAgent> agents = {
      Agent("x", "", "", "", {NfsMount("/mnt/efs", "fs-1.efs", "10.0.1.10")})};
  const PlacementTable t =
      ClassifyPlacements(agents, {{"efs", "/mnt/efs", ""}}, {{"10.0.1.0/24", "us-east-1a"}});
  EXPECT_EQ(t.Find("x", "efs")->placement, Placement::kUnknown);
  EXPECT_EQ(t.Find("x", "efs")->az_source, "none");
  EXPECT_THAT(t.Find("x", "efs")->reason, HasSubstr("AZ is unknown"));
}

TEST(PlacementTest, LocalFileSystemsAndMissingMountsAreUnknown) {
  v1::MountInfo local;
  local.set_target_path("/var/tmp/x");
  local.set_mount_point("/");
  local.set_fstype("ext4");
  const std::vector<PlacementAgent> agents = {Agent("a", "us-east-1a", "", "10.0.1.0/24", {local})};
  const PlacementTable t =
      ClassifyPlacements(agents, {{"disk", "/var/tmp/x", ""}, {"gone", "/mnt/gone", ""}}, {});
  EXPECT_EQ(t.Find("a", "disk")->placement, Placement::kUnknown);
  EXPECT_THAT(t.Find("a", "disk")->reason, HasSubstr("not a network mount"));
  EXPECT_EQ(t.Find("a", "gone")->placement, Placement::kUnknown);
}

TEST(PlacementTest, TheEvidenceCarriesTheMountWithItsOptionsSortedEvenWhenTheAzIsUnknown) {
  v1::MountInfo m = NfsMount("/mnt/efs", "fs-1.efs", "10.0.1.10");
  m.set_mount_point("/mnt");
  (*m.mutable_options())["vers"] = "4.1";
  (*m.mutable_options())["hard"] = "";
  (*m.mutable_options())["rsize"] = "1048576";
  const std::vector<PlacementAgent> agents = {Agent("a", "us-east-1a", "", "10.0.1.0/24", {m}),
                                              Agent("x", "", "", "", {m})};
  const PlacementTable t =
      ClassifyPlacements(agents, {{"efs", "/mnt/efs", ""}, {"gone", "/mnt/gone", ""}}, {});
  EXPECT_EQ(t.Find("a", "efs")->placement, Placement::kSameAz);
  EXPECT_EQ(t.Find("a", "efs")->mount, "nfs4 fs-1.efs:/ on /mnt (hard,rsize=1048576,vers=4.1)");
  EXPECT_EQ(t.Find("x", "efs")->placement, Placement::kUnknown);
  EXPECT_EQ(t.Find("x", "efs")->mount, t.Find("a", "efs")->mount);
  EXPECT_EQ(t.Find("a", "gone")->mount, "") << "no mount reported for that path";
}

TEST(PlacementTest, EfsUtilsTunnelFallsBackToTheResolvedAddresses) {
  const std::vector<PlacementAgent> agents = {
      Agent("a", "us-east-1a", "use1-az1", "10.0.1.0/24",
            {NfsMount("/mnt/efs", "fs-1.efs", "127.0.0.1", {"10.0.1.10"})}),
      Agent("b", "us-east-1b", "use1-az2", "10.0.2.0/24",
            {NfsMount("/mnt/efs", "fs-1.efs", "127.0.0.1", {"10.0.1.10", "10.0.2.10"})})};
  const PlacementTable t = ClassifyPlacements(agents, {{"efs", "/mnt/efs", ""}}, {});
  EXPECT_EQ(t.Find("a", "efs")->placement, Placement::kSameAz);
  EXPECT_EQ(t.Find("a", "efs")->address_source, "resolved fs-1.efs");
  EXPECT_EQ(t.Find("b", "efs")->placement, Placement::kUnknown)
      << "addresses in two AZs and no addr=: cannot tell which one is used";
  EXPECT_THAT(t.Find("b", "efs")->reason, HasSubstr("several AZs"));
}

TEST(PlacementTest, ASubnetClaimedForTwoAzsDecidesNothing) {
  const std::vector<PlacementAgent> agents = {
      Agent("a", "us-east-1a", "", "10.0.1.0/24", {NfsMount("/m", "s", "10.0.1.10")}),
      Agent("b", "us-east-1b", "", "10.0.1.0/24", {NfsMount("/m", "s", "10.0.1.10")})};
  const PlacementTable t = ClassifyPlacements(agents, {{"t", "/m", ""}}, {});
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_THAT(t.warnings[0], HasSubstr("10.0.1.0/24"));
  EXPECT_EQ(t.Find("a", "t")->placement, Placement::kUnknown);
  EXPECT_EQ(t.Find("b", "t")->placement, Placement::kUnknown);
}

TEST(PlacementTest, ASubnetNamedByAzNameAndByIdIsKeptWithAWarning) {
  // The campaign gives the id, the agent (knowing only its name) reports the same subnet.
  const std::vector<PlacementAgent> agents = {
      Agent("a", "us-east-1a", "", "10.0.1.0/24", {NfsMount("/m", "s", "10.0.1.10")})};
  const PlacementTable t =
      ClassifyPlacements(agents, {{"t", "/m", ""}}, {{"10.0.1.0/24", "use1-az1"}});
  ASSERT_EQ(t.warnings.size(), 1u);
  EXPECT_THAT(t.warnings[0], HasSubstr("cannot tell whether use1-az1"));
  // The first claim (the campaign's id) stays; the agent knows only its name: unknown.
  EXPECT_EQ(t.Find("a", "t")->placement, Placement::kUnknown);
  EXPECT_EQ(t.Find("a", "t")->subnet, "10.0.1.0/24");
}

TEST(PlacementTest, AzNamesAndIdsAreRelatedOnlyThroughAgentsThatKnowBoth) {
  // Agent "n" knows only its name; agent "i" only its id; nobody relates them.
  std::vector<PlacementAgent> agents = {
      Agent("n", "us-east-1a", "", "", {NfsMount("/m", "s", "10.0.1.10")}),
      Agent("i", "", "use1-az1", "", {NfsMount("/m", "s", "10.0.1.10")})};
  PlacementTable t = ClassifyPlacements(agents, {{"t", "/m", ""}}, {{"10.0.1.0/24", "use1-az1"}});
  EXPECT_EQ(t.Find("n", "t")->placement, Placement::kUnknown);
  EXPECT_THAT(t.Find("n", "t")->reason, HasSubstr("cannot relate"));
  EXPECT_EQ(t.Find("i", "t")->placement, Placement::kSameAz);
  // A third agent that knows both relates them.
  agents.push_back(Agent("both", "us-east-1a", "use1-az1", "", {}));
  t = ClassifyPlacements(agents, {{"t", "/m", ""}}, {{"10.0.1.0/24", "use1-az1"}});
  EXPECT_EQ(t.Find("n", "t")->placement, Placement::kSameAz);
}

TEST(PlacementTest, LongestPrefixWins) {
  const std::vector<PlacementAgent> agents = {
      Agent("a", "az-a", "", "", {NfsMount("/m", "s", "10.0.1.10")})};
  const PlacementTable t = ClassifyPlacements(agents, {{"t", "/m", ""}},
                                              {{"10.0.0.0/16", "az-b"}, {"10.0.1.0/24", "az-a"}});
  EXPECT_EQ(t.Find("a", "t")->placement, Placement::kSameAz);
  EXPECT_EQ(t.Find("a", "t")->subnet, "10.0.1.0/24");
}

// What an agent reports for a target given as an nfs:// URL (agent/host/target_mounts.h).
v1::MountInfo NfsUrlTarget(const std::string& url, const std::string& server,
                           std::vector<std::string> resolved) {
  v1::MountInfo m;
  m.set_target_path(url);
  m.set_fstype("nfs-url");
  m.set_source(url);
  m.set_server(server);
  m.set_export_path("/var/tmp/azbench-lab/export");
  (*m.mutable_options())["vers"] = "3";
  for (const auto& a : resolved) m.add_server_addresses(a);
  return m;
}

// The lab: three AZs, each agent's subnet from its (fake) IMDS, ganesha at 10.100.0.2 in lab-1a.
class NfsUrlTargetTest : public ::testing::Test {
 protected:
  static constexpr char kUrl[] =
      "nfs://10.100.0.2/var/tmp/azbench-lab/export?version=3&nfsport=2049&mountport=20048";
  std::vector<PlacementAgent> Agents(const v1::MountInfo& mount) {
    return {Agent("a0", "lab-1a", "lab1-az1", "10.100.0.0/24", {mount}),
            Agent("b0", "lab-1b", "lab1-az2", "10.101.0.0/24", {mount}),
            Agent("c0", "lab-1c", "lab1-az3", "10.102.0.0/24", {mount})};
  }
  std::vector<PlacementTargetSpec> targets_ = {{"ganesha", kUrl, ""}};
};

TEST_F(NfsUrlTargetTest, TheUrlsServerAddressIsClassifiedByTheSubnetsLikeAMountsAddr) {
  const PlacementTable t =
      ClassifyPlacements(Agents(NfsUrlTarget(kUrl, "10.100.0.2", {"10.100.0.2"})), targets_, {});
  EXPECT_TRUE(t.warnings.empty());
  const PlacementEvidence* same = t.Find("a0", "ganesha");
  EXPECT_EQ(same->placement, Placement::kSameAz) << same->reason;
  EXPECT_EQ(same->server_address, "10.100.0.2");
  EXPECT_EQ(same->address_source, "nfs_url");
  EXPECT_EQ(same->subnet, "10.100.0.0/24");
  EXPECT_EQ(same->subnet_source, "imds a0");
  EXPECT_EQ(same->server_az_source, "subnet map");
  for (const char* agent : {"b0", "c0"}) {
    const PlacementEvidence* cross = t.Find(agent, "ganesha");
    EXPECT_EQ(cross->placement, Placement::kCrossAz) << cross->reason;
    EXPECT_EQ(cross->server_az, "lab-1a");
    EXPECT_THAT(cross->reason, HasSubstr("nfs_url 10.100.0.2 in 10.100.0.0/24 (lab-1a, imds a0)"));
  }
  EXPECT_EQ(same->mount, absl::StrCat("nfs-url ", kUrl, " (vers=3)"));
}

TEST_F(NfsUrlTargetTest, AServerNameIsResolvedByEachAgentAndItsAddressesMustAgree) {
  const PlacementTable one =
      ClassifyPlacements(Agents(NfsUrlTarget(kUrl, "nfs.lab", {"10.100.0.2"})), targets_, {});
  const PlacementEvidence* e = one.Find("b0", "ganesha");
  EXPECT_EQ(e->placement, Placement::kCrossAz);
  EXPECT_EQ(e->address_source, "resolved nfs.lab");
  const PlacementTable two = ClassifyPlacements(
      Agents(NfsUrlTarget(kUrl, "nfs.lab", {"10.100.0.2", "10.101.0.2"})), targets_, {});
  EXPECT_EQ(two.Find("a0", "ganesha")->placement, Placement::kUnknown);
  EXPECT_THAT(two.Find("a0", "ganesha")->reason, HasSubstr("several AZs"));
}

TEST_F(NfsUrlTargetTest, AServerInNoKnownSubnetIsUnknownUntilTheCampaignDeclaresIt) {
  const v1::MountInfo elsewhere = NfsUrlTarget(kUrl, "10.250.0.2", {"10.250.0.2"});
  const PlacementTable without = ClassifyPlacements(Agents(elsewhere), targets_, {});
  EXPECT_EQ(without.Find("a0", "ganesha")->placement, Placement::kUnknown);
  EXPECT_THAT(without.Find("a0", "ganesha")->reason, HasSubstr("in no known subnet"));
  const PlacementTable with =
      ClassifyPlacements(Agents(elsewhere), targets_, {{"10.250.0.0/24", "lab-1c"}});
  EXPECT_EQ(with.Find("a0", "ganesha")->placement, Placement::kCrossAz);
  EXPECT_EQ(with.Find("c0", "ganesha")->placement, Placement::kSameAz);
}

TEST_F(NfsUrlTargetTest, AnAgentThatReportsNothingForTheUrlIsUnknown) {
  std::vector<PlacementAgent> agents = Agents(NfsUrlTarget(kUrl, "10.100.0.2", {"10.100.0.2"}));
  agents[1].mounts.clear();  // an older agent
  const PlacementTable t = ClassifyPlacements(agents, targets_, {});
  EXPECT_EQ(t.Find("b0", "ganesha")->placement, Placement::kUnknown);
  EXPECT_THAT(t.Find("b0", "ganesha")->reason, HasSubstr("no mount information"));
}

TEST(PlacementTest, NamesRoundTrip) {
  for (Placement p : {Placement::kSameAz, Placement::kCrossAz, Placement::kUnknown}) {
    EXPECT_EQ(ParsePlacement(PlacementName(p)), p);
  }
  EXPECT_FALSE(ParsePlacement("same").has_value());
}

TEST(CidrTest, ParsesV4AndV6ClearsHostBitsAndRefusesJunk) {
  auto c = ParseCidr("198.18.1.77/24");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->ToString(), "198.18.1.0/24");
  EXPECT_TRUE(c->Contains("198.18.1.200"));
  EXPECT_FALSE(c->Contains("198.18.2.1"));
  EXPECT_FALSE(c->Contains("fd00::1"));
  auto v6 = ParseCidr("fd00:1::/64");
  ASSERT_TRUE(v6.ok());
  EXPECT_TRUE(v6->Contains("fd00:1::5"));
  EXPECT_FALSE(v6->Contains("fd00:2::5"));
  auto host = ParseCidr("10.1.2.3");
  ASSERT_TRUE(host.ok());
  EXPECT_EQ(host->ToString(), "10.1.2.3/32");
  EXPECT_TRUE(absl::IsInvalidArgument(ParseCidr("10.0.0.0/33").status()));
  EXPECT_TRUE(absl::IsInvalidArgument(ParseCidr("subnet-1").status()));
  EXPECT_TRUE(ParseIpAddress("127.0.0.1")->IsLoopback());
  EXPECT_TRUE(ParseIpAddress("::1")->IsLoopback());
  EXPECT_FALSE(ParseIpAddress("10.0.0.1")->IsLoopback());
}

}  // namespace
}  // namespace azbench
