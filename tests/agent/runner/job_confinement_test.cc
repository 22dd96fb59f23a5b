#include "agent/confinement/job_confinement.h"

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "agent/runner/runner.h"
#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/block_io/block_io_family.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

// A block-I/O job through the policy as the runner confines it: its footprint and paths, the
// paths written back into the spec.
absl::StatusOr<ConfinedJob> ConfineJob(JobSpec& spec, const JobPolicy& policy,
                                       const std::string& agent_subdir) {
  JobPaths paths = BlockIoPaths(spec);
  absl::StatusOr<ConfinedJob> confined =
      ConfineJob(spec.name, BlockIoFootprint(spec), paths, policy, agent_subdir);
  spec.directory = paths.directory;
  spec.filename = paths.filename;
  return confined;
}

class JobConfinementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    root_ = dir_.File("root");
    fs::create_directories(root_ + "/target");
    fs::create_directories(dir_.File("outside"));
    policy_.allowed_roots = {root_};
  }
  JobSpec Spec(const std::string& directory) {
    JobSpec spec;
    spec.name = "j";
    spec.directory = directory;
    spec.size_bytes = 1 << 20;
    return spec;
  }
  testing::TempDir dir_{testing::kDiskBase};
  std::string root_;
  JobPolicy policy_;
};

TEST_F(JobConfinementTest, JobInsideTheRootGoesThroughAnOpenedDirectory) {
  JobSpec spec = Spec(root_ + "/target");
  absl::StatusOr<ConfinedJob> confined = ConfineJob(spec, policy_, "agent-1");
  ASSERT_TRUE(confined.ok()) << confined.status();
  EXPECT_TRUE(fs::is_directory(root_ + "/target/agent-1"));
  ASSERT_EQ(confined->created_dirs.size(), 1u);
  EXPECT_EQ(confined->created_dirs[0], root_ + "/target/agent-1");
  EXPECT_EQ(spec.directory.rfind("/proc/self/fd/", 0), 0u) << spec.directory;
  EXPECT_EQ(confined->DisplayText(spec.directory + "/j.0.0"), root_ + "/target/agent-1/j.0.0");
  rmdir((root_ + "/target/agent-1").c_str());
}

TEST_F(JobConfinementTest, DirectoryOutsideTheRootsIsRefusedNamingPathAndRoots) {
  JobSpec spec = Spec(dir_.File("outside"));
  absl::StatusOr<ConfinedJob> confined = ConfineJob(spec, policy_, "agent-1");
  ASSERT_EQ(confined.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(confined.status().message()), HasSubstr(dir_.File("outside")));
  EXPECT_THAT(std::string(confined.status().message()), HasSubstr(root_));
  EXPECT_FALSE(fs::exists(dir_.File("outside/agent-1")));
}

TEST_F(JobConfinementTest, SymlinkEscapeAndDotDotAreRefused) {
  fs::create_directory_symlink(dir_.File("outside"), root_ + "/link");
  JobSpec through_link = Spec(root_ + "/link");
  EXPECT_EQ(ConfineJob(through_link, policy_, "agent-1").status().code(),
            absl::StatusCode::kPermissionDenied);
  EXPECT_FALSE(fs::exists(dir_.File("outside/agent-1")));
  JobSpec dotdot = Spec(root_ + "/target/../../outside");
  EXPECT_EQ(ConfineJob(dotdot, policy_, "agent-1").status().code(),
            absl::StatusCode::kPermissionDenied);
}

