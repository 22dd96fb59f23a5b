// The `azbench` command line as users type it: switches with values, repeated flags, --help, and
// the outputs and databases a command must never destroy (report -o onto the results it reads,
// a run whose flags are wrong moving the earlier results aside).
#include "coordinator/cli/cli_args.h"

#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "coordinator/cli/cli.h"
#include "coordinator/store/results_file.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench::cli_internal {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using testing::DirectoryNames;
using ::testing::ElementsAre;
using testing::FileContents;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::Pair;

TEST(ParseArgsTest, ASwitchWithAValueIsReadNeverIgnored) {
  const std::vector<std::string> value_flags = {"--db"}, bool_flags = {"--resume", "--quiet"};
  absl::StatusOr<Args> args =
      ParseArgs({"c.yaml", "--resume=false", "--quiet=yes"}, value_flags, bool_flags);
  ASSERT_TRUE(args.ok()) << args.status();
  EXPECT_FALSE(args->Has("--resume")) << "--resume=false must not resume";
  EXPECT_TRUE(args->Has("--quiet"));
  EXPECT_THAT(args->positional, ElementsAre("c.yaml"));

  absl::StatusOr<Args> bad = ParseArgs({"--resume=maybe"}, value_flags, bool_flags);
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(),
              HasSubstr("'--resume' is a switch: give it alone, or as --resume=true / =false"));
}

TEST(ParseArgsTest, AFlagGivenTwiceIsRefusedNotGuessed) {
  const std::vector<std::string> value_flags = {"--db", "-o", "--output"};
  absl::StatusOr<Args> twice = ParseArgs({"--db", "a.db", "--db=b.db"}, value_flags, {});
  ASSERT_FALSE(twice.ok());
  EXPECT_THAT(twice.status().message(),
              HasSubstr("--db is given twice ('--db a.db' and '--db=b.db'): give it once"));
  absl::StatusOr<Args> both = ParseArgs({"-o", "a.md", "--output", "b.md"}, value_flags, {});
  ASSERT_FALSE(both.ok());
  EXPECT_THAT(both.status().message(), HasSubstr("-o and --output are the same flag"));
  absl::StatusOr<Args> once = ParseArgs({"--output=b.md", "--db", "a.db"}, value_flags, {});
  ASSERT_TRUE(once.ok()) << once.status();
  EXPECT_THAT(once->flags, ElementsAre(Pair("--output", "b.md"), Pair("--db", "a.db")));
  EXPECT_EQ(*OutputFlag(*once), "b.md");
}

TEST(ParseArgsTest, ACommandWithoutFlagsSaysSo) {
  absl::StatusOr<Args> args = ParseArgs({"--verbose"}, {}, {});
  ASSERT_FALSE(args.ok());
  EXPECT_THAT(args.status().message(), HasSubstr("unknown flag '--verbose' (allowed: none)"));
}

TEST(ShellJoinTest, QuotesWhatAShellWouldSplitOrExpand) {
  EXPECT_EQ(ShellJoin({"c.yaml", "--db=/tmp/r.db", "--resume"}), "c.yaml --db=/tmp/r.db --resume");
  EXPECT_EQ(ShellJoin({"my campaign.yaml", "--tls-ca", "$HOME/ca.crt", "it's", ""}),
            "'my campaign.yaml' --tls-ca '$HOME/ca.crt' 'it'\\''s' ''");
}

class OutputSafetyTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }
  // A real results database (SQLite) with one campaign.
  std::string MakeDatabase(const std::string& name) {
    const std::string path = dir_.File(name);
    absl::StatusOr<std::unique_ptr<Store>> store = Store::Open(path);
    EXPECT_TRUE(store.ok()) << store.status();
    EXPECT_TRUE((*store)->BeginCampaign("kept", "kept.yaml", "name: kept\n").ok());
    return path;
  }
  std::string WriteCampaign() {
    const std::string path = dir_.File("c.yaml");
    std::ofstream(path) << "name: mini\nfleet:\n  local: {agents: 1}\ntargets:\n"
                           "  - {name: scratch, path: scratch}\nworkloads:\n"
                           "  - name: rr\n    options: {rw: randread, bs: 4k, size: 1m}\n";
    return path;
  }
  testing::TempDir dir_;
};

TEST_F(OutputSafetyTest, CheckOutputPathRefusesADirectoryAndAnyDatabase) {
  const std::string db = MakeDatabase("r.db");
  EXPECT_THAT(CheckOutputPath(db).message(), HasSubstr("is an SQLite database"));
  EXPECT_THAT(CheckOutputPath(dir_.path()).message(), HasSubstr("is a directory"));
  std::ofstream(dir_.File("old.md")) << "an earlier report";
  EXPECT_TRUE(CheckOutputPath(dir_.File("old.md")).ok());
  EXPECT_TRUE(CheckOutputPath(dir_.File("new.md")).ok());
}

