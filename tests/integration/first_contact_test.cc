// The coordinator's first contact with an agent (ConnectFleet), on a real agent process on
// loopback: an agent that answers late (stopped through the first connection attempts, not
// listening yet, or slow to answer every new connection, as a loaded machine can starve it) is
// reached once it answers within the window; an agent that is down, or never answers, is reported
// naming its address when the window ends, not later.
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/fleet/local_fleet.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/tcp_proxy.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

// Stops a process (SIGSTOP) until Resume, or until the guard goes away: a failing test leaves no
// stopped agent behind.
class StoppedProcess {
 public:
  explicit StoppedProcess(pid_t pid) : pid_(pid), stopped_(kill(pid, SIGSTOP) == 0) {}
  ~StoppedProcess() { Resume(); }
  StoppedProcess(const StoppedProcess&) = delete;
  StoppedProcess& operator=(const StoppedProcess&) = delete;
  bool stopped() const { return stopped_; }
  void Resume() {
    if (stopped_) kill(pid_, SIGCONT);
    stopped_ = false;
  }

 private:
  pid_t pid_;
  bool stopped_;
};

// A loopback port that refuses connections for as long as this lives: bound (so nothing else takes
// it) and not listening.
class RefusingPort {
 public:
  RefusingPort() : fd_(socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof(addr);
    if (fd_ >= 0 && bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
      port_ = ntohs(addr.sin_port);
    }
  }
  ~RefusingPort() {
    if (fd_ >= 0) close(fd_);
  }
  RefusingPort(const RefusingPort&) = delete;
  RefusingPort& operator=(const RefusingPort&) = delete;
  bool ok() const { return port_ != 0; }
  std::string address() const { return absl::StrCat("127.0.0.1:", port_); }

 private:
  int fd_;
  int port_ = 0;
};

// The port of a "127.0.0.1:<port>" address.
int PortOf(const std::string& address) {
  int port = 0;
  return absl::SimpleAtoi(address.substr(address.rfind(':') + 1), &port) ? port : 0;
}

ConnectOptions Window(absl::Duration window) {
  ConnectOptions options;
  options.timeout = window;
  options.clock_samples = 2;
  return options;
}

class FirstContactTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    fleet_ = testing::StartLoopbackAgents(1, dir_.File("agents"), {});
    ASSERT_NE(fleet_, nullptr);
  }

  TempDir dir_{testing::kDiskBase};
  std::unique_ptr<LocalFleet> fleet_;
};

// The agent listens (its port file is written) but is stopped through the first 6 s of the 10 s
// window, so the coordinator's first connection attempts time out; resumed, it is reached.
TEST_F(FirstContactTest, AnAgentStoppedThroughTheFirstAttemptsIsReachedOnceItResumes) {
  StoppedProcess agent(fleet_->pid(0));
  ASSERT_TRUE(agent.stopped());
  const ConnectOptions options = Window(absl::Seconds(10));
  const absl::Time start = absl::Now();
  std::future<absl::StatusOr<Fleet>> connecting =
      std::async(std::launch::async, [&] { return ConnectFleet(fleet_->addresses(), options); });
  std::this_thread::sleep_for(std::chrono::seconds(6));
  agent.Resume();
  absl::StatusOr<Fleet> fleet = connecting.get();
  ASSERT_TRUE(fleet.ok()) << fleet.status() << " (after " << absl::Now() - start << ")";
  ASSERT_EQ(fleet->members.size(), 1u);
  EXPECT_EQ(fleet->members[0].info.agent_id, "local-1");
}

