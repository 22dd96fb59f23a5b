// The agent as systemd runs it: `serve` tells a real NOTIFY_SOCKET READY=1 once it listens,
// RELOADING=1 / READY=1 around a SIGHUP that re-reads the config, STOPPING=1 on SIGTERM; SIGTERM
// cancels running jobs and removes the files of every run it holds. Real agent process, real
// gRPC over loopback, a real unix datagram socket standing in for the service manager.
#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "common/version.h"
#include "coordinator/fleet/agent_client.h"
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

// A unix datagram socket that receives sd_notify messages, as systemd's NOTIFY_SOCKET does.
class FakeServiceManager {
 public:
  explicit FakeServiceManager(const std::string& path) : path_(path) {
    fd_ = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    path.copy(addr.sun_path, sizeof(addr.sun_path) - 1);
    bound_ = bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    timeval timeout{30, 0};
    setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof(timeout));
  }
  ~FakeServiceManager() {
    close(fd_);
    unlink(path_.c_str());
  }
  bool bound() const { return bound_; }
  // The next message, or "" after 30 s without one.
  std::string Next() {
    char buf[4096];
    const ssize_t n = recv(fd_, buf, sizeof(buf), 0);
    return n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  }

 private:
  std::string path_;
  int fd_ = -1;
  bool bound_ = false;
};

int ReadPort(const std::string& port_file) {
  for (int i = 0; i < 1500; ++i) {
    std::ifstream in(port_file);
    int port = 0;
    if (in >> port && port > 0) return port;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return 0;
}

v1::PrepareRequest PrepareOf(const std::string& run_id, const std::string& directory,
                             const std::string& extra_rw) {
  v1::PrepareRequest request;
  request.set_run_id(run_id);
  request.set_interval_ms(1000);
  v1::JobSpec* job = request.add_jobs();
  job->set_name(run_id);
  job->set_workload("block_io");
  const std::pair<const char*, std::string> options[] = {
      {"directory", directory}, {"rw", extra_rw},   {"bs", "4k"},
      {"size", "1m"},           {"runtime", "60s"}, {"time_based", "1"}};
  for (const auto& [key, value] : options) {
    v1::JobOption* option = job->add_options();
    option->set_key(key);
    option->set_value(value);
  }
  return request;
}

class AgentLifecycleTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    fs::create_directories(dir_.File("data"));
  }

  void WriteConfig(const std::string& body) {
    std::ofstream out(dir_.File("agent.yaml"));
    out << "listen: 127.0.0.1:0\nagent_id: a1\ninsecure_loopback_only: true\nimds: "
           "disabled\nallowed_roots: ["
        << dir_.path() << "]\n"
        << body;
  }

  // Starts `serve`; with a service manager, NOTIFY_SOCKET points the agent at it.
  void StartAgent(FakeServiceManager* manager) {
    if (manager != nullptr) setenv("NOTIFY_SOCKET", dir_.File("notify.sock").c_str(), 1);
    agent_ = std::make_unique<Subprocess>(
        std::vector<std::string>{AZBENCH_AGENT_BIN, "serve", "--config", dir_.File("agent.yaml"),
                                 "--port-file", dir_.File("port")},
        dir_.File("agent.log"));
    unsetenv("NOTIFY_SOCKET");
    const int port = ReadPort(dir_.File("port"));
    ASSERT_GT(port, 0) << agent_->Output();
    client_ = MakeGrpcAgentClient(absl::StrCat("127.0.0.1:", port));
  }

  TempDir dir_{testing::kDiskBase};
  std::unique_ptr<Subprocess> agent_;
  std::unique_ptr<AgentClient> client_;
};

