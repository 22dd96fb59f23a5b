// NFS through libnfs end to end: `azbench run` on the local fleet (real agent processes) sends a
// fio command line naming an NFS server, or a campaign whose target is its nfs:// URL; the local
// fleet allows that server (and only what the jobs name), the agents reach a real nfs-ganesha
// across a veth (ioengine=nfs, and the metadata, small_files and large_stream families through
// their libnfs backend), and the stored results count what landed in the export. A file that
// exists before the run stays (an agent removes only the files its run created).
#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <utility>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/fio_json.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/nfs_server_fixture.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using nlohmann::json;
using testing::NfsServerFixture;
using testing::Subprocess;
using testing::TempDir;

constexpr auto kTimeout = std::chrono::seconds(240);
constexpr uint64_t kSizeBytes = 256 * 1024;

class NfsLocalFleetTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  int Azbench(const std::vector<std::string>& args, std::string* output) {
    std::vector<std::string> argv = {AZBENCH_BIN};
    argv.insert(argv.end(), args.begin(), args.end());
    Subprocess azbench(argv, dir_.File(absl::StrCat("azbench-", ++runs_, ".txt")));
    const int code = azbench.Wait(kTimeout);
    *output = azbench.Output();
    return code;
  }

  TempDir dir_;
  int runs_ = 0;
};

TEST_F(NfsLocalFleetTest, LocalAgentWritesThroughTheServerTheJobNames) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  const std::string file = server.export_dir() + "/w.dat";
  {
    std::ofstream zeros(file);
    zeros << std::string(kSizeBytes, '\0');
  }
  std::string output;
  ASSERT_EQ(
      Azbench({"run", "--local", "1", "--db", dir_.File("n.db"), "--quiet", "--", "--name=nfsw",
               "--ioengine=nfs", "--nfs_url=" + server.Url(), "--rw=write", "--bs=4k",
               absl::StrCat("--size=", kSizeBytes), "--iodepth=4", "--filename=w.dat"},
              &output),
      0)
      << output << "\n"
      << server.Log();

  // The bytes are on the server's side of the network, in the exported directory.
  struct stat st {};
  ASSERT_EQ(stat(file.c_str(), &st), 0);
  EXPECT_EQ(static_cast<uint64_t>(st.st_size), kSizeBytes);
  const std::string data = testing::FileContents(file);
  EXPECT_NE(data.find_first_not_of('\0'), std::string::npos) << "no write reached the file";

  ASSERT_EQ(
      Azbench({"report", dir_.File("n.db"), "--format", "fio-json", "-o", dir_.File("n.json")},
              &output),
      0)
      << output;
  const json doc = testing::LoadFioJson(dir_.File("n.json"));
  ASSERT_TRUE(doc.is_object()) << testing::FileContents(dir_.File("n.json"));
  ASSERT_EQ(doc["jobs"].size(), 1u);
  EXPECT_EQ(doc["jobs"][0]["write"]["io_bytes"].get<uint64_t>(), kSizeBytes);
  EXPECT_EQ(doc["jobs"][0]["write"]["total_ios"].get<uint64_t>(), kSizeBytes / 4096);
  EXPECT_EQ(doc["jobs"][0]["error"].get<int>(), 0);
}

TEST_F(NfsLocalFleetTest, ACampaignTargetGivenAsTheUrlIsPlacedByItsServerAddress) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  // Two local agents labelled with two AZs; the server's address declared in the first.
  const std::string campaign = dir_.File("c.yaml");
  std::ofstream(campaign) << "name: nfs-target\n"
                             "fleet: {local: {agents: 2, azs: [local-a, local-b]}}\n"
                             "topology: {subnets: {"
                          << server.server_address() << "/32: local-a}}\n"
                          << "targets: [{name: ganesha, path: '" << server.Url() << "'}]\n"
                          << "workloads:\n"
                             "  - {name: w, options: {rw: write, bs: 64k, size: 256k}}\n"
                             "matrix: {placement: [same-az, cross-az]}\n"
                             "warmup: 0s\ncooldown: 0s\n";
  std::string output;
  ASSERT_EQ(Azbench({"run", campaign, "--db", dir_.File("c.db"), "--quiet"}, &output), 0)
      << output << "\n"
      << server.Log();
  ASSERT_EQ(Azbench({"report", dir_.File("c.db"), "--format", "json", "-o", dir_.File("c.json")},
                    &output),
            0)
      << output;
  const json doc = json::parse(testing::FileContents(dir_.File("c.json")), nullptr, false);
  ASSERT_FALSE(doc.is_discarded());
  ASSERT_EQ(doc["scenarios"].size(), 2u);
  for (const json& s : doc["scenarios"]) {
    EXPECT_EQ(s["status"], "complete") << s.dump();
    const std::string wanted = s["parameters"][0][1];
    ASSERT_EQ(s["agent_ids"].size(), 1u) << s.dump();
    EXPECT_EQ(s["ops"]["write"]["bytes"].get<uint64_t>(), 256u * 1024) << s.dump();
    int found = 0;
    for (const json& e : s["placements"]) {
      if (e["agent_id"] != s["agent_ids"][0]) continue;
      ++found;
      EXPECT_EQ(e["placement"], wanted) << e.dump();
      EXPECT_EQ(e["address_source"], "nfs_url") << e.dump();
      EXPECT_EQ(e["server_address"], server.server_address()) << e.dump();
      EXPECT_EQ(e["subnet_source"], "campaign") << e.dump();
    }
    EXPECT_EQ(found, 1) << s.dump();
  }
}

