// Placement on real separate hosts: a multi-AZ network built from network namespaces (one per
// simulated AZ, subnets inside 198.18.0.0/15, routed through a bridge in the root namespace),
// real agents running inside them (`ip netns exec`), each with its own fake IMDSv2 on its own
// namespace's loopback and its own /etc/hosts, mount-table fixtures pointing the targets at server
// addresses in chosen subnets, and the real coordinator in the root namespace.
//
// Topology (study A's shape, plus a third AZ without an EFS mount target):
//   az-a 198.18.1.0/24: agent a1 (.2); EFS mount target .10; FSx active server .20
//   az-b 198.18.2.0/24: agent b1 (.2); EFS mount target .10; FSx standby .20 (not in use)
//   az-c 198.18.3.0/24: agent c1 (.2); no EFS mount target: EFS's name resolves to az-a's
// EFS is mounted through efs-utils' TLS tunnel (addr=127.0.0.1), so its server address comes
// from resolving the name inside each namespace; FSx is mounted directly (addr=198.18.1.20).
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/fake_http_server.h"
#include "tests/testing/netns.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using testing::FakeHttpServer;
using testing::FakeImdsHandler;
using ::testing::HasSubstr;
using testing::NetnsTopology;
using testing::Subprocess;
using testing::TempDir;

constexpr int kAgentPort = 7480;
constexpr int kImdsPort = 8080;  // on each namespace's own loopback

struct AzPlan {
  std::string az;
  std::string az_id;
  std::string base;      // "198.18.1"
  std::string efs_addr;  // what efs.topo.test resolves to in this AZ
};

const AzPlan kAzs[] = {
    {"az-a", "tst1-az1", "198.18.1", "198.18.1.10"},
    {"az-b", "tst1-az2", "198.18.2", "198.18.2.10"},
    {"az-c", "tst1-az3", "198.18.3", "198.18.1.10"},
};
const char* const kAgentIds[] = {"a1", "b1", "c1"};

class TopologyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    std::vector<testing::SimulatedAz> azs;
    for (const AzPlan& az : kAzs) {
      azs.push_back({az.az,
                     az.base,
                     {absl::StrCat(az.efs_addr, " efs.topo.test"), "198.18.1.20 fsx.topo.test"}});
    }
    net_ = std::make_unique<NetnsTopology>(azs);
    if (net_->unsupported()) GTEST_SKIP() << "cannot create network namespaces: " << net_->error();
    ASSERT_TRUE(net_->ok()) << net_->error();
    for (const char* t : {"fsx", "efs", "local"}) fs::create_directories(dir_.File(t));
    // The agents listen on the namespaces' addresses, not loopback: mutual TLS, as on a real
    // fleet, with certificates for those addresses.
    std::vector<std::string> certs_args = {AZBENCH_BIN, "certs", "init", "--dir",
                                           dir_.File("certs")};
    for (size_t i = 0; i < net_->size(); ++i) {
      certs_args.push_back("--agent");
      certs_args.push_back(net_->agent_address(i));
    }
    Subprocess certs(certs_args, dir_.File("certs.txt"));
    ASSERT_EQ(certs.Wait(std::chrono::seconds(60)), 0) << certs.Output();
    for (size_t i = 0; i < net_->size(); ++i) StartAgent(i);
    for (size_t i = 0; i < net_->size(); ++i) WaitListening(i);
  }

  void StartAgent(size_t i) {
    const AzPlan& az = kAzs[i];
    // The fake IMDS lives on the namespace's own loopback: only that agent can reach it.
    std::map<std::string, std::string> imds = {
        {"placement/region", "test-1"},
        {"placement/availability-zone", az.az},
        {"placement/availability-zone-id", az.az_id},
        {"instance-id", absl::StrCat("i-", kAgentIds[i])},
        {"instance-type", "t3.micro"},
        {"local-ipv4", net_->agent_address(i)},
        {"network/interfaces/macs/0e:00:00:00:00:0" + std::to_string(i) + "/subnet-id",
         absl::StrCat("subnet-", az.az)},
        {"network/interfaces/macs/0e:00:00:00:00:0" + std::to_string(i) + "/subnet-ipv4-cidr-block",
         net_->subnet(i)},
    };
    std::unique_ptr<FakeHttpServer> server;
    ASSERT_TRUE(net_->InNamespace(i, [&] {
      server = std::make_unique<FakeHttpServer>("127.0.0.1", FakeImdsHandler(imds), kImdsPort);
    }));
    ASSERT_TRUE(server->ok()) << server->error();
    imds_.push_back(std::move(server));

    const std::string client = net_->agent_address(i);
    const std::string mountinfo = dir_.File(absl::StrCat("mountinfo-", kAgentIds[i]));
    std::ofstream out(mountinfo);
    out << "22 1 259:1 / / rw,relatime shared:1 - ext4 /dev/root rw\n"
        << "97 22 0:52 / " << dir_.File("fsx")
        << " rw,relatime shared:60 - nfs4 fsx.topo.test:/fsx rw,vers=4.1,rsize=1048576,"
           "wsize=1048576,hard,proto=tcp,timeo=600,retrans=2,sec=sys,clientaddr="
        << client << ",local_lock=none,addr=198.18.1.20\n"
        << "98 22 0:53 / " << dir_.File("efs")
        << " rw,relatime shared:61 - nfs4 efs.topo.test:/ rw,vers=4.1,rsize=1048576,"
           "wsize=1048576,hard,noresvport,proto=tcp,port=20049,timeo=600,retrans=2,sec=sys,"
           "clientaddr=127.0.0.1,local_lock=none,addr=127.0.0.1\n";
    ASSERT_TRUE(out.good());
    out.close();
    // Three agents starting together ask their fake IMDS (served by this process, one request at
    // a time) in several sequential requests: on a loaded machine one answer can take longer than
    // the default 1 s timeout, which the agent would take for "not on EC2".
    agents_.push_back(std::make_unique<Subprocess>(
        std::vector<std::string>{
            testing::kIpBinary, "netns", "exec", net_->namespace_name(i), "/usr/bin/env",
            "AWS_METADATA_SERVICE_TIMEOUT=10", AZBENCH_AGENT_BIN, "serve",
            absl::StrCat("--listen=", client, ":", kAgentPort),
            "--port-file=" + dir_.File(absl::StrCat(kAgentIds[i], ".port")),
            absl::StrCat("--agent-id=", kAgentIds[i]),
            absl::StrCat("--imds-endpoint=http://127.0.0.1:", kImdsPort),
            "--mountinfo=" + mountinfo, "--log-level=info",
            "--tls-cert=" + dir_.File("certs/agents/" + client + ".crt"),
            "--tls-key=" + dir_.File("certs/agents/" + client + ".key"),
            "--tls-ca=" + dir_.File("certs/ca.crt"), "--allowed-root=" + dir_.path()},
        dir_.File(absl::StrCat(kAgentIds[i], ".log"))));
  }

  void WaitListening(size_t i) {
    const std::string port_file = dir_.File(absl::StrCat(kAgentIds[i], ".port"));
    // Identity discovery (the IMDS requests) comes before listening.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (!fs::exists(port_file) && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    ASSERT_TRUE(fs::exists(port_file)) << agents_[i]->Output();
  }

  std::string WriteCampaign(const std::string& extra) {
    std::vector<std::string> hosts;
    for (size_t i = 0; i < net_->size(); ++i) {
      hosts.push_back(absl::StrCat(net_->agent_address(i), ":", kAgentPort));
    }
    const std::string path = dir_.File("topo.yaml");
    std::ofstream out(path);
    out << "name: topo\n"
        << "fleet:\n  hosts: [" << absl::StrJoin(hosts, ", ") << "]\n"
        << "  tls: {ca_file: " << dir_.File("certs/ca.crt")
        << ", cert_file: " << dir_.File("certs/coordinator.crt")
        << ", key_file: " << dir_.File("certs/coordinator.key") << "}\n"
        << "targets:\n"
        << "  - {name: fsx, path: " << dir_.File("fsx") << ", kind: fsx-openzfs}\n"
        << "  - {name: efs, path: " << dir_.File("efs") << ", kind: efs}\n"
        << "  - {name: local, path: " << dir_.File("local") << ", kind: local}\n"
        << "workloads:\n"
        << "  - name: write\n"
        << "    options: {rw: write, bs: 64k, size: 1m, ioengine: psync}\n"
        << "results: results.db\n"
        << extra;
    return path;
  }

  TempDir dir_{testing::kDiskBase};
  // Destroyed in reverse: agents, then their IMDS servers, then the network.
  std::unique_ptr<NetnsTopology> net_;
  std::vector<std::unique_ptr<FakeHttpServer>> imds_;
  std::vector<std::unique_ptr<Subprocess>> agents_;
};

