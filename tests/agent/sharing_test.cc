// `sharing`: where two agents (two Runners with different agent subdirectories, as two agent
// processes on one shared file system) put a job's files, and that shared files are laid out once.
#include <sys/stat.h>

#include <filesystem>
#include <string>
#include <vector>

#include "agent/runner.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::TempDir;

std::vector<JobRequest> Job(const std::string& dir, const std::string& sharing) {
  JobRequest job;
  job.name = "w";
  job.options = {{"rw", "read"}, {"size", "256k"}, {"numjobs", "2"}, {"directory", dir}};
  if (!sharing.empty()) job.options.emplace_back("sharing", sharing);
  return {job};
}

std::vector<std::string> Paths(const PrepareOutcome& outcome) {
  std::vector<std::string> paths;
  for (const LaidOutFile& f : outcome.files) paths.push_back(f.path);
  return paths;
}

RunnerConfig Config(const std::string& agent) {
  RunnerConfig config;
  config.agent_subdir = agent;
  return config;
}

TEST(SharingTest, FilePerAgentIsTheDefaultAndUsesTheAgentSubdirectory) {
  TempDir dir(testing::kTmpfsBase);
  Runner a(Config("agent-a"));
  auto outcome = a.Prepare("r", Job(dir.path(), ""), 1'000'000'000);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  EXPECT_EQ(Paths(*outcome),
            (std::vector<std::string>{dir.File("agent-a/w.0.0"), dir.File("agent-a/w.1.0")}));
  ASSERT_TRUE(a.Cleanup("r", true).ok());
  EXPECT_FALSE(std::filesystem::exists(dir.File("agent-a")));
}

TEST(SharingTest, SharedDirPutsEveryAgentInTheDirectoryWithItsIdInTheFileNames) {
  TempDir dir(testing::kTmpfsBase);
  Runner a(Config("agent-a")), b(Config("agent-b"));
  auto pa = a.Prepare("r", Job(dir.path(), "shared-dir"), 1'000'000'000);
  auto pb = b.Prepare("r", Job(dir.path(), "shared-dir"), 1'000'000'000);
  ASSERT_TRUE(pa.ok()) << pa.status();
  ASSERT_TRUE(pb.ok()) << pb.status();
  EXPECT_EQ(Paths(*pa),
            (std::vector<std::string>{dir.File("agent-a.w.0.0"), dir.File("agent-a.w.1.0")}));
  EXPECT_EQ(Paths(*pb),
            (std::vector<std::string>{dir.File("agent-b.w.0.0"), dir.File("agent-b.w.1.0")}));
  ASSERT_TRUE(a.Cleanup("r", true).ok());
  ASSERT_TRUE(b.Cleanup("r", true).ok());
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
}

TEST(SharingTest, SharedFileLaysOutOnceAndTheSecondAgentUsesTheSameFiles) {
  TempDir dir(testing::kTmpfsBase);
  Runner a(Config("agent-a")), b(Config("agent-b"));
  // The coordinator prepares one agent first (coordinator/run.cc), then the others.
  auto pa = a.Prepare("r", Job(dir.path(), "shared-file"), 1'000'000'000);
  ASSERT_TRUE(pa.ok()) << pa.status();
  struct stat before;
  ASSERT_EQ(stat(dir.File("w.0.0").c_str(), &before), 0);
  EXPECT_EQ(before.st_size, 256 * 1024);
  auto pb = b.Prepare("r", Job(dir.path(), "shared-file"), 1'000'000'000);
  ASSERT_TRUE(pb.ok()) << pb.status();
  EXPECT_EQ(Paths(*pa), Paths(*pb));
  EXPECT_EQ(Paths(*pa)[0], dir.File("w.0.0"));
  EXPECT_TRUE(pa->files[0].created);
  EXPECT_FALSE(pb->files[0].created) << "found complete: not laid out again";
  EXPECT_FALSE(pb->files[0].extended);
  // Only the agent that created the files removes them.
  ASSERT_TRUE(b.Cleanup("r", true).ok());
  EXPECT_TRUE(std::filesystem::exists(dir.File("w.0.0")));
  ASSERT_TRUE(a.Cleanup("r", true).ok());
  EXPECT_FALSE(std::filesystem::exists(dir.File("w.0.0")));
}

TEST(SharingTest, AnUnknownSharingValueIsRefusedNamingTheAllowedOnes) {
  JobSpec spec;
  absl::Status s = ApplyJobOption(spec, "sharing", "per-node");
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(std::string(s.message()).find("file-per-agent, shared-dir, shared-file"),
            std::string::npos);
  ASSERT_TRUE(ApplyJobOption(spec, "sharing", "shared-dir").ok());
  EXPECT_EQ(spec.sharing, FileSharing::kSharedDir);
}

}  // namespace
}  // namespace azbench
