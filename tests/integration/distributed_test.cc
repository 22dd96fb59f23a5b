// The distributed path end to end: real agent processes on loopback (started by the test, so it can
// kill them), the real `azbench` coordinator binary, a real SQLite results file.
#include <signal.h>
#include <zlib.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/merge.h"
#include "coordinator/store/store.h"
#include "gtest/gtest.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::CountFiles;
using testing::Subprocess;
using testing::TempDir;

class DistributedTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    fs::create_directories(dir_.File("disk"));
    fs::create_directories(shm_.path());
  }

  void StartAgents(int n) {
    // The campaigns' targets are in dir_ and shm_.
    fleet_ = testing::StartLoopbackAgents(n, dir_.File("agents"), {dir_.path(), shm_.path()});
    ASSERT_NE(fleet_, nullptr);
  }

  std::string WriteCampaign(const std::string& body) {
    const std::string path = dir_.File("campaign.yaml");
    std::ofstream out(path);
    out << testing::CampaignHead("itest", fleet_->addresses()) << body;
    return path;
  }

  std::unique_ptr<Store> OpenResults() {
    auto store = Store::OpenExisting(dir_.File("results.db"));
    EXPECT_TRUE(store.ok()) << store.status();
    return store.ok() ? std::move(*store) : nullptr;
  }

  TempDir dir_{testing::kDiskBase};
  TempDir shm_{testing::kTmpfsBase};
  std::unique_ptr<LocalFleet> fleet_;
};

TEST_F(DistributedTest, TwoTargetsTwoWorkloadsAndAnIodepthMatrixMergeExactly) {
  StartAgents(2);
  const std::string campaign = WriteCampaign(absl::StrCat(
      "targets:\n"
      "  - {name: disk, path: ",
      dir_.File("disk"),
      ", kind: local}\n"
      "  - {name: shm, path: ",
      shm_.path(),
      ", kind: local}\n"
      "workloads:\n"
      "  - name: write\n"
      "    options: {rw: write, bs: 64k, size: 4m, ioengine: io_uring, end_fsync: 1}\n"
      "  - name: randread\n"
      "    options: {rw: randread, bs: 4k, size: 4m, ioengine: io_uring, runtime: 500ms, "
      "time_based: 1}\n"
      "matrix:\n"
      "  iodepth: [1, 8]\n"));
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--quiet"}, dir_.File("out.txt"));
  ASSERT_EQ(azbench.Wait(std::chrono::seconds(120)), 0) << azbench.Output();

  auto store = OpenResults();
  ASSERT_NE(store, nullptr);
  auto scenarios = store->LoadScenarios();
  ASSERT_TRUE(scenarios.ok()) << scenarios.status();
  ASSERT_EQ(scenarios->size(), 8u) << "2 workloads x 2 iodepths x 2 targets";
  for (const ScenarioResult& s : *scenarios) {
    EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.scenario.key << ": " << s.status_detail;
    ASSERT_EQ(s.results.size(), 2u) << s.scenario.key;
    const ScenarioFigures figures = ComputeFigures(s);
    const OpKind kind = s.scenario.workload == "write" ? OpKind::kWrite : OpKind::kRead;
    const OpFigures* merged = figures.Find(kind);
    ASSERT_NE(merged, nullptr) << s.scenario.key;
    Histogram sum;
    uint64_t ops = 0, bytes = 0;
    for (const AgentJobResult& r : s.results) {
      const OpStats* stats = r.result.Find(kind);
      ASSERT_NE(stats, nullptr);
      sum.Merge(stats->lat);
      ops += stats->ops;
      bytes += stats->bytes;
      if (kind == OpKind::kWrite) {
        EXPECT_EQ(stats->bytes, 4u << 20) << "each agent writes exactly size bytes";
        EXPECT_EQ(stats->ops, 64u);
        ASSERT_NE(r.result.Find(OpKind::kFsync), nullptr);
        EXPECT_EQ(r.result.Find(OpKind::kFsync)->ops, 1u);
      }
    }
    EXPECT_TRUE(merged->lat == sum) << "merged histogram = sum of the agents' histograms";
    EXPECT_EQ(merged->ops, ops);
    EXPECT_EQ(merged->bytes, bytes);
    EXPECT_EQ(merged->lat.count(), ops);
    EXPECT_GE(s.first_start_realtime_ns, s.planned_start_realtime_ns - 50'000'000);
  }
  // The agents removed what they laid out once each scenario ended.
  EXPECT_EQ(CountFiles(dir_.File("disk")), 0u);
  EXPECT_EQ(CountFiles(shm_.path()), 0u);
}

