// S3 visibility probes from a campaign through the real coordinator and real agent processes on
// loopback: the export, import, append and conflict probes against a real S3-protocol server
// (s3rver) fed by the test-only synchroniser fixture on a shared tmpfs directory (the "mount") with
// known delays. Every test checks that the probes left no file on the mount and no object in the
// bucket, and the reports show each probe per reader. The client-to-client probes are in
// visibility_c2c_test.cc; the fixture in tests/testing/visibility_campaign_fixture.h.
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "gtest/gtest.h"
#include "tests/testing/s3_sync_fixture.h"
#include "tests/testing/s3rver_fixture.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/visibility_campaign_fixture.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::HasWarning;
using testing::RegularFiles;
using testing::Subprocess;
using testing::VisibilityCampaignRunTest;

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
    // Not before the fixture's inactivity window; after it within a poll interval, the fixture's
    // tick and the S3 calls (generous slack for a loaded 2-core machine).
    EXPECT_GE(probe->lat.min_ns(), 400'000'000u) << agent;
    EXPECT_LT(probe->lat.max_ns(), 400'000'000u + 50'000'000u + 2'000'000'000u) << agent;
  }
  // The probes removed their files and the exported objects.
  EXPECT_EQ(RegularFiles(shm_.path()), std::vector<std::string>{});
  absl::StatusOr<std::vector<s3::ObjectSummary>> objects =
      fixture_client.ListObjectsV2("vis-bucket", "");
  ASSERT_TRUE(objects.ok()) << objects.status();
  EXPECT_EQ(objects->size(), 0u);
  ExpectReportedPerReader(s, "export");
}

// The S3 probes: a real s3rver, the synchroniser fixture on the shared tmpfs directory (the
// "mount"), two agents each probing its own key space.
class S3VisibilityCampaignTest : public VisibilityCampaignRunTest {
 protected:
  static constexpr char kBucket[] = "vis-bucket";

  std::vector<ScenarioResult> RunWithSync(testing::S3SyncFixtureOptions sync_options,
                                          const std::string& workload) {
    server_ = std::make_unique<testing::S3rverProcess>(kBucket);
    if (!server_->installed()) {
      skipped_ = server_->error();
      return {};
    }
    EXPECT_TRUE(server_->ok()) << server_->error();
    StartAgents(2, {{"AWS_ACCESS_KEY_ID=S3RVER", "AWS_SECRET_ACCESS_KEY=S3RVER"},
                    {"AWS_ACCESS_KEY_ID=S3RVER", "AWS_SECRET_ACCESS_KEY=S3RVER"}});
    client_ = std::make_unique<s3::S3Client>(
        s3::S3ClientOptions{.endpoint = server_->endpoint(), .path_style = true},
        testing::S3rverCredentials());
    sync_options.dir = shm_.path();
    sync_options.bucket = kBucket;
    std::vector<ScenarioResult> scenarios;
    {
      testing::S3SyncFixture sync(client_.get(), sync_options);
      scenarios = Run(absl::StrCat("workloads:\n", workload, "      s3_endpoint: \"",
                                   server_->endpoint(), "\", s3_path_style: 1}\n"));
      sync_error_ = sync.last_error();
    }
    return scenarios;
  }

  // What the probes left behind: regular files on the mount and objects in the bucket.
  void ExpectNothingLeft() {
    EXPECT_EQ(RegularFiles(shm_.path()), std::vector<std::string>{});
    EXPECT_FALSE(fs::exists(fs::path(shm_.path()) / "azbench-visibility"));
    absl::StatusOr<std::vector<s3::ObjectSummary>> objects = client_->ListObjectsV2(kBucket, "");
    ASSERT_TRUE(objects.ok()) << objects.status();
    std::vector<std::string> keys;
    for (const s3::ObjectSummary& o : *objects) keys.push_back(o.key);
    EXPECT_EQ(keys, std::vector<std::string>{});
  }

  std::unique_ptr<testing::S3rverProcess> server_;
  std::unique_ptr<s3::S3Client> client_;
  std::string skipped_;
  std::string sync_error_;
};