TEST_F(JobConfinementTest, AnExistingSymlinkOrFifoUnderAJobFileNameIsRefused) {
  std::ofstream(dir_.File("outside/secret")) << "do not touch";
  fs::create_symlink(dir_.File("outside/secret"), root_ + "/target/data");
  JobSpec spec = Spec(root_ + "/target");
  spec.filename = "data";
  absl::StatusOr<ConfinedJob> confined = ConfineJob(spec, policy_, "agent-1");
  ASSERT_EQ(confined.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(confined.status().message()), HasSubstr("a symlink"));

  ASSERT_EQ(mkfifo((root_ + "/target/fifo").c_str(), 0600), 0);
  JobSpec fifo = Spec(root_ + "/target");
  fifo.filename = "fifo";
  EXPECT_THAT(std::string(ConfineJob(fifo, policy_, "").status().message()),
              HasSubstr("not a regular file"));
}

TEST_F(JobConfinementTest, ASymlinkSwappedInAfterTheCheckIsNotFollowed) {
  std::ofstream(dir_.File("outside/secret")) << "do not touch";
  JobSpec spec = Spec(root_ + "/target");
  spec.filename = "data";
  spec.rw = RwPattern::kWrite;
  absl::StatusOr<ConfinedJob> confined = ConfineJob(spec, policy_, "");
  ASSERT_TRUE(confined.ok()) << confined.status();
  // The race: the name becomes a symlink out of the root between the check and the layout.
  fs::create_symlink(dir_.File("outside/secret"), root_ + "/target/data");
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  EXPECT_FALSE(job.ok());
  EXPECT_EQ(fs::file_size(dir_.File("outside/secret")), 12u) << "the outside file is untouched";
}

TEST_F(JobConfinementTest, AbsoluteFilenamesAreConfinedToo) {
  JobSpec inside = Spec("");
  inside.filename = root_ + "/target/a:" + root_ + "/target/b";
  absl::StatusOr<ConfinedJob> ok = ConfineJob(inside, policy_, "agent-1");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(inside.FilePaths(0).size(), 2u);
  EXPECT_EQ(ok->DisplayText(inside.FilePaths(0)[1]), root_ + "/target/b");

  JobSpec outside = Spec("");
  outside.filename = root_ + "/target/a:/etc/passwd";
  absl::StatusOr<ConfinedJob> refused = ConfineJob(outside, policy_, "agent-1");
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("/etc"));
}

TEST_F(JobConfinementTest, NoAllowedRootsRefusesEveryFileJob) {
  JobSpec spec = Spec(root_ + "/target");
  absl::StatusOr<ConfinedJob> refused = ConfineJob(spec, JobPolicy{}, "agent-1");
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("no allowed_roots"));
  JobSpec null_engine = Spec(root_ + "/target");
  null_engine.ioengine = "null";
  EXPECT_TRUE(ConfineJob(null_engine, JobPolicy{}, "agent-1").ok());
}

TEST_F(JobConfinementTest, LimitsAreRefusedWithTheNumbers) {
  policy_.limits.max_files_per_job = 4;
  JobSpec many = Spec(root_ + "/target");
  many.nrfiles = 3;
  many.numjobs = 2;  // 6 files
  absl::StatusOr<ConfinedJob> files = ConfineJob(many, policy_, "");
  ASSERT_EQ(files.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(files.status().message()), HasSubstr("at most 4"));

  policy_.limits.max_files_per_job = 100;
  policy_.limits.max_job_size_bytes = 1 << 20;
  JobSpec big = Spec(root_ + "/target");
  big.numjobs = 2;  // two 1 MiB files
  absl::StatusOr<ConfinedJob> size = ConfineJob(big, policy_, "");
  ASSERT_EQ(size.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(size.status().message()), HasSubstr("2097152 bytes"));
  EXPECT_THAT(std::string(size.status().message()), HasSubstr("1048576"));

  policy_.limits.max_jobs_per_run = 8;
  JobSpec threads = Spec(root_ + "/target");
  threads.numjobs = 9;
  EXPECT_THAT(std::string(ConfineJob(threads, policy_, "").status().message()),
              HasSubstr("at most 8 (limits.max_jobs_per_run)"));
}

