// The workload families through the real coordinator and real agent processes on loopback:
// metadata's phase barrier across agents and its stride, small_files' one scenario per size, and
// large_stream's passes, with matrix axes applied only where a family has the option.
#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/stats.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/merge.h"
#include "coordinator/report/report_input.h"
#include "coordinator/store/store.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::CountEntries;
using testing::Subprocess;
using testing::TempDir;

class FamiliesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(shm_.ok());
  }

  void StartAgents(int n) {
    fleet_ = testing::StartLoopbackAgents(n, dir_.File("agents"),
                                          {testing::kDiskBase, testing::kTmpfsBase});
    ASSERT_NE(fleet_, nullptr);
  }

  // Runs the campaign (targets: the tmpfs dir) and returns its stored scenarios.
  std::vector<ScenarioResult> Run(const std::string& body) {
    const std::string path = dir_.File("campaign.yaml");
    {
      std::ofstream out(path);
      out << testing::CampaignHead("families", fleet_->addresses())
          << "targets:\n  - {name: shm, path: " << shm_.path() << ", kind: local}\n"
          << body;
    }
    Subprocess azbench({AZBENCH_BIN, "run", path, "--quiet"}, dir_.File("out.txt"));
    EXPECT_EQ(azbench.Wait(std::chrono::seconds(120)), 0) << azbench.Output();
    return testing::StoredScenarios(dir_.File("results.db"));
  }

  TempDir dir_{testing::kDiskBase};
  TempDir shm_{testing::kTmpfsBase};
  std::unique_ptr<LocalFleet> fleet_;
};

const JobResult* Find(const ScenarioResult& s, const std::string& agent, const std::string& name) {
  for (const AgentJobResult& r : s.results) {
    if (r.agent_id == agent && r.result.name == name) return &r.result;
  }
  return nullptr;
}

TEST_F(FamiliesTest, MetadataPhasesAreSeparatedByABarrierAcrossAgentsAndTheStrideCrossesAgents) {
  StartAgents(3);
  std::vector<ScenarioResult> scenarios =
      Run("workloads:\n"
          "  - name: md\n"
          "    workload: metadata\n"
          "    options: {files: 40, dirs: 4, stride: 1, numjobs: 2}\n");
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  ASSERT_EQ(s.results.size(), 3u * 6u) << "one result per phase per agent";
  const std::vector<std::pair<std::string, OpKind>> phases = {
      {"create", OpKind::kCreate}, {"stat", OpKind::kStat},     {"open", OpKind::kOpen},
      {"read", OpKind::kRead},     {"rename", OpKind::kRename}, {"delete", OpKind::kUnlink}};
  for (const std::string& agent : s.scenario.agent_ids) {
    for (const auto& [phase, kind] : phases) {
      const JobResult* r = Find(s, agent, "md." + phase);
      ASSERT_NE(r, nullptr) << agent << " " << phase;
      ASSERT_NE(r->Find(kind), nullptr);
      // With the stride, stat/open/read go to the next agent's 80 files: they exist only because
      // that agent's create phase ended before this agent's stat began.
      EXPECT_EQ(r->Find(kind)->ops, 80u) << agent << " " << phase;
      EXPECT_EQ(r->Find(kind)->errors, 0u) << agent << " " << phase << ": " << r->error_message;
    }
  }
  // The barrier: no agent starts phase p before every agent ended phase p-1 (coordinator clock).
  for (size_t p = 1; p < phases.size(); ++p) {
    int64_t last_end = 0, first_start = INT64_MAX;
    for (const std::string& agent : s.scenario.agent_ids) {
      last_end = std::max(last_end, Find(s, agent, "md." + phases[p - 1].first)->end_realtime_ns);
      first_start =
          std::min(first_start, Find(s, agent, "md." + phases[p].first)->start_realtime_ns);
    }
    EXPECT_GT(first_start, last_end)
        << phases[p].first << " started before " << phases[p - 1].first << " ended everywhere";
  }
  // Reports rate each phase over its own window (merge rule 7).
  const ScenarioFigures figures = ComputeFigures(s);
  for (const auto& [phase, kind] : phases) {
    const OpFigures* op = figures.Find(kind);
    ASSERT_NE(op, nullptr) << phase;
    EXPECT_EQ(op->ops, 240u);
    EXPECT_LT(op->full_window_ns, figures.full_window_ns) << phase;
    EXPECT_GT(op->full_iops, figures.TotalOps() / 6.0 * 1e9 / figures.full_window_ns) << phase;
  }
  EXPECT_EQ(CountEntries(shm_.path()), 0u) << "files and directories are gone";
}