TEST_F(TopologyTest, AgentsShowsIdentityFromImdsAndEachTargetsPlacementWithEvidence) {
  const std::string campaign = WriteCampaign("");
  Subprocess agents({AZBENCH_BIN, "agents", "--campaign", campaign}, dir_.File("agents.txt"));
  ASSERT_EQ(agents.Wait(std::chrono::seconds(60)), 0) << agents.Output();
  const std::string out = agents.Output();
  EXPECT_THAT(out, HasSubstr("az-c"));
  EXPECT_THAT(out, HasSubstr("tst1-az3"));
  EXPECT_THAT(out, HasSubstr("AZ source: imds; instance i-b1; 198.18.2.2; subnets: subnet-az-b "
                             "198.18.2.0/24"));
  EXPECT_THAT(out, HasSubstr("addr=198.18.1.20 clientaddr=198.18.3.2 resolves to 198.18.1.20"));
  EXPECT_THAT(out, HasSubstr("[vers=4.1,proto=tcp,rsize=1048576,wsize=1048576,hard,timeo=600]"));
  // FSx Multi-AZ-like: one active address in az-a.
  EXPECT_THAT(out, HasSubstr("target fsx: same-az: addr=198.18.1.20 in 198.18.1.0/24 (az-a, "
                             "imds a1); agent in az-a/tst1-az1 (imds)"));
  EXPECT_THAT(out, HasSubstr("target fsx: cross-az: addr=198.18.1.20 in 198.18.1.0/24 (az-a, "
                             "imds a1); agent in az-b/tst1-az2 (imds)"));
  // EFS-like: the name resolves to each AZ's own mount target (az-c has none: cross-az).
  EXPECT_THAT(out, HasSubstr("target efs: same-az: resolved efs.topo.test 198.18.2.10 in "
                             "198.18.2.0/24 (az-b, imds b1); agent in az-b/tst1-az2 (imds)"));
  EXPECT_THAT(out, HasSubstr("target efs: cross-az: resolved efs.topo.test 198.18.1.10 in "
                             "198.18.1.0/24 (az-a, imds a1); agent in az-c/tst1-az3 (imds)"));
  EXPECT_THAT(out, HasSubstr("target local: unknown: "));
  EXPECT_THAT(out, HasSubstr("(not a network mount)"));
}