TEST_F(S3VisibilityCampaignTest, ImportProbeMeasuresTheSynchronisersImportDelayAndCleansUp) {
  testing::S3SyncFixtureOptions sync;
  sync.export_inactivity = absl::Seconds(60);  // nothing is exported in this test
  sync.import_delay = absl::Milliseconds(300);
  std::vector<ScenarioResult> scenarios =
      RunWithSync(sync,
                  "  - name: import\n"
                  "    workload: visibility\n"
                  "    options: {probe: import, bucket: vis-bucket, trials: 3, spacing: 100ms,\n"
                  "      poll_interval: 50ms, timeout: 20s,\n");
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  ASSERT_EQ(s.results.size(), 2u);
  for (const std::string& agent : s.scenario.agent_ids) {
    const JobResult* r = Find(s, agent);
    ASSERT_NE(r, nullptr) << agent;
    const OpStats* probe = r->Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr) << agent;
    EXPECT_EQ(probe->ops, 3u) << agent << ": " << absl::StrJoin(r->warnings, "; ");
    EXPECT_EQ(probe->errors, 0u) << agent;
    // Not before the import delay; after it within a poll interval, the fixture's tick, its S3
    // calls and slack for a loaded machine.
    EXPECT_GE(probe->lat.min_ns(), 300'000'000u) << agent;
    EXPECT_LT(probe->lat.max_ns(), 300'000'000u + 50'000'000u + 2'000'000'000u) << agent;
    EXPECT_TRUE(HasWarning(*r, "3 of 3 trials visible, 0 timed out"));
    EXPECT_FALSE(HasWarning(*r, "cleanup left")) << absl::StrJoin(r->warnings, "; ");
  }
  EXPECT_EQ(sync_error_, "");
  ExpectNothingLeft();
  ExpectReportedPerReader(s, "import");
}

TEST_F(S3VisibilityCampaignTest, AppendProbeTimesTheLastAppendToS3AndRecordsTheTimeline) {
  testing::S3SyncFixtureOptions sync;
  sync.export_inactivity = absl::Milliseconds(300);
  sync.import_delay = absl::Seconds(60);
  std::vector<ScenarioResult> scenarios =
      RunWithSync(sync,
                  "  - name: append\n"
                  "    workload: visibility\n"
                  "    options: {probe: append, bucket: vis-bucket, append_interval: 100ms,\n"
                  "      append_duration: 300ms, poll_interval: 50ms, timeout: 20s,\n");
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  for (const std::string& agent : s.scenario.agent_ids) {
    const JobResult* r = Find(s, agent);
    ASSERT_NE(r, nullptr) << agent;
    const OpStats* probe = r->Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr) << agent;
    EXPECT_EQ(probe->ops, 1u) << agent << ": " << absl::StrJoin(r->warnings, "; ");
    EXPECT_EQ(probe->errors, 0u) << agent;
    // The synchroniser exports 300 ms after the last append (the file's last write).
    EXPECT_GE(probe->lat.min_ns(), 300'000'000u - 20'000'000u) << agent;
    EXPECT_LT(probe->lat.max_ns(), 300'000'000u + 50'000'000u + 2'000'000'000u) << agent;
    // The timeline: the 4 appends and the S3 state that matched, then the version listing.
    int appends = 0;
    for (const std::string& w : r->warnings) appends += w.find(" append: seq=") != w.npos;
    EXPECT_EQ(appends, 4) << absl::StrJoin(r->warnings, "; ");
    EXPECT_TRUE(HasWarning(*r, " s3_version: size="));
    EXPECT_TRUE(HasWarning(*r, " versions: ")) << absl::StrJoin(r->warnings, "; ");
  }
  EXPECT_EQ(sync_error_, "");
  ExpectNothingLeft();
  ExpectReportedPerReader(s, "append");
}

