// The known traps are told in every report format: a campaign on the local fleet (real agent
// processes) that falls into each -- buffered writes of a small file rewritten with end_fsync
// alone, buffered re-reads of a small file, a visibility poll interval as coarse as the effect it
// measures, and an NFS target reached with no kernel client -- and each warning is in the
// terminal, Markdown, CSV, HTML and JSON reports of the stored results.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "absl/strings/str_cat.h"
#include "tests/testing/fio_json.h"
#include "tests/testing/nfs_server_fixture.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using testing::NfsServerFixture;
using testing::Subprocess;
using testing::TempDir;

constexpr auto kTimeout = std::chrono::seconds(240);

// What each trap's warning says, in part (the texts are in cache_traps.cc, block_io.cc and
// visibility_result.cc).
constexpr char kRewriteTrap[] = "end_fsync flushed only the pages still dirty at the end";
constexpr char kRereadTrap[] = "reads may have come from the page cache, not the file system";
constexpr char kCoarsePollTrap[] = "is coarse against the median latency";
constexpr char kNoKernelClientTrap[] = "reaches the server with no kernel client";

class TrapWarningsTest : public ::testing::Test {
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

  // Each report format of `db`, by name, as written to a file.
  std::vector<std::pair<std::string, std::string>> Reports(const std::string& db) {
    std::vector<std::pair<std::string, std::string>> reports;
    for (const char* format : {"terminal", "md", "csv", "html", "json"}) {
      const std::string out = dir_.File(absl::StrCat("report.", format));
      std::string output;
      EXPECT_EQ(Azbench({"report", db, "--format", format, "-o", out}, &output), 0) << output;
      reports.emplace_back(format, testing::FileContents(out));
    }
    return reports;
  }

  TempDir dir_;
  int runs_ = 0;
};

TEST_F(TrapWarningsTest, EveryReportFormatTellsTheCacheAndPollTraps) {
  const std::string data = dir_.File("data");
  ASSERT_TRUE(std::filesystem::create_directory(data));
  const std::string campaign = dir_.File("traps.yaml");
  // Two agents: the visibility reader is another client than the writer. 64 KiB files fit in
  // any client's memory.
  std::ofstream(campaign)
      << "name: traps\n"
         "fleet: {local: {agents: 2}}\n"
         "targets: [{name: disk, path: '"
      << data
      << "'}]\n"
         "workloads:\n"
         "  - {name: rewrite, options: {rw: write, bs: 4k, size: 64k, time_based: 1, "
         "runtime: 300ms, end_fsync: 1}}\n"
         "  - {name: reread, options: {rw: read, bs: 4k, size: 64k, time_based: 1, "
         "runtime: 300ms}}\n"
         "  - {name: c2c, workload: visibility, options: {probe: client_to_client, trials: 3, "
         "spacing: 300ms, poll_interval: 100ms, read_method: stat}}\n"
         "warmup: 0s\ncooldown: 0s\n";
  std::string output;
  ASSERT_EQ(Azbench({"run", campaign, "--db", dir_.File("t.db"), "--quiet"}, &output), 0) << output;
  for (const auto& [format, text] : Reports(dir_.File("t.db"))) {
    EXPECT_THAT(text, HasSubstr(kRewriteTrap)) << format;
    EXPECT_THAT(text, HasSubstr(kRereadTrap)) << format;
    EXPECT_THAT(text, HasSubstr(kCoarsePollTrap)) << format;
    EXPECT_THAT(text, ::testing::Not(HasSubstr(kNoKernelClientTrap))) << format;
  }
}

TEST_F(TrapWarningsTest, EveryReportFormatTellsThatAnNfsTargetHadNoKernelClient) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  const std::string campaign = dir_.File("nfs.yaml");
  std::ofstream(campaign) << "name: nfs-trap\n"
                             "fleet: {local: {agents: 1}}\n"
                             "targets: [{name: ganesha, path: '"
                          << server.Url()
                          << "'}]\n"
                             "workloads:\n"
                             "  - {name: r, options: {rw: randread, bs: 4k, size: 256k}}\n"
                             "warmup: 0s\ncooldown: 0s\n";
  std::string output;
  ASSERT_EQ(Azbench({"run", campaign, "--db", dir_.File("n.db"), "--quiet"}, &output), 0)
      << output << "\n"
      << server.Log();
  for (const auto& [format, text] : Reports(dir_.File("n.db"))) {
    EXPECT_THAT(text, HasSubstr(kNoKernelClientTrap)) << format;
    EXPECT_THAT(text, ::testing::Not(HasSubstr(kRereadTrap))) << format;
  }
}

}  // namespace
}  // namespace azbench
