// fio's log files from a campaign on the local fleet (real agent processes, the real `azbench`
// binary): the coordinator writes each agent's files beside the database, one directory per
// scenario, named "<agent>.<prefix>_<type>.<N>.log", with one line per op the agent stored, and
// fio's own tools (fio2gnuplot, fio_generate_plots) read them there.
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::Subprocess;
using testing::TempDir;

// The lines of a text file, each split at its commas.
std::vector<std::vector<std::string>> ReadLog(const std::string& path) {
  std::vector<std::vector<std::string>> lines;
  std::ifstream in(path);
  std::string text;
  while (std::getline(in, text)) lines.push_back(absl::StrSplit(text, ", "));
  return lines;
}

TEST(CampaignFioLogsTest, EachAgentsLogsAreWrittenBesideTheDatabaseForFiosTools) {
  TempDir dir(testing::kDiskBase);
  TempDir shm(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  fs::create_directories(shm.path());
  std::unique_ptr<LocalFleet> fleet =
      testing::StartLoopbackAgents(2, dir.File("agents"), {dir.path(), shm.path()});
  ASSERT_NE(fleet, nullptr);
  const std::string campaign = dir.File("campaign.yaml");
  // 64 ops of 4k per clone; io_uring measures slat, so the slat log has a line per op too.
  std::ofstream(campaign) << testing::CampaignHead("itest", fleet->addresses())
                          << "targets:\n  - {name: shm, path: " << shm.path()
                          << ", kind: local}\n"
                             "workloads:\n"
                             "  - name: w\n"
                             "    options: {rw: randrw, bs: 4k, size: 256k, numjobs: 2, "
                             "ioengine: io_uring, iodepth: 4, write_bw_log: w, write_lat_log: w, "
                             "write_iops_log: w, write_hist_log: w, log_hist_msec: 1}\n";
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--quiet"}, dir.File("out.txt"));
  ASSERT_EQ(azbench.Wait(std::chrono::seconds(120)), 0) << azbench.Output();

  const std::vector<ScenarioResult> scenarios = testing::StoredScenarios(dir.File("results.db"));
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& scenario = scenarios[0];
  EXPECT_EQ(scenario.status, ScenarioStatus::kComplete) << scenario.status_detail;
  std::vector<fs::path> scenario_dirs;
  for (const auto& e : fs::directory_iterator(dir.File("results.db.oplog"))) {
    scenario_dirs.push_back(e.path());
  }
  ASSERT_EQ(scenario_dirs.size(), 1u) << "one directory per scenario";
  const std::string logs = scenario_dirs[0].string();

  for (const char* agent : {"local-1", "local-2"}) {
    uint64_t stored_ops = 0;
    for (const AgentJobResult& r : scenario.results) {
      if (r.agent_id != agent) continue;
      for (OpKind kind : {OpKind::kRead, OpKind::kWrite}) {
        if (const OpStats* stats = r.result.Find(kind)) stored_ops += stats->ops;
      }
    }
    EXPECT_EQ(stored_ops, 2u * 64u) << agent << ": 2 clones of 64 ops";
    for (const char* type : {"bw", "iops", "lat", "clat", "slat", "clat_hist"}) {
      size_t lines = 0;
      for (int clone = 1; clone <= 2; ++clone) {
        const std::string path = absl::StrCat(logs, "/", agent, ".w_", type, ".", clone, ".log");
        ASSERT_TRUE(fs::exists(path)) << path;
        for (const std::vector<std::string>& line : ReadLog(path)) {
          ++lines;
          // fio's columns: "time, value, ddir, bs, prio"; clat_hist "time, ddir, bs" and 1856
          // bins.
          const bool hist = std::string(type) == "clat_hist";
          ASSERT_EQ(line.size(), hist ? 3u + 1856u : 5u) << path;
          EXPECT_EQ(line[hist ? 2 : 3], "4096") << path;
        }
      }
      // Every op the agent stored has its line (log_avg_msec=0), and no other.
      if (std::string(type) != "clat_hist") {
        EXPECT_EQ(lines, stored_ops) << agent << " " << type;
      }
    }
  }
  // Records streamed for the fio logs only are no op log.
  for (const auto& e : fs::directory_iterator(logs)) {
    EXPECT_NE(e.path().extension(), ".gz") << e.path();
  }

  // fio's tools, run in the scenario's directory, read every agent's files.
  std::string script = absl::StrCat("cd '", logs, "' && mkdir plots && fio2gnuplot -b -d plots");
  Subprocess plot({"/bin/sh", "-c", script}, dir.File("fio2gnuplot.txt"));
  ASSERT_EQ(plot.Wait(std::chrono::seconds(60)), 0) << plot.Output();
  EXPECT_THAT(plot.Output(), ::testing::HasSubstr("local-1.w_bw.1.log"));
  EXPECT_THAT(plot.Output(), ::testing::HasSubstr("local-2.w_bw.2.log"));
  Subprocess gnuplot({"/bin/sh", "-c", "command -v gnuplot"}, dir.File("gnuplot.txt"));
  if (gnuplot.Wait(std::chrono::seconds(10)) == 0) {
    script = absl::StrCat("cd '", logs, "' && fio_generate_plots itest");
    Subprocess draw({"/bin/sh", "-c", script}, dir.File("fio_generate_plots.txt"));
    ASSERT_EQ(draw.Wait(std::chrono::seconds(60)), 0) << draw.Output();
    for (const char* plot_file : {"itest-bw.svg", "itest-lat.svg", "itest-slat.svg"}) {
      EXPECT_TRUE(fs::exists(absl::StrCat(logs, "/", plot_file))) << plot_file << draw.Output();
    }
  }
}

}  // namespace
}  // namespace azbench
