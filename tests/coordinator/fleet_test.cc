// The first contact with an agent (coordinator/fleet.h, MeasureClockOffset) against a fake client:
// when the first-contact window ends, the error says whether a connection to the agent ever came
// up. The real channel's behaviour (a refused port, a stopped agent) is
// tests/integration/first_contact_test.cc.
#include "coordinator/fleet.h"

#include <string>
#include <utility>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/unimplemented_agent_client.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::Not;
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

}  // namespace
}  // namespace azbench
