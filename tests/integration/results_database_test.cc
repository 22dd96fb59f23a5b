// `azbench run` and the results database, end to end on an embedded local fleet (real azbench and
// azbench-agent processes): --resume refuses a campaign whose stored scenarios it would skip but
// that now defines them differently; one run at a time writes a database, reports read it and
// never write it; paths that cannot be opened say why.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/scoped_env.h"
#include "tests/testing/store_file.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using testing::RawQuery;
using testing::ScopedEnv;
using testing::Subprocess;
using testing::TempDir;

// One agent, one scenario of 1 s in the agent's own work directory.
std::string Campaign(const std::string& rw, const std::string& comment = "",
                     const std::string& runtime = "1s") {
  return absl::StrCat(comment,
                      "name: c\n"
                      "fleet:\n  local: {agents: 1, azs: [local-a]}\n"
                      "targets:\n  - {name: scratch, path: scratch}\n"
                      "workloads:\n  - name: w\n    options: {rw: ",
                      rw, ", bs: 4k, size: 1m, runtime: ", runtime, ", time_based: 1}\n");
}

class ResultsDatabaseTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(tmp_.ok()); }
  std::string Write(const std::string& name, const std::string& text) {
    const std::string path = tmp_.File(name);
    std::ofstream(path) << text;
    return path;
  }
  TempDir tmp_;
  ScopedEnv tmpdir_{"TMPDIR", tmp_.path().c_str()};  // the local fleet's work roots
};

TEST_F(ResultsDatabaseTest, ResumeRefusesAStoredScenarioTheCampaignNowDefinesDifferently) {
  const std::string db = tmp_.File("t1.db");
  {
    Subprocess run(
        {AZBENCH_BIN, "run", Write("base.yaml", Campaign("randread")), "--db", db, "--quiet"},
        tmp_.File("base.txt"));
    ASSERT_EQ(run.Wait(std::chrono::seconds(120)), 0) << run.Output();
  }
  ASSERT_EQ(RawQuery(db, "SELECT count(*) FROM run"), 1);

  Subprocess changed({AZBENCH_BIN, "run", Write("changed.yaml", Campaign("read")), "--db", db,
                      "--resume", "--quiet"},
                     tmp_.File("changed.txt"));
  EXPECT_EQ(changed.Wait(std::chrono::seconds(120)), 2) << changed.Output();
  EXPECT_THAT(changed.Output(),
              HasSubstr("workload=w/target=scratch/repeat=1: workload 'w' option rw: stored "
                        "randread, now read"));
  EXPECT_THAT(changed.Output(), HasSubstr("without --resume into a new --db"));
  EXPECT_THAT(changed.Output(), Not(HasSubstr("skipped (--resume)")));
  EXPECT_EQ(RawQuery(db, "SELECT count(*) FROM run"), 1) << "nothing was written";

  // The same campaign with a comment and other spacing resumes: nothing left to run.
  Subprocess same({AZBENCH_BIN, "run", Write("same.yaml", Campaign("randread", "# rewritten\n\n")),
                   "--db", db, "--resume", "--quiet"},
                  tmp_.File("same.txt"));
  EXPECT_EQ(same.Wait(std::chrono::seconds(120)), 0) << same.Output();
  EXPECT_THAT(same.Output(), HasSubstr("1 scenarios already stored were skipped (--resume)"));
}

// The bytes of `path` ("" when it cannot be read).
std::string Bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

// A refused resume of a database an older azbench wrote (schema version 1: no placement table)
// checks it before upgrading it: the file is left byte for byte as it was, with nothing beside it.
TEST_F(ResultsDatabaseTest, ARefusedResumeLeavesAnOlderSchemasFileUnchanged) {
  const std::string db = tmp_.File("old.db");
  {
    Subprocess run(
        {AZBENCH_BIN, "run", Write("base.yaml", Campaign("randread")), "--db", db, "--quiet"},
        tmp_.File("base.txt"));
    ASSERT_EQ(run.Wait(std::chrono::seconds(120)), 0) << run.Output();
  }
  RawQuery(db, "DROP TABLE placement");
  RawQuery(db, "PRAGMA user_version = 1");
  ASSERT_EQ(RawQuery(db, "PRAGMA user_version"), 1);
  const std::string before = Bytes(db);
  ASSERT_FALSE(before.empty());
  ASSERT_FALSE(std::filesystem::exists(db + "-wal"));

  Subprocess changed({AZBENCH_BIN, "run", Write("changed.yaml", Campaign("read")), "--db", db,
                      "--resume", "--quiet"},
                     tmp_.File("changed.txt"));
  EXPECT_EQ(changed.Wait(std::chrono::seconds(120)), 2) << changed.Output();
  EXPECT_THAT(changed.Output(), HasSubstr("option rw: stored randread, now read"));
  EXPECT_TRUE(Bytes(db) == before) << "the refused resume changed the file";
  EXPECT_FALSE(std::filesystem::exists(db + "-wal"));
  EXPECT_FALSE(std::filesystem::exists(db + "-shm"));
  EXPECT_EQ(RawQuery(db, "PRAGMA user_version"), 1);

  // Resumed as it was written, it is upgraded and nothing is left to run.
  Subprocess same({AZBENCH_BIN, "run", Write("same.yaml", Campaign("randread")), "--db", db,
                   "--resume", "--quiet"},
                  tmp_.File("same.txt"));
  EXPECT_EQ(same.Wait(std::chrono::seconds(120)), 0) << same.Output();
  EXPECT_THAT(same.Output(), HasSubstr("1 scenarios already stored were skipped (--resume)"));
  EXPECT_EQ(RawQuery(db, "PRAGMA user_version"), kStoreSchemaVersion);
}

