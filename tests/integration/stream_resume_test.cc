// A run stream that breaks is resumed (agent.proto Attach, coordinator/fleet/resumable_run.h): the
// real coordinator (RunScenario) and a real agent process over real gRPC sockets, with a loopback
// TCP proxy between them that resets every connection on the test's word. Cut mid-run and again
// after the jobs finished while their results were still on the wire, the scenario is complete
// with exactly the totals of an uncut run and no interval counted twice; cut while the agent waits
// at a metadata phase barrier, the next phase is released once the stream is resumed; with no
// agent to come back to, the agent is lost as before.
#include <signal.h>

#include <array>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/run/run.h"
#include "gtest/gtest.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/tcp_proxy.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

// Waits for `done`, asked every `period` (a safety deadline only: the test fails if it passes).
bool WaitFor(const std::function<bool()>& done, std::chrono::seconds timeout,
             std::chrono::milliseconds period = std::chrono::milliseconds(2)) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!done()) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(period);
  }
  return true;
}

constexpr uint64_t kOpsPerJob = 512;  // size 2m / bs 4k
constexpr uint64_t kBlockBytes = 4096;

class StreamResumeTest : public ::testing::Test {
 protected:
  // An agent process with reattach grace `grace_ms` behind a proxy, and the coordinator's fleet
  // connected through the proxy.
  void StartAgent(uint64_t grace_ms) {
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(logs_.ok());
    const std::string port_file = logs_.path() + "/port";
    agent_ = std::make_unique<testing::Subprocess>(
        std::vector<std::string>{AZBENCH_AGENT_BIN, "serve", "--listen=127.0.0.1:0",
                                 "--port-file=" + port_file, "--agent-id=agent-r", "--az=az-a",
                                 "--region=local", "--log-level=info", "--imds=disabled",
                                 "--insecure-loopback-only", "--allowed-root=" + dir_.path(),
                                 absl::StrCat("--reattach-grace-ms=", grace_ms)},
        logs_.path() + "/agent.log");
    int port = 0;
    ASSERT_TRUE(WaitFor(
        [&] {
          std::ifstream in(port_file);
          return static_cast<bool>(in >> port) && port > 0;
        },
        std::chrono::seconds(15)))
        << agent_->Output();
    proxy_ = std::make_unique<testing::TcpProxy>(port);
    ASSERT_TRUE(proxy_->ok());
    ConnectOptions connect;
    connect.timeout = absl::Seconds(15);
    absl::StatusOr<Fleet> fleet = ConnectFleet({proxy_->address()}, connect);
    ASSERT_TRUE(fleet.ok()) << fleet.status();
    ASSERT_EQ(fleet->members.size(), 1u);
    EXPECT_EQ(fleet->members[0].info.reattach_grace, absl::Milliseconds(grace_ms))
        << "learnt from Hello";
    fleet_ = std::make_unique<Fleet>(std::move(*fleet));
  }
  void TearDown() override {
    if (coordinator_.joinable()) coordinator_.join();
    fleet_.reset();
    proxy_.reset();
    agent_.reset();  // SIGKILL if still running
  }
  // Runs MakeScenario() on a thread of its own (the coordinator) and waits until it has seen ops:
  // the run is under way, for the test to break. JoinRun() gives the scenario's result.
  void StartRunAndWaitUntilUnderWay() {
    RunOptions options = Options();
    options.on_progress = [this](const LiveProgress& p) { ops_seen_.store(p.ops); };
    coordinator_ =
        std::thread([this, options] { run_ = RunScenario(*fleet_, MakeScenario(), options); });
    EXPECT_TRUE(WaitFor([&] { return ops_seen_.load() > 0; }, std::chrono::seconds(30)));
  }
  ScenarioResult JoinRun() {
    coordinator_.join();
    return std::move(run_);
  }
  // How often the agent said `text` in its log.
  size_t AgentSaid(const std::string& text) const {
    const std::string log = agent_->Output();
    size_t n = 0;
    for (size_t at = log.find(text); at != std::string::npos; at = log.find(text, at + 1)) ++n;
    return n;
  }
  size_t FilesLeft() const {
    size_t n = 0;
    std::error_code ec;
    for (auto it = std::filesystem::recursive_directory_iterator(dir_.path(), ec);
         it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
      if (it->is_regular_file()) ++n;
    }
    return n;
  }

