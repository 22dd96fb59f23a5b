// The `visibility` workload through the runner: two Runners stand for two agents of one scenario
// (agent index 0 writes, index 1 reads) on a shared tmpfs directory, as the service would run them.
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <thread>

#include "agent/host/imds_metadata_source.h"
#include "agent/runner/runner.h"
#include "agent/workloads/visibility/probe_content.h"
#include "agent/workloads/visibility/visibility_spec.h"
#include "common/clock.h"
#include "common/workload_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::TempDir;

class CollectingSink : public RunEventSink {
 public:
  bool OnStarted(int64_t) override { return true; }
  bool OnProgress(int64_t, uint64_t, uint64_t, int) override { return true; }
  bool OnInterval(const std::string&, int, const IntervalStats&) override { return true; }
  bool OnOpLog(const std::string& job, int, const std::vector<OpRecord>& r) override {
    EXPECT_EQ(job, "c2c");
    records.insert(records.end(), r.begin(), r.end());
    return true;
  }
  bool OnResult(const JobResult& r) override {
    results.push_back(r.Clone());
    return true;
  }
  bool OnFinished(int64_t, bool) override { return true; }
  std::vector<JobResult> results;
  std::vector<OpRecord> records;
};

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::recursive_directory_iterator(dir)) ++n;
  return n;
}

JobRequest C2c(const std::string& dir, std::vector<std::pair<std::string, std::string>> extra) {
  JobRequest job;
  job.name = "c2c";
  job.workload = "visibility";
  job.options = {{"probe", "client_to_client"}, {"trials", "5"},   {"spacing", "50ms"},
                 {"poll_interval", "5ms"},      {"timeout", "2s"}, {"directory", dir}};
  for (auto& o : extra) job.options.push_back(std::move(o));
  return job;
}

// Prepares `jobs[i]` on runner i (agent index i of jobs.size()), runs them all from one start
// instant and returns each agent's sink.
std::vector<CollectingSink> RunAgents(const std::vector<JobRequest>& jobs, const std::string& run,
                                      bool remove_files = true) {
  std::vector<std::unique_ptr<Runner>> runners;
  for (size_t i = 0; i < jobs.size(); ++i) {
    RunnerConfig config;
    config.agent_subdir = "agent-" + std::to_string(i);
    runners.push_back(std::make_unique<Runner>(config));
    RunPlacement placement{static_cast<int>(i), static_cast<int>(jobs.size())};
    auto prepared = runners[i]->Prepare(run, {jobs[i]}, 1'000'000'000, placement);
    EXPECT_TRUE(prepared.ok()) << prepared.status();
    if (!prepared.ok()) return {};
  }
  std::vector<CollectingSink> sinks(jobs.size());
  const int64_t start = RealtimeNanos() + 100'000'000;
  std::vector<std::thread> threads;
  for (size_t i = 0; i < jobs.size(); ++i) {
    threads.emplace_back([&, i] { EXPECT_TRUE(runners[i]->Run(run, start, sinks[i]).ok()); });
  }
  for (auto& t : threads) t.join();
  for (auto& r : runners) EXPECT_TRUE(r->Cleanup(run, remove_files).ok());
  return sinks;
}

TEST(VisibilityRunnerTest, AgentZeroWritesAndTheOthersReadTheSameFiles) {
  TempDir dir(testing::kTmpfsBase);
  std::vector<CollectingSink> sinks =
      RunAgents({C2c(dir.path(), {}), C2c(dir.path(), {}), C2c(dir.path(), {})}, "run-a");
  ASSERT_EQ(sinks.size(), 3u);
  // Writer: its trials are writes, not visibility.
  ASSERT_EQ(sinks[0].results.size(), 1u);
  const JobResult& writer = sinks[0].results[0];
  EXPECT_EQ(writer.name, "c2c");
  EXPECT_EQ(writer.Find(OpKind::kProbe), nullptr);
  ASSERT_NE(writer.Find(OpKind::kWrite), nullptr);
  EXPECT_EQ(writer.Find(OpKind::kWrite)->ops, 5u);
  ASSERT_EQ(sinks[0].records.size(), 5u);
  for (const OpRecord& r : sinks[0].records) EXPECT_EQ(r.kind, OpKind::kWrite);
  // Readers: every trial seen, from the same start instant, within the timeout.
  for (int reader : {1, 2}) {
    ASSERT_EQ(sinks[reader].results.size(), 1u);
    const JobResult& r = sinks[reader].results[0];
    const OpStats* probe = r.Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr) << reader;
    EXPECT_EQ(probe->ops, 5u) << reader;
    EXPECT_EQ(probe->errors, 0u) << reader;
    EXPECT_LT(probe->lat.max_ns(), 2'000'000'000u) << reader;
    ASSERT_EQ(sinks[reader].records.size(), 5u);
    for (const OpRecord& rec : sinks[reader].records) {
      EXPECT_EQ(rec.kind, OpKind::kProbe);
      EXPECT_EQ(rec.error, 0);
    }
    bool role_noted = false;
    for (const std::string& w : r.warnings) {
      role_noted = role_noted || w.find("client_to_client reader (agent index") != w.npos;
    }
    EXPECT_TRUE(role_noted);
  }
  EXPECT_EQ(FilesIn(dir.path()), 0u) << "the writer's files go at cleanup";
}

TEST(VisibilityRunnerTest, AReaderPollingAPathNeverWrittenCountsEveryTrialAsTimedOut) {
  TempDir dir(testing::kTmpfsBase);
  TempDir elsewhere(testing::kTmpfsBase);
  std::vector<CollectingSink> sinks =
      RunAgents({C2c(dir.path(), {{"timeout", "100ms"}}),
                 C2c(dir.path(), {{"timeout", "100ms"}, {"read_dir", elsewhere.path()}})},
                "run-b");
  ASSERT_EQ(sinks.size(), 2u);
  ASSERT_EQ(sinks[1].results.size(), 1u);
  const OpStats* probe = sinks[1].results[0].Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 0u);
  EXPECT_EQ(probe->errors, 5u) << "timed-out trials are counted, never dropped";
  ASSERT_EQ(sinks[1].records.size(), 5u);
  for (const OpRecord& r : sinks[1].records) EXPECT_EQ(r.error, ETIMEDOUT);
}