// Nothing listens at the address through the first 5.5 s of the 10 s window (connections are
// refused, as to an agent still starting); then the agent is there (a proxy to it starts listening
// at that address) and is reached.
TEST_F(FirstContactTest, AnAgentNotListeningYetIsReachedOnceItListens) {
  const int port = testing::UnusedLoopbackPort();
  const ConnectOptions options = Window(absl::Seconds(10));
  const absl::Time start = absl::Now();
  std::future<absl::StatusOr<Fleet>> connecting = std::async(std::launch::async, [&] {
    return ConnectFleet({absl::StrCat("127.0.0.1:", port)}, options);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(5500));
  testing::TcpProxy proxy(PortOf(fleet_->addresses()[0]), port);
  absl::StatusOr<Fleet> fleet = connecting.get();
  ASSERT_TRUE(proxy.ok()) << "port " << port << " was taken meanwhile";
  ASSERT_TRUE(fleet.ok()) << fleet.status() << " (after " << absl::Now() - start << ")";
  ASSERT_EQ(fleet->members.size(), 1u);
  EXPECT_EQ(fleet->members[0].info.agent_id, "local-1");
}

// Every new connection is answered 3 s after it was accepted (the agent behind a proxy that holds
// its replies that long): longer than a connection attempt used to be given (250 ms, growing to
// 2 s), well within the 10 s window.
TEST_F(FirstContactTest, AnAgentSlowToAnswerEveryNewConnectionIsReachedWithinTheWindow) {
  testing::TcpProxy proxy(PortOf(fleet_->addresses()[0]));
  ASSERT_TRUE(proxy.ok());
  proxy.AnswerNewConnectionsAfter(std::chrono::seconds(3));
  const absl::Time start = absl::Now();
  absl::StatusOr<Fleet> fleet = ConnectFleet({proxy.address()}, Window(absl::Seconds(10)));
  ASSERT_TRUE(fleet.ok()) << fleet.status() << " (after " << absl::Now() - start << ")";
  ASSERT_EQ(fleet->members.size(), 1u);
  EXPECT_EQ(fleet->members[0].info.agent_id, "local-1");
}

// The agent sits behind a silent partition (its SYNs dropped, not refused) for the first 9 s, then
// the partition heals: it is reached within a few seconds of healing, not when the kernel's next
// SYN retransmit of a long-lived connect happens to come (1, 3, 7, 15 s after it began without
// Linux 6.5's linear SYN timeouts). What bounds a connect is the socket's TCP_USER_TIMEOUT, which
// gRPC sets to the keepalive timeout (5 s). The same holds for a reconnect after a partition during
// a run, where those seconds come out of the reattach grace.
TEST_F(FirstContactTest, AnAgentBehindASilentPartitionIsReachedSoonAfterItHeals) {
  testing::TcpProxy proxy(PortOf(fleet_->addresses()[0]));
  ASSERT_TRUE(proxy.ok());
  ASSERT_TRUE(proxy.BlackHole());
  const absl::Time start = absl::Now();
  std::future<absl::StatusOr<Fleet>> connecting = std::async(std::launch::async, [&] {
    return ConnectFleet({proxy.address()}, Window(absl::Seconds(20)));
  });
  std::this_thread::sleep_for(std::chrono::seconds(9));
  EXPECT_EQ(proxy.accepted(), 0) << "the partition let a connection through";
  proxy.Heal();
  const absl::Time healed = absl::Now();
  absl::StatusOr<Fleet> fleet = connecting.get();
  const absl::Duration after_heal = absl::Now() - healed;
  ASSERT_TRUE(fleet.ok()) << fleet.status() << " (after " << absl::Now() - start << ")";
  ASSERT_EQ(fleet->members.size(), 1u);
  EXPECT_EQ(fleet->members[0].info.agent_id, "local-1");
  // A connect lives 5 s: its SYNs come 0, 1 and 3 s after it began, and the next attempt begins
  // when it is abandoned, so no gap between two SYNs exceeds 2 s.
  EXPECT_LT(after_heal, absl::Seconds(4)) << "reached " << after_heal << " after the heal";
}

// Nothing listens at the address: connections are refused all through the window, and the error
// names the address and why once the window has passed (not at the first refusal, not much later).
TEST_F(FirstContactTest, AnAgentThatIsDownIsReportedWithItsAddressWhenTheWindowEnds) {
  RefusingPort down;
  ASSERT_TRUE(down.ok());
  const absl::Duration window = absl::Seconds(3);
  const absl::Time start = absl::Now();
  absl::StatusOr<Fleet> fleet = ConnectFleet({down.address()}, Window(window));
  const absl::Duration took = absl::Now() - start;
  ASSERT_FALSE(fleet.ok());
  EXPECT_EQ(fleet.status().code(), absl::StatusCode::kUnavailable) << fleet.status();
  EXPECT_THAT(std::string(fleet.status().message()), HasSubstr("1 of 1 agents unreachable"));
  EXPECT_THAT(std::string(fleet.status().message()),
              HasSubstr(absl::StrCat("agent ", down.address())));
  EXPECT_THAT(std::string(fleet.status().message()), HasSubstr("Connection refused"));
  EXPECT_THAT(std::string(fleet.status().message()), HasSubstr("not reachable within 3s"));
  EXPECT_GE(took, window - absl::Seconds(1)) << "kept trying through the window";
  EXPECT_LT(took, window + absl::Seconds(5)) << "gave up when the window ended";
}

// The agent accepts connections (the kernel does) but never answers: the error names its address
// once the window has passed.
TEST_F(FirstContactTest, AnAgentThatNeverAnswersIsReportedWithItsAddressWhenTheWindowEnds) {
  StoppedProcess agent(fleet_->pid(0));
  ASSERT_TRUE(agent.stopped());
  const absl::Duration window = absl::Seconds(3);
  const absl::Time start = absl::Now();
  absl::StatusOr<Fleet> fleet = ConnectFleet(fleet_->addresses(), Window(window));
  const absl::Duration took = absl::Now() - start;
  // Killed, not resumed: a resumed agent's graceful stop would wait for the connection attempt the
  // coordinator gave up on, which gRPC closes only when its keepalive finds no answer.
  kill(fleet_->pid(0), SIGKILL);
  ASSERT_FALSE(fleet.ok());
  EXPECT_EQ(fleet.status().code(), absl::StatusCode::kUnavailable) << fleet.status();
  EXPECT_THAT(std::string(fleet.status().message()), HasSubstr("1 of 1 agents unreachable"));
  EXPECT_THAT(std::string(fleet.status().message()),
              HasSubstr(absl::StrCat("agent ", fleet_->addresses()[0])));
  EXPECT_THAT(std::string(fleet.status().message()), HasSubstr("not reachable within 3s"));
  EXPECT_LT(took, window + absl::Seconds(5)) << "gave up when the window ended";
}

}  // namespace
}  // namespace azbench
