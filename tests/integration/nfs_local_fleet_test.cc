// ioengine=nfs end to end: `azbench run` on the local fleet (real agent processes) sends a fio
// command line naming an NFS server; the local fleet allows that server (and only what the job
// names), the agent writes through libnfs to a real nfs-ganesha across a veth, and the stored
// result counts what landed in the export. The file exists before the run, so that it stays
// (an agent removes only the files its run created).
#include <sys/stat.h>

#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/fio_json.h"
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

}  // namespace
}  // namespace azbench