TEST_F(FamiliesTest, AnAgentLostDuringMetadataDoesNotHoldTheOthersAtTheBarrier) {
  StartAgents(3);
  const std::string path = dir_.File("campaign.yaml");
  {
    std::ofstream out(path);
    out << testing::CampaignHead("families", fleet_->addresses())
        << "targets:\n  - {name: shm, path: " << shm_.path()
        << ", kind: local}\nworkloads:\n  - name: md\n    workload: metadata\n"
        << "    options: {files: 20000, dirs: 8, write_bytes: 0}\n";
  }
  Subprocess azbench({AZBENCH_BIN, "run", path, "--quiet"}, dir_.File("out.txt"));
  // Kill one agent as soon as the create phase has begun.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (CountEntries(shm_.path()) < 100 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  ASSERT_GE(CountEntries(shm_.path()), 100u) << azbench.Output();
  ASSERT_EQ(kill(fleet_->pid(1), SIGKILL), 0);
  EXPECT_NE(azbench.Wait(std::chrono::seconds(120)), 0) << "a partial campaign is not a success";
  auto store = Store::OpenExisting(dir_.File("results.db"));
  ASSERT_TRUE(store.ok()) << store.status() << azbench.Output();
  auto scenarios = (*store)->LoadScenarios();
  ASSERT_TRUE(scenarios.ok());
  ASSERT_EQ(scenarios->size(), 1u);
  const ScenarioResult& s = (*scenarios)[0];
  EXPECT_EQ(s.status, ScenarioStatus::kPartial) << s.status_detail;
  ASSERT_EQ(s.lost.size(), 1u);
  EXPECT_EQ(s.lost[0].agent_id, "local-2");
  for (const std::string& agent : {std::string("local-1"), std::string("local-3")}) {
    for (const char* phase : {"create", "stat", "open", "read", "rename", "delete"}) {
      const JobResult* r = Find(s, agent, std::string("md.") + phase);
      ASSERT_NE(r, nullptr) << agent << " did not finish " << phase;
      uint64_t ops = 0;
      for (const auto& k : r->by_kind) ops += k ? k->ops : 0;
      EXPECT_EQ(ops, 20000u) << agent << " " << phase;
      EXPECT_EQ(r->TotalErrors(), 0u) << agent << " " << phase;
    }
  }
}

