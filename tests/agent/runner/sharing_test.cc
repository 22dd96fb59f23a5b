// `sharing`: where two agents (two Runners with different agent subdirectories, as two agent
// processes on one shared file system) put a job's files, and that shared files are laid out once.
#include <sys/stat.h>

#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/runner/runner.h"
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
  // The coordinator prepares one agent first (coordinator/run/run_prepare.cc), then the others.
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

// Offsets of the first `count` ops of agent `index` of `count_agents` running job `rw` on `dir`.
std::vector<uint64_t> Offsets(const std::string& dir, const std::string& sharing,
                              const std::string& rw, int index, int count_agents) {
  Runner runner(Config(absl::StrCat("agent-", index)));
  JobRequest job;
  job.name = "w";
  job.options = {{"rw", rw},      {"size", "256k"},   {"bs", "4k"},
                 {"op_log", "1"}, {"directory", dir}, {"sharing", sharing}};
  auto prepared = runner.Prepare("r", {job}, 1'000'000'000, RunPlacement{index, count_agents});
  EXPECT_TRUE(prepared.ok()) << prepared.status();
  if (!prepared.ok()) return {};
  struct Sink : RunEventSink {
    bool OnStarted(int64_t) override { return true; }
    bool OnProgress(int64_t, uint64_t, uint64_t, int) override { return true; }
    bool OnInterval(const std::string&, int, const IntervalStats&) override { return true; }
    bool OnOpLog(const std::string&, int, const std::vector<OpRecord>& records) override {
      for (const OpRecord& r : records) offsets.push_back(r.offset_bytes);
      return true;
    }
    bool OnResult(const JobResult&) override { return true; }
    bool OnFinished(int64_t, bool) override { return true; }
    std::vector<uint64_t> offsets;
  } sink;
  EXPECT_TRUE(runner.Run("r", 0, sink).ok());
  EXPECT_TRUE(runner.Cleanup("r", true).ok());
  return sink.offsets;
}

// Agents sharing a file must not touch the same blocks in lockstep (a shared cache would serve
// all but the first): each agent draws its own random order, and sequential agents start k/n of
// the way into the file. With their own files, every agent keeps fio's sequence for randseed.
TEST(SharingTest, AgentsSharingAFileUseTheirOwnOffsets) {
  TempDir dir(testing::kTmpfsBase);
  const std::vector<uint64_t> random0 = Offsets(dir.path(), "shared-file", "randread", 0, 2);
  const std::vector<uint64_t> random1 = Offsets(dir.path(), "shared-file", "randread", 1, 2);
  ASSERT_EQ(random0.size(), 64u);
  ASSERT_EQ(random1.size(), 64u);
  EXPECT_NE(random0, random1);
  // Each is still a permutation of the file's 64 blocks.
  EXPECT_EQ(std::set<uint64_t>(random1.begin(), random1.end()).size(), 64u);

  const std::vector<uint64_t> seq1 = Offsets(dir.path(), "shared-file", "read", 1, 2);
  ASSERT_EQ(seq1.size(), 64u);
  EXPECT_EQ(seq1.front(), 128u * 1024);
  EXPECT_EQ(seq1[31], 252u * 1024);
  EXPECT_EQ(seq1[32], 0u) << "wraps around to cover the whole file";

  const std::vector<uint64_t> own0 = Offsets(dir.path(), "file-per-agent", "randread", 0, 2);
  const std::vector<uint64_t> own1 = Offsets(dir.path(), "file-per-agent", "randread", 1, 2);
  EXPECT_EQ(own0, own1);
  EXPECT_EQ(own0, random0) << "agent 0 keeps randseed's sequence";
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));
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
