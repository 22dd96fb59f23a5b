// The first contact with an agent (coordinator/fleet/fleet.h, MeasureClockOffset) against a fake
// client: when the first-contact window ends, the error says whether a connection to the agent ever
// came up. And connecting a fleet of fake agents (ConnectClients): its error says what happened to
// each agent that could not be used. The real channel's behaviour (a refused port, a stopped agent)
// is tests/integration/first_contact_test.cc.
#include "coordinator/fleet/fleet.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/unimplemented_agent_client.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;
using testing::StatusIs;

// Answers every Hello with `hello`, worded as GrpcAgentClient words a gRPC status; its channel is
// connected or not.
class HelloClient final : public testing::UnimplementedAgentClient {
 public:
  HelloClient(absl::StatusCode hello, std::string grpc_message, bool connected)
      : UnimplementedAgentClient("10.0.0.7:7480"),
        hello_(AgentCallError(hello, address(), "Hello", grpc_message)),
        connected_(connected) {}

  bool WaitForConnection(absl::Duration) override { return connected_; }
  absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest&, absl::Duration) override {
    ++hellos;
    return hello_;
  }

  int hellos = 0;

 private:
  absl::Status hello_;
  bool connected_;
};

// The agent (or a proxy in front of it) took the connection and never answered the Hello: that is
// not "not reachable".
TEST(FleetTest, AHelloTimedOutOnAConnectionThatIsUpSaysTheAgentDidNotAnswer) {
  HelloClient client(absl::StatusCode::kDeadlineExceeded, "Deadline Exceeded", /*connected=*/true);
  AgentInfo info;
  EXPECT_THAT(MeasureClockOffset(client, 2, absl::Seconds(10), info),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       AllOf(HasSubstr("agent 10.0.0.7:7480 Hello: Deadline Exceeded"),
                             HasSubstr("(connected, but no answer to Hello within 10s)"),
                             Not(HasSubstr("not reachable")))));
  EXPECT_EQ(client.hellos, 1) << "a timed-out Hello is not tried again";
}

// A connection that never came up (an agent stopped before it sent its HTTP/2 SETTINGS): the Hello
// timed out waiting for it.
TEST(FleetTest, AHelloTimedOutWithoutAConnectionSaysTheAgentWasNotReachable) {
  HelloClient client(absl::StatusCode::kDeadlineExceeded, "Deadline Exceeded", /*connected=*/false);
  AgentInfo info;
  EXPECT_THAT(MeasureClockOffset(client, 2, absl::Seconds(10), info),
              StatusIs(absl::StatusCode::kDeadlineExceeded,
                       AllOf(HasSubstr("agent 10.0.0.7:7480 Hello: Deadline Exceeded"),
                             HasSubstr("(not reachable within 10s)"),
                             Not(HasSubstr("no answer to Hello")))));
}

// A refused connection, still refused when the window (shorter than one retry interval here, so
// the Hello is not tried again) ends.
TEST(FleetTest, ARefusedConnectionSaysTheAgentWasNotReachable) {
  HelloClient client(absl::StatusCode::kUnavailable, "failed to connect: Connection refused",
                     /*connected=*/false);
  AgentInfo info;
  EXPECT_THAT(MeasureClockOffset(client, 2, absl::Milliseconds(100), info),
              StatusIs(absl::StatusCode::kUnavailable,
                       AllOf(HasSubstr("agent 10.0.0.7:7480 Hello: failed to connect"),
                             HasSubstr("(not reachable within 100ms)"))));
}

// An agent for ConnectClients: its Hello answers as a real agent's does (naming `agent_id`), or
// fails with `refusal`, worded as GrpcAgentClient words a gRPC status; its channel never connects
// (so a refusal of kUnavailable is "not reachable").
class FakeAgent final : public testing::UnimplementedAgentClient {
 public:
  FakeAgent(std::string address, std::string agent_id, absl::StatusCode refusal = {},
            std::string grpc_message = "")
      : UnimplementedAgentClient(std::move(address)),
        agent_id_(std::move(agent_id)),
        refusal_(refusal == absl::StatusCode::kOk
                     ? absl::OkStatus()
                     : AgentCallError(refusal, this->address(), "Hello", grpc_message)) {}

  bool WaitForConnection(absl::Duration) override { return false; }
  absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest&, absl::Duration) override {
    if (!refusal_.ok()) return refusal_;
    v1::HelloResponse response;
    response.set_agent_id(agent_id_);
    return response;
  }
  absl::StatusOr<v1::DescribeResponse> Describe(const v1::DescribeRequest&,
                                                absl::Duration) override {
    v1::DescribeResponse response;
    response.mutable_identity()->set_agent_id(agent_id_);
    return response;
  }

 private:
  std::string agent_id_;
  absl::Status refusal_;
};

constexpr char kRefused[] =
    "failed to connect to all addresses; last error: UNAVAILABLE: ipv4:10.0.0.2:7480: Connection "
    "refused";
constexpr char kTokenRefused[] =
    "bearer token refused: the coordinator's token_file does not match the agent's";
