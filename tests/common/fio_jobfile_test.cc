#include "common/fio_jobfile.h"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::_;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::vector<int> GroupIds(const std::vector<FioJob>& jobs) {
  std::vector<int> ids;
  for (const FioJob& job : jobs) ids.push_back(job.group_id);
  return ids;
}

// A fresh directory under the test temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir() {
    std::string base = ::testing::TempDir();
    while (!base.empty() && base.back() == '/') base.pop_back();
    std::string pattern = base + "/fio_jobfile_test.XXXXXX";
    path_ = mkdtemp(pattern.data());
  }
  ~TempDir() {
    std::error_code ec;
    std::filesystem::remove_all(path_, ec);
  }
  std::string Write(const std::string& name, const std::string& contents) const {
    const std::string full = path_ + "/" + name;
    std::ofstream(full) << contents;
    return full;
  }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// Study C, verbatim (EFS vs EBS web document root, 2018).
constexpr char kStudyCJobFile[] = R"([global]
directory=/mnt/efs
[rand-read]
rw=randread
size=1m
numjobs=1
[seq-read]
rw=read
size=1g
numjobs=1
)";

TEST(ParseFioJobFileTest, StudyCJobFileGivesTwoJobsThatInheritTheDirectoryAndFioDefaults) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(kStudyCJobFile, "study-c.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 2u);

  const FioJob& rand = (*jobs)[0];
  EXPECT_EQ(rand.spec.name, "rand-read");
  EXPECT_EQ(rand.spec.directory, "/mnt/efs");
  EXPECT_EQ(rand.spec.rw, RwPattern::kRandRead);
  EXPECT_EQ(rand.spec.size_bytes, 1u << 20);
  EXPECT_EQ(rand.spec.numjobs, 1);
  EXPECT_EQ(rand.line, 3);
  EXPECT_EQ(rand.file, "study-c.fio");
  EXPECT_THAT(rand.spec.FilePaths(0), ElementsAre("/mnt/efs/rand-read.0.0"));

  const FioJob& seq = (*jobs)[1];
  EXPECT_EQ(seq.spec.name, "seq-read");
  EXPECT_EQ(seq.spec.directory, "/mnt/efs");
  EXPECT_EQ(seq.spec.rw, RwPattern::kRead);
  EXPECT_EQ(seq.spec.size_bytes, 1u << 30);
  EXPECT_EQ(seq.line, 7);

  for (const FioJob& job : *jobs) {
    EXPECT_EQ(job.spec.block_size_bytes, 4096u);
    EXPECT_EQ(job.spec.ioengine, "psync");
    EXPECT_EQ(job.spec.iodepth, 1);
    EXPECT_FALSE(job.spec.direct);
    EXPECT_EQ(job.group_id, 0);  // no stonewall: both jobs run at once, in one group
  }
}

TEST(ParseFioJobFileTest, UnknownOptionErrorNamesTheFileLineAndOption) {
  EXPECT_THAT(
      ParseFioJobFile("[job]\nsize=1m\n\nverfy=md5\n", "t.fio"),
      StatusIs(absl::StatusCode::kNotFound, AllOf(StartsWith("t.fio:4: unknown option 'verfy'"),
                                                  HasSubstr("did you mean 'verify'?"))));
}

TEST(ParseFioJobFileTest, RefusedOptionErrorNamesTheFileLineAndWhy) {
  EXPECT_THAT(ParseFioJobFile("[job]\nsize=1m\n\ncreate_fsync=1\n", "t.fio"),
              StatusIs(absl::StatusCode::kUnimplemented,
                       StartsWith("t.fio:4: option 'create_fsync' is not supported by azbench: ")));
}

TEST(ParseFioJobFileTest, NoEffectOptionsBecomeWarningsWithFileLineAndSection) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]\nthread\nsize=1m\n[a]\ndisable_slat=1\n[b]\nname=renamed\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_THAT(
      (*jobs)[0].warnings,
      ElementsAre(StartsWith("t.fio:2: [global] option 'thread' has no effect in azbench: "),
                  StartsWith("t.fio:5: [a] option 'disable_slat' has no effect")));
  EXPECT_THAT((*jobs)[1].warnings, ElementsAre(StartsWith("t.fio:2: [global] option 'thread'")));
  EXPECT_EQ((*jobs)[1].section, "b");
  EXPECT_EQ((*jobs)[1].spec.name, "renamed");
  EXPECT_THAT(FioJobWarnings(*jobs), ElementsAre(StartsWith("t.fio:2: "), StartsWith("t.fio:5: ")));
}

