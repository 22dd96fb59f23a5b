// `azbench-agent run`'s arguments: the exit code of a bad one (2, a usage error, for every family,
// before anything runs) and the command's single-valued flags given twice. In process:
// RunOneShotCommand returns what the binary exits with.
#include "agent/one_shot.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class OneShotArgsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }
  // The command's exit code; its stderr in `*errors`.
  static int Command(const std::vector<std::string>& args, std::string* errors) {
    ::testing::internal::CaptureStderr();
    const int code = RunOneShotCommand(args);
    *errors = ::testing::internal::GetCapturedStderr();
    return code;
  }
  bool DirectoryIsEmpty() const { return std::filesystem::is_empty(dir_.path()); }
  testing::TempDir dir_;
};

// A family's bad option or name exits 2 before anything runs, as a bad fio option does (it was 1,
// found only when the run was prepared).
TEST_F(OneShotArgsTest, ABadOptionOfAnyFamilyIsAUsageErrorBeforeAnythingRuns) {
  std::string errors;
  const std::string directory = "--directory=" + dir_.path();
  EXPECT_EQ(Command({"--workload=metadata", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  EXPECT_EQ(Command({"--workload=metadata", directory, "--name=a/b"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("job name 'a/b' contains '/'"));
  EXPECT_EQ(Command({"--workload=large_stream", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  EXPECT_EQ(Command({"--workload=small_files", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  // block_io's options, for comparison: the same exit code.
  EXPECT_EQ(Command({"--name=x", "--rw=read", "--size=64k", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  EXPECT_TRUE(DirectoryIsEmpty()) << "nothing ran";
}

TEST_F(OneShotArgsTest, ValidFamilyOptionsPassTheCheck) {
  EXPECT_TRUE(ValidateFamilyJobArgs("metadata", {"--directory=" + dir_.path(), "--name=md"}).ok());
  EXPECT_THAT(ValidateFamilyJobArgs("metadata", {"--directory=" + dir_.path(), "--name=.."}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("job name '..'")));
  // A visibility probe runs with a warning that runtime does not apply, as an agent's Prepare
  // does; an unknown option is still refused.
  EXPECT_TRUE(ValidateFamilyJobArgs("visibility", {"--directory=" + dir_.path(),
                                                   "--probe=client_to_client", "--runtime=5s"})
                  .ok());
  EXPECT_FALSE(ValidateFamilyJobArgs("visibility", {"--directory=" + dir_.path(),
                                                    "--probe=client_to_client", "--bogus=1"})
                   .ok());
}

// The command's own flags take one value: a second one is refused, naming the flag and both
// arguments (the last one used to win silently). fio's options keep fio's rule (the last counts).
TEST_F(OneShotArgsTest, ASingleValuedFlagGivenTwiceIsRefused) {
  // In the test's directory: the old code ran it with the last of each flag.
  const std::vector<std::string> job = {"--name=x", "--rw=read", "--size=64k",
                                        "--directory=" + dir_.path()};
  const std::string a = "--output=" + dir_.path() + "/a.json";
  const std::string b = "--output=" + dir_.path() + "/b.json";
  struct Case {
    std::vector<std::string> flags;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {{a, b}, "--output is given twice ('" + a + "' and '" + b + "'): give it once"},
           {{"--output-format=json", "--output-format=normal"}, "--output-format is given twice"},
           {{"--interval=1s", "--interval=2s"}, "--interval is given twice"},
           {{"--unlink", "--unlink=false"}, "--unlink is given twice"},
           {{"--workload=metadata", "--workload=large_stream"}, "--workload is given twice"}}) {
    SCOPED_TRACE(c.message);
    std::vector<std::string> args = job;
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    EXPECT_THAT(ParseOneShotArgs(args).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.message)));
    std::string errors;
    EXPECT_EQ(Command(args, &errors), 2);
    EXPECT_THAT(errors, HasSubstr(c.message));
  }
  // --output and --output-format are different flags; a repeated fio option is fio's business.
  std::vector<std::string> args = job;
  args.insert(args.end(), {a, "--output-format=json", "--bs=4k", "--bs=8k"});
  absl::StatusOr<OneShotOptions> options = ParseOneShotArgs(args);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->output_path, dir_.path() + "/a.json");
  EXPECT_EQ(options->output_format, "json");
  EXPECT_TRUE(DirectoryIsEmpty());
}

// A job file with fio 3.33's comments (after options and section headers too), [global]
// options, a flag without effect in azbench and three jobs.
constexpr char kShowcmdJobFile[] =
    "[global]\nsize=1m ; one megabyte\nthread\n# whole-line comment\n[a]\nrw=randread # random\n"
    "directory=/tmp   ; a comment\n[b]  ; second\nbs=8k\nstonewall\n[c]\nnumjobs=2\n";

class OneShotFioFlagsTest : public OneShotArgsTest {
 protected:
  // azbench-agent run ARGS: the exit code, stdout in `*out`, stderr in `*err`.
  static int CommandWithOutput(const std::vector<std::string>& args, std::string* out,
                               std::string* err) {
    ::testing::internal::CaptureStdout();
    const int code = Command(args, err);
    *out = ::testing::internal::GetCapturedStdout();
    return code;
  }
  // fio ARGS: its exit code, stdout and stderr in `*out`.
  int Fio(const std::vector<std::string>& args, std::string* out) {
    std::vector<std::string> argv = {testing::kFioBinary};
    argv.insert(argv.end(), args.begin(), args.end());
    testing::Subprocess fio(argv, dir_.File("fio-output.txt"));
    const int code = fio.Wait(std::chrono::seconds(60));
    *out = fio.Output();
    return code;
  }
  std::string JobFile() {
    const std::string path = dir_.File("s.fio");
    std::ofstream(path) << kShowcmdJobFile;
    return path;
  }
};

// --showcmd prints what fio 3.33's prints for the same file, with and without --section.
TEST_F(OneShotFioFlagsTest, ShowcmdPrintsTheSameCommandLineAsFio) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  const std::string job = JobFile();
  for (const std::vector<std::string>& selection :
       {std::vector<std::string>{}, std::vector<std::string>{"--section=c", "--section=a"}}) {
    std::vector<std::string> args = {"--showcmd"};
    args.insert(args.end(), selection.begin(), selection.end());
    args.push_back(job);
    std::string fio_out, out, err;
    ASSERT_EQ(Fio(args, &fio_out), 0) << fio_out;
    EXPECT_EQ(CommandWithOutput(args, &out, &err), 0) << err;
    EXPECT_EQ(out, fio_out);
    EXPECT_THAT(out, StartsWith("fio --size=1m --thread --name=a --rw=randread --directory=/tmp "));
  }
  EXPECT_TRUE(std::filesystem::exists(job)) << "nothing else was created or run";
}

// --parse-only exits 0 for a file fio 3.33 parses, prints the warnings of options without effect
// with their file and line, and runs nothing; an error exits 2 naming the line.
TEST_F(OneShotFioFlagsTest, ParseOnlyChecksWarnsAndRunsNothing) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  const std::string job = JobFile();
  std::string fio_out, out, err;
  ASSERT_EQ(Fio({"--parse-only", job}, &fio_out), 0) << fio_out;
  EXPECT_EQ(CommandWithOutput({"--parse-only", job}, &out, &err), 0) << err;
  EXPECT_EQ(out, "");
  EXPECT_THAT(err, StartsWith("azbench-agent: warning: " + job +
                              ":3: [global] option 'thread' has no effect in azbench: "));
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << "a [global] warning is said once";
  EXPECT_FALSE(std::filesystem::exists(dir_.File("a.0.0"))) << "nothing ran";

  const std::string bad = dir_.File("bad.fio");
  std::ofstream(bad) << "[job]\nsize=1m\ncreate_fsync=1\n";
  EXPECT_EQ(CommandWithOutput({"--parse-only", bad}, &out, &err), 2);
  EXPECT_THAT(err, HasSubstr(bad + ":3: option 'create_fsync' is not supported by azbench: "));
}

TEST_F(OneShotFioFlagsTest, SectionNamesMustBeJobSectionsOfTheFile) {
  const std::string job = JobFile();
  std::string out, err;
  EXPECT_EQ(CommandWithOutput({"--parse-only", "--section=zz", job}, &out, &err), 2);
  EXPECT_THAT(err, HasSubstr("--section=zz: no such job section; the job sections are: a, b, c"));
  EXPECT_EQ(CommandWithOutput({"--section=a", "--name=x", "--size=1m"}, &out, &err), 2);
  EXPECT_THAT(err, HasSubstr("--section selects sections of a job file"));
}

// filename_format names the files fio 3.33 names: every keyword, in any case, for each clone and
// file ($clientuid is empty outside client/server mode, in fio and in a one-shot run).
TEST_F(OneShotFioFlagsTest, FilenameFormatNamesTheFilesFioNames) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  auto files_in = [](const std::string& dir) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  std::vector<std::string> listings[2];
  for (int tool = 0; tool < 2; ++tool) {
    const std::string dir = dir_.File(tool == 0 ? "fio" : "azbench");
    std::filesystem::create_directory(dir);
    const std::string job = dir_.File(tool == 0 ? "fio.fio" : "azbench.fio");
    std::ofstream(job) << "[global]\nrw=write\nbs=4k\nsize=32k\nnrfiles=2\nnumjobs=2\n"
                          "filename_format=f.$JobName-$jobnum.$filenum$clientuid.dat\n"
                          "directory="
                       << dir << "\n[w]\n";
    std::string out, err;
    if (tool == 0) {
      ASSERT_EQ(Fio({"--output-format=json", job}, &out), 0) << out;
    } else {
      ASSERT_EQ(CommandWithOutput({"--output-format=json", job}, &out, &err), 0) << err;
    }
    listings[tool] = files_in(dir);
  }
  EXPECT_EQ(listings[1], listings[0]);
  EXPECT_THAT(listings[1],
              ::testing::ElementsAre("f.w-0.0.dat", "f.w-0.1.dat", "f.w-1.0.dat", "f.w-1.1.dat"));
}

// fio's wait_for: in one stonewall group, the waiting job starts when the named one has ended,
// while a job that waits for nothing starts at once.
TEST_F(OneShotArgsTest, WaitForStartsAJobWhenTheNamedJobHasEnded) {
  const std::string text = "[global]\nsize=256k\nrw=write\ndirectory=" + dir_.path() +
                           "\n[a]\nrate_iops=1000\n[b]\nwait_for=a\n[c]\n";
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(text, "w.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  absl::StatusOr<OneShotRun> run = RunJobs(*jobs, nullptr, 1'000'000'000, false);
  ASSERT_TRUE(run.ok()) << run.status();
  std::map<std::string, const JobResult*> by_name;
  for (const JobResult& r : run->results) by_name[r.name] = &r;
  ASSERT_EQ(by_name.size(), 3u);
  // a: 64 writes at 1000 a second, about 64 ms.
  EXPECT_GE(by_name["b"]->start_realtime_ns, by_name["a"]->end_realtime_ns);
  EXPECT_LT(by_name["c"]->start_realtime_ns, by_name["a"]->end_realtime_ns);
  EXPECT_EQ(by_name["b"]->group_id, by_name["a"]->group_id) << "wait_for opens no group";
}

// fio's unlink=1 in [global] removes every job's files as --unlink does (fio 3.33's
// filedelete-ioengine.fio sets unlink=0, the default: the files stay); on some jobs only it is
// refused, since the files of a run go all together or not at all.
TEST_F(OneShotArgsTest, UnlinkInEveryJobRemovesTheFilesAndInSomeJobsIsRefused) {
  const std::string kept =
      "[global]\nsize=64k\nrw=write\nunlink=0\ndirectory=" + dir_.path() + "\n[a]\n[b]\n";
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(kept, "kept.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  absl::StatusOr<OneShotRun> run = RunJobs(*jobs, nullptr, 1'000'000'000, false);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir_.path()),
                          std::filesystem::directory_iterator()),
            2);

  std::filesystem::remove_all(dir_.path() + "/a.0.0");
  std::filesystem::remove_all(dir_.path() + "/b.0.0");
  const std::string removed =
      "[global]\nsize=64k\nrw=write\nunlink=1\ndirectory=" + dir_.path() + "\n[a]\n[b]\n";
  jobs = ParseFioJobFile(removed, "removed.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  run = RunJobs(*jobs, nullptr, 1'000'000'000, false);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->results.size(), 2u);
  EXPECT_TRUE(DirectoryIsEmpty());

  const std::string mixed =
      "[global]\nsize=64k\nrw=write\ndirectory=" + dir_.path() + "\n[a]\nunlink=1\n[b]\n";
  jobs = ParseFioJobFile(mixed, "mixed.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_THAT(RunJobs(*jobs, nullptr, 1'000'000'000, false),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("some jobs only")));
  EXPECT_TRUE(DirectoryIsEmpty()) << "refused before anything was laid out";
}

}  // namespace
}  // namespace azbench
