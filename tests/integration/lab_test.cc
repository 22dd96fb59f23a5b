// `azbench lab` end to end (root): up builds the AZs, status measures the injected delay, an agent
// in one AZ writes through the NFS server in another, up again changes nothing, and down leaves no
// namespace, link, process or file behind. Skipped without root.
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "coordinator/lab/lab_topology.h"
#include "tests/testing/lab_fixture.h"
#include "tests/testing/netns.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

constexpr const char* kDir = testing::kLabTestDir;

// What is left of a lab on this machine: namespaces, links, processes naming the lab's directory.
std::vector<std::string> Leftovers() {
  std::vector<std::string> left;
  std::error_code ec;
  for (const char* where : {"/run/netns", "/sys/class/net"}) {
    for (const auto& e : std::filesystem::directory_iterator(where, ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(kLabPrefix, 0) == 0) left.push_back(std::string(where) + "/" + name);
    }
  }
  for (const auto& e : std::filesystem::directory_iterator("/proc", ec)) {
    std::ifstream in(e.path() / "cmdline");
    const std::string cmdline((std::istreambuf_iterator<char>(in)),
                              std::istreambuf_iterator<char>());
    if (cmdline.find(kDir) != std::string::npos) left.push_back("process " + e.path().string());
  }
  if (std::filesystem::exists(kDir)) left.push_back(kDir);
  return left;
}

class LabTest : public testing::LabFixture {};