TEST_F(DistributedTest, AnAgentKilledMidRunIsRecordedAsLostAndTheCampaignContinues) {
  StartAgents(2);
  const std::string campaign = WriteCampaign(
      absl::StrCat("targets:\n"
                   "  - {name: shm, path: ",
                   shm_.path(),
                   ", kind: local}\n"
                   "workloads:\n"
                   "  - name: randread\n"
                   "    options: {rw: randread, bs: 4k, size: 4m, runtime: 8s, time_based: 1}\n"
                   "repeats: 2\n"));
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  // Wait until both agents have laid out their files, then a little into the run.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (CountFiles(shm_.path()) < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(CountFiles(shm_.path()), 2u) << azbench.Output();
  // Killed once the coordinator has stored an interval (1 s) it streamed in the first scenario,
  // however long the prepare barrier and the start delay take on a loaded machine.
  ASSERT_TRUE(testing::WaitForStagedIntervals(dir_.File("results.db"), "/repeat=1", {"local-2"},
                                              std::chrono::seconds(60)))
      << azbench.Output();
  ASSERT_EQ(kill(fleet_->pid(1), SIGKILL), 0);

  const int rc = azbench.Wait(std::chrono::seconds(60));
  EXPECT_NE(rc, 0) << "an incomplete campaign ends with a non-zero status";
  EXPECT_NE(rc, -1) << azbench.Output();
  auto store = OpenResults();
  ASSERT_NE(store, nullptr);
  auto scenarios = store->LoadScenarios();
  ASSERT_TRUE(scenarios.ok()) << scenarios.status();
  ASSERT_EQ(scenarios->size(), 2u) << "the campaign went on after the loss\n" << azbench.Output();
  const ScenarioResult& first = (*scenarios)[0];
  EXPECT_EQ(first.status, ScenarioStatus::kPartial);
  ASSERT_EQ(first.lost.size(), 1u);
  EXPECT_EQ(first.lost[0].agent_id, "local-2");
  EXPECT_GT(first.lost[0].lost_at_realtime_ns, first.first_start_realtime_ns);
  bool survivor_complete = false, lost_partial_kept = false;
  for (const AgentJobResult& r : first.results) {
    const OpStats* reads = r.result.Find(OpKind::kRead);
    if (r.agent_id == "local-1") {
      survivor_complete =
          reads != nullptr && reads->ops > 0 && r.result.runtime_ns >= 8'000'000'000;
    } else {
      // Its intervals were stored as they arrived (interval_spool.h), so the series is kept.
      lost_partial_kept = reads != nullptr && reads->ops > 0 && !r.result.intervals.empty();
    }
  }
  EXPECT_TRUE(survivor_complete) << "the other agent's result is complete";
  EXPECT_TRUE(lost_partial_kept) << "what the lost agent streamed before it died is kept";
  EXPECT_NE((*scenarios)[1].status, ScenarioStatus::kComplete);
  EXPECT_NE(azbench.Output().find("local-2"), std::string::npos);
}