TEST_F(AgentLifecycleTest, TellsSystemdReadyReloadingAndStoppingAndAppliesLimitsOnSighup) {
  FakeServiceManager manager(dir_.File("notify.sock"));
  ASSERT_TRUE(manager.bound());
  WriteConfig("max_concurrent_runs: 1\nlog_level: info\n");
  StartAgent(&manager);
  const std::string ready = manager.Next();
  EXPECT_TRUE(absl::StrContains(ready, "READY=1")) << ready;
  EXPECT_TRUE(absl::StrContains(ready, "STATUS=listening on 127.0.0.1:0")) << ready;

  ASSERT_TRUE(client_->Prepare(PrepareOf("r1", dir_.File("data"), "read"), absl::Seconds(30)).ok());
  absl::StatusOr<v1::PrepareResponse> refused =
      client_->Prepare(PrepareOf("r2", dir_.File("data"), "read"), absl::Seconds(30));
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kResourceExhausted) << refused.status();

  // Raise the limit and reload: the next Prepare fits without a restart.
  WriteConfig("max_concurrent_runs: 2\nlog_level: debug\nlisten: 127.0.0.1:1\n");
  agent_->Signal(SIGHUP);
  EXPECT_TRUE(absl::StrContains(manager.Next(), "RELOADING=1"));
  EXPECT_TRUE(absl::StrContains(manager.Next(), "READY=1"));
  EXPECT_TRUE(client_->Prepare(PrepareOf("r2", dir_.File("data"), "read"), absl::Seconds(30)).ok());
  const std::string log = agent_->Output();
  EXPECT_TRUE(absl::StrContains(log, "applied [log_level, max_concurrent_runs]")) << log;
  EXPECT_TRUE(absl::StrContains(log, "needs a restart: [listen]")) << log;

  agent_->Signal(SIGTERM);
  EXPECT_TRUE(absl::StrContains(manager.Next(), "STOPPING=1"));
  EXPECT_EQ(agent_->Wait(std::chrono::seconds(30)), 0) << agent_->Output();
}

TEST_F(AgentLifecycleTest, SighupWithABrokenConfigKeepsTheRunningOne) {
  FakeServiceManager manager(dir_.File("notify.sock"));
  ASSERT_TRUE(manager.bound());
  WriteConfig("max_concurrent_runs: 1\n");
  StartAgent(&manager);
  ASSERT_TRUE(absl::StrContains(manager.Next(), "READY=1"));
  WriteConfig("max_concurrent_runs: 1\nlog_level: loud\n");
  agent_->Signal(SIGHUP);
  EXPECT_TRUE(absl::StrContains(manager.Next(), "RELOADING=1"));
  EXPECT_TRUE(absl::StrContains(manager.Next(), "READY=1"));
  const std::string log = agent_->Output();
  EXPECT_TRUE(absl::StrContains(log, "reload refused, keeping the running config")) << log;
  EXPECT_TRUE(absl::StrContains(log, "log level 'loud' is not one of")) << log;
  v1::HelloRequest hello;
  hello.set_protocol_version(kProtocolVersion);
  EXPECT_TRUE(client_->Hello(hello, absl::Seconds(30)).ok());
  agent_->Signal(SIGTERM);
  EXPECT_EQ(agent_->Wait(std::chrono::seconds(30)), 0) << agent_->Output();
}

TEST_F(AgentLifecycleTest, SigtermStopsARunningJobAndRemovesTheFilesOfEveryRun) {
  WriteConfig("max_concurrent_runs: 4\n");
  StartAgent(nullptr);
  // One run only prepared (its file laid out), one running a 60 s time-based job.
  ASSERT_TRUE(
      client_->Prepare(PrepareOf("idle", dir_.File("data"), "read"), absl::Seconds(30)).ok());
  ASSERT_TRUE(
      client_->Prepare(PrepareOf("busy", dir_.File("data"), "randwrite"), absl::Seconds(30)).ok());
  ASSERT_GE(CountFiles(dir_.File("data")), 2u);
  std::atomic<bool> started{false};
  absl::Status run_status;
  std::thread runner([&] {
    v1::RunRequest request;
    request.set_run_id("busy");
    run_status = client_->Run(request, [&](const v1::RunEvent& event) {
      if (event.has_started()) started = true;
      return true;
    });
  });
  for (int i = 0; i < 1500 && !started; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_TRUE(started.load());
  agent_->Signal(SIGTERM);
  const int exit_code = agent_->Wait(std::chrono::seconds(30));
  runner.join();
  EXPECT_EQ(exit_code, 0) << agent_->Output();
  EXPECT_EQ(CountFiles(dir_.File("data")), 0u) << agent_->Output();
}

TEST_F(AgentLifecycleTest, UnderJournaldLinesCarryTheSyslogPriority) {
  WriteConfig("log_level: info\n");
  setenv("JOURNAL_STREAM", "8:12345", 1);  // what systemd sets when stderr goes to the journal
  StartAgent(nullptr);
  unsetenv("JOURNAL_STREAM");
  agent_->Signal(SIGTERM);
  ASSERT_EQ(agent_->Wait(std::chrono::seconds(30)), 0) << agent_->Output();
  const std::string log = agent_->Output();
  EXPECT_TRUE(absl::StrContains(log, "<6>info [a1 agent] listening on 127.0.0.1:0")) << log;
  EXPECT_FALSE(std::regex_search(log, std::regex("[0-9]{4}-[0-9]{2}-[0-9]{2}T")))
      << "no timestamps: journald adds its own\n"
      << log;
}

}  // namespace
}  // namespace azbench