TEST_F(JobConfinementTest, TooManyFilesAreRefusedFromTheCountsBeforeAnyNameIsMade) {
  // nrfiles=100000 once took ~41 s of CPU (a quadratic search for duplicate names) to be refused.
  JobSpec many = Spec(root_ + "/target");
  many.nrfiles = 100'000;
  many.numjobs = 3;
  absl::StatusOr<ConfinedJob> files = ConfineJob(many, policy_, "");
  ASSERT_EQ(files.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(files.status().message()),
              HasSubstr("it uses 300000 files (nrfiles 100000 x numjobs 3); this agent allows at "
                        "most 65536 (limits.max_files_per_job)"));
  // Clones sharing one filename share its files: counted once.
  JobSpec shared = Spec(root_ + "/target");
  shared.filename = "a:b";
  shared.numjobs = 200;
  policy_.limits.max_files_per_job = 2;
  EXPECT_TRUE(ConfineJob(shared, policy_, "").ok());
}

TEST_F(JobConfinementTest, AFamilyThatNamesItsOwnFilesIsConfinedByItsDirectoryAndFootprint) {
  JobPaths paths;
  paths.directory = root_ + "/target";
  JobFootprint footprint;
  footprint.clones = 2;
  footprint.files = 10;
  footprint.bytes = 10 << 20;
  footprint.files_formula = "files 5 x numjobs 2";
  absl::StatusOr<ConfinedJob> confined = ConfineJob("md", footprint, paths, policy_, "agent-1");
  ASSERT_TRUE(confined.ok()) << confined.status();
  EXPECT_EQ(paths.directory.rfind("/proc/self/fd/", 0), 0u) << paths.directory;
  EXPECT_EQ(confined->DisplayText(paths.directory), root_ + "/target/agent-1");
  rmdir((root_ + "/target/agent-1").c_str());

  policy_.limits.max_files_per_job = 9;
  paths.directory = root_ + "/target";
  absl::StatusOr<ConfinedJob> refused = ConfineJob("md", footprint, paths, policy_, "");
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(refused.status().message()),
              HasSubstr("job 'md': it uses 10 files (files 5 x numjobs 2); this agent allows at "
                        "most 9 (limits.max_files_per_job)"));

  policy_.limits.max_files_per_job = 100;
  policy_.min_free_space_bytes = uint64_t{1} << 62;  // its bytes count, though no file is named
  absl::StatusOr<ConfinedJob> full = ConfineJob("md", footprint, paths, policy_, "");
  ASSERT_EQ(full.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(full.status().message()), HasSubstr("min_free_space"));
}

TEST_F(JobConfinementTest, MinFreeSpaceRefusesBeforeAnythingIsCreated) {
  policy_.min_free_space_bytes = uint64_t{1} << 62;  // more than any disk here
  JobSpec spec = Spec(root_ + "/target");
  absl::StatusOr<ConfinedJob> refused = ConfineJob(spec, policy_, "agent-1");
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("min_free_space"));
  EXPECT_FALSE(fs::exists(root_ + "/target/agent-1")) << "the subdirectory made is removed again";
}