TEST_F(NfsLocalFleetTest, EveryFileFamilyRunsOnAnNfsUrlTargetAndLeavesTheExportAsItFoundIt) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  // large_stream rewrites a file that was there before (so it stays): its zeros show whether the
  // writes reached the server.
  const std::string stream = server.export_dir() + "/ls.stream";
  std::ofstream(stream) << std::string(kSizeBytes, '\0');
  const std::string campaign = dir_.File("f.yaml");
  std::ofstream(campaign)
      << "name: nfs-families\n"
         "fleet: {local: {agents: 2}}\n"
      << "targets: [{name: ganesha, path: '" << server.Url() << "'}]\n"
      << "workloads:\n"
         "  - {name: md, workload: metadata,\n"
         "     options: {files: 20, dirs: 2, stride: 1, write_bytes: 512}}\n"
         "  - {name: sf, workload: small_files, options: {files: 8, filesizes: 16k, fsync: 1}}\n"
         "  - {name: ls, workload: large_stream,\n"
      << "     options: {rw: write, filename: /ls.stream, size: " << kSizeBytes
      << ", bs: 64k, passes: 1}}\n"
         "warmup: 0s\ncooldown: 0s\n";
  std::string output;
  ASSERT_EQ(Azbench({"run", campaign, "--db", dir_.File("f.db"), "--quiet"}, &output), 0)
      << output << "\n"
      << server.Log();
  const std::vector<ScenarioResult> scenarios = testing::StoredScenarios(dir_.File("f.db"));
  ASSERT_EQ(scenarios.size(), 3u);
  std::map<std::pair<std::string, OpKind>, uint64_t> ops;  // (result name, kind) over agents
  for (const ScenarioResult& s : scenarios) {
    EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
    for (const AgentJobResult& r : s.results) {
      EXPECT_TRUE(r.result.error_message.empty())
          << r.result.name << ": " << r.result.error_message;
      for (int k = 0; k < kOpKindCount; ++k) {
        const OpStats* op = r.result.Find(static_cast<OpKind>(k));
        if (op == nullptr) continue;
        EXPECT_EQ(op->errors, 0u) << r.result.name << " " << OpKindName(static_cast<OpKind>(k));
        ops[{r.result.name, static_cast<OpKind>(k)}] += op->ops;
      }
    }
  }
  // Two agents: metadata's stride has each stat, open and read the other's 20 files.
  for (const auto& [phase, kind] :
       std::vector<std::pair<std::string, OpKind>>{{"create", OpKind::kCreate},
                                                   {"stat", OpKind::kStat},
                                                   {"open", OpKind::kOpen},
                                                   {"read", OpKind::kRead},
                                                   {"rename", OpKind::kRename},
                                                   {"delete", OpKind::kUnlink}}) {
    EXPECT_EQ((ops[{"md." + phase, kind}]), 40u) << phase;
  }
  for (const OpKind kind : {OpKind::kCreate, OpKind::kWrite, OpKind::kFsync}) {
    EXPECT_EQ((ops[{"sf.16k.write", kind}]), 16u) << OpKindName(kind);
  }
  for (const OpKind kind : {OpKind::kOpen, OpKind::kRead}) {
    EXPECT_EQ((ops[{"sf.16k.read", kind}]), 16u) << OpKindName(kind);
  }
  EXPECT_EQ((ops[{"ls.pass1", OpKind::kWrite}]), 2 * kSizeBytes / (64 << 10));
  EXPECT_EQ((ops[{"ls.pass1", OpKind::kFsync}]), 2u);

  const std::string data = testing::FileContents(stream);
  EXPECT_EQ(data.size(), kSizeBytes);
  EXPECT_NE(data.find_first_not_of('\0'), std::string::npos) << "no write reached the file";
  // Everything the runs made (trees, files, agent directories) is gone from the export.
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::recursive_directory_iterator(server.export_dir())) {
    left.push_back(e.path().string());
  }
  EXPECT_EQ(left, std::vector<std::string>{stream});
}

}  // namespace
}  // namespace azbench