// Waits up to `timeout` for `done`, checking every 50 ms.
template <typename F>
bool WaitFor(F done, std::chrono::seconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return true;
}

TEST_F(ResultsDatabaseTest, ASecondRunOnTheSameDatabaseIsRefusedWhileReportsKeepReading) {
  const std::string db = tmp_.File("conc.db");
  // 15 s: the second run (an ASan process on a loaded machine) starts well within the first.
  const std::string campaign = Write("i.yaml", Campaign("randread", "", "15s"));
  Subprocess first({AZBENCH_BIN, "run", campaign, "--db", db}, tmp_.File("first.txt"));
  ASSERT_TRUE(WaitFor([&] { return absl::StrContains(first.Output(), ": started on 1 agents"); },
                      std::chrono::seconds(60)))
      << first.Output();

  Subprocess second({AZBENCH_BIN, "run", campaign, "--db", db}, tmp_.File("second.txt"));
  EXPECT_EQ(second.Wait(std::chrono::seconds(60)), 1) << second.Output();
  EXPECT_THAT(second.Output(),
              HasSubstr(absl::StrCat("results database '", db,
                                     "' is in use by another azbench run (pid ", first.pid())));
  EXPECT_THAT(second.Output(), Not(HasSubstr("moved to")));

  // A report reads while the run writes (it takes no lock).
  Subprocess report({AZBENCH_BIN, "report", db}, tmp_.File("report.txt"));
  EXPECT_EQ(report.Wait(std::chrono::seconds(60)), 0) << report.Output();

  ASSERT_EQ(first.Wait(std::chrono::seconds(120)), 0) << first.Output();
  EXPECT_THAT(first.Output(), HasSubstr(absl::StrCat("results: ", db)));
  EXPECT_EQ(RawQuery(db, "SELECT count(*) FROM scenario WHERE status = 'complete'"), 1);
  for (const std::string& name : testing::DirectoryNames(tmp_.path())) {
    EXPECT_FALSE(absl::EndsWith(name, ".bak")) << name << " : nothing was moved aside";
    EXPECT_NE(name, "conc.db.lock") << "the run removed its lock file";
  }
}

TEST_F(ResultsDatabaseTest, ReportsNeverWriteAndUnopenablePathsSayWhy) {
  const std::string empty = Write("empty.db", "");
  Subprocess report({AZBENCH_BIN, "report", empty}, tmp_.File("empty.txt"));
  EXPECT_NE(report.Wait(std::chrono::seconds(60)), 0) << report.Output();
  EXPECT_THAT(report.Output(), HasSubstr(absl::StrCat(empty, ": empty file (0 bytes)")));
  EXPECT_EQ(testing::FileContents(empty), "") << "no schema written into it";
  EXPECT_FALSE(testing::FileContents(tmp_.File("empty.txt")).empty());

  const std::string dir = tmp_.File("results-dir");
  ASSERT_TRUE(std::filesystem::create_directory(dir));
  Subprocess on_dir({AZBENCH_BIN, "report", dir}, tmp_.File("dir.txt"));
  EXPECT_NE(on_dir.Wait(std::chrono::seconds(60)), 0);
  EXPECT_THAT(on_dir.Output(), HasSubstr(absl::StrCat("'", dir, "' is a directory")));

  const std::string missing = tmp_.File("no-such-dir/x.db");
  Subprocess run({AZBENCH_BIN, "run", Write("c.yaml", Campaign("randread")), "--db", missing},
                 tmp_.File("run.txt"));
  EXPECT_EQ(run.Wait(std::chrono::seconds(60)), 2) << run.Output();
  EXPECT_THAT(run.Output(), HasSubstr(absl::StrCat("its directory '", tmp_.File("no-such-dir"),
                                                   "' does not exist")));
  for (const std::string& name : testing::DirectoryNames(tmp_.path())) {
    EXPECT_FALSE(absl::StartsWith(name, "empty.db-")) << name;
  }
}

}  // namespace
}  // namespace azbench
