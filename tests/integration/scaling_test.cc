// Multi-node scaling end to end: real agent processes, the real `azbench` binary, a real SQLite
// results file, the scaling table of the reports.
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/merge.h"
#include "coordinator/store/store.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::Subprocess;
using testing::TempDir;

// Not from __FILE__: the build names sources relative to the build directory, and ctest runs the
// test from another one.
std::string SourceRoot() { return testing::kSourceDir; }

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

class ScalingTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  std::unique_ptr<Store> OpenResults() {
    auto store = Store::OpenExisting(dir_.File("results.db"));
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? std::move(*store) : nullptr;
  }

  std::string Report(const std::string& format) {
    Subprocess report({AZBENCH_BIN, "report", dir_.File("results.db"), "--format", format},
                      dir_.File("report-" + format + ".txt"));
    EXPECT_EQ(report.Wait(std::chrono::seconds(60)), 0) << report.Output();
    return report.Output();
  }

  TempDir dir_{testing::kDiskBase};
  TempDir shm_{testing::kTmpfsBase};
};

// 16 agent processes, one synchronized 10 s job on one shared directory; every result stored and
// merged, start skew and per-agent fairness reported.
TEST_F(ScalingTest, SixteenAgentsRunOneSynchronizedTenSecondJob) {
  std::unique_ptr<LocalFleet> fleet = testing::StartLoopbackAgents(
      16, dir_.File("agents"), {testing::kDiskBase, testing::kTmpfsBase}, {"az-a", "az-b", "az-c"});
  ASSERT_NE(fleet, nullptr);
  const std::string campaign = dir_.File("campaign.yaml");
  {
    std::ofstream out(campaign);
    // rate_iops keeps 16 agents light on a small machine; sharing: shared-dir puts all 16 in one
    // directory.
    out << testing::CampaignHead("sixteen", fleet->addresses())
        << "targets:\n  - {name: shm, path: " << shm_.path()
        << "}\nworkloads:\n  - name: randread\n    options: {rw: randread, bs: 4k, size: 1m, "
           "ioengine: psync, runtime: 10s, time_based: 1, rate_iops: 200, sharing: shared-dir}\n"
           "matrix:\n  nodes: [all]\n";
  }
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--quiet"}, dir_.File("out.txt"));
  ASSERT_EQ(azbench.Wait(std::chrono::seconds(240)), 0) << azbench.Output();

  auto store = OpenResults();
  ASSERT_NE(store, nullptr);
  auto scenarios = store->LoadScenarios();
  ASSERT_TRUE(scenarios.ok()) << scenarios.status();
  ASSERT_EQ(scenarios->size(), 1u);
  const ScenarioResult& s = (*scenarios)[0];
  EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  std::set<std::string> agents;
  for (const AgentJobResult& r : s.results) {
    agents.insert(r.agent_id);
    ASSERT_NE(r.result.Find(OpKind::kRead), nullptr) << r.agent_id;
    EXPECT_GT(r.result.Find(OpKind::kRead)->ops, 0u) << r.agent_id;
    EXPECT_GT(r.result.runtime_ns, 9'000'000'000u) << r.agent_id << ": a 10 s time_based job";
  }
  EXPECT_EQ(agents.size(), 16u) << "every agent's result is stored";
  const ScenarioFigures figures = ComputeFigures(s);
  EXPECT_EQ(figures.agents, 16);
  EXPECT_EQ(figures.agents_lost, 0);
  EXPECT_GT(figures.first_start_ns, 0);
  EXPECT_GE(figures.start_skew_ns, 0);
  EXPECT_TRUE(figures.stonewall_valid) << "every agent ran at once";
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  ASSERT_EQ(read->per_agent.size(), 16u);
  EXPECT_GT(read->agent_iops.min, 0);
  EXPECT_GE(read->agent_iops.max, read->agent_iops.min);
  EXPECT_GE(read->agent_iops.cv, 0);
  EXPECT_EQ(read->lat.count(), read->ops) << "merged latency holds every op of every agent";
  // The interval latency was folded per agent, not lost: the merged series holds every sample.
  uint64_t interval_samples = 0, interval_ops = 0;
  for (const IntervalStats& in : figures.intervals) {
    interval_samples += in.by_kind[static_cast<int>(OpKind::kRead)].lat.count;
    interval_ops += in.by_kind[static_cast<int>(OpKind::kRead)].ops;
  }
  EXPECT_EQ(interval_samples, interval_ops);
  EXPECT_EQ(interval_ops, read->ops);

  const std::string md = Report("md");
  EXPECT_NE(md.find("## Scaling"), std::string::npos) << md;
  EXPECT_NE(md.find("| 16 | nodes=all |"), std::string::npos) << md;
  EXPECT_NE(md.find("no N=1 run"), std::string::npos) << md;
  const std::string csv = Report("scaling-csv");
  EXPECT_NE(csv.find("randread,,shm,nodes=all,16,"), std::string::npos) << csv;
  fleet->Stop();
  EXPECT_TRUE(fs::is_empty(shm_.path())) << "the agents removed their files";
}

// examples/scaling-local.yaml as written but on this test's tmpfs directory and with 1 s runs:
// nodes 1, 2, 4, 8 for each sharing mode, efficiency against the N=1 run of the same campaign.
TEST_F(ScalingTest, TheLocalScalingExampleRunsWithOneToEightAgents) {
  std::string yaml = ReadFile(SourceRoot() + "/examples/scaling-local.yaml");
  ASSERT_NE(yaml.find("/dev/shm/azbench-scaling"), std::string::npos);
  ASSERT_NE(yaml.find("runtime: 3s"), std::string::npos);
  yaml = absl::StrReplaceAll(yaml, {{"/dev/shm/azbench-scaling", shm_.path()},
                                    {"runtime: 3s", "runtime: 1s"},
                                    {"cooldown: 1s", "cooldown: 0s"}});
  yaml += "results: " + dir_.File("results.db") + "\n";
  const std::string campaign = dir_.File("scaling-local.yaml");
  std::ofstream(campaign) << yaml;
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--quiet"}, dir_.File("out.txt"));
  ASSERT_EQ(azbench.Wait(std::chrono::seconds(300)), 0) << azbench.Output();

  auto store = OpenResults();
  ASSERT_NE(store, nullptr);
  auto scenarios = store->LoadScenarios();
  ASSERT_TRUE(scenarios.ok()) << scenarios.status();
  ASSERT_EQ(scenarios->size(), 16u);
  for (const ScenarioResult& s : *scenarios) {
    EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.scenario.key << ": " << s.status_detail;
    EXPECT_EQ(s.results.size(), s.scenario.agent_ids.size()) << s.scenario.key;
  }
  const std::string csv = Report("scaling-csv");
  int rows = 0, with_efficiency = 0;
  std::istringstream lines(csv);
  std::string line;
  std::getline(lines, line);  // header
  while (std::getline(lines, line)) {
    ++rows;
    const std::vector<std::string> fields = absl::StrSplit(line, ',');
    ASSERT_EQ(fields.size(), 20u) << line;
    if (!fields[18].empty()) ++with_efficiency;  // the efficiency column
  }
  EXPECT_EQ(rows, 16) << csv;
  EXPECT_EQ(with_efficiency, 16) << "every group has its N=1 run\n" << csv;
  EXPECT_NE(csv.find("seqwrite-1m,sharing=shared-file,shm,nodes=8,8,"), std::string::npos) << csv;
  EXPECT_TRUE(fs::is_empty(shm_.path())) << "shared files removed by the agent that made them";
}

}  // namespace
}  // namespace azbench