// fio 3.33 ends a line at its first ';' or '#', wherever it is.
TEST(ParseFioJobFileTest, ACommentMayFollowAnOptionOrASectionHeader) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]  # defaults\ndirectory=/x   ; a comment\n[job] ; the job\nbs=8k# eight\n"
      "size=1m;\ntime_based ; flag\nruntime=2\n",
      "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].spec.directory, "/x");
  EXPECT_EQ((*jobs)[0].spec.name, "job");
  EXPECT_EQ((*jobs)[0].spec.block_size_bytes, 8192u);
  EXPECT_TRUE((*jobs)[0].spec.time_based);
}

TEST(ParseFioJobFileTest, WaitForMustNameAnEarlierJob) {
  absl::StatusOr<std::vector<FioJob>> jobs =
      ParseFioJobFile("[global]\nsize=1m\n[a]\n[b]\nwait_for=a\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ((*jobs)[1].spec.wait_for, "a");
  EXPECT_THAT(ParseFioJobFile("[global]\nsize=1m\n[a]\nwait_for=b\n[b]\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("t.fio:"), HasSubstr("wait_for=b names no job before"))));
}

TEST(ParseFioJobFileTest, OnlySectionsRunsTheNamedJobsWithTheirGlobals) {
  const char* text = "[global]\nsize=1m\n[a]\ncreate_fsync=1\n[b]\nbs=8k\n[c]\nstonewall\n";
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(text, "t.fio", {"c", "b"});
  ASSERT_TRUE(jobs.ok()) << jobs.status() << " (a, with a refused option, is not parsed)";
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].section, "b");
  EXPECT_EQ((*jobs)[0].spec.size_bytes, 1u << 20);
  EXPECT_EQ((*jobs)[1].section, "c");
  EXPECT_THAT(
      ParseFioJobFile(text, "t.fio", {"d"}),
      StatusIs(absl::StatusCode::kNotFound, AllOf(HasSubstr("--section=d"), HasSubstr("a, b, c"))));
}

TEST(FioJobsAsCommandLineTest, WritesGlobalsOnceThenEachJobAsFioShowcmdDoes) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]\nbs=4k ; c\nthread\n[a]\nrw=randread # x\nsize=1m\n[b]\nsize=2m\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ(FioJobsAsCommandLine(*jobs),
            "fio --bs=4k --thread --name=a --rw=randread --size=1m --name=b --size=2m ");
}