  // A read job and a write job of kOpsPerJob ops each, paced to last about 5 s (room for
  // both cuts and the reconnects between them on a loaded machine).
  Scenario MakeScenario() const {
    Scenario scenario;
    scenario.key = "resume";
    scenario.agent_ids = {"agent-r"};
    for (const char* rw : {"read", "write"}) {
      scenario.jobs.push_back({rw,
                               "block_io",
                               {{"ioengine", "null"},
                                {"rw", rw},
                                {"bs", "4k"},
                                {"size", "2m"},
                                {"rate_iops", "100"},
                                {"directory", dir_.path()}},
                               0});
    }
    return scenario;
  }
  static RunOptions Options() {
    RunOptions options;
    options.interval_ms = 100;
    options.progress_interval_ms = 50;
    options.start_margin = absl::Milliseconds(100);
    return options;
  }

  // Ops and bytes per op kind over the scenario's results; checks that each result's intervals
  // sum to its totals (no interval counted twice or missing).
  static std::array<std::pair<uint64_t, uint64_t>, kOpKindCount> Totals(const ScenarioResult& s) {
    std::array<std::pair<uint64_t, uint64_t>, kOpKindCount> totals{};
    for (const AgentJobResult& r : s.results) {
      for (int k = 0; k < kOpKindCount; ++k) {
        const OpStats* op = r.result.by_kind[k].get();
        if (op == nullptr) continue;
        totals[k].first += op->ops;
        totals[k].second += op->bytes;
        uint64_t interval_ops = 0, interval_bytes = 0;
        for (const IntervalStats& i : r.result.intervals) {
          interval_ops += i.by_kind[k].ops;
          interval_bytes += i.by_kind[k].bytes;
        }
        EXPECT_EQ(interval_ops, op->ops) << r.result.name << " kind " << k;
        EXPECT_EQ(interval_bytes, op->bytes) << r.result.name << " kind " << k;
      }
    }
    return totals;
  }

  static std::vector<std::string> Warnings(const ScenarioResult& s) {
    std::vector<std::string> out;
    for (const AgentJobResult& r : s.results) {
      for (const std::string& w : r.result.warnings) out.push_back(w);
    }
    return out;
  }

  testing::TempDir dir_{testing::kTmpfsBase};
  testing::TempDir logs_;
  std::unique_ptr<testing::Subprocess> agent_;
  std::unique_ptr<testing::TcpProxy> proxy_;
  std::unique_ptr<Fleet> fleet_;
  std::thread coordinator_;  // StartRunAndWaitUntilUnderWay's
  std::atomic<uint64_t> ops_seen_{0};
  ScenarioResult run_;
};