TEST_F(DistributedTest, WhenTheCoordinatorIsKilledAgentsStopAndRemoveTheirFiles) {
  StartAgents(2);
  const std::string campaign = WriteCampaign(
      absl::StrCat("targets:\n"
                   "  - {name: disk, path: ",
                   dir_.File("disk"),
                   ", kind: local}\n"
                   "workloads:\n"
                   "  - name: randread\n"
                   "    options: {rw: randread, bs: 4k, size: 8m, runtime: 60s, time_based: 1}\n"));
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  const auto laid_out = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (CountFiles(dir_.File("disk")) < 2 && std::chrono::steady_clock::now() < laid_out) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(CountFiles(dir_.File("disk")), 2u) << azbench.Output();
  // Killed while both agents run (each has streamed an interval): their open Run streams are the
  // lease that breaks. Killed earlier (layout, Prepare's reply, the barrier), only the prepared
  // lease would remove the files, and that is another test
  // (FaultTest.ACoordinatorKilledBetweenPrepareAndRunLeavesNoFiles).
  ASSERT_TRUE(testing::WaitForStagedIntervals(dir_.File("results.db"), "/repeat=1",
                                              {"local-1", "local-2"}, std::chrono::seconds(60)))
      << azbench.Output();
  azbench.Signal(SIGKILL);
  ASSERT_NE(azbench.Wait(std::chrono::seconds(10)), -1);
  const auto start = std::chrono::steady_clock::now();
  while (CountFiles(dir_.File("disk")) > 0 &&
         std::chrono::steady_clock::now() - start < std::chrono::seconds(10)) {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  EXPECT_EQ(CountFiles(dir_.File("disk")), 0u) << "agents removed their files within 10 s";
  EXPECT_TRUE(fs::is_empty(dir_.File("disk"))) << "and their per-agent directories";
  for (int i = 0; i < 2; ++i) EXPECT_EQ(kill(fleet_->pid(i), 0), 0) << "agent " << i << " alive";
}

TEST_F(DistributedTest, AnUnreachableHostIsNamedBeforeAnythingRuns) {
  StartAgents(1);
  const std::string dead = absl::StrCat("127.0.0.1:", testing::UnusedLoopbackPort());
  const std::string path = dir_.File("campaign.yaml");
  {
    std::ofstream out(path);
    out << "name: itest\nfleet:\n  hosts: [" << fleet_->addresses()[0] << ", " << dead
        << "]\nresults: results.db\ntargets:\n  - {name: shm, path: " << shm_.path()
        << "}\nworkloads:\n  - name: w\n    options: {rw: write, bs: 4k, size: 64k}\n";
  }
  {
    // Results of an earlier run, which a refused run must leave where they are.
    auto earlier = Store::Open(dir_.File("results.db"));
    ASSERT_TRUE(earlier.ok()) << earlier.status();
    ASSERT_TRUE((*earlier)->BeginCampaign("earlier", "earlier.yaml", "name: earlier\n").ok());
  }
  const std::vector<std::string> before = testing::DirectoryNames(dir_.path());
  Subprocess refused({AZBENCH_BIN, "run", path}, dir_.File("out1.txt"));
  EXPECT_NE(refused.Wait(std::chrono::seconds(60)), 0);
  EXPECT_NE(refused.Output().find(dead), std::string::npos) << refused.Output();
  // Nothing ran: the earlier results were not moved aside, nothing new was made.
  std::vector<std::string> after = testing::DirectoryNames(dir_.path());
  after.erase(std::remove(after.begin(), after.end(), "out1.txt"), after.end());
  EXPECT_EQ(after, before);
  {
    auto store = OpenResults();
    ASSERT_NE(store, nullptr);
    auto scenarios = store->LoadScenarios();
    ASSERT_TRUE(scenarios.ok());
    EXPECT_TRUE(scenarios->empty()) << "nothing ran";
  }
  Subprocess allowed({AZBENCH_BIN, "run", path, "--allow-missing"}, dir_.File("out2.txt"));
  EXPECT_EQ(allowed.Wait(std::chrono::seconds(60)), 0) << allowed.Output();
}

// Lines of a gzip file (0 when it cannot be read).
size_t GzipLines(const std::string& path, std::string* first_line) {
  gzFile f = gzopen(path.c_str(), "rb");
  if (f == nullptr) return 0;
  size_t n = 0;
  char buf[512];
  while (gzgets(f, buf, sizeof(buf)) != nullptr) {
    if (n == 0 && first_line != nullptr) *first_line = buf;
    ++n;
  }
  gzclose(f);
  return n;
}

TEST_F(DistributedTest, OpLogRecordsAreStoredCompressedBesideTheDatabase) {
  StartAgents(2);
  const std::string campaign =
      WriteCampaign(absl::StrCat("targets:\n"
                                 "  - {name: shm, path: ",
                                 shm_.path(),
                                 ", kind: local}\n"
                                 "workloads:\n"
                                 "  - name: w\n"
                                 "    options: {rw: write, bs: 4k, size: 256k, op_log: 1}\n"));
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--quiet"}, dir_.File("out.txt"));
  ASSERT_EQ(azbench.Wait(std::chrono::seconds(60)), 0) << azbench.Output();
  std::vector<std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir_.File("results.db.oplog"))) {
    if (e.is_regular_file()) files.push_back(e.path().string());
  }
  ASSERT_EQ(files.size(), 2u) << "one file per agent and job";
  for (const auto& f : files) {
    std::string header;
    EXPECT_EQ(GzipLines(f, &header), 1u + 64u) << f;
    EXPECT_EQ(header, "clone,start_ns,op,offset,bytes,latency_ns,errno\n");
  }
}