TEST_F(OutputSafetyTest, AReportOrComparisonNeverOverwritesADatabase) {
  const std::string a = MakeDatabase("a.db");
  const std::string b = MakeDatabase("b.db");
  const std::string before = FileContents(a);
  EXPECT_EQ(RunCli({"report", a, "-o", a}), 2);
  EXPECT_EQ(RunCli({"report", a, "--format", "md", "--output=" + a}), 2);
  EXPECT_EQ(RunCli({"report", a, "--format", "fio-json", "-o", a}), 2);
  EXPECT_EQ(RunCli({"compare", a, b, "-o", b}), 2);
  EXPECT_EQ(FileContents(a), before);
  EXPECT_TRUE(IsSqliteFile(b));
  EXPECT_THAT(DirectoryNames(dir_.path()), ElementsAre("a.db", "b.db"));
}

TEST_F(OutputSafetyTest, ARunWithABadFlagTouchesNoEarlierResults) {
  const std::string campaign = WriteCampaign();
  const std::string db = MakeDatabase("r.db");
  const std::string before = FileContents(db);
  EXPECT_EQ(RunCli({"run", campaign, "--db", db, "--prepared-lease", "abc"}), 2);
  // Beyond a day (60 days would wrap in the agents' 32-bit milliseconds).
  EXPECT_EQ(RunCli({"run", campaign, "--db", db, "--prepared-lease", "60d"}), 2);
  EXPECT_EQ(RunCli({"run", campaign, "--db", db, "--prepared-lease", "0.5s"}), 2);
  EXPECT_EQ(RunCli({"run", campaign, "--db", db, "--db", db}), 2);
  EXPECT_EQ(FileContents(db), before);
  EXPECT_THAT(DirectoryNames(dir_.path()), ElementsAre("c.yaml", "r.db")) << "nothing moved aside";
}

TEST_F(OutputSafetyTest, ARunRefusesADatabasePathThatIsNoDatabase) {
  const std::string campaign = WriteCampaign();
  std::ofstream(dir_.File("notes.txt")) << "my notes";
  EXPECT_EQ(RunCli({"run", campaign, "--db", dir_.File("notes.txt")}), 2);
  EXPECT_EQ(FileContents(dir_.File("notes.txt")), "my notes");
  std::filesystem::create_directory(dir_.File("results"));
  EXPECT_EQ(RunCli({"run", campaign, "--db", dir_.File("results")}), 2);
  EXPECT_THAT(DirectoryNames(dir_.path()), ElementsAre("c.yaml", "notes.txt", "results"));
  EXPECT_THAT(CheckResultsPath(dir_.File("notes.txt")).message(),
              HasSubstr("is not a results database (not SQLite)"));
  std::ofstream(dir_.File("empty.db")).flush();
  EXPECT_TRUE(CheckResultsPath(dir_.File("empty.db")).ok()) << "SQLite takes an empty file";
}

TEST_F(OutputSafetyTest, ABackupNameThatIsTakenIsNeverReplaced) {
  const std::string db = MakeDatabase("r.db");
  // The names of this second and the next are taken already (an earlier run's backups).
  const int64_t now_s = RealtimeNanos() / 1'000'000'000;
  std::vector<std::string> taken;
  for (int64_t s : {now_s, now_s + 1}) {
    taken.push_back(absl::StrCat(db, ".", s, ".bak"));
    std::ofstream(taken.back()) << "backup of an earlier run";
  }
  absl::StatusOr<std::string> aside = MoveResultsAside(db);
  ASSERT_TRUE(aside.ok()) << aside.status();
  EXPECT_THAT(taken, Not(Contains(*aside)));
  EXPECT_TRUE(IsSqliteFile(*aside));
  for (const std::string& t : taken) EXPECT_EQ(FileContents(t), "backup of an earlier run");
}

TEST_F(OutputSafetyTest, MovingAsideTwiceInOneSecondKeepsBothBackups) {
  const std::string db = MakeDatabase("r.db");
  std::ofstream(db + "-wal") << "wal of the first";
  absl::StatusOr<std::string> first = MoveResultsAside(db);
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_FALSE(std::filesystem::exists(db));
  EXPECT_FALSE(std::filesystem::exists(db + "-wal")) << "the WAL goes with its database";
  EXPECT_EQ(FileContents(*first + "-wal"), "wal of the first");
  const std::string first_contents = FileContents(*first);

  MakeDatabase("r.db");
  absl::StatusOr<std::string> second = MoveResultsAside(db);
  ASSERT_TRUE(second.ok()) << second.status();
  EXPECT_NE(*second, *first);
  EXPECT_EQ(FileContents(*first), first_contents) << "the earlier backup is not replaced";
  EXPECT_TRUE(IsSqliteFile(*second));
}

