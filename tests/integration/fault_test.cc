// Faults on real processes: agents started by the test (so it can kill, stop and restart them), the
// real `azbench` coordinator binary, a real SQLite results file. Each case ends with: results
// already stored intact, a clear record of what was lost, no orphan files, and a non-zero exit
// where the campaign is incomplete.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
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
using Clock = std::chrono::steady_clock;

template <typename Predicate>
bool WaitFor(Predicate done, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!done()) {
    if (Clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return true;
}

// One agent process on a fixed loopback port, so it can be restarted at the same address.
class Agent {
 public:
  Agent(std::string id, std::string az, std::string log_path, std::vector<std::string> env = {},
        std::vector<std::string> extra_flags = {})
      : id_(std::move(id)),
        az_(std::move(az)),
        log_path_(std::move(log_path)),
        env_(std::move(env)),
        extra_flags_(std::move(extra_flags)),
        port_(testing::UnusedLoopbackPort()) {}
  std::string address() const { return absl::StrCat("127.0.0.1:", port_); }

  void Start() {
    std::vector<std::string> args;
    if (!env_.empty()) {
      args.push_back("/usr/bin/env");
      args.insert(args.end(), env_.begin(), env_.end());
    }
    args.insert(args.end(),
                {AZBENCH_AGENT_BIN, "serve", "--listen=" + address(), "--agent-id=" + id_,
                 "--az=" + az_, "--region=local", "--log-level=warn", "--imds=disabled",
                 // Plaintext on loopback; the tests' directories live under these roots.
                 "--insecure-loopback-only", "--allowed-root=/var/tmp", "--allowed-root=/dev/shm",
                 // A killed coordinator's runs end (files removed) 2 s after the break, not 30.
                 "--reattach-grace-ms=2000"});
    args.insert(args.end(), extra_flags_.begin(), extra_flags_.end());
    process_ = std::make_unique<Subprocess>(args, log_path_ + "." + std::to_string(++starts_));
    // The coordinator's Hello does not wait for a listener: start it only once this one is up.
    EXPECT_TRUE(testing::WaitForLoopbackPort(port_, std::chrono::seconds(10))) << address();
  }
  pid_t pid() const { return process_ ? process_->pid() : -1; }
  void Kill() {
    if (process_) {
      process_->Signal(SIGKILL);
      process_->Wait(std::chrono::seconds(10));
    }
  }
  ~Agent() {
    if (process_) {
      process_->Signal(SIGCONT);
      process_->Signal(SIGTERM);
      if (process_->Wait(std::chrono::seconds(10)) == -1) Kill();
    }
  }

 private:
  std::string id_, az_, log_path_;
  std::vector<std::string> env_;
  std::vector<std::string> extra_flags_;
  int port_;
  int starts_ = 0;
  std::unique_ptr<Subprocess> process_;
};

class FaultTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(shm_.ok());
  }

  void StartAgents(int n, std::vector<std::string> env_for_second = {}) {
    for (int i = 0; i < n; ++i) {
      agents_.push_back(std::make_unique<Agent>(
          absl::StrCat("agent-", i + 1), i % 2 == 0 ? "az-a" : "az-b",
          dir_.File(absl::StrCat("agent", i + 1, ".log")),
          i == 1 ? env_for_second : std::vector<std::string>{}, extra_agent_flags_));
      agents_.back()->Start();
    }
  }

  std::string WriteCampaign(const std::string& target_path, const std::string& options,
                            int repeats = 1, const std::string& extra = "") {
    std::vector<std::string> hosts;
    for (const auto& a : agents_) hosts.push_back(a->address());
    const std::string path = dir_.File("campaign.yaml");
    std::ofstream(path) << testing::CampaignHead("faults", hosts)
                        << "targets:\n  - {name: t, path: " << target_path
                        << ", kind: local}\nworkloads:\n  - name: w\n    options: {" << options
                        << "}\nrepeats: " << repeats << "\n"
                        << extra;
    return path;
  }

  std::vector<ScenarioResult> Stored() { return testing::StoredScenarios(dir_.File("results.db")); }

  TempDir dir_{testing::kDiskBase};
  TempDir shm_{testing::kTmpfsBase};
  std::vector<std::string> extra_agent_flags_;  // e.g. --allowed-root for a test's own mount
  std::vector<std::unique_ptr<Agent>> agents_;
};

