// Visibility probes from a campaign through the real coordinator and real agent processes on
// loopback: client_to_client across agents on a shared tmpfs directory (agent index 0 writes, the
// others read from the same scheduled instants), and the export probe against a real S3-protocol
// server (s3rver) fed by the test-only synchroniser fixture with a known delay.
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/local_fleet.h"
#include "coordinator/merge.h"
#include "coordinator/store.h"
#include "gtest/gtest.h"
#include "tests/testing/s3_sync_fixture.h"
#include "tests/testing/s3rver_fixture.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::Subprocess;
using testing::TempDir;

size_t CountEntries(const std::string& dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    ++n;
  }
  return n;
}

class VisibilityCampaignRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(shm_.ok());
    ASSERT_TRUE(empty_.ok());
  }

  void StartAgents(int n) {
    LocalFleetOptions options;
    options.agents = n;
    options.azs = {"az-a", "az-b"};
    options.agent_binary = AZBENCH_AGENT_BIN;
    options.work_root = dir_.File("agents");
    options.allowed_roots = {testing::kDiskBase, testing::kTmpfsBase};  // the campaigns' targets
    auto fleet = LocalFleet::Start(options);
    ASSERT_TRUE(fleet.ok()) << fleet.status();
    fleet_ = std::move(*fleet);
  }

  // Runs the campaign (target: the shared tmpfs dir) and returns its stored scenarios.
  std::vector<ScenarioResult> Run(const std::string& body) {
    const std::string path = dir_.File("campaign.yaml");
    {
      std::ofstream out(path);
      out << "name: vis\nfleet:\n  hosts: [" << absl::StrJoin(fleet_->addresses(), ", ")
          << "]\nresults: results.db\ntargets:\n  - {name: shm, path: " << shm_.path()
          << ", kind: local}\n"
          << body;
    }
    Subprocess azbench({AZBENCH_BIN, "run", path}, dir_.File("out.txt"));
    EXPECT_EQ(azbench.Wait(std::chrono::seconds(120)), 0) << azbench.Output();
    output_ = azbench.Output();
    auto store = Store::OpenExisting(dir_.File("results.db"));
    EXPECT_TRUE(store.ok()) << store.status();
    if (!store.ok()) return {};
    auto scenarios = (*store)->LoadScenarios();
    EXPECT_TRUE(scenarios.ok()) << scenarios.status();
    return scenarios.ok() ? std::move(*scenarios) : std::vector<ScenarioResult>{};
  }

  const JobResult* Find(const ScenarioResult& s, const std::string& agent) {
    for (const AgentJobResult& r : s.results) {
      if (r.agent_id == agent) return &r.result;
    }
    return nullptr;
  }

  TempDir dir_{testing::kDiskBase};
  TempDir shm_{testing::kTmpfsBase};
  TempDir empty_{testing::kTmpfsBase};
  std::unique_ptr<LocalFleet> fleet_;
  std::string output_;
};

TEST_F(VisibilityCampaignRunTest, ClientToClientAcrossAgentsCountsEveryTrialPerReader) {
  StartAgents(3);
  std::vector<ScenarioResult> scenarios =
      Run("workloads:\n"
          "  - name: c2c\n"
          "    workload: visibility\n"
          "    options: {probe: client_to_client, trials: 6, spacing: 100ms, poll_interval: 10ms,\n"
          "              timeout: 5s, read_method: open_read}\n");
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  ASSERT_EQ(s.scenario.agent_ids.size(), 3u);
  ASSERT_EQ(s.results.size(), 3u);
  // Agent index 0 wrote: its trials are writes, not visibility samples.
  const JobResult* writer = Find(s, s.scenario.agent_ids[0]);
  ASSERT_NE(writer, nullptr);
  EXPECT_EQ(writer->Find(OpKind::kProbe), nullptr);
  ASSERT_NE(writer->Find(OpKind::kWrite), nullptr);
  EXPECT_EQ(writer->Find(OpKind::kWrite)->ops, 6u);
  for (size_t i = 1; i < 3; ++i) {
    const JobResult* reader = Find(s, s.scenario.agent_ids[i]);
    ASSERT_NE(reader, nullptr) << i;
    const OpStats* probe = reader->Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr) << i;
    EXPECT_EQ(probe->ops, 6u) << "every trial seen by reader " << i;
    EXPECT_EQ(probe->errors, 0u);
    // On one local file system the file is there at the first poll after the write: the latency
    // is bounded by the poll interval plus scheduling slack.
    EXPECT_LT(probe->lat.max_ns(), 10'000'000u + 1'000'000'000u) << i;
    bool mount_noted = false;
    for (const std::string& w : reader->warnings) {
      mount_noted = mount_noted || w.rfind("mount ", 0) == 0;
    }
    EXPECT_TRUE(mount_noted) << "the reader's mount (options) is recorded beside its result";
  }
  // The scenario's probe distribution holds the 2 readers' 12 samples only.
  const ScenarioFigures figures = ComputeFigures(s);
  const OpFigures* probe = figures.Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 12u);
  EXPECT_NE(output_.find("probe"), std::string::npos) << output_;
  EXPECT_EQ(CountEntries(shm_.path()), 0u) << "the writer's files are removed at cleanup";
}