TEST_F(JobConfinementTest, RunnerRefusesAndReportsRealPaths) {
  RunnerConfig config;
  config.agent_subdir = "agent-1";
  config.enforce_policy = true;
  config.policy = policy_;
  Runner runner(config);
  JobRequest outside{"o", "block_io", {{"directory", dir_.File("outside")}, {"size", "64k"}}};
  absl::StatusOr<PrepareOutcome> refused = runner.Prepare("r1", {outside}, 1'000'000'000);
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("not beneath any allowed root"));

  JobRequest inside{"i", "block_io", {{"directory", root_ + "/target"}, {"size", "64k"}}};
  absl::StatusOr<PrepareOutcome> ok = runner.Prepare("r2", {inside}, 1'000'000'000);
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_EQ(ok->files.size(), 1u);
  EXPECT_EQ(ok->files[0].path, root_ + "/target/agent-1/i.0.0");
  EXPECT_TRUE(fs::exists(root_ + "/target/agent-1/i.0.0"));
  ASSERT_TRUE(runner.Cleanup("r2", true).ok());
  EXPECT_FALSE(fs::exists(root_ + "/target/agent-1"));
}

// Every path piece a family job names stays beneath the confined directory: a large_stream's
// relative filename, a visibility probe's rel_dir, run_id (names its files) and read_dir.
class FamilyPathPiecesTest : public JobConfinementTest {
 protected:
  absl::Status Prepare(const std::string& workload,
                       std::vector<std::pair<std::string, std::string>> options) {
    RunnerConfig config;
    config.agent_subdir = "agent-1";
    config.enforce_policy = true;
    config.policy = policy_;
    Runner runner(config);
    JobRequest job{"p", workload, std::move(options)};
    absl::StatusOr<PrepareOutcome> outcome = runner.Prepare("run-1", {job}, 1'000'000'000);
    if (outcome.ok()) (void)runner.Cleanup("run-1", true);
    return outcome.status();
  }
  // Nothing was created outside the root, and the root holds no leftover.
  void ExpectNothingLeftBehind() {
    EXPECT_TRUE(testing::DirectoryNames(dir_.File("outside")).empty());
    EXPECT_EQ(testing::DirectoryNames(root_ + "/target"), std::vector<std::string>{});
  }
};

TEST_F(FamilyPathPiecesTest, ALargeStreamRelativeFilenameThatLeavesTheDirectoryIsRefused) {
  // From <root>/target/agent-1, three levels up is the temporary directory that holds `outside`.
  const absl::Status refused = Prepare("large_stream", {{"directory", root_ + "/target"},
                                                        {"filename", "../../../outside/escaped"},
                                                        {"size", "64k"},
                                                        {"bs", "64k"}});
  EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << refused;
  EXPECT_THAT(std::string(refused.message()), HasSubstr("job 'p': filename '../../../outside"));
  ExpectNothingLeftBehind();

  // A plain name stays allowed and lands in the agent's subdirectory.
  const absl::Status ok = Prepare(
      "large_stream",
      {{"directory", root_ + "/target"}, {"filename", "plain"}, {"size", "64k"}, {"bs", "64k"}});
  EXPECT_TRUE(ok.ok()) << ok;
  ExpectNothingLeftBehind();
}

// Sizes that wrap around 64 bits would pass the limits and min_free_space as small numbers.
TEST_F(FamilyPathPiecesTest, AMetadataWriteBytesTooLargeToBufferIsRefusedBeforeAnyLayout) {
  // 65536 files x 256t = 2^64: wrapped to 0 it passed the free-space check.
  const absl::Status refused = Prepare(
      "metadata", {{"directory", root_ + "/target"}, {"files", "65536"}, {"write_bytes", "256t"}});
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_THAT(std::string(refused.message()), HasSubstr("job 'p': write_bytes (256TiB)"));
  ExpectNothingLeftBehind();
}

TEST_F(FamilyPathPiecesTest, ASizeProductThatOverflowsIsRefusedNamingTheFactors) {
  // 16 files of 2^60 bytes = 2^64: wrapped to 0 it passed min_free_space and max_job_size.
  policy_.limits.max_job_size_bytes = 1 << 30;
  const absl::Status refused = Prepare(
      "small_files",
      {{"directory", root_ + "/target"}, {"files", "16"}, {"filesizes", "4k:1152921504606846976"}});
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_THAT(std::string(refused.message()),
              HasSubstr("job 'p': filesize x files x numjobs (1152921504606846976 x 16 x 1) does "
                        "not fit in 64 bits"));
  ExpectNothingLeftBehind();
}

TEST_F(FamilyPathPiecesTest, AVisibilityRelDirThatLeavesTheDirectoryIsRefused) {
  for (const std::string rel_dir : {"../../outside", "/etc", "a/../../b"}) {
    const absl::Status refused = Prepare("visibility", {{"probe", "export"},
                                                        {"bucket", "b"},
                                                        {"directory", root_ + "/target"},
                                                        {"rel_dir", rel_dir}});
    EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << rel_dir << ": " << refused;
    EXPECT_THAT(std::string(refused.message()), HasSubstr("rel_dir '" + rel_dir + "'"));
  }
  ExpectNothingLeftBehind();
}

TEST_F(FamilyPathPiecesTest, AVisibilityRunIdThatIsNotAPlainNameIsRefused) {
  for (const std::string run_id : {"../../outside/x", "a/b", ".."}) {
    const absl::Status refused = Prepare(
        "visibility",
        {{"probe", "client_to_client"}, {"directory", root_ + "/target"}, {"run_id", run_id}});
    EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << run_id << ": " << refused;
    EXPECT_THAT(std::string(refused.message()), HasSubstr("run_id '" + run_id + "'"));
  }
  ExpectNothingLeftBehind();
}

TEST_F(FamilyPathPiecesTest, AVisibilityReadDirOutsideTheRootsIsRefused) {
  const absl::Status refused = Prepare("visibility", {{"probe", "client_to_client"},
                                                      {"role", "reader"},
                                                      {"directory", root_ + "/target"},
                                                      {"read_dir", dir_.File("outside")}});
  EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << refused;
  EXPECT_THAT(std::string(refused.message()), HasSubstr("job 'p': read_dir: "));
  EXPECT_THAT(std::string(refused.message()), HasSubstr(dir_.File("outside")));
  ExpectNothingLeftBehind();
}

}  // namespace
}  // namespace azbench