TEST_F(FaultTest, AnAgentRestartedBetweenScenariosTakesPartInTheNextOnes) {
  StartAgents(2);
  // A cooldown between scenarios gives the restart a window with no files laid out (without it,
  // the next scenario's prepare follows within milliseconds and the 20 ms poll below could miss
  // the gap and kill the agent during the third scenario's prepare instead).
  const std::string campaign =
      WriteCampaign(shm_.path(), "rw: randread, bs: 4k, size: 1m, runtime: 2s, time_based: 1", 3,
                    "cooldown: 1s\n");
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  // Kill agent 2 right after the first scenario is stored, and bring it back at once.
  ASSERT_TRUE(WaitFor(
      [&] {
        return fs::exists(dir_.File("results.db")) &&
               azbench.Output().find("repeat=1: complete") != std::string::npos &&
               CountFiles(shm_.path()) == 0;
      },
      std::chrono::seconds(60)))
      << azbench.Output();
  agents_[1]->Kill();
  agents_[1]->Start();
  const int rc = azbench.Wait(std::chrono::seconds(120));
  ASSERT_NE(rc, -1) << azbench.Output();
  const std::vector<ScenarioResult> stored = Stored();
  ASSERT_EQ(stored.size(), 3u) << azbench.Output();
  EXPECT_EQ(stored[0].status, ScenarioStatus::kComplete) << stored[0].status_detail;
  // The restart lands between scenarios or during the second one's prepare; the last one runs on
  // both agents again.
  EXPECT_EQ(stored[2].status, ScenarioStatus::kComplete) << stored[2].status_detail << "\n"
                                                         << azbench.Output();
  EXPECT_EQ(stored[2].results.size(), 2u);
  EXPECT_EQ(rc == 0, stored[1].status == ScenarioStatus::kComplete) << azbench.Output();
  EXPECT_EQ(CountFiles(shm_.path()), 0u) << "no orphan files";
}

TEST_F(FaultTest, ACoordinatorKilledMidRunResumesWithoutLosingStoredScenarios) {
  StartAgents(2);
  const std::string campaign =
      WriteCampaign(shm_.path(), "rw: randread, bs: 4k, size: 1m, runtime: 4s, time_based: 1", 3);
  {
    Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out1.txt"));
    // Kill it while the second scenario runs: after the first is stored and files are laid out
    // again, once both agents have streamed an interval of the second (so their open Run streams
    // are the lease that breaks, not a prepared run's lease).
    ASSERT_TRUE(WaitFor(
        [&] {
          return azbench.Output().find("repeat=1: complete") != std::string::npos &&
                 CountFiles(shm_.path()) == 2;
        },
        std::chrono::seconds(60)))
        << azbench.Output();
    ASSERT_TRUE(testing::WaitForStagedIntervals(dir_.File("results.db"), "/repeat=2",
                                                {"agent-1", "agent-2"}, std::chrono::seconds(60)))
        << azbench.Output();
    azbench.Signal(SIGKILL);
    ASSERT_NE(azbench.Wait(std::chrono::seconds(10)), -1);
  }
  const std::vector<ScenarioResult> before = Stored();
  ASSERT_GE(before.size(), 1u);
  EXPECT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 0; }, std::chrono::seconds(15)))
      << "agents removed the killed run's files when the lease broke";

  Subprocess resumed({AZBENCH_BIN, "run", campaign, "--resume"}, dir_.File("out2.txt"));
  EXPECT_EQ(resumed.Wait(std::chrono::seconds(120)), 0) << resumed.Output();
  EXPECT_NE(resumed.Output().find("skipped (--resume)"), std::string::npos) << resumed.Output();
  const std::vector<ScenarioResult> after = Stored();
  ASSERT_EQ(after.size(), 3u);
  for (const ScenarioResult& s : after) {
    EXPECT_EQ(s.status, ScenarioStatus::kComplete) << s.scenario.key << ": " << s.status_detail;
  }
  // The scenario stored before the kill is the same row, untouched.
  EXPECT_EQ(after[0].scenario.key, before[0].scenario.key);
  EXPECT_EQ(after[0].results.size(), before[0].results.size());
  EXPECT_EQ(after[0].first_start_realtime_ns, before[0].first_start_realtime_ns);
  EXPECT_EQ(CountFiles(shm_.path()), 0u);
}