TEST_F(FamiliesTest, SmallFilesRunOneScenarioPerSizeAndAxesApplyOnlyWhereTheFamilyHasTheOption) {
  StartAgents(2);
  std::vector<ScenarioResult> scenarios =
      Run("workloads:\n"
          "  - name: sf\n"
          "    workload: small_files\n"
          "    options: {filesizes: '4k:64k', files: 5}\n"
          "  - name: stream\n"
          "    workload: large_stream\n"
          "    options: {size: 1m, passes: 2}\n"
          "  - name: rr\n"
          "    options: {rw: randread, size: 1m, ioengine: io_uring}\n"
          "matrix:\n"
          "  bs: [16k, 32k]\n"
          "  iodepth: [1, 4]\n"
          "  nodes: [2]\n");
  // small_files: 2 bs x 2 sizes; large_stream: 2 bs (iodepth is no option of either family and
  // does not multiply their scenarios); block_io: 2 bs x 2 iodepth.
  ASSERT_EQ(scenarios.size(), 10u);
  std::map<std::string, const ScenarioResult*> by_key;
  for (const ScenarioResult& s : scenarios) {
    EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.scenario.key << ": " << s.status_detail;
    if (s.scenario.workload != "rr") {
      EXPECT_EQ(s.scenario.key.find("iodepth"), std::string::npos) << s.scenario.key;
    }
    by_key[s.scenario.key] = &s;
  }
  EXPECT_NE(by_key["workload=rr/bs=32k/iodepth=4/nodes=2/target=shm/repeat=1"], nullptr);
  const ScenarioResult* sf = by_key["workload=sf/bs=16k/nodes=2/filesizes=64k/target=shm/repeat=1"];
  ASSERT_NE(sf, nullptr) << "keys: " << [&] {
    std::string keys;
    for (const auto& [k, unused] : by_key) keys += k + " ";
    return keys;
  }();
  ASSERT_EQ(sf->results.size(), 4u) << "write and read result per agent";
  for (const std::string& agent : sf->scenario.agent_ids) {
    const JobResult* w = Find(*sf, agent, "sf.64k.write");
    const JobResult* r = Find(*sf, agent, "sf.64k.read");
    ASSERT_NE(w, nullptr);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(w->Find(OpKind::kCreate)->ops, 5u);
    EXPECT_EQ(w->Find(OpKind::kWrite)->ops, 5u * 4u) << "64k files in 16k calls";
    EXPECT_EQ(w->Find(OpKind::kWrite)->bytes, 5u * (64u << 10));
    EXPECT_EQ(r->Find(OpKind::kRead)->bytes, 5u * (64u << 10));
  }
  const ScenarioResult* stream = by_key["workload=stream/bs=32k/nodes=2/target=shm/repeat=1"];
  ASSERT_NE(stream, nullptr);
  ASSERT_EQ(stream->results.size(), 4u) << "two passes per agent";
  for (const AgentJobResult& r : stream->results) {
    EXPECT_EQ(r.result.Find(OpKind::kRead)->ops, 32u) << r.result.name;
    EXPECT_EQ(r.result.Find(OpKind::kRead)->bytes, 1u << 20);
  }
  const ScenarioFigures figures = ComputeFigures(*stream);
  EXPECT_EQ(figures.Find(OpKind::kRead)->bytes, 4u << 20);
  EXPECT_EQ(CountEntries(shm_.path()), 0u);
}