// Ctrl-C during a run: the running scenario is cancelled and stored as partial, the command prints
// how to continue (every flag kept, quoted for a shell), and that command runs the rest: the
// partial scenario again and the one never started, leaving every scenario complete.
TEST_F(DistributedTest, CtrlCStoresThePartialScenarioAndThePrintedCommandContinues) {
  StartAgents(2);
  const std::string campaign =
      WriteCampaign(absl::StrCat("targets:\n"
                                 "  - {name: shm, path: ",
                                 shm_.path(),
                                 ", kind: local}\n"
                                 "workloads:\n"
                                 "  - name: w\n"
                                 "    options: {rw: randread, bs: 4k, size: 1m, runtime: 4s, "
                                 "time_based: 1}\n"
                                 "repeats: 2\n"));
  const std::string db = dir_.File("my results.db");  // a space: the printed line must quote it
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--db", db}, dir_.File("out.txt"));
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (CountFiles(shm_.path()) < 2 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ASSERT_EQ(CountFiles(shm_.path()), 2u) << azbench.Output();
  std::this_thread::sleep_for(std::chrono::milliseconds(500));
  azbench.Signal(SIGINT);
  ASSERT_EQ(azbench.Wait(std::chrono::seconds(60)), 130) << azbench.Output();
  const std::string output = azbench.Output();
  const std::string marker = "continue with: azbench ";
  const size_t at = output.find(marker);
  ASSERT_NE(at, std::string::npos) << output;
  const std::string rest =
      output.substr(at + marker.size(), output.find('\n', at) - at - marker.size());
  EXPECT_EQ(rest, absl::StrCat("run ", campaign, " --db '", db, "' --resume"));
  {
    const std::vector<ScenarioResult> stored = testing::StoredScenarios(db);
    ASSERT_EQ(stored.size(), 1u) << output;
    EXPECT_EQ(stored[0].status, ScenarioStatus::kPartial) << stored[0].status_detail;
  }
  Subprocess resumed({"/bin/sh", "-c", absl::StrCat(AZBENCH_BIN, " ", rest)},
                     dir_.File("resumed.txt"));
  ASSERT_EQ(resumed.Wait(std::chrono::seconds(120)), 0) << resumed.Output();
  const std::vector<ScenarioResult> stored = testing::StoredScenarios(db);
  ASSERT_EQ(stored.size(), 2u) << resumed.Output();
  for (const ScenarioResult& s : stored) {
    EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.scenario.key << ": " << s.status_detail;
  }
  EXPECT_EQ(CountFiles(shm_.path()), 0u);
}

// The op log the campaign asked for cannot be written (a file stands where its directory goes):
// the figures are there, but the scenario is not stored as complete, and the reason is kept.
TEST_F(DistributedTest, AnOpLogThatCannotBeWrittenLeavesTheScenarioFailedWithTheReason) {
  StartAgents(2);
  std::ofstream(dir_.File("results.db.oplog")) << "not a directory\n";
  const std::string campaign =
      WriteCampaign(absl::StrCat("targets:\n"
                                 "  - {name: shm, path: ",
                                 shm_.path(),
                                 ", kind: local}\n"
                                 "workloads:\n"
                                 "  - name: w\n"
                                 "    options: {rw: write, bs: 4k, size: 256k, op_log: 1}\n"));
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--quiet"}, dir_.File("out.txt"));
  const int rc = azbench.Wait(std::chrono::seconds(60));
  ASSERT_NE(rc, -1) << azbench.Output();
  EXPECT_NE(rc, 0) << azbench.Output();
  const std::vector<ScenarioResult> stored = testing::StoredScenarios(dir_.File("results.db"));
  ASSERT_EQ(stored.size(), 1u) << azbench.Output();
  EXPECT_EQ(stored[0].status, ScenarioStatus::kFailed);
  EXPECT_NE(stored[0].status_detail.find("op log"), std::string::npos) << stored[0].status_detail;
  EXPECT_EQ(stored[0].results.size(), 2u) << "the measurements are kept";
}

}  // namespace
}  // namespace azbench