TEST_F(TopologyTest, PlacementAxisSchedulesByPlacementAndTheReportComparesThem) {
  const std::string campaign = WriteCampaign("matrix:\n  placement: [same-az, cross-az]\n");
  Subprocess run({AZBENCH_BIN, "run", campaign, "--quiet"}, dir_.File("run.txt"));
  ASSERT_EQ(run.Wait(std::chrono::seconds(120)), 0) << run.Output();

  auto store = Store::OpenExisting(dir_.File("results.db"));
  ASSERT_TRUE(store.ok()) << store.status();
  auto scenarios = (*store)->LoadScenarios();
  ASSERT_TRUE(scenarios.ok()) << scenarios.status();
  ASSERT_EQ(scenarios->size(), 6u) << "2 placements x 3 targets\n" << run.Output();
  std::map<std::string, const ScenarioResult*> by_key;
  for (const ScenarioResult& s : *scenarios) by_key[s.scenario.key] = &s;
  // A scenario missing is a failure, checked against an empty one (not a null dereference: a
  // crash here would leave the network namespaces behind for every later topology test).
  const ScenarioResult missing;
  auto at = [&](const std::string& placement, const std::string& target) -> const ScenarioResult& {
    const std::string key =
        absl::StrCat("workload=write/placement=", placement, "/target=", target, "/repeat=1");
    EXPECT_EQ(by_key.count(key), 1u) << key;
    const auto it = by_key.find(key);
    return it == by_key.end() ? missing : *it->second;
  };
  EXPECT_THAT(at("same-az", "fsx").scenario.agent_ids, ElementsAre("a1"));
  EXPECT_THAT(at("cross-az", "fsx").scenario.agent_ids, ElementsAre("b1", "c1"));
  EXPECT_THAT(at("same-az", "efs").scenario.agent_ids, ElementsAre("a1", "b1"));
  EXPECT_THAT(at("cross-az", "efs").scenario.agent_ids, ElementsAre("c1"));
  for (const char* p : {"same-az", "cross-az"}) {
    const ScenarioResult& local = at(p, "local");
    EXPECT_EQ(local.status, ScenarioStatus::kSkipped);
    EXPECT_THAT(
        local.scenario.skip_reason,
        HasSubstr(absl::StrCat("no agent is ", p, " to target 'local' (unknown: a1,b1,c1)")));
  }
  for (const char* t : {"fsx", "efs"}) {
    for (const char* p : {"same-az", "cross-az"}) {
      const ScenarioResult& s = at(p, t);
      EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.scenario.key << ": " << s.status_detail;
      EXPECT_EQ(s.results.size(), s.scenario.agent_ids.size()) << s.scenario.key;
      // The evidence is stored with the result, one per agent that ran.
      ASSERT_EQ(s.scenario.placements.size(), s.scenario.agent_ids.size()) << s.scenario.key;
      for (const PlacementEvidence& e : s.scenario.placements) {
        EXPECT_EQ(PlacementName(e.placement), p) << e.agent_id << " " << e.reason;
        EXPECT_EQ(e.az_source, "imds");
      }
    }
  }
  ASSERT_EQ(at("cross-az", "efs").scenario.placements.size(), 1u);
  const PlacementEvidence& c1_efs = at("cross-az", "efs").scenario.placements[0];
  EXPECT_EQ(c1_efs.server_address, "198.18.1.10");
  EXPECT_EQ(c1_efs.address_source, "resolved efs.topo.test");
  EXPECT_EQ(c1_efs.subnet, "198.18.1.0/24");
  EXPECT_EQ(c1_efs.subnet_source, "imds a1");
  EXPECT_EQ(c1_efs.server_az, "az-a");
  EXPECT_EQ(c1_efs.agent_az, "az-c");
  auto agents = (*store)->LoadAgents();
  ASSERT_TRUE(agents.ok());
  ASSERT_EQ(agents->size(), 3u);
  EXPECT_EQ((*agents)[2].availability_zone_id, "tst1-az3");
  EXPECT_EQ((*agents)[2].instance_type, "t3.micro");

  Subprocess report({AZBENCH_BIN, "report", dir_.File("results.db"), "--format", "md"},
                    dir_.File("report.md"));
  ASSERT_EQ(report.Wait(std::chrono::seconds(30)), 0) << report.Output();
  const std::string md = report.Output();
  EXPECT_THAT(md, HasSubstr("## Placement: same-AZ vs cross-AZ"));
  EXPECT_THAT(md, HasSubstr("### write: fsx\n\n| metric | same-az | cross-az | cross/same |"));
  EXPECT_THAT(md, HasSubstr("### write: efs\n"));
  EXPECT_THAT(md, HasSubstr("| agents | 1 | 2 | |"));
  EXPECT_THAT(md, ::testing::ContainsRegex("\\| MiB/s \\| [0-9.,]+ \\| [0-9.,]+ \\| [0-9.]+x \\|"));
  EXPECT_THAT(md, HasSubstr("same-az: skipped: placement=same-az: no agent is same-az to target "
                            "'local'"));
  // Evidence once per agent x target: c1 ran cross-az on fsx in one scenario only, and a1 on fsx.
  EXPECT_THAT(md, HasSubstr("| c1 | efs | cross-az | az-c/tst1-az3 (imds) | 198.18.1.10 (resolved "
                            "efs.topo.test) | 198.18.1.0/24 (imds a1) | az-a (subnet map) |"));
  size_t rows = 0;
  for (size_t pos = md.find("| a1 | fsx |"); pos != std::string::npos;
       pos = md.find("| a1 | fsx |", pos + 1)) {
    ++rows;
  }
  EXPECT_EQ(rows, 1u);
}

}  // namespace
}  // namespace azbench