// A job file saved with a UTF-8 byte order mark reads as without one; a binary file named by
// mistake is refused as such, without its bytes in the message.
TEST(ParseFioJobFileTest, AByteOrderMarkIsIgnoredAndABinaryFileIsRefused) {
  absl::StatusOr<std::vector<FioJob>> jobs =
      ParseFioJobFile("\xEF\xBB\xBF[rr]\nrw=randread\nsize=1m\n", "bom.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].spec.name, "rr");
  EXPECT_THAT(ParseFioJobFile(std::string("\x7f"
                                          "ELF\x02\x01=\0\0[x]",
                                          11),
                              "a.out"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       "fio job file 'a.out' line 1: not a text file (a byte 0x7f, a control "
                       "character)"));
}

TEST(ParseFioJobFileTest, BadValueErrorNamesTheFileLineOptionAndAcceptedForms) {
  EXPECT_THAT(ParseFioJobFile("[job]\nsize=1m\nbs=4x\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("t.fio:3: option 'bs': '4x'"), HasSubstr("kib"))));
  EXPECT_THAT(ParseFioJobFile("[global]\nrw=trimread\n[job]\nsize=1m\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("t.fio:2: option 'rw'"), HasSubstr("randrw"))));
}

TEST(ParseFioJobFileTest, ValidationErrorNamesTheSectionHeaderLine) {
  EXPECT_THAT(ParseFioJobFile("[global]\nbs=4k\n\n[hipri]\nsize=1m\nhipri\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("t.fio:4: job 'hipri': "), HasSubstr("pvsync2"))));
  // Without size, the agent takes the size of the existing files when it prepares the job.
  EXPECT_TRUE(ParseFioJobFile("[global]\nbs=4k\n\n[no-size]\nrw=read\n", "t.fio").ok());
  EXPECT_THAT(ParseFioJobFile("[big-bs]\nsize=1m\nbs=2m\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("t.fio:1: job 'big-bs': "), HasSubstr("bs"))));
}

TEST(ParseFioJobFileTest, GlobalSectionAfterJobsAppliesOnlyToLaterJobs) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]\nsize=1m\nbs=8k\n[a]\n[global]\nbs=16k\nrw=write\n[b]\n[c]\nbs=32k\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 3u);
  EXPECT_EQ((*jobs)[0].spec.block_size_bytes, 8192u);
  EXPECT_EQ((*jobs)[0].spec.rw, RwPattern::kRead);
  EXPECT_EQ((*jobs)[1].spec.block_size_bytes, 16384u);
  EXPECT_EQ((*jobs)[1].spec.rw, RwPattern::kWrite);
  EXPECT_EQ((*jobs)[1].spec.size_bytes, 1u << 20);  // the first [global] still applies
  EXPECT_EQ((*jobs)[2].spec.block_size_bytes, 32768u);
  EXPECT_EQ((*jobs)[2].spec.rw, RwPattern::kWrite);
}

TEST(ParseFioJobFileTest, JobOptionsDoNotLeakIntoLaterJobs) {
  absl::StatusOr<std::vector<FioJob>> jobs =
      ParseFioJobFile("[global]\nsize=1m\n[a]\ndirect=1\n[b]\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_TRUE((*jobs)[0].spec.direct);
  EXPECT_FALSE((*jobs)[1].spec.direct);
}

TEST(ParseFioJobFileTest, OptionBeforeAnySectionIsAnError) {
  EXPECT_THAT(
      ParseFioJobFile("# header\nsize=1m\n[job]\n", "t.fio"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(StartsWith("t.fio:2: option 'size': "), HasSubstr("before any section"))));
}

TEST(ParseFioJobFileTest, CommentsBlankLinesWhitespaceAndCrlfAreIgnored) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "; fio comment\r\n  # another\r\n\r\n  [ job ]  \r\n  bs = 8k  \r\n\tsize=1m\r\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].spec.name, "job");
  EXPECT_EQ((*jobs)[0].spec.block_size_bytes, 8192u);
  EXPECT_EQ((*jobs)[0].line, 4);
}

TEST(ParseFioJobFileTest, BareFlagsAreTrue) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[job]\nsize=1m\nruntime=30\ntime_based\ngroup_reporting\nnorandommap\nthread\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_TRUE((*jobs)[0].spec.time_based);
  EXPECT_TRUE((*jobs)[0].spec.group_reporting);
  EXPECT_TRUE((*jobs)[0].spec.norandommap);
  EXPECT_EQ((*jobs)[0].spec.runtime, absl::Seconds(30));
}

TEST(ParseFioJobFileTest, KbBaseAppliesToTheWholeSectionAndIsInherited) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[a]\nsize=1m\nkb_base=1000\n[global]\nkb_base=1000\n[b]\nsize=1m\n[c]\nkb_base=1024\nsize="
      "1m\n",
      "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ((*jobs)[0].spec.size_bytes, 1'000'000u);  // kb_base read first, as fio does
  EXPECT_EQ((*jobs)[1].spec.size_bytes, 1'000'000u);  // inherited from [global]
  EXPECT_EQ((*jobs)[2].spec.size_bytes, 1u << 20);
}

TEST(ParseFioJobFileTest, NameOptionOverridesTheSectionName) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]\nname=ignored\nsize=1m\n[section]\n[other]\nname=renamed\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ((*jobs)[0].spec.name, "section");
  EXPECT_EQ((*jobs)[1].spec.name, "renamed");
}

TEST(ParseFioJobFileTest, MalformedSectionsAndFilesWithoutJobsAreErrors) {
  EXPECT_THAT(
      ParseFioJobFile("[job\nsize=1m\n", "t.fio"),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("t.fio:1: malformed section")));
  EXPECT_THAT(
      ParseFioJobFile("[ ]\n", "t.fio"),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("t.fio:1: empty section name")));
  EXPECT_THAT(ParseFioJobFile("[global]\nsize=1m\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("t.fio: no job defined")));
  EXPECT_THAT(ParseFioJobFile("", "t.fio"), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(
      ParseFioJobFile("[job]\n=1m\n", "t.fio"),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("t.fio:2: missing option name")));
}

TEST(ParseFioJobFileTest, EnvironmentVariablesAreExpanded) {
  setenv("AZB_FIO_TEST_DIR", "/mnt/fsx", 1);
  setenv("AZB_FIO_TEST_BS", "64k", 1);
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[job]\ndirectory=${AZB_FIO_TEST_DIR}/run\nbs=${AZB_FIO_TEST_BS}\nsize=1m\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ((*jobs)[0].spec.directory, "/mnt/fsx/run");
  EXPECT_EQ((*jobs)[0].spec.block_size_bytes, 65536u);
}

TEST(ParseFioJobFileTest, UnsetOrMalformedEnvironmentReferenceIsAnError) {
  unsetenv("AZB_FIO_TEST_UNSET");
  EXPECT_THAT(ParseFioJobFile("[job]\nsize=1m\ndirectory=${AZB_FIO_TEST_UNSET}\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("t.fio:3: option 'directory': "),
                             HasSubstr("'AZB_FIO_TEST_UNSET'"), HasSubstr("not set"))));
  EXPECT_THAT(
      ParseFioJobFile("[job]\nsize=1m\ndirectory=${OOPS\n", "t.fio"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(StartsWith("t.fio:3: option 'directory': "), HasSubstr("unterminated"))));
}

TEST(ParseFioJobFileTest, StonewallAndNewGroupStartNewReportingGroups) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]\nsize=1m\n"
      "[a]\nstonewall\n"  // first job: stays in group 0, as fio
      "[b]\n"
      "[c]\nstonewall\n"
      "[d]\n"
      "[e]\nnew_group\n"
      "[f]\nwait_for_previous\n",
      "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_THAT(GroupIds(*jobs), ElementsAre(0, 0, 1, 1, 2, 3));
}