TEST_F(VisibilityCampaignRunTest, AReaderPollingAPathNeverWrittenCountsTimeouts) {
  StartAgents(2);
  std::vector<ScenarioResult> scenarios =
      Run(absl::StrCat("workloads:\n"
                       "  - name: c2c\n"
                       "    workload: visibility\n"
                       "    options: {probe: client_to_client, trials: 4, spacing: 50ms,\n"
                       "              poll_interval: 10ms, timeout: 200ms, read_dir: ",
                       empty_.path(), "}\n"));
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.results.size(), 2u) << s.status_detail;
  const JobResult* reader = Find(s, s.scenario.agent_ids[1]);
  ASSERT_NE(reader, nullptr);
  const OpStats* probe = reader->Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 0u);
  EXPECT_EQ(probe->errors, 4u) << "timed-out trials are counted, never dropped";
  bool counted = false;
  for (const std::string& w : reader->warnings) {
    counted = counted || w.find("0 of 4 trials visible, 4 timed out") != std::string::npos;
  }
  EXPECT_TRUE(counted);
  EXPECT_EQ(CountEntries(shm_.path()), 0u);
}

TEST_F(VisibilityCampaignRunTest, ExportProbeOnTwoAgentsMeasuresTheSynchronisersDelay) {
  testing::S3rverProcess server("vis-bucket");
  if (!server.installed()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  // The agents inherit these (environment credentials, the first in the chain).
  setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
  StartAgents(2);
  unsetenv("AWS_ACCESS_KEY_ID");
  unsetenv("AWS_SECRET_ACCESS_KEY");
  s3::S3Client fixture_client({.endpoint = server.endpoint(), .path_style = true},
                              testing::S3rverCredentials());
  testing::S3SyncFixtureOptions sync_options;
  sync_options.dir = shm_.path();
  sync_options.bucket = "vis-bucket";
  sync_options.export_inactivity = absl::Milliseconds(400);
  sync_options.import_delay = absl::Seconds(60);  // nothing to import in this test
  std::vector<ScenarioResult> scenarios;
  {
    testing::S3SyncFixture sync(&fixture_client, sync_options);
    scenarios = Run(
        absl::StrCat("workloads:\n"
                     "  - name: export\n"
                     "    workload: visibility\n"
                     "    options: {probe: export, bucket: vis-bucket, trials: 3, spacing: 100ms,\n"
                     "              poll_interval: 50ms, timeout: 20s, s3_endpoint: \"",
                     server.endpoint(), "\", s3_path_style: 1}\n"));
    EXPECT_EQ(sync.last_error(), "");
  }
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  ASSERT_EQ(s.results.size(), 2u);
  for (const std::string& agent : s.scenario.agent_ids) {
    const JobResult* r = Find(s, agent);
    ASSERT_NE(r, nullptr) << agent;
    const OpStats* probe = r->Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr) << agent << ": " << absl::StrJoin(r->warnings, "; ");
    EXPECT_EQ(probe->ops, 3u) << agent << ": " << absl::StrJoin(r->warnings, "; ");
    EXPECT_EQ(probe->errors, 0u) << agent;
    // Each agent probed its own key space (rel_dir azbench-visibility/<agent id>).
    EXPECT_TRUE(fs::exists(fs::path(shm_.path()) / "azbench-visibility" / agent)) << agent;
    // Not before the fixture's inactivity window; after it within a poll interval, the fixture's
    // tick and the S3 calls (generous slack for a loaded 2-core machine).
    EXPECT_GE(probe->lat.min_ns(), 400'000'000u) << agent;
    EXPECT_LT(probe->lat.max_ns(), 400'000'000u + 50'000'000u + 2'000'000'000u) << agent;
  }
}

}  // namespace
}  // namespace azbench
