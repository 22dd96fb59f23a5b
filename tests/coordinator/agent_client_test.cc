// ProceedUntilDelivered: a phase release lost on the way is made again (an agent never told holds
// every other at the barrier), an answer that is not a transport failure is final, and the retries
// stop when the agent no longer needs telling or the time is up.
#include "coordinator/agent_client.h"

#include <deque>
#include <string>

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

}  // namespace
}  // namespace azbench