TEST(ParseFioJobFileTest, StonewallInGlobalPutsEveryJobInItsOwnGroup) {
  absl::StatusOr<std::vector<FioJob>> jobs =
      ParseFioJobFile("[global]\nsize=1m\nstonewall\n[a]\n[b]\n[c]\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_THAT(GroupIds(*jobs), ElementsAre(0, 1, 2));
}

TEST(ParseFioJobFileAtPathTest, ReadsAFileAndMissingFilesAreNotFound) {
  TempDir dir;
  const std::string path = dir.Write("c.fio", kStudyCJobFile);
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFileAtPath(path);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].file, path);
  EXPECT_THAT(ParseFioJobFileAtPath(dir.path() + "/missing.fio"),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("missing.fio")));
}

TEST(ParseFioJobFileAtPathTest, IncludeAddsOptionsRelativeToTheIncludingFile) {
  TempDir dir;
  std::filesystem::create_directory(dir.path() + "/inc");
  dir.Write("inc/common.fio", "# shared\nioengine=libaio\niodepth=16\ninclude more.fio\n");
  dir.Write("inc/more.fio", "bs=1m\n");
  const std::string main =
      dir.Write("main.fio",
                "[global]\ninclude inc/common.fio\nsize=1g\n[job]\nrw=write\n[job2]\niodepth=4\n");
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFileAtPath(main);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].spec.ioengine, "libaio");
  EXPECT_EQ((*jobs)[0].spec.iodepth, 16);
  EXPECT_EQ((*jobs)[0].spec.block_size_bytes, 1u << 20);
  EXPECT_EQ((*jobs)[0].spec.rw, RwPattern::kWrite);
  EXPECT_EQ((*jobs)[1].spec.iodepth, 4);
}