TEST_F(FaultTest, ACoordinatorKilledBetweenPrepareAndRunLeavesNoFiles) {
  StartAgents(2);
  const std::string campaign =
      WriteCampaign(shm_.path(), "rw: randread, bs: 4k, size: 1m, runtime: 1s, time_based: 1", 2,
                    "cooldown: 4s\n");
  Subprocess azbench({AZBENCH_BIN, "run", campaign, "--prepared-lease", "2s"},
                     dir_.File("out.txt"));
  // During the cooldown after the first scenario, agent 2 is stopped: in the second scenario its
  // Prepare hangs and the coordinator waits at the prepare barrier while agent 1 holds a prepared
  // run and its files. The coordinator dies there: no Run stream is ever opened, so only the
  // prepared run's lease (2 s here) can tell agent 1 to remove them.
  ASSERT_TRUE(
      WaitFor([&] { return azbench.Output().find("repeat=1: complete") != std::string::npos; },
              std::chrono::seconds(60)))
      << azbench.Output();
  ASSERT_EQ(kill(agents_[1]->pid(), SIGSTOP), 0);
  ASSERT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 1; }, std::chrono::seconds(30)))
      << azbench.Output();
  // Past two renewals (every lease / 4), so the renewing is exercised, then the kill.
  std::this_thread::sleep_for(std::chrono::milliseconds(1500));
  EXPECT_EQ(CountFiles(shm_.path()), 1u) << "renewed: the prepared run is still there";
  azbench.Signal(SIGKILL);
  ASSERT_NE(azbench.Wait(std::chrono::seconds(10)), -1);
  EXPECT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 0; }, std::chrono::seconds(15)))
      << "agent 1 removed the files of the run that never started";
  ASSERT_EQ(kill(agents_[1]->pid(), SIGCONT), 0);
  // Agent 2 finishes the Prepare nobody waits for any more; its run expires the same way.
  std::this_thread::sleep_for(std::chrono::seconds(1));
  EXPECT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 0; }, std::chrono::seconds(20)))
      << "no orphan files";
}

TEST_F(FaultTest, AStoppedAgentIsLostAfterTheLeaseAndTheOtherAgentsResultIsKept) {
  StartAgents(2);
  const std::string campaign =
      WriteCampaign(shm_.path(), "rw: randread, bs: 4k, size: 1m, runtime: 25s, time_based: 1");
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  ASSERT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 2; }, std::chrono::seconds(30)))
      << azbench.Output();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  ASSERT_EQ(kill(agents_[1]->pid(), SIGSTOP), 0);
  // Keepalive (5 s + 5 s) declares it lost well before the 25 s job ends.
  const int rc = azbench.Wait(std::chrono::seconds(90));
  kill(agents_[1]->pid(), SIGCONT);
  ASSERT_NE(rc, -1) << azbench.Output();
  EXPECT_NE(rc, 0) << "an incomplete campaign exits non-zero";
  const std::vector<ScenarioResult> stored = Stored();
  ASSERT_EQ(stored.size(), 1u) << azbench.Output();
  EXPECT_EQ(stored[0].status, ScenarioStatus::kPartial);
  ASSERT_EQ(stored[0].lost.size(), 1u);
  EXPECT_EQ(stored[0].lost[0].agent_id, "agent-2");
  EXPECT_FALSE(stored[0].lost[0].reason.empty());
  bool survivor = false;
  for (const AgentJobResult& r : stored[0].results) {
    const OpStats* reads = r.result.Find(OpKind::kRead);
    if (r.agent_id == "agent-1") survivor = reads != nullptr && reads->ops > 0;
  }
  EXPECT_TRUE(survivor);
  // Resumed, the stopped agent notices its lease broke and removes its files.
  EXPECT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 0; }, std::chrono::seconds(20)))
      << "no orphan files";
}

// An agent stopped by its service manager (SIGTERM: a package upgrade, systemctl restart) cancels
// its runs and still sends what it measured, flagged cancelled: the scenario is partial, not
// complete, so `run --resume` runs it again.
TEST_F(FaultTest, AnAgentThatStopsMidRunLeavesThePartialScenarioNotComplete) {
  StartAgents(2);
  const std::string campaign =
      WriteCampaign(shm_.path(), "rw: randread, bs: 4k, size: 1m, runtime: 25s, time_based: 1");
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  ASSERT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 2; }, std::chrono::seconds(30)))
      << azbench.Output();
  std::this_thread::sleep_for(std::chrono::seconds(2));
  ASSERT_EQ(kill(agents_[1]->pid(), SIGTERM), 0);
  const int rc = azbench.Wait(std::chrono::seconds(90));
  ASSERT_NE(rc, -1) << azbench.Output();
  EXPECT_NE(rc, 0) << "an incomplete campaign exits non-zero";
  const std::vector<ScenarioResult> stored = Stored();
  ASSERT_EQ(stored.size(), 1u) << azbench.Output();
  EXPECT_EQ(stored[0].status, ScenarioStatus::kPartial) << stored[0].status_detail;
  EXPECT_TRUE(stored[0].lost.empty()) << "the agent finished its stream: it was not lost";
  EXPECT_NE(stored[0].status_detail.find("cancelled by agent-2"), std::string::npos)
      << stored[0].status_detail;
  EXPECT_TRUE(WaitFor([&] { return CountFiles(shm_.path()) == 0; }, std::chrono::seconds(20)))
      << "no orphan files";
}