namespace azbench {
namespace {

// fio's remote-execution and file-reading options (exec engine, triggers, pre/post commands, iolog
// replay, log and verify-state files) are not job options of azbench: they are refused, not
// ignored, so no request can make an agent run a command or read a file it names.
TEST(JobOptionsTest, NoOptionExecutesCommandsOrReadsNamedFiles) {
  for (const char* option :
       {"exec_prerun", "exec_postrun", "trigger", "trigger-remote", "trigger-file", "read_iolog",
        "replay_redirect", "write_iolog", "verify_state_load", "verify_state_save", "ioscheduler",
        "cgroup", "opendir", "include"}) {
    JobSpec spec;
    // fio's own options are refused (Unimplemented), the rest are no options at all (NotFound).
    const absl::StatusCode code = ApplyJobOption(spec, option, "/etc/shadow").code();
    EXPECT_TRUE(code == absl::StatusCode::kUnimplemented || code == absl::StatusCode::kNotFound)
        << option << ": " << code;
  }
  JobSpec spec;
  EXPECT_EQ(ApplyJobOption(spec, "ioengine", "exec").code(), absl::StatusCode::kInvalidArgument)
      << "not a built-in engine";
  spec.ioengine = "exec";  // set directly, as a peer could send it: Prepare refuses it too
  spec.size_bytes = 4096;
  spec.directory = "/var/tmp";
  EXPECT_FALSE(BlockIoJob::Prepare(spec).ok()) << "there is no exec engine";
}

// verify_dump writes in the current directory, which a serving agent's request has no say over.
TEST(JobOptionsTest, AServingAgentRefusesVerifyDump) {
  JobRequest request;
  request.name = "p";
  request.workload = "block_io";
  request.options = {{"rw", "read"}, {"size", "4k"}, {"verify", "crc32c"}, {"verify_dump", "1"}};
  const absl::Status refused = BlockIoFamily().Parse(request, FamilyContext{}).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_THAT(std::string(refused.message()),
              HasSubstr("verify_dump=1 is written by `azbench-agent run` only"));
  request.options.back().second = "0";
  EXPECT_TRUE(BlockIoFamily().Parse(request, FamilyContext{}).ok());
}

}  // namespace
}  // namespace azbench