// fio 3.33's rule (checked with fio --showcmd): an include before any section is refused like any
// option there ("option <include inc.fio> outside of [] job section"), and an included file may
// not open sections ("No new sections in included files").
TEST(ParseFioJobFileAtPathTest, IncludeBeforeAnySectionAndSectionsInIncludesAreRefusedAsFioDoes) {
  TempDir dir;
  dir.Write("inc.fio", "bs=8k\n");
  const std::string top = dir.Write("top.fio", "include inc.fio\n[job]\nrw=read\nsize=1m\n");
  EXPECT_THAT(ParseFioJobFileAtPath(top),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith(absl::StrCat(top, ":1: include 'inc.fio'")),
                             HasSubstr("before any section"))));
  dir.Write("sections.fio", "[global]\nsize=1m\n");
  const std::string nested = dir.Write("nested.fio", "[job]\ninclude sections.fio\nrw=read\n");
  EXPECT_THAT(ParseFioJobFileAtPath(nested),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("included files may only hold options")));
  // Inside a section, an include adds its options there (fio: --name=job --bs=8k --rw=read).
  const std::string ok = dir.Write("ok.fio", "[job]\ninclude inc.fio\nrw=read\nsize=1m\n");
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFileAtPath(ok);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_EQ((*jobs)[0].spec.block_size_bytes, 8192u);
}

TEST(ParseFioJobFileAtPathTest, IncludedFileErrorsNameTheIncludedFileAndLine) {
  TempDir dir;
  const std::string inc = dir.Write("bad.fio", "ioengine=libaio\nbs=huge\n");
  const std::string main = dir.Write("main.fio", "[job]\nsize=1m\ninclude bad.fio\n");
  EXPECT_THAT(ParseFioJobFileAtPath(main),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith(absl::StrCat(inc, ":2: option 'bs': 'huge'"))));
}

TEST(ParseFioJobFileAtPathTest, IncludeCycleIsAnErrorNamingTheCycle) {
  TempDir dir;
  dir.Write("a.fio", "[job]\nsize=1m\ninclude b.fio\n");
  dir.Write("b.fio", "bs=8k\ninclude c.fio\n");
  dir.Write("c.fio", "include b.fio\n");
  EXPECT_THAT(ParseFioJobFileAtPath(dir.path() + "/a.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("c.fio:1: include 'b.fio'"), HasSubstr("include cycle"),
                             HasSubstr("b.fio -> "), HasSubstr("c.fio -> "))));
}

TEST(ParseFioJobFileAtPathTest, FileIncludingItselfIsAnError) {
  TempDir dir;
  const std::string self = dir.Write("self.fio", "[job]\nsize=1m\ninclude self.fio\n");
  EXPECT_THAT(ParseFioJobFileAtPath(self),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith(absl::StrCat(self, ":3: include 'self.fio'")),
                             HasSubstr("include cycle"))));
}

TEST(ParseFioJobFileAtPathTest, IncludesNestedTooDeepAreAnError) {
  TempDir dir;
  for (int i = 0; i < kMaxFioIncludeDepth + 2; ++i) {
    dir.Write(absl::StrCat("f", i, ".fio"), absl::StrCat("include f", i + 1, ".fio\n"));
  }
  dir.Write(absl::StrCat("f", kMaxFioIncludeDepth + 2, ".fio"), "bs=8k\n");
  const std::string main = dir.Write("main.fio", "[job]\nsize=1m\ninclude f0.fio\n");
  EXPECT_THAT(ParseFioJobFileAtPath(main),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("nested more than 16 deep")));
}

