// A visibility probe through a serving agent's runner (allowed roots enforced) never follows a
// symlink beneath its directory: one planted at rel_dir, at a deeper component of it (the agent's
// subdirectory included), at a probe file's name or in a reader's read_dir is refused with the
// field and the path, and nothing outside the root is created, written, read or removed.
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "agent/runner/runner.h"
#include "agent/workloads/visibility/probe_content.h"
#include "common/clock.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

class Sink : public RunEventSink {
 public:
  bool OnStarted(int64_t) override { return true; }
  bool OnProgress(int64_t, uint64_t, uint64_t, int) override { return true; }
  bool OnInterval(const std::string&, int, const IntervalStats&) override { return true; }
  bool OnOpLog(const std::string&, int, const std::vector<OpRecord>&) override { return true; }
  bool OnResult(const JobResult& r) override {
    results.push_back(r.Clone());
    return true;
  }
  bool OnFinished(int64_t, bool) override { return true; }
  std::vector<JobResult> results;
};

class VisibilityConfinementTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    root_ = dir_.File("root");
    target_ = root_ + "/target";
    outside_ = dir_.File("outside");
    fs::create_directories(target_);
    fs::create_directories(outside_);
  }
  // A runner as the serving agent has it: roots enforced, agent subdirectory "agent-1".
  std::unique_ptr<Runner> MakeRunner() {
    RunnerConfig config;
    config.agent_subdir = "agent-1";
    config.enforce_policy = true;
    config.policy.allowed_roots = {root_};
    return std::make_unique<Runner>(config);
  }
  static JobRequest Export(const std::string& directory, const std::string& rel_dir) {
    // Nothing listens at the endpoint: a probe that got as far as S3 would time out.
    return JobRequest{"p",
                      "visibility",
                      {{"probe", "export"},
                       {"bucket", "b"},
                       {"directory", directory},
                       {"rel_dir", rel_dir},
                       {"trials", "1"},
                       {"poll_interval", "20ms"},
                       {"timeout", "200ms"},
                       {"s3_endpoint", "http://127.0.0.1:1"},
                       {"s3_path_style", "1"}}};
  }
  static JobRequest C2c(const std::string& directory,
                        std::vector<std::pair<std::string, std::string>> extra) {
    JobRequest job{"p",
                   "visibility",
                   {{"probe", "client_to_client"},
                    {"directory", directory},
                    {"trials", "3"},
                    {"spacing", "20ms"},
                    {"poll_interval", "10ms"},
                    {"timeout", "200ms"}}};
    for (auto& o : extra) job.options.push_back(std::move(o));
    return job;
  }
  absl::Status Prepare(const JobRequest& job) {
    std::unique_ptr<Runner> runner = MakeRunner();
    absl::StatusOr<PrepareOutcome> outcome = runner->Prepare("run-1", {job}, 1'000'000'000);
    if (outcome.ok()) (void)runner->Cleanup("run-1", true);
    return outcome.status();
  }
  // Prepares, lets `between` plant what it wants, runs and cleans up; the Run status.
  absl::Status PrepareAndRun(Runner& runner, const JobRequest& job, Sink& sink,
                             const std::function<void()>& between = {},
                             RunPlacement placement = {}) {
    absl::StatusOr<PrepareOutcome> prepared =
        runner.Prepare("run-1", {job}, 1'000'000'000, placement);
    if (!prepared.ok()) return prepared.status();
    if (between) between();
    absl::Status ran = runner.Run("run-1", RealtimeNanos() + 50'000'000, sink);
    EXPECT_TRUE(runner.Cleanup("run-1", true).ok());
    return ran;
  }
  std::vector<std::string> Outside() { return testing::DirectoryNames(outside_); }

  testing::TempDir dir_{testing::kDiskBase};
  std::string root_, target_, outside_;
};

TEST_F(VisibilityConfinementTest, ASymlinkAtRelDirIsRefusedNamingTheFieldAndThePath) {
  fs::create_directory_symlink(outside_, target_ + "/link");
  const absl::Status refused = Prepare(Export(target_, "link"));
  EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << refused;
  EXPECT_THAT(std::string(refused.message()),
              HasSubstr("job 'p': rel_dir 'link/agent-1': '" + target_ + "/link' is a symlink"));
  EXPECT_TRUE(Outside().empty()) << "the probe created something through the symlink";
}

TEST_F(VisibilityConfinementTest, ASymlinkAtADeeperComponentOfRelDirIsRefused) {
  // A component the user named...
  fs::create_directories(target_ + "/vis");
  fs::create_directory_symlink(outside_, target_ + "/vis/deeper");
  absl::Status refused = Prepare(Export(target_, "vis/deeper"));
  EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << refused;
  EXPECT_THAT(std::string(refused.message()),
              HasSubstr("rel_dir 'vis/deeper/agent-1': '" + target_ +
                        "/vis/deeper' is a symlink; a visibility probe does not follow symlinks"));
  // ...and the agent's own subdirectory beneath it.
  fs::create_directories(target_ + "/vis2");
  fs::create_directory_symlink(outside_, target_ + "/vis2/agent-1");
  refused = Prepare(Export(target_, "vis2"));
  EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << refused;
  EXPECT_THAT(std::string(refused.message()),
              HasSubstr("rel_dir 'vis2/agent-1': '" + target_ + "/vis2/agent-1' is a symlink"));
  EXPECT_TRUE(Outside().empty());
}

TEST_F(VisibilityConfinementTest, ASymlinkPlantedAfterPrepareIsRefusedWhenTheProbeRuns) {
  // What the export probe would write (and remove at its end) through the symlink.
  fs::create_directories(outside_ + "/agent-1");
  std::ofstream(outside_ + "/agent-1/run-1-export-0") << "not the probe's";
  std::unique_ptr<Runner> runner = MakeRunner();
  Sink sink;
  const absl::Status ran = PrepareAndRun(*runner, Export(target_, "azbench-visibility"), sink, [&] {
    fs::create_directory_symlink(outside_, target_ + "/azbench-visibility");
  });
  EXPECT_EQ(ran.code(), absl::StatusCode::kPermissionDenied) << ran;
  EXPECT_THAT(std::string(ran.message()), HasSubstr("rel_dir 'azbench-visibility/agent-1': '" +
                                                    target_ + "/azbench-visibility' is a symlink"));
  EXPECT_EQ(testing::FileContents(outside_ + "/agent-1/run-1-export-0"), "not the probe's");
  EXPECT_EQ(testing::DirectoryNames(outside_ + "/agent-1"),
            std::vector<std::string>{"run-1-export-0"});
}

TEST_F(VisibilityConfinementTest, ASymlinkAtAProbeFilesNameIsNeitherWrittenNorRemoved) {
  // The writer's first trial file, planted as a symlink to a file outside the root.
  std::ofstream(outside_ + "/victim") << "precious";
  fs::create_symlink(outside_ + "/victim", target_ + "/run-1-c2c-1");
  std::unique_ptr<Runner> runner = MakeRunner();
  Sink sink;
  const absl::Status ran = PrepareAndRun(*runner, C2c(target_, {}), sink);
  ASSERT_TRUE(ran.ok()) << ran;
  EXPECT_EQ(testing::FileContents(outside_ + "/victim"), "precious");
  ASSERT_EQ(sink.results.size(), 1u);
  const OpStats* probe = sink.results[0].Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 2u) << "the other trials still run";
  EXPECT_EQ(probe->errors, 1u) << "the refused trial failed";
}