// `azbench report` in every format shows large_stream's MiB/s of each pass of each agent, as
// stored: each pass's bytes over its runtime.
TEST_F(FamiliesTest, EveryReportFormatShowsTheMibPerSecondOfEachLargeStreamPass) {
  StartAgents(2);
  std::vector<ScenarioResult> scenarios =
      Run("workloads:\n"
          "  - name: stream\n"
          "    workload: large_stream\n"
          "    options: {size: 4m, bs: 1m, passes: 3}\n");
  ASSERT_EQ(scenarios.size(), 1u);
  const ScenarioResult& s = scenarios[0];
  ASSERT_EQ(s.status, ScenarioStatus::kComplete) << s.status_detail;
  // Expected figures from the stored results: agent -> MiB/s of passes 1..3.
  std::map<std::string, std::vector<double>> expected;
  for (const std::string& agent : s.scenario.agent_ids) {
    for (int pass = 1; pass <= 3; ++pass) {
      const JobResult* r = Find(s, agent, "stream.pass" + std::to_string(pass));
      ASSERT_NE(r, nullptr) << agent << " pass " << pass;
      ASSERT_EQ(r->Find(OpKind::kRead)->bytes, 4u << 20);
      ASSERT_GT(r->runtime_ns, 0u);
      expected[agent].push_back(static_cast<double>(4u << 20) / kMiB /
                                (static_cast<double>(r->runtime_ns) / 1e9));
    }
  }
  ASSERT_EQ(expected.size(), 2u);
  auto report = [&](const std::string& format) {
    const std::string out = dir_.File("report." + format);
    Subprocess azbench(
        {AZBENCH_BIN, "report", dir_.File("results.db"), "--format", format, "-o", out},
        dir_.File("report-" + format + ".txt"));
    EXPECT_EQ(azbench.Wait(std::chrono::seconds(60)), 0) << azbench.Output();
    std::ifstream in(out);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
  const std::string terminal = report("terminal");
  const std::string md = report("md");
  const std::string csv = report("csv");
  const std::string html = report("html");
  const nlohmann::json json = nlohmann::json::parse(report("json"), nullptr, false);
  ASSERT_FALSE(json.is_discarded());
  EXPECT_THAT(terminal, ::testing::HasSubstr("large_stream MiB/s per pass"));
  EXPECT_THAT(terminal, ::testing::HasSubstr("all agents"));
  std::vector<std::string> by_agent;
  size_t a = 0;
  for (const auto& [agent, mib_s] : expected) {
    const double mean = (mib_s[0] + mib_s[1] + mib_s[2]) / 3;
    std::vector<std::string> shown, fixed;
    for (double v : mib_s) {
      shown.push_back(FormatMibPerSecond(v));
      fixed.push_back(absl::StrFormat("%.3f", v));
    }
    EXPECT_THAT(terminal,
                ::testing::ContainsRegex(absl::StrCat(agent, " +", absl::StrJoin(shown, " +"), " +",
                                                      FormatMibPerSecond(mean))))
        << terminal;
    EXPECT_THAT(md, ::testing::HasSubstr(absl::StrCat("| shm | 1 | stream | ", agent, " | ",
                                                      absl::StrJoin(shown, " | "), " | ",
                                                      FormatMibPerSecond(mean), " |")))
        << md;
    EXPECT_THAT(html, ::testing::HasSubstr(absl::StrCat("<td>", agent, "</td><td class=\"num\">",
                                                        shown[0], "</td>")));
    by_agent.push_back(absl::StrCat(agent, "=", absl::StrJoin(fixed, ";")));
    const nlohmann::json& agents = json["scenarios"][0]["passes"][0]["agents"];
    ASSERT_EQ(agents.size(), 2u);
    for (const auto& j : agents) {
      if (j["agent_id"] != agent) continue;
      for (size_t p = 0; p < 3; ++p) {
        EXPECT_NEAR(j["passes"][p]["mib_s"].get<double>(), mib_s[p], mib_s[p] * 1e-9);
      }
      EXPECT_NEAR(j["mean_mib_s"].get<double>(), mean, mean * 1e-9);
    }
    ++a;
  }
  EXPECT_EQ(a, 2u);
  for (const std::string& entry : by_agent) {
    EXPECT_THAT(csv, ::testing::ContainsRegex(entry + "[ ,\n]")) << csv;
  }
  EXPECT_THAT(html, ::testing::HasSubstr("<h3>MiB/s per pass</h3>"));
  EXPECT_THAT(html, ::testing::HasSubstr("stream: MiB/s per pass"));
  EXPECT_EQ(json["scenarios"][0]["passes"][0]["all_agents"]["mib_s"].size(), 3u);
}

TEST_F(FamiliesTest, AnOptionTheFamilyLacksIsRefusedBeforeAnythingRuns) {
  StartAgents(1);
  const std::string path = dir_.File("bad.yaml");
  {
    std::ofstream out(path);
    out << "name: bad\nfleet:\n  hosts: [" << fleet_->addresses()[0]
        << "]\ntargets:\n  - {name: shm, path: " << shm_.path()
        << "}\nworkloads:\n  - name: md\n    workload: metadata\n    options: {files: 10, rw: "
           "randread}\n";
  }
  Subprocess azbench({AZBENCH_BIN, "run", path, "--quiet"}, dir_.File("bad.txt"));
  EXPECT_NE(azbench.Wait(std::chrono::seconds(60)), 0);
  EXPECT_NE(azbench.Output().find("option 'rw' is not supported by workload metadata"),
            std::string::npos)
      << azbench.Output();
}

}  // namespace
}  // namespace azbench