TEST(VisibilityRunnerTest, AUserRunIdStillGivesEveryRunItsOwnNames) {
  // What an earlier repeat with run_id=mine left in the reader's view: its files, with the
  // content each trial expects. A new run must not take them for its own trials.
  TempDir dir(testing::kTmpfsBase);
  TempDir elsewhere(testing::kTmpfsBase);
  for (uint64_t seq = 1; seq <= 5; ++seq) {
    std::ofstream(elsewhere.path() + "/mine-c2c-" + std::to_string(seq))
        << MakeProbeContent(seq, 4096);
  }
  std::vector<CollectingSink> sinks = RunAgents(
      {C2c(dir.path(), {{"timeout", "100ms"}, {"run_id", "mine"}}),
       C2c(dir.path(), {{"timeout", "100ms"}, {"run_id", "mine"}, {"read_dir", elsewhere.path()}})},
      "run-c");
  ASSERT_EQ(sinks.size(), 2u);
  ASSERT_EQ(sinks[1].results.size(), 1u);
  const OpStats* probe = sinks[1].results[0].Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 0u) << "an earlier run's leftovers were seen as this run's trials";
  EXPECT_EQ(probe->errors, 5u);
  // The writer's files carry both ids (and went at cleanup).
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

TEST(VisibilityRunnerTest, BadOptionsFailPrepareNamingTheJob) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  JobRequest job = C2c(dir.path(), {{"read_method", "peek"}});
  auto prepared = runner.Prepare("run-c", {job}, 1'000'000'000);
  ASSERT_EQ(prepared.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(prepared.status().message().find("job 'c2c'"), std::string::npos) << prepared.status();
  EXPECT_NE(prepared.status().message().find("read_method"), std::string::npos);
  JobRequest s3;
  s3.name = "export";
  s3.workload = "visibility";
  s3.options = {{"probe", "export"}, {"directory", dir.path()}};
  prepared = runner.Prepare("run-d", {s3}, 1'000'000'000);
  EXPECT_NE(prepared.status().message().find("needs option bucket"), std::string::npos)
      << prepared.status();
}

// The coordinator's check (common/) and the agent's parser agree on what is valid, so a campaign
// that plans is one every agent accepts.
TEST(VisibilityOptionsTest, TheCoordinatorsCheckAndTheAgentsParserAgree) {
  using Options = std::vector<std::pair<std::string, std::string>>;
  const std::vector<Options> cases = {
      {{"probe", "client_to_client"}},
      {{"probe", "export"}, {"bucket", "b"}, {"trials", "3"}, {"spacing", "0s"}},
      {{"probe", "import"}, {"bucket", "b"}, {"read_method", "readdir"}, {"size", "8k"}},
      {{"probe", "append"}, {"bucket", "b"}, {"append_interval", "1s"}, {"s3_path_style", "1"}},
      {{"probe", "conflict"}, {"bucket", "b"}, {"put_delay", "2s"}, {"s3_region", "eu-west-1"}},
      {{"probe", "client_to_client"}, {"role", "reader"}, {"fsync", "0"}, {"close", "yes"}},
      {{"probe", "export"}},
      {{"bucket", "b"}},
      {{"probe", "warp"}},
      {{"probe", "client_to_client"}, {"trials", "0"}},
      {{"probe", "client_to_client"}, {"timeout", "0s"}},
      {{"probe", "client_to_client"}, {"spacing", "-1s"}},
      {{"probe", "client_to_client"}, {"poll_interval", "fast"}},
      {{"probe", "client_to_client"}, {"size", "big"}},
      {{"probe", "client_to_client"}, {"role", "both"}},
      {{"probe", "client_to_client"}, {"read_method", "mmap"}},
      {{"probe", "client_to_client"}, {"rename_into_place", "perhaps"}},
      {{"probe", "client_to_client"}, {"iodepth", "4"}},
      {{"probe", "export"}, {"bucket", "b"}, {"key_prefix", "data"}},
      {{"probe", "export"}, {"bucket", "b"}, {"key_prefix", "data/"}},
      {{"probe", "append"}, {"bucket", "b"}, {"trials", "3"}},
      {{"probe", "export"}, {"bucket", "b"}, {"fsync", "0"}},
      {{"probe", "import"}, {"bucket", "b"}, {"read_dir", "/m"}},
      {{"probe", "conflict"}, {"bucket", "b"}, {"put_delay", "10s"}, {"timeout", "10s"}},
      {{"probe", "conflict"}, {"bucket", "b"}, {"put_delay", "1s"}, {"timeout", "10s"}},
  };
  for (const Options& options : cases) {
    std::string text;
    for (const auto& [k, v] : options) text += k + "=" + v + " ";
    EXPECT_EQ(ValidateVisibilityOptions(options).ok(), ParseVisibilityOptions(options).ok())
        << text;
  }
}

class FakeMetadataClient : public MetadataClient {
 public:
  absl::StatusOr<std::string> Get(const std::string& path) override {
    asked = path;
    if (disabled) return absl::FailedPreconditionError("IMDS is disabled");
    return std::string("role-a");
  }
  std::string endpoint() const override { return "http://127.0.0.1:1"; }
  std::string asked;
  bool disabled = false;
};

TEST(ImdsMetadataSourceTest, StripsTheLatestPrefixAndReportsADisabledServiceAsUnavailable) {
  FakeMetadataClient client;
  ImdsMetadataSource source(&client);
  auto body = source.Get("/latest/meta-data/iam/security-credentials/");
  ASSERT_TRUE(body.ok()) << body.status();
  EXPECT_EQ(*body, "role-a");
  EXPECT_EQ(client.asked, "meta-data/iam/security-credentials/");
  client.disabled = true;
  EXPECT_EQ(source.Get("/latest/meta-data/x").status().code(), absl::StatusCode::kUnavailable);
  ImdsMetadataSource none(nullptr);
  EXPECT_EQ(none.Get("/latest/meta-data/x").status().code(), absl::StatusCode::kUnavailable);
}

}  // namespace
}  // namespace azbench