TEST_F(StreamResumeTest, CutsMidRunAndOnTheFinalResultsLoseNothing) {
  StartAgent(/*grace_ms=*/10'000);
  const Scenario scenario = MakeScenario();
  // The same scenario without a cut, for the totals.
  const ScenarioResult uncut = RunScenario(*fleet_, scenario, Options());
  ASSERT_EQ(uncut.status, ScenarioStatus::kComplete) << uncut.status_detail;
  const size_t runs_finished = AgentSaid(" finished");  // "run <id> finished"

  std::mutex said_mu;
  std::vector<std::string> said;
  std::atomic<uint64_t> ops_seen{0};
  RunOptions options = Options();
  options.on_progress = [&](const LiveProgress& p) { ops_seen.store(p.ops); };
  options.on_warning = [&](const std::string& w) {
    std::lock_guard<std::mutex> lock(said_mu);
    said.push_back(w);
  };
  auto resumes = [&] {
    std::lock_guard<std::mutex> lock(said_mu);
    return said.size();
  };
  ScenarioResult cut;
  std::thread coordinator([&] { cut = RunScenario(*fleet_, scenario, options); });
  // Mid-run: once the coordinator has seen ops (a fraction of the 1024).
  bool cutting = WaitFor([&] { return ops_seen.load() > 0; }, std::chrono::seconds(30));
  EXPECT_TRUE(cutting) << "the run never reported progress";
  EXPECT_EQ(AgentSaid(" finished"), runs_finished) << "the cut came too late to be mid-run";
  if (cutting) {
    proxy_->ResetAll();
    // Resumed: hold the agent's replies, let the jobs finish (their results and RunFinished go
    // into the held connection), then cut again: the results were on the wire.
    cutting = WaitFor([&] { return resumes() >= 1; }, std::chrono::seconds(30));
    EXPECT_TRUE(cutting) << "the stream was not resumed after the first cut";
  }
  if (cutting) {
    EXPECT_EQ(AgentSaid(" finished"), runs_finished) << "the jobs ended before the resume";
    proxy_->HoldReplies();
    EXPECT_TRUE(
        WaitFor([&] { return AgentSaid(" finished") > runs_finished; }, std::chrono::seconds(30)))
        << agent_->Output();
    proxy_->ResetAll();
  }
  coordinator.join();

  EXPECT_EQ(cut.status, ScenarioStatus::kComplete) << cut.status_detail;
  EXPECT_TRUE(cut.lost.empty());
  ASSERT_EQ(cut.results.size(), 2u);
  const auto totals = Totals(cut);
  EXPECT_EQ(totals, Totals(uncut)) << "the same totals as without a cut";
  EXPECT_EQ(totals[static_cast<int>(OpKind::kRead)].first, kOpsPerJob);
  EXPECT_EQ(totals[static_cast<int>(OpKind::kRead)].second, kOpsPerJob * kBlockBytes);
  EXPECT_EQ(totals[static_cast<int>(OpKind::kWrite)].first, kOpsPerJob);
  EXPECT_EQ(totals[static_cast<int>(OpKind::kWrite)].second, kOpsPerJob * kBlockBytes);
  for (const AgentJobResult& r : cut.results) {
    int resumed = 0;
    for (const std::string& w : r.result.warnings) {
      if (w.find("broke and was resumed") != std::string::npos) ++resumed;
      EXPECT_EQ(w.find("partial"), std::string::npos) << w;
    }
    EXPECT_EQ(resumed, 2) << r.result.name << ": " << absl::StrJoin(r.result.warnings, "; ");
  }
  EXPECT_EQ(resumes(), 2u) << "each resume is said as it happens";
  std::lock_guard<std::mutex> lock(said_mu);
  for (const std::string& w : said) EXPECT_NE(w.find("agent-r"), std::string::npos) << w;
  for (const std::string& w : Warnings(uncut)) {
    EXPECT_EQ(w.find("resumed"), std::string::npos) << w;
  }
  EXPECT_TRUE(WaitFor([&] { return FilesLeft() == 0; }, std::chrono::seconds(15)))
      << "the coordinator's Cleanup removed the files";
}

// The stream is cut while the agent waits at a metadata phase barrier: its PhaseDone was on the
// wire (held with the rest of its replies, then lost with the connection), so nothing released the
// next phase. The resumed stream replays it, the coordinator releases the delete phase, and the
// scenario completes with every op of both phases.
TEST_F(StreamResumeTest, CutWhileTheAgentWaitsAtAPhaseBarrierReleasesTheNextPhaseAfterTheResume) {
  StartAgent(/*grace_ms=*/10'000);
  // A create phase of a second or more here in any build (16 KiB written into each file, 320 MiB
  // of tmpfs), so the hold below begins well before it ends, and of seconds, well within
  // keepalive's 10 s.
  constexpr uint64_t kFiles = 20'000;
  Scenario scenario;
  scenario.key = "barrier";
  scenario.agent_ids = {"agent-r"};
  scenario.jobs.push_back({"md",
                           "metadata",
                           {{"files", absl::StrCat(kFiles)},
                            {"dirs", "10"},
                            {"phases", "create,delete"},
                            {"write_bytes", "16k"},
                            {"directory", dir_.path()}},
                           0});
  std::atomic<uint64_t> ops_seen{0};
  std::mutex said_mu;
  std::vector<std::string> said;
  RunOptions options = Options();
  options.on_progress = [&](const LiveProgress& p) { ops_seen.store(p.ops); };
  options.on_warning = [&](const std::string& w) {
    std::lock_guard<std::mutex> lock(said_mu);
    said.push_back(w);
  };
  ScenarioResult result;
  std::thread coordinator([&] { result = RunScenario(*fleet_, scenario, options); });
  bool cutting = WaitFor([&] { return ops_seen.load() > 0; }, std::chrono::seconds(30));
  EXPECT_TRUE(cutting) << "the run never reported progress";
  if (cutting) {
    proxy_->HoldReplies();
    const uint64_t seen_at_hold = ops_seen.load();
    // Every file created: the agent reports the phase (into the held connection) and waits.
    // (Counting 20000 files is work: asked every 50 ms, not to starve the agent of a core.)
    cutting = WaitFor([&] { return FilesLeft() >= kFiles; }, std::chrono::seconds(60),
                      std::chrono::milliseconds(50));
    EXPECT_TRUE(cutting) << "the create phase did not end: " << FilesLeft() << " files";
    if (cutting) {
      // Nothing releases the delete phase while the PhaseDone is held (the files stay).
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      EXPECT_EQ(FilesLeft(), kFiles)
          << "the delete phase began before the cut: the hold came too late (" << seen_at_hold
          << " create ops seen when it began)";
    }
    proxy_->ResetAll();
  }
  coordinator.join();

  EXPECT_EQ(result.status, ScenarioStatus::kComplete) << result.status_detail;
  EXPECT_TRUE(result.lost.empty());
  const auto totals = Totals(result);
  EXPECT_EQ(totals[static_cast<int>(OpKind::kCreate)].first, kFiles);
  EXPECT_EQ(totals[static_cast<int>(OpKind::kUnlink)].first, kFiles) << "the delete phase ran";
  ASSERT_FALSE(result.results.empty());
  for (const AgentJobResult& r : result.results) {  // one per phase
    int resumed = 0;
    for (const std::string& w : r.result.warnings) {
      if (w.find("broke and was resumed") != std::string::npos) ++resumed;
    }
    EXPECT_EQ(resumed, 1) << r.result.name << ": " << absl::StrJoin(r.result.warnings, "; ");
  }
  {
    std::lock_guard<std::mutex> lock(said_mu);
    EXPECT_EQ(said.size(), 1u) << absl::StrJoin(said, "; ");
  }
  EXPECT_EQ(FilesLeft(), 0u) << "the delete phase removed every file";
}

TEST_F(StreamResumeTest, WithTheAgentKilledTheAgentIsLostAsBefore) {
  StartAgent(/*grace_ms=*/1000);
  StartRunAndWaitUntilUnderWay();
  // Progress counts an op at once; intervals come every 100 ms: 60 ops at 2 x 100 IOPS are about
  // three intervals in.
  ASSERT_TRUE(WaitFor([&] { return ops_seen_.load() >= 60; }, std::chrono::seconds(30)));
  agent_->Signal(SIGKILL);  // nothing to reattach to: the proxy's connections to it fail
  const ScenarioResult result = JoinRun();
  EXPECT_EQ(result.status, ScenarioStatus::kPartial) << result.status_detail;
  ASSERT_EQ(result.lost.size(), 1u);
  EXPECT_EQ(result.lost[0].agent_id, "agent-r");
  EXPECT_NE(result.lost[0].reason.find("not resumed"), std::string::npos) << result.lost[0].reason;
  // What was streamed before is kept as partial results.
  uint64_t ops = 0;
  for (const AgentJobResult& r : result.results) {
    for (const auto& op : r.result.by_kind) ops += op ? op->ops : 0;
  }
  EXPECT_GT(ops, 0u);
  EXPECT_LT(ops, 2 * kOpsPerJob);
}

TEST_F(StreamResumeTest, WithNoReattachWithinTheGraceTheAgentCancelsAndRemovesItsFiles) {
  StartAgent(/*grace_ms=*/500);
  StartRunAndWaitUntilUnderWay();
  // The agent's host is gone for the coordinator: connections reset, new ones refused.
  proxy_->Refuse();
  const ScenarioResult result = JoinRun();
  EXPECT_EQ(result.status, ScenarioStatus::kPartial) << result.status_detail;
  ASSERT_EQ(result.lost.size(), 1u);
  EXPECT_NE(result.lost[0].reason.find("not resumed"), std::string::npos) << result.lost[0].reason;
  // The agent, with no Attach within its grace, cancelled the run and removed its files.
  EXPECT_TRUE(WaitFor([&] { return AgentSaid("lease lost") > 0 && FilesLeft() == 0; },
                      std::chrono::seconds(30)))
      << agent_->Output();
}

}  // namespace
}  // namespace azbench
