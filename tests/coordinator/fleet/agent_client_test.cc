// ProceedUntilDelivered: a phase release lost on the way is made again (an agent never told holds
// every other at the barrier), an answer that is not a transport failure is final, and the retries
// stop when the agent no longer needs telling or the time is up. The plaintext hint a failed
// connection gets is given only where a TLS mismatch can be why (AgentClientTlsHintTest).
#include "coordinator/fleet/agent_client.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <deque>
#include <string>
#include <thread>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/unimplemented_agent_client.h"

namespace azbench {
namespace {

// Answers Proceed from a script (OK once it runs out); the other calls are not used here.
class ScriptedProceedClient final : public testing::UnimplementedAgentClient {
 public:
  explicit ScriptedProceedClient(std::deque<absl::Status> answers) : answers_(std::move(answers)) {}
  absl::Status Proceed(const v1::ProceedRequest& request, absl::Duration) override {
    ++calls;
    last_phase = request.phase_index();
    if (answers_.empty()) return absl::OkStatus();
    absl::Status s = answers_.front();
    answers_.pop_front();
    return s;
  }

  int calls = 0;
  int last_phase = -1;

 private:
  std::deque<absl::Status> answers_;
};

v1::ProceedRequest Phase(int index) {
  v1::ProceedRequest request;
  request.set_run_id("r");
  request.set_phase_index(index);
  return request;
}

TEST(ProceedUntilDeliveredTest, CallsLostOnTheWayAreMadeAgainUntilOneArrives) {
  ScriptedProceedClient client({absl::UnavailableError("connection reset"),
                                absl::DeadlineExceededError("deadline exceeded")});
  const absl::Status s = ProceedUntilDelivered(
      client, Phase(2), absl::Seconds(1), [] { return true; }, absl::Seconds(30),
      absl::Milliseconds(1));
  EXPECT_TRUE(s.ok()) << s;
  EXPECT_EQ(client.calls, 3);
  EXPECT_EQ(client.last_phase, 2);
}

TEST(ProceedUntilDeliveredTest, AnAnswerThatIsNotATransportFailureIsFinal) {
  ScriptedProceedClient client({absl::NotFoundError("run 'r' is not known to this agent")});
  const absl::Status s = ProceedUntilDelivered(
      client, Phase(0), absl::Seconds(1), [] { return true; }, absl::Seconds(30),
      absl::Milliseconds(1));
  EXPECT_TRUE(absl::IsNotFound(s)) << s;
  EXPECT_EQ(client.calls, 1);
}

TEST(ProceedUntilDeliveredTest, StopsWhenTheAgentNoLongerNeedsTelling) {
  ScriptedProceedClient client(std::deque<absl::Status>(10, absl::UnavailableError("down")));
  int asked = 0;
  const absl::Status s = ProceedUntilDelivered(
      client, Phase(0), absl::Seconds(1), [&] { return ++asked < 3; }, absl::Seconds(30),
      absl::Milliseconds(1));
  EXPECT_TRUE(absl::IsUnavailable(s)) << s;
  EXPECT_EQ(client.calls, 3) << "two retries, then the agent had finished";
}

TEST(ProceedUntilDeliveredTest, GivesUpWhenTheTimeIsUp) {
  ScriptedProceedClient client(std::deque<absl::Status>(1000, absl::UnavailableError("down")));
  const absl::Status s = ProceedUntilDelivered(
      client, Phase(0), absl::Seconds(1), [] { return true; }, absl::Milliseconds(50),
      absl::Milliseconds(10));
  EXPECT_TRUE(absl::IsUnavailable(s)) << s;
  EXPECT_GE(client.calls, 1);
  EXPECT_LT(client.calls, 1000) << "it never gave up";
}

// A loopback TCP port: listening (and `closing` each connection it accepts, as an agent that
// serves TLS closes a plaintext one, or never accepting, as a stuck agent) or not listening.
class LoopbackPort {
 public:
  enum class Mode { kRefuses, kNeverAnswers, kClosesEachConnection };
  explicit LoopbackPort(Mode mode) {
    fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t length = sizeof(addr);
    if (fd_ < 0 || bind(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) != 0 ||
        getsockname(fd_, reinterpret_cast<sockaddr*>(&addr), &length) != 0) {
      return;
    }
    port_ = ntohs(addr.sin_port);
    if (mode == Mode::kRefuses) {  // bound, never listening: connections are refused
      return;
    }
    if (listen(fd_, 16) != 0) port_ = 0;
    if (mode == Mode::kClosesEachConnection) {
      closer_ = std::thread([this] {
        while (!stop_) {
          pollfd p{fd_, POLLIN, 0};
          if (poll(&p, 1, 20) <= 0) continue;
          const int c = accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
          if (c >= 0) close(c);
        }
      });
    }
  }
  ~LoopbackPort() {
    stop_ = true;
    if (closer_.joinable()) closer_.join();
    if (fd_ >= 0) close(fd_);
  }
  std::string address() const { return absl::StrCat("127.0.0.1:", port_); }
  int port() const { return port_; }

 private:
  int fd_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::thread closer_;
};

constexpr char kPlaintextHint[] = "[plaintext connection: if the agent serves TLS";

absl::Status HelloTo(const LoopbackPort& port, absl::Duration timeout) {
  return MakeGrpcAgentClient(port.address())->Hello(v1::HelloRequest(), timeout).status();
}

TEST(AgentClientTlsHintTest, AConnectionTheAgentClosesGetsTheHint) {
  LoopbackPort port(LoopbackPort::Mode::kClosesEachConnection);
  ASSERT_GT(port.port(), 0);
  const absl::Status s = HelloTo(port, absl::Seconds(10));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_THAT(s.message(), ::testing::HasSubstr(kPlaintextHint));
}

TEST(AgentClientTlsHintTest, ACallThatRunsOutOfTimeGetsNoHint) {
  LoopbackPort port(LoopbackPort::Mode::kNeverAnswers);
  ASSERT_GT(port.port(), 0);
  const absl::Status s = HelloTo(port, absl::Milliseconds(300));
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_THAT(s.message(), ::testing::Not(::testing::HasSubstr(kPlaintextHint)));
}

TEST(AgentClientTlsHintTest, ARefusedPlaintextConnectionGetsNoHint) {
  LoopbackPort port(LoopbackPort::Mode::kRefuses);
  ASSERT_GT(port.port(), 0);
  const absl::Status s = HelloTo(port, absl::Seconds(10));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnavailable) << s;
  EXPECT_THAT(s.message(), ::testing::HasSubstr("Connection refused"));
  EXPECT_THAT(s.message(), ::testing::Not(::testing::HasSubstr(kPlaintextHint)));
}

}  // namespace
}  // namespace azbench