TEST(ParseFioJobFileAtPathTest, IncludeProblemsAreErrorsWithTheIncludingLine) {
  TempDir dir;
  const std::string missing = dir.Write("m.fio", "[job]\nsize=1m\ninclude nope.fio\n");
  EXPECT_THAT(ParseFioJobFileAtPath(missing),
              StatusIs(absl::StatusCode::kNotFound,
                       StartsWith(absl::StrCat(missing, ":3: include 'nope.fio'"))));
  dir.Write("sect.fio", "[inner]\n");
  const std::string sections = dir.Write("s.fio", "[job]\nsize=1m\ninclude sect.fio\n");
  EXPECT_THAT(ParseFioJobFileAtPath(sections),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("included files may only hold options")));
  const std::string early = dir.Write("e.fio", "include sect.fio\n[job]\nsize=1m\n");
  EXPECT_THAT(ParseFioJobFileAtPath(early),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith(absl::StrCat(early, ":1: include")),
                             HasSubstr("before any section"))));
}

// Study A's command line (FSx for OpenZFS Multi-AZ vs EFS, O_DIRECT write case).
TEST(ParseFioCommandLineTest, StudyACommandLineParses) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioCommandLine(
      {"--name=w", "--rw=write", "--bs=4m", "--size=4g", "--numjobs=1", "--iodepth=1",
       "--ioengine=libaio", "--runtime=60", "--time_based", "--group_reporting", "--direct=1"});
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  const JobSpec& spec = (*jobs)[0].spec;
  EXPECT_EQ(spec.name, "w");
  EXPECT_EQ(spec.rw, RwPattern::kWrite);
  EXPECT_EQ(spec.block_size_bytes, 4u << 20);
  EXPECT_EQ(spec.size_bytes, 4ull << 30);
  EXPECT_EQ(spec.numjobs, 1);
  EXPECT_EQ(spec.iodepth, 1);
  EXPECT_EQ(spec.ioengine, "libaio");
  EXPECT_EQ(spec.runtime, absl::Seconds(60));
  EXPECT_TRUE(spec.time_based);
  EXPECT_TRUE(spec.group_reporting);
  EXPECT_TRUE(spec.direct);
  EXPECT_EQ((*jobs)[0].line, 1);
  EXPECT_EQ((*jobs)[0].group_id, 0);
}

TEST(ParseFioCommandLineTest, OptionsBeforeTheFirstNameAreGlobal) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioCommandLine(
      {"--size=1g", "--direct=1", "--name=r", "--rw=read", "--name=w", "--rw=write", "--direct=0"});
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_EQ((*jobs)[0].spec.name, "r");
  EXPECT_EQ((*jobs)[0].spec.rw, RwPattern::kRead);
  EXPECT_EQ((*jobs)[0].spec.size_bytes, 1u << 30);
  EXPECT_TRUE((*jobs)[0].spec.direct);
  EXPECT_EQ((*jobs)[0].line, 3);
  EXPECT_EQ((*jobs)[1].spec.name, "w");
  EXPECT_EQ((*jobs)[1].spec.rw, RwPattern::kWrite);
  EXPECT_EQ((*jobs)[1].spec.size_bytes, 1u << 30);
  EXPECT_FALSE((*jobs)[1].spec.direct);
  EXPECT_EQ((*jobs)[1].line, 5);
  EXPECT_EQ((*jobs)[1].file, "command line");
}

TEST(ParseFioCommandLineTest, StonewallStartsANewGroup) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioCommandLine(
      {"--size=1m", "--name=a", "--name=b", "--stonewall", "--name=c", "--new_group"});
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_THAT(GroupIds(*jobs), ElementsAre(0, 1, 2));
}

TEST(ParseFioCommandLineTest, ErrorsNameTheArgument) {
  EXPECT_THAT(
      ParseFioCommandLine({"--name=w", "--size=1m", "--create_fsync=1"}),
      StatusIs(
          absl::StatusCode::kUnimplemented,
          StartsWith("argument 3 '--create_fsync=1': option 'create_fsync' is not supported")));
  EXPECT_THAT(ParseFioCommandLine({"--name=w", "--size=1m", "--bs=4x"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("argument 3 '--bs=4x': option 'bs': '4x'")));
  EXPECT_THAT(
      ParseFioCommandLine({"--name=w", "job.fio"}),
      StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("argument 2 'job.fio': expected")));
  EXPECT_THAT(ParseFioCommandLine({"--name=w", "-bs=4k"}),
              StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("argument 2 '-bs=4k'")));
  EXPECT_THAT(ParseFioCommandLine({"--name"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       StartsWith("argument 1 '--name': option 'name'")));
  EXPECT_THAT(ParseFioCommandLine({"--name=w", "--=x"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("missing option name")));
}

TEST(ParseFioCommandLineTest, ValidationErrorNamesTheNameArgument) {
  EXPECT_THAT(ParseFioCommandLine({"--bs=4k", "--name=hipri", "--size=1m", "--hipri"}),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("argument 2 '--name=hipri': job 'hipri': "),
                             HasSubstr("pvsync2"))));
}