TEST_F(VisibilityConfinementTest, AReaderNeverReadsThroughASymlinkInReadDir) {
  // The reader's view holds, under every probe name, a symlink to a file outside the root with
  // exactly the content the trial expects: followed, every trial would look visible.
  fs::create_directories(root_ + "/view");
  for (int seq = 1; seq <= 3; ++seq) {
    const std::string name = "run-1-c2c-" + std::to_string(seq);
    std::ofstream(outside_ + "/" + name) << MakeProbeContent(seq, 4096);
    fs::create_symlink(outside_ + "/" + name, root_ + "/view/" + name);
  }
  std::unique_ptr<Runner> runner = MakeRunner();
  Sink sink;
  const absl::Status ran =
      PrepareAndRun(*runner, C2c(target_, {{"read_dir", root_ + "/view"}}), sink, {},
                    RunPlacement{1, 2});  // agent index 1 of 2: a reader
  ASSERT_TRUE(ran.ok()) << ran;
  ASSERT_EQ(sink.results.size(), 1u);
  const OpStats* probe = sink.results[0].Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 0u) << "a trial was seen through a symlink";
  EXPECT_EQ(probe->errors, 3u);
  EXPECT_EQ(Outside().size(), 3u) << "a reader removed something";
}

}  // namespace
}  // namespace azbench