TEST_F(OutputSafetyTest, RestoringPutsTheEarlierResultsBackWithTheirWal) {
  const std::string db = MakeDatabase("r.db");
  std::ofstream(db + "-wal") << "wal of the earlier run";
  const std::string earlier = FileContents(db);
  absl::StatusOr<std::string> aside = MoveResultsAside(db);
  ASSERT_TRUE(aside.ok()) << aside.status();
  MakeDatabase("r.db");  // the new run's database, which then failed to start
  ASSERT_TRUE(RestoreResults(*aside, db).ok());
  EXPECT_EQ(FileContents(db), earlier);
  EXPECT_EQ(FileContents(db + "-wal"), "wal of the earlier run");
  EXPECT_THAT(DirectoryNames(dir_.path()), ElementsAre("r.db", "r.db-wal"));
}

// The -shm cannot follow (a file mounted over it: rename fails with EBUSY): the database and its
// WAL, already moved, are moved back, so the database never stays apart from its WAL.
TEST_F(OutputSafetyTest, AShmThatCannotMoveUndoesTheMovesBeforeIt) {
  const std::string db = MakeDatabase("r.db");
  std::ofstream(db + "-wal") << "the WAL";
  std::ofstream(db + "-shm") << "the shm";
  const std::string earlier = FileContents(db);
  const std::string source = dir_.File("mounted over the shm");
  std::ofstream(source) << "the shm";
  if (mount(source.c_str(), (db + "-shm").c_str(), nullptr, MS_BIND, nullptr) != 0) {
    GTEST_SKIP() << "cannot bind-mount a file here: " << std::strerror(errno);
  }
  absl::StatusOr<std::string> aside = MoveResultsAside(db);
  umount2((db + "-shm").c_str(), MNT_DETACH);
  ASSERT_FALSE(aside.ok()) << "moved aside to " << *aside;
  EXPECT_THAT(aside.status().message(), AllOf(HasSubstr("r.db-shm' aside with its database"),
                                              HasSubstr("nothing was moved")));
  EXPECT_EQ(FileContents(db), earlier);
  EXPECT_EQ(FileContents(db + "-wal"), "the WAL");
  EXPECT_THAT(DirectoryNames(dir_.path()),
              ElementsAre("mounted over the shm", "r.db", "r.db-shm", "r.db-wal"));
}

TEST(CliHelpTest, EveryCommandAnswersHelpWithTheUsage) {
  for (const char* command : {"plan", "run", "report", "compare", "agents", "certs", "lab"}) {
    EXPECT_EQ(RunCli({command, "--help"}), 0) << command;
  }
  EXPECT_EQ(RunCli({}), 2);
  EXPECT_EQ(RunCli({"bogus", "--help"}), 2) << "an unknown command is still one";
  // After "--" come fio's options: --help there is not azbench's.
  EXPECT_EQ(RunCli({"run", "--local", "0", "--", "--help"}), 2);
}

TEST(CliLabTest, BadLabArgumentsAreRefusedBeforeAnythingIsBuilt) {
  EXPECT_EQ(RunCli({"lab"}), 2);
  EXPECT_EQ(RunCli({"lab", "sideways"}), 2);
  EXPECT_EQ(RunCli({"lab", "up", "--azs", "0"}), 2);
  EXPECT_EQ(RunCli({"lab", "up", "--azs", "two"}), 2);
  EXPECT_EQ(RunCli({"lab", "up", "--agents-per-az", "101"}), 2);
  EXPECT_EQ(RunCli({"lab", "up", "--cross-az-bandwidth", "fast"}), 2);
  EXPECT_EQ(RunCli({"lab", "up", "--cross-az-delay", "soon"}), 2);
  EXPECT_EQ(RunCli({"lab", "up", "--dir", "relative/dir"}), 2);
  EXPECT_EQ(RunCli({"lab", "up", "extra"}), 2);
  EXPECT_EQ(RunCli({"lab", "down", "--azs", "3"}), 2) << "down takes --dir only";
}

TEST(CliAgentsTest, InputThatWouldBeIgnoredIsRefused) {
  EXPECT_EQ(RunCli({"agents", "study.yaml"}), 2) << "a campaign is given with --campaign";
  EXPECT_EQ(RunCli({"agents", "--local", "2", "--hosts", "127.0.0.1:1"}), 2);
  EXPECT_EQ(RunCli({"agents", "--hosts", "127.0.0.1:1", "--azs", "a,b"}), 2);
  EXPECT_EQ(RunCli({"agents", "--campaign", "c.yaml", "--local", "2"}), 2);
}

}  // namespace
}  // namespace azbench::cli_internal
