// Visibility probes from a campaign through the real coordinator and real agent processes on
// loopback: client_to_client across agents on a shared tmpfs directory (agent index 0 writes, the
// others read from the same scheduled instants; joined on the coordinator clock, also with a
// reader whose clock is seconds off, and with a known delay injected by a mirror fixture), and
// the export, import, append and conflict probes against a real S3-protocol server (s3rver) fed by
// the test-only synchroniser fixture with known delays. Every test checks that the probes left no
// file on the mount and no object in the bucket, and the reports show each probe per reader.
#include <cerrno>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/fleet.h"
#include "coordinator/local_fleet.h"
#include "coordinator/merge.h"
#include "coordinator/run.h"
#include "coordinator/store.h"
#include "gtest/gtest.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/s3_sync_fixture.h"
#include "tests/testing/s3rver_fixture.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::CountEntries;
using testing::Subprocess;
using testing::TempDir;

// Regular files under `dir` (directories made by the synchroniser fixture do not count).
std::vector<std::string> RegularFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir, ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  }
  return files;
}

bool HasWarning(const JobResult& r, const std::string& text) {
  for (const std::string& w : r.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

class VisibilityCampaignRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(shm_.ok());
    ASSERT_TRUE(empty_.ok());
  }

  void StartAgents(int n, std::vector<std::vector<std::string>> agent_env = {}) {
    fleet_ = testing::StartLoopbackAgents(n, dir_.File("agents"),
                                          {testing::kDiskBase, testing::kTmpfsBase},
                                          {"az-a", "az-b"}, std::move(agent_env));
    ASSERT_NE(fleet_, nullptr);
  }

  // Runs the campaign (target: the shared tmpfs dir) and returns its stored scenarios.
  std::string WriteCampaign(const std::string& body) {
    const std::string path = dir_.File("campaign.yaml");
    std::ofstream out(path);
    out << testing::CampaignHead("vis", fleet_->addresses())
        << "targets:\n  - {name: shm, path: " << shm_.path() << ", kind: local}\n"
        << body;
    return path;
  }

  std::vector<ScenarioResult> Run(const std::string& body) {
    Subprocess azbench({AZBENCH_BIN, "run", WriteCampaign(body)}, dir_.File("out.txt"));
    EXPECT_EQ(azbench.Wait(std::chrono::seconds(120)), 0) << azbench.Output();
    output_ = azbench.Output();
    return Stored();
  }

  std::vector<ScenarioResult> Stored() { return testing::StoredScenarios(dir_.File("results.db")); }

  // `azbench report --format html` of the results; "" on failure (with a test failure).
  std::string HtmlReport() {
    const std::string out = dir_.File("report.html");
    Subprocess report(
        {AZBENCH_BIN, "report", dir_.File("results.db"), "--format", "html", "-o", out},
        dir_.File("report.txt"));
    EXPECT_EQ(report.Wait(std::chrono::seconds(60)), 0) << report.Output();
    std::ifstream in(out);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  // The HTML report's visibility section lists `probe` with a line per agent and its mount.
  void ExpectReportedPerReader(const ScenarioResult& s, const std::string& probe) {
    const std::string html = HtmlReport();
    const size_t at = html.find("<section id=\"visibility\"");
    ASSERT_NE(at, std::string::npos);
    const std::string section = html.substr(at, html.find("</section>", at) - at);
    EXPECT_NE(section.find(": probe " + probe + "</h3>"), std::string::npos) << section;
    for (const std::string& agent : s.scenario.agent_ids) {
      EXPECT_NE(section.find("<td>" + agent + "</td>"), std::string::npos) << agent;
    }
    EXPECT_NE(section.find("tmpfs"), std::string::npos) << "the mount line: " << section;
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

TEST_F(VisibilityCampaignRunTest, ClientToClientMeasuresTheClockOffsetsAgainBeforeItRuns) {
  StartAgents(2);
  ConnectOptions connect;
  connect.target_paths = {shm_.path()};
  absl::StatusOr<Fleet> fleet = ConnectFleet(fleet_->addresses(), connect);
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  ASSERT_EQ(fleet->members.size(), 2u);
  // Hours after connect the writer's clock has drifted 2 s from the offset measured then.
  FleetMember& writer = fleet->members[0];
  const int64_t at_connect_ns = writer.info.clock_offset_ns;
  writer.info.clock_offset_ns += 2'000'000'000;
  Scenario scenario;
  scenario.key = "target=shm/workload=c2c/repeat=1";
  scenario.target = "shm";
  scenario.workload = "c2c";
  scenario.agent_ids = {writer.info.agent_id, fleet->members[1].info.agent_id};
  scenario.jobs.push_back({"c2c",
                           "visibility",
                           {{"probe", "client_to_client"},
                            {"trials", "3"},
                            {"spacing", "100ms"},
                            {"poll_interval", "10ms"},
                            {"timeout", "5s"},
                            {"directory", shm_.path()}},
                           0});
  const ScenarioResult s = RunScenario(*fleet, scenario, RunOptions{});
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  // Measured again: the drift is gone (the loopback agents share the coordinator's clock).
  EXPECT_LT(std::abs(writer.info.clock_offset_ns - at_connect_ns), 500'000'000)
      << writer.info.clock_offset_ns;
  const JobResult* reader = Find(s, scenario.agent_ids[1]);
  ASSERT_NE(reader, nullptr);
  const OpStats* probe = reader->Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 3u) << absl::StrJoin(reader->warnings, "; ");
  // One file system: seen at the first poll after the write. The stale 2 s offset would have
  // started the writer 2 s late and shown here as ~2 s.
  EXPECT_LT(probe->lat.max_ns(), 1'000'000'000u) << absl::StrJoin(reader->warnings, "; ");
}

TEST_F(VisibilityCampaignRunTest, ClientToClientCountsFromTheWritersCompletionOnTheCommonClock) {
  // The reader's clock runs 3 s ahead; its view of the directory lags the writer's by a known
  // 300 ms (a mirror fixture copies each file 300 ms after its last write).
  StartAgents(2, {{}, {"AZBENCH_TEST_ONLY_REALTIME_OFFSET_NS=3000000000"}});
  TempDir mirror_dir(testing::kTmpfsBase);
  ASSERT_TRUE(mirror_dir.ok());
  const absl::Duration delay = absl::Milliseconds(300);
  std::vector<ScenarioResult> scenarios;
  {
    testing::DelayedMirrorFixture mirror(shm_.path(), mirror_dir.path(), delay);
    scenarios = Run(absl::StrCat(
        "workloads:\n"
        "  - name: c2c\n"
        "    workload: visibility\n"
        "    options: {probe: client_to_client, trials: 4, spacing: 200ms, poll_interval: 20ms,\n"
        "              timeout: 5s, read_method: open_read, read_dir: ",
        mirror_dir.path(), "}\n"));
  }
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  const std::string writer_id = s.scenario.agent_ids[0];
  const JobResult* writer = Find(s, writer_id);
  const JobResult* reader = Find(s, s.scenario.agent_ids[1]);
  ASSERT_NE(writer, nullptr);
  ASSERT_NE(reader, nullptr);
  // The writer's write time is its own op kind.
  ASSERT_NE(writer->Find(OpKind::kWrite), nullptr);
  EXPECT_EQ(writer->Find(OpKind::kWrite)->ops, 4u);
  const OpStats* probe = reader->Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 4u) << absl::StrJoin(reader->warnings, "; ");
  EXPECT_EQ(probe->errors, 0u);
  // From the write's completion (after the file's mtime) to the first poll that saw the copy: the
  // mirror's delay less the write's own tail, plus at most a poll interval, the mirror's tick and
  // scheduling slack. An uncorrected 3 s clock offset would show here as ~3 s or as 0.
  EXPECT_GE(probe->lat.min_ns(),
            static_cast<uint64_t>(absl::ToInt64Nanoseconds(delay)) - 30'000'000u);
  EXPECT_LT(probe->lat.max_ns(), static_cast<uint64_t>(absl::ToInt64Nanoseconds(delay)) +
                                     20'000'000u + 10'000'000u + 1'500'000'000u);
  EXPECT_TRUE(HasWarning(*reader, "counted from writer " + writer_id + "'s write completion"))
      << absl::StrJoin(reader->warnings, "; ");
  EXPECT_TRUE(HasWarning(*reader, "clock-offset uncertainty +-"));
  EXPECT_TRUE(HasWarning(*reader, "0 trial(s) seen before the write returned"));
  // The offsets the join used, measured again just before the scenario, are stored with it.
  ASSERT_EQ(s.clock_offsets.size(), 2u);
  EXPECT_EQ(s.clock_offsets[0].agent_id, writer_id);
  EXPECT_NEAR(static_cast<double>(s.clock_offsets[0].clock_offset_ns), 0, 0.5e9);
  EXPECT_EQ(s.clock_offsets[1].agent_id, s.scenario.agent_ids[1]);
  EXPECT_NEAR(static_cast<double>(s.clock_offsets[1].clock_offset_ns), 3e9, 0.5e9);
  for (const AgentClockOffset& c : s.clock_offsets) {
    EXPECT_GT(c.measured_at_ns, 0) << c.agent_id;
    EXPECT_LE(c.measured_at_ns, s.planned_start_realtime_ns) << c.agent_id;
  }
  // The raw samples: one op log per agent, the reader's joined.
  int op_logs = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(dir_.File("results.db.oplog"), ec);
       it != fs::recursive_directory_iterator(); it.increment(ec)) {
    op_logs += it->path().string().ends_with(".c2c.csv.gz");
  }
  EXPECT_EQ(op_logs, 2);
  EXPECT_EQ(RegularFiles(shm_.path()), std::vector<std::string>{});
  // The HTML report lists the reader (not the writer) under the probe, with what its latency
  // counts from.
  const std::string html = HtmlReport();
  const size_t at = html.find("<section id=\"visibility\"");
  ASSERT_NE(at, std::string::npos);
  const std::string section = html.substr(at, html.find("</section>", at) - at);
  EXPECT_NE(section.find("<td>" + s.scenario.agent_ids[1] + "</td>"), std::string::npos);
  EXPECT_EQ(section.find("<td>" + writer_id + "</td>"), std::string::npos);
  EXPECT_NE(section.find("write completion, on the coordinator clock; clock-offset uncertainty"),
            std::string::npos)
      << section;
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