TEST_F(FaultTest, ADiskFullTargetFailsTheScenarioWithTheReasonAndLeavesNoFiles) {
  testing::ScopedMount small("tmpfs", "4m");
  if (!small.mounted()) GTEST_SKIP() << "cannot mount a small tmpfs: " << small.error();
  // A mount beneath /var/tmp is its own file system: the agents need it as its own allowed root.
  extra_agent_flags_ = {"--allowed-root=" + small.path()};
  StartAgents(2);
  // Two agents x 3 MiB do not fit in 4 MiB: one layout hits ENOSPC, or (when the other's
  // preallocation came first) the free-space check refuses it before it writes.
  const std::string campaign =
      WriteCampaign(small.path(), "rw: write, bs: 64k, size: 3m, runtime: 2s, time_based: 1", 2);
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  const int rc = azbench.Wait(std::chrono::seconds(90));
  ASSERT_NE(rc, -1) << azbench.Output();
  EXPECT_NE(rc, 0) << azbench.Output();
  const std::vector<ScenarioResult> stored = Stored();
  ASSERT_EQ(stored.size(), 2u) << "both repeats are recorded, as failed\n" << azbench.Output();
  for (const ScenarioResult& s : stored) {
    EXPECT_NE(s.status, ScenarioStatus::kComplete);
    EXPECT_TRUE(s.status_detail.find("No space left on device") != std::string::npos ||
                s.status_detail.find("bytes available") != std::string::npos)
        << s.status_detail;
  }
  EXPECT_EQ(CountFiles(small.path()), 0u) << "no orphan files";
}

TEST_F(FaultTest, ATargetDirectoryDeletedMidRunEndsCleanly) {
  StartAgents(2);
  const std::string target = shm_.File("target");
  fs::create_directories(target);
  const std::string campaign =
      WriteCampaign(target, "rw: randrw, bs: 4k, size: 1m, runtime: 4s, time_based: 1", 2);
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  ASSERT_TRUE(WaitFor([&] { return CountFiles(target) == 2; }, std::chrono::seconds(30)))
      << azbench.Output();
  std::this_thread::sleep_for(std::chrono::seconds(1));
  std::error_code ec;
  fs::remove_all(target, ec);
  ASSERT_FALSE(ec) << ec.message();
  const int rc = azbench.Wait(std::chrono::seconds(90));
  ASSERT_NE(rc, -1) << azbench.Output();
  const std::vector<ScenarioResult> stored = Stored();
  ASSERT_EQ(stored.size(), 2u) << azbench.Output();
  // The first repeat ran on open descriptors of the unlinked files and is measured; the second
  // cannot lay out its files beneath a directory that no longer exists and says so.
  EXPECT_EQ(stored[0].results.size(), 2u);
  EXPECT_NE(stored[1].status, ScenarioStatus::kComplete);
  EXPECT_NE(stored[1].status_detail.find(target), std::string::npos) << stored[1].status_detail;
  EXPECT_NE(rc, 0);
  EXPECT_FALSE(fs::exists(target)) << "nothing recreated the deleted directory behind the user";
  for (const auto& a : agents_) EXPECT_EQ(kill(a->pid(), 0), 0) << "agents survive";
}

TEST_F(FaultTest, AnAgentWhoseClockIsOffBySecondsStillStartsInStep) {
  // Agent 2's CLOCK_REALTIME runs 7 s ahead (the test hook shifts every realtime reading it
  // makes); the coordinator measures the offset and schedules its start in its own clock.
  StartAgents(2, {"AZBENCH_TEST_ONLY_REALTIME_OFFSET_NS=7000000000"});
  const std::string campaign =
      WriteCampaign(shm_.path(), "rw: randread, bs: 4k, size: 1m, runtime: 2s, time_based: 1");
  Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File("out.txt"));
  ASSERT_EQ(azbench.Wait(std::chrono::seconds(60)), 0) << azbench.Output();
  const std::vector<ScenarioResult> stored = Stored();
  ASSERT_EQ(stored.size(), 1u);
  ASSERT_EQ(stored[0].results.size(), 2u);
  // Stored starts are on the coordinator's clock. An offset left uncorrected shows either way:
  // the agent ahead starts up to 7 s early (at once, before the planned start) or its start is
  // recorded 7 s off the other's. Starting late is only load: it is bounded loosely.
  const int64_t planned = stored[0].planned_start_realtime_ns;
  const int64_t a = stored[0].results[0].result.start_realtime_ns;
  const int64_t b = stored[0].results[1].result.start_realtime_ns;
  EXPECT_GE(a, planned - 50'000'000) << "started " << (planned - a) << " ns early";
  EXPECT_GE(b, planned - 50'000'000) << "started " << (planned - b) << " ns early";
  EXPECT_LT(std::abs(a - b), 2'000'000'000) << "start skew " << (a - b) << " ns";
  EXPECT_EQ(stored[0].status, ScenarioStatus::kComplete);
}

}  // namespace
}  // namespace azbench