constexpr char kOtherVersion[] =
    "protocol version mismatch: coordinator speaks 3 (azbench 0.9.0), agent speaks 2 (azbench "
    "0.8.0)";

ConnectOptions FakeFleetOptions() {
  ConnectOptions options;
  options.clock_samples = 1;
  // Shorter than one retry interval: an unreachable fake is asked once.
  options.timeout = absl::Milliseconds(100);
  options.security.token_file = "token";
  return options;
}

// Agents that answered and refused (the token, the protocol version, an agent_id another agent
// has) are not "unreachable": each is said as what happened, and the error's code is the first
// refusal's.
TEST(ConnectClientsTest, TheErrorSaysWhatHappenedToEachAgentThatCouldNotBeUsed) {
  std::vector<std::unique_ptr<AgentClient>> clients;
  clients.push_back(std::make_unique<FakeAgent>("10.0.0.1:7480", "a"));
  clients.push_back(
      std::make_unique<FakeAgent>("10.0.0.2:7480", "b", absl::StatusCode::kUnavailable, kRefused));
  clients.push_back(std::make_unique<FakeAgent>("10.0.0.3:7480", "c",
                                                absl::StatusCode::kUnauthenticated, kTokenRefused));
  clients.push_back(std::make_unique<FakeAgent>("10.0.0.4:7480", "a"));
  clients.push_back(std::make_unique<FakeAgent>(
      "10.0.0.5:7480", "e", absl::StatusCode::kFailedPrecondition, kOtherVersion));
  absl::StatusOr<Fleet> fleet = ConnectClients(std::move(clients), FakeFleetOptions());
  EXPECT_THAT(
      fleet,
      StatusIs(absl::StatusCode::kUnauthenticated,
               AllOf(StartsWith("4 of 5 agents could not be used: "),
                     HasSubstr(absl::StrCat("agent 10.0.0.2:7480: unreachable (Hello: ", kRefused,
                                            " (not reachable within 100ms))")),
                     HasSubstr(absl::StrCat(
                         "; agent 10.0.0.3:7480: refused the token (Hello: ", kTokenRefused, ")")),
                     HasSubstr("; agent 10.0.0.4:7480 calls itself 'a', as agent 10.0.0.1:7480 "
                               "does: give each a distinct agent_id"),
                     HasSubstr(absl::StrCat(
                         "; agent 10.0.0.5:7480: speaks another protocol version (Hello: ",
                         kOtherVersion, ")")),
                     Not(HasSubstr("--allow-missing")))));
}

// --allow-missing runs without an agent that was not reached, never without one that refused.
TEST(ConnectClientsTest, AllowMissingLeavesOutUnreachableAgentsButNotRefusingOnes) {
  ConnectOptions options = FakeFleetOptions();
  options.allow_missing = true;
  std::vector<std::unique_ptr<AgentClient>> clients;
  clients.push_back(std::make_unique<FakeAgent>("10.0.0.1:7480", "a"));
  clients.push_back(
      std::make_unique<FakeAgent>("10.0.0.2:7480", "b", absl::StatusCode::kUnavailable, kRefused));
  absl::StatusOr<Fleet> fleet = ConnectClients(std::move(clients), options);
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  ASSERT_EQ(fleet->members.size(), 1u);
  EXPECT_EQ(fleet->members[0].info.agent_id, "a");
  ASSERT_EQ(fleet->missing.size(), 1u);
  EXPECT_THAT(fleet->missing[0], StartsWith("agent 10.0.0.2:7480 Hello: failed to connect"));

  clients.clear();
  clients.push_back(std::make_unique<FakeAgent>("10.0.0.1:7480", "a"));
  clients.push_back(
      std::make_unique<FakeAgent>("10.0.0.2:7480", "b", absl::StatusCode::kUnavailable, kRefused));
  clients.push_back(std::make_unique<FakeAgent>(
      "10.0.0.3:7480", "c", absl::StatusCode::kFailedPrecondition, kOtherVersion));
  EXPECT_THAT(ConnectClients(std::move(clients), options),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       AllOf(StartsWith("2 of 3 agents could not be used: agent 10.0.0.2:7480: "
                                        "unreachable ("),
                             HasSubstr("agent 10.0.0.3:7480: speaks another protocol version"))));
}

// When no agent that failed was reached at all, the error reads as it always did (each agent's own
// error), with the way to run without them.
TEST(ConnectClientsTest, AgentsThatWereNotReachedAreSaidUnreachable) {
  std::vector<std::unique_ptr<AgentClient>> clients;
  clients.push_back(std::make_unique<FakeAgent>("10.0.0.1:7480", "a"));
  clients.push_back(
      std::make_unique<FakeAgent>("10.0.0.2:7480", "b", absl::StatusCode::kUnavailable, kRefused));
  EXPECT_THAT(
      ConnectClients(std::move(clients), FakeFleetOptions()),
      StatusIs(absl::StatusCode::kUnavailable,
               absl::StrCat("1 of 2 agents unreachable: agent 10.0.0.2:7480 Hello: ", kRefused,
                            " (not reachable within 100ms) (use --allow-missing to run "
                            "without them)")));
}

}  // namespace
}  // namespace azbench