TEST_F(LabTest, UpMeasuresTheDelayReachesTheServerAcrossAzsIsIdempotentAndDownLeavesNothing) {
  int code = 0;
  const std::vector<std::string> up = {"lab",   "up",    "--azs", "2", "--cross-az-delay",
                                       "800us", "--dir", kDir};
  std::string out = testing::RunAzbench(up, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("NFS server: 10.100.0.2 in lab-1a"));

  // The injected delay is a floor that load only adds to: the least of three status readings.
  double added_us = 1e9;
  for (int i = 0; i < 3; ++i) {
    out = testing::RunAzbench({"lab", "status", "--dir", kDir}, &code);
    ASSERT_EQ(code, 0) << out;
    const double same_az_us = testing::StatusRttUs(out, "lab-1a", "lab-1a");
    const double cross_az_us = testing::StatusRttUs(out, "lab-1a", "lab-1b");
    ASSERT_GT(same_az_us, 0) << out;
    ASSERT_GT(cross_az_us, 0) << out;
    added_us = std::min(added_us, cross_az_us - same_az_us);
    EXPECT_GT(testing::StatusRttUs(out, "lab-1b", "nfs"),
              testing::StatusRttUs(out, "lab-1a", "nfs"))
        << out;
  }
  EXPECT_NEAR(added_us, 800, 200) << out;

  // An agent in AZ b writes through the server in AZ a: 1 MiB over NFSv3, and 4 MiB in 4 MiB
  // blocks over NFSv4, read back and checked (libnfs 4.0 sends such a block as 1366 WRITEs).
  const LabTopology lab = PlanLab({.azs = 2, .dir = kDir});
  auto run_from_b = [&](int version, std::vector<std::string> job) {
    const std::string url =
        absl::StrCat("nfs://", lab.nfs_server_address, lab.export_dir, "?version=", version,
                     "&nfsport=", kLabNfsPort, "&mountport=", kLabMountPort);
    std::vector<std::string> args = {"run",
                                     "--hosts",
                                     absl::StrCat(lab.azs[1].agents[0].address, ":", kLabAgentPort),
                                     "--tls-ca",
                                     absl::StrCat(kDir, "/tls/ca.crt"),
                                     "--tls-cert",
                                     absl::StrCat(kDir, "/tls/coordinator.crt"),
                                     "--tls-key",
                                     absl::StrCat(kDir, "/tls/coordinator.key"),
                                     "--db",
                                     absl::StrCat(kDir, "/results.db"),
                                     "--quiet",
                                     "--",
                                     "--ioengine=nfs",
                                     "--nfs_url=" + url};
    args.insert(args.end(), job.begin(), job.end());
    out = testing::RunAzbench(args, &code);
    EXPECT_EQ(code, 0) << out;
    EXPECT_THAT(out, HasSubstr("1 complete"));
  };
  run_from_b(3, {"--name=b", "--rw=write", "--bs=64k", "--size=1m"});
  run_from_b(4, {"--name=b4", "--rw=write", "--bs=4m", "--size=4m", "--verify=crc32c"});
  // (The agent removes a run's files when it ends.)
  std::ofstream(lab.export_dir + "/marker") << "kept";

  // Up again with the same options: nothing is rebuilt, a file in the export is still there.
  out = testing::RunAzbench(up, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_THAT(out, HasSubstr("already up"));
  EXPECT_TRUE(std::filesystem::exists(lab.export_dir + "/marker"));

  out = testing::RunAzbench({"lab", "down", "--dir", kDir}, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_THAT(Leftovers(), ::testing::IsEmpty());
}

TEST_F(LabTest, DownRemovesWhatAnInterruptedUpLeftAndUpClearsStrays) {
  // A lab whose state file is gone: down still finds its namespaces and processes by name.
  int code = 0;
  const std::vector<std::string> up = {"lab", "up", "--azs", "2", "--dir", kDir};
  std::string out = testing::RunAzbench(up, &code);
  ASSERT_EQ(code, 0) << out;
  std::filesystem::remove(std::string(kDir) + "/state");
  out = testing::RunAzbench(up, &code);
  EXPECT_NE(code, 0) << "a directory with files and no state is not taken over";
  EXPECT_THAT(out, HasSubstr("holds files and no lab state"));
  out = testing::RunAzbench({"lab", "down", "--dir", kDir}, &code);
  ASSERT_EQ(code, 0) << out;
  std::filesystem::remove_all(kDir);  // no state file: down leaves a directory it cannot vouch for
  EXPECT_THAT(Leftovers(), ::testing::IsEmpty());

  // A stray namespace of the lab's prefix is cleared by up.
  ASSERT_EQ(testing::RunCommand({testing::kIpBinary, "netns", "add", "azlab-stray"}), 0);
  out = testing::RunAzbench(up, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_FALSE(std::filesystem::exists("/run/netns/azlab-stray"));
  out = testing::RunAzbench({"lab", "down", "--dir", kDir}, &code);
  ASSERT_EQ(code, 0) << out;
  EXPECT_THAT(Leftovers(), ::testing::IsEmpty());
}

// The line of `agent` in a verify-csv report, or "".
std::string AgentRow(const std::string& csv, const std::string& agent) {
  std::istringstream lines(csv);
  for (std::string line; std::getline(lines, line);) {
    if (line.find(absl::StrCat(",", agent, ",")) != std::string::npos) return line;
  }
  return "";
}

// Cross-AZ verify (sharing=write-verify): the agent in lab-1a, the server's AZ, writes through
// the server; the agents in lab-1b and lab-1c read every block back across the delay line and
// check it. A block damaged in the export between two runs is then found by all three
// (verify_only=1), at its offset.
TEST_F(LabTest, WriteVerifyAcrossAzsFindsABlockCorruptedInTheExport) {
  int code = 0;
  std::string out = testing::RunAzbench({"lab", "up", "--azs", "3", "--dir", kDir}, &code);
  ASSERT_EQ(code, 0) << out;
  const LabTopology lab = PlanLab({.azs = 3, .dir = kDir});
  const std::string url =
      absl::StrCat("nfs://", lab.nfs_server_address, lab.export_dir,
                   "?version=3&nfsport=", kLabNfsPort, "&mountport=", kLabMountPort);
  auto run = [&](const std::string& name, const std::string& extra) {
    const std::string dir = absl::StrCat(kDir, "/", name);
    std::filesystem::create_directories(dir);
    std::ofstream(dir + "/campaign.yaml")
        << "name: " << name << "\nfleet:\n  hosts_file: " << kDir
        << "/hosts\n  tls: {ca_file: " << kDir << "/tls/ca.crt, cert_file: " << kDir
        << "/tls/coordinator.crt, key_file: " << kDir
        << "/tls/coordinator.key}\nresults: results.db\ntargets:\n  - {name: ganesha, path: \""
        << url << "\"}\nworkloads:\n  - name: xv\n    options: {rw: randwrite, bs: 4k, size: 256k, "
        << "verify: crc32c, sharing: write-verify" << extra << "}\nmatrix:\n  nodes: [all]\n";
    int rc = 0;
    out = testing::RunAzbench({"run", dir + "/campaign.yaml", "--quiet"}, &rc);
    std::string csv =
        testing::RunAzbench({"report", dir + "/results.db", "--format", "verify-csv"}, &code);
    EXPECT_EQ(code, 0) << csv;
    return std::make_pair(rc, csv);
  };

  auto [rc, csv] = run("clean", "");
  ASSERT_EQ(rc, 0) << out;
  // agent-<letter>0 is the agent of AZ lab-1<letter> (lab_topology.h); the AZ column is the
  // agent's own report of its AZ.
  EXPECT_THAT(AgentRow(csv, "agent-a0"), ::testing::EndsWith(",writer,0,0,,false")) << csv;
  EXPECT_THAT(AgentRow(csv, "agent-b0"), ::testing::EndsWith(",verifier,64,0,,false")) << csv;
  EXPECT_THAT(AgentRow(csv, "agent-c0"), ::testing::EndsWith(",verifier,64,0,,false")) << csv;

  // The written file is kept in the export: damage one byte of the block at 40 KiB.
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::recursive_directory_iterator(lab.export_dir)) {
    if (e.is_regular_file()) files.push_back(e.path());
  }
  ASSERT_EQ(files.size(), 1u);
  const int fd = open(files[0].c_str(), O_WRONLY | O_CLOEXEC);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(pwrite(fd, "X", 1, 40 * 1024 + 100), 1);
  close(fd);

  std::tie(rc, csv) = run("corrupt", ", verify_only: 1");
  EXPECT_NE(rc, 0) << "the failed checks fail the jobs (EILSEQ)\n" << out;
  for (const char* agent : {"agent-a0", "agent-b0", "agent-c0"}) {
    EXPECT_THAT(AgentRow(csv, agent), ::testing::EndsWith(",verifier,11,1,40960,false")) << csv;
  }
}

}  // namespace
}  // namespace azbench