TEST(ParseFioCommandLineTest, CommandLineWithoutAJobIsAnError) {
  EXPECT_THAT(ParseFioCommandLine({"--size=1m", "--rw=read"}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("--name=")));
  EXPECT_THAT(ParseFioCommandLine({}), StatusIs(absl::StatusCode::kInvalidArgument, _));
}

// --- The options as written (what agents receive) ----------------------------------------------

std::vector<std::string> OptionTexts(const FioJob& job) {
  std::vector<std::string> out;
  for (const FioOption& o : job.options) {
    out.push_back(absl::StrCat(o.key, "=", o.value, "@", o.file, ":", o.line));
  }
  return out;
}

TEST(FioJobOptionsTest, GlobalsComeFirstWithTheirLinesAndIncludesNameTheIncludedFile) {
  TempDir dir;
  const std::string inc = dir.Write("common.inc", "bs=64k\nioengine=psync\n");
  setenv("AZB_FIO_OPTIONS_DIR", "/mnt/x", 1);
  const std::string main =
      dir.Write("main.fio",
                "[global]\ninclude common.inc\ndirectory=${AZB_FIO_OPTIONS_DIR}"
                "\n[a]\nrw=write\nsize=4m\n[global]\nruntime=5s\n[b]\n"
                "name=renamed\nstonewall\nsize=1m\n");
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFileAtPath(main);
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 2u);
  EXPECT_THAT(
      OptionTexts((*jobs)[0]),
      ElementsAre(absl::StrCat("bs=64k@", inc, ":1"), absl::StrCat("ioengine=psync@", inc, ":2"),
                  absl::StrCat("directory=/mnt/x@", main, ":3"),
                  absl::StrCat("rw=write@", main, ":5"), absl::StrCat("size=4m@", main, ":6")));
  // The second [global] applies to b only; `name` renames the job and is not an option.
  EXPECT_EQ((*jobs)[1].spec.name, "renamed");
  EXPECT_THAT(
      OptionTexts((*jobs)[1]),
      ElementsAre(absl::StrCat("bs=64k@", inc, ":1"), absl::StrCat("ioengine=psync@", inc, ":2"),
                  absl::StrCat("directory=/mnt/x@", main, ":3"),
                  absl::StrCat("runtime=5s@", main, ":8"), absl::StrCat("stonewall=@", main, ":11"),
                  absl::StrCat("size=1m@", main, ":12")));
  for (const FioJob& job : *jobs) EXPECT_TRUE(FlatOptionsMatchSpec(job));
}

TEST(FioJobOptionsTest, CommandLineOptionsCarryTheirArgumentIndex) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioCommandLine(
      {"--bs=4m", "--name=w", "--rw=write", "--size=4g", "--time_based", "--runtime=60"});
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_THAT(
      OptionTexts((*jobs)[0]),
      ElementsAre("bs=4m@command line:1", "rw=write@command line:3", "size=4g@command line:4",
                  "time_based=@command line:5", "runtime=60@command line:6"));
}

TEST(FioJobOptionsTest, FlatOptionsDifferOnlyWhenAJobSetsKbBaseAfterGlobalSizes) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]\nsize=1m\n[a]\nkb_base=1000\n[b]\nkb_base=1000\nsize=1m\n", "k.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ((*jobs)[0].spec.size_bytes, 1u << 20);  // fio: [global]'s size used kb_base=1024
  EXPECT_FALSE(FlatOptionsMatchSpec((*jobs)[0]));
  EXPECT_TRUE(FlatOptionsMatchSpec((*jobs)[1]));
}

}  // namespace
}  // namespace azbench