TEST_F(S3VisibilityCampaignTest, ConflictProbeSeesS3WinWithTheFileSystemCopyInLostAndFound) {
  testing::S3SyncFixtureOptions sync;
  sync.export_inactivity = absl::Seconds(30);  // the FS write is never exported: a conflict
  sync.import_delay = absl::Milliseconds(300);
  std::vector<ScenarioResult> scenarios = RunWithSync(
      sync,
      "  - name: conflict\n"
      "    workload: visibility\n"
      "    options: {probe: conflict, bucket: vis-bucket, trials: 2, put_delay: 200ms,\n"
      "      poll_interval: 50ms, timeout: 20s,\n");
  if (!skipped_.empty()) GTEST_SKIP() << skipped_;
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  for (const std::string& agent : s.scenario.agent_ids) {
    const JobResult* r = Find(s, agent);
    ASSERT_NE(r, nullptr) << agent;
    const std::string warnings = absl::StrJoin(r->warnings, "\n");
    const OpStats* probe = r->Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr) << agent;
    EXPECT_EQ(probe->ops, 2u) << agent << ": " << warnings;
    EXPECT_EQ(probe->errors, 0u) << agent;
    // From PutObject to the FS showing S3's content: the import delay, within the resolution.
    EXPECT_GE(probe->lat.min_ns(), 300'000'000u) << agent;
    EXPECT_LT(probe->lat.max_ns(), 300'000'000u + 50'000'000u + 2'000'000'000u) << agent;
    // Both trials found their own FS version (seq 1, seq 3; the other agent's copies have the same
    // names) in the fixture's lost+found directory, and recorded the S3 states and versions.
    EXPECT_FALSE(HasWarning(*r, "no copy in a lost+found")) << warnings;
    EXPECT_TRUE(HasWarning(*r, "trial 0 ")) << warnings;
    int lost_found = 0, versions = 0;
    for (const std::string& w : r->warnings) {
      if (w.find(" lost_found: ") != w.npos &&
          w.find(".s3files-lost+found-fixture/azbench-visibility/" + agent + "/") != w.npos &&
          (w.find(" seq=1") != w.npos || w.find(" seq=3") != w.npos)) {
        ++lost_found;
      }
      versions += w.find(" versions: ") != w.npos;
    }
    EXPECT_EQ(lost_found, 2) << warnings;
    EXPECT_EQ(versions, 2) << warnings;
    EXPECT_TRUE(HasWarning(*r, " s3_put: seq=2 etag=")) << warnings;
    EXPECT_TRUE(HasWarning(*r, " fs_content: seq=2")) << warnings;
  }
  EXPECT_EQ(sync_error_, "");
  ExpectNothingLeft();  // the lost+found copies too: they are the probe's own files
  ExpectReportedPerReader(s, "conflict");
}

TEST_F(S3VisibilityCampaignTest, AnInterruptedExportCampaignLeavesNoFileAndNoObjectBehind) {
  server_ = std::make_unique<testing::S3rverProcess>(kBucket);
  if (!server_->installed()) GTEST_SKIP() << server_->error();
  ASSERT_TRUE(server_->ok()) << server_->error();
  StartAgents(2, {{"AWS_ACCESS_KEY_ID=S3RVER", "AWS_SECRET_ACCESS_KEY=S3RVER"},
                  {"AWS_ACCESS_KEY_ID=S3RVER", "AWS_SECRET_ACCESS_KEY=S3RVER"}});
  client_ = std::make_unique<s3::S3Client>(
      s3::S3ClientOptions{.endpoint = server_->endpoint(), .path_style = true},
      testing::S3rverCredentials());
  testing::S3SyncFixtureOptions sync_options;
  sync_options.dir = shm_.path();
  sync_options.bucket = kBucket;
  sync_options.export_inactivity = absl::Milliseconds(200);
  sync_options.import_delay = absl::Seconds(60);
  auto sync = std::make_unique<testing::S3SyncFixture>(client_.get(), sync_options);
  // 100 trials would take 10 s and more: the run is interrupted once objects were exported.
  Subprocess azbench(
      {AZBENCH_BIN, "run",
       WriteCampaign(absl::StrCat(
           "workloads:\n"
           "  - name: export\n"
           "    workload: visibility\n"
           "    options: {probe: export, bucket: vis-bucket, trials: 100, spacing: 100ms,\n"
           "      poll_interval: 50ms, timeout: 60s, s3_endpoint: \"",
           server_->endpoint(), "\", s3_path_style: 1}\n"))},
      dir_.File("out.txt"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (sync->exports() < 4 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_GE(sync->exports(), 4) << azbench.Output();
  sync.reset();  // no export may race the probes' cleanup from here on
  azbench.Signal(SIGINT);
  ASSERT_NE(azbench.Wait(std::chrono::seconds(60)), -1) << azbench.Output();
  std::vector<ScenarioResult> scenarios = Stored();
  ASSERT_EQ(scenarios.size(), 1u) << azbench.Output();
  const ScenarioResult& s = scenarios[0];
  EXPECT_EQ(s.status, ScenarioStatus::kPartial) << s.status_detail;
  for (const AgentJobResult& r : s.results) {
    const OpStats* probe = r.result.Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr) << r.agent_id;
    EXPECT_GT(probe->ops, 0u) << r.agent_id;
    EXPECT_GT(probe->errors, 0u) << r.agent_id << ": cancelled trials are counted";
  }
  ExpectNothingLeft();
}

}  // namespace
}  // namespace azbench
