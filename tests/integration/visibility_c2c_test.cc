// Client-to-client visibility probes from a campaign through the real coordinator and real agent
// processes on loopback, across agents on a shared tmpfs directory: agent index 0 writes, the
// others read from the same scheduled instants; joined on the coordinator clock, also with a reader
// whose clock is seconds off, and with a known delay injected by a mirror fixture. Every test
// checks that the probes left no file on the mount, and the report shows each reader. The S3
// probes are in visibility_s3_test.cc; the fixture in tests/testing/visibility_campaign_fixture.h.
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <system_error>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/merge.h"
#include "coordinator/run/run.h"
#include "gtest/gtest.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/s3_sync_fixture.h"
#include "tests/testing/temp_dir.h"
#include "tests/testing/visibility_campaign_fixture.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::CountEntries;
using testing::HasWarning;
using testing::RegularFiles;
using testing::TempDir;
using testing::VisibilityCampaignRunTest;

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

}  // namespace
}  // namespace azbench
