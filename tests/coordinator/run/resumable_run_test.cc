// Resuming a run stream (coordinator/fleet/resumable_run.h) against a scripted agent client: what
// is asked for after a break, that nothing is consumed twice, which answers end the attempts, and
// that the run's outcome is the one RunFinished carried, whatever the stream ended with.
#include "coordinator/fleet/resumable_run.h"

#include <deque>
#include <string>
#include <vector>

#include "common/clock.h"
#include "common/proto_convert.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/run/run.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

v1::RunEvent Event(uint64_t seq, bool finished = false) {
  v1::RunEvent event;
  event.set_seq(seq);
  if (finished) {
    event.mutable_finished()->set_end_realtime_ns(1);
  } else {
    event.mutable_progress()->set_ops(seq);
  }
  return event;
}

// RunFinished carrying the run's outcome (agent.proto, RunFinished.outcome).
v1::RunEvent Finished(uint64_t seq, const absl::Status& outcome) {
  v1::RunEvent event = Event(seq, /*finished=*/true);
  RunOutcomeToProto(outcome, event.mutable_finished()->mutable_outcome());
  return event;
}

// Each call (Run, then every Attach) sends its events and ends with its status.
struct Call {
  std::vector<v1::RunEvent> events;
  absl::Status status;
};

class ScriptedClient final : public AgentClient {
 public:
  explicit ScriptedClient(std::deque<Call> calls) : calls_(std::move(calls)) {}
  const std::string& address() const override { return address_; }
  absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest&, absl::Duration) override {
    return v1::HelloResponse();
  }
  absl::StatusOr<v1::DescribeResponse> Describe(const v1::DescribeRequest&,
                                                absl::Duration) override {
    return v1::DescribeResponse();
  }
  absl::StatusOr<v1::PrepareResponse> Prepare(const v1::PrepareRequest&, absl::Duration) override {
    return v1::PrepareResponse();
  }
  absl::Status Run(const v1::RunRequest&,
                   const std::function<bool(const v1::RunEvent&)>& on_event) override {
    return Play(on_event);
  }
  absl::Status Attach(const v1::AttachRequest& request, absl::Duration,
                      const std::function<bool(const v1::RunEvent&)>& on_event) override {
    attached_after.push_back(request.after_seq());
    return Play(on_event);
  }
  absl::Status Cancel(const std::string& run_id, absl::Duration) override {
    cancelled.push_back(run_id);
    return absl::OkStatus();
  }
  absl::StatusOr<v1::CleanupResponse> Cleanup(const v1::CleanupRequest&, absl::Duration) override {
    return v1::CleanupResponse();
  }
  absl::Status Renew(const v1::RenewRequest&, absl::Duration) override { return absl::OkStatus(); }
  std::vector<uint64_t> attached_after;
  std::vector<std::string> cancelled;  // Cancel calls, by run id

 private:
  absl::Status Play(const std::function<bool(const v1::RunEvent&)>& on_event) {
    if (calls_.empty()) return absl::NotFoundError("no more calls scripted");
    Call call = std::move(calls_.front());
    calls_.pop_front();
    for (const v1::RunEvent& e : call.events) {
      if (!on_event(e)) return absl::CancelledError("cancelled by the consumer");
    }
    return call.status;
  }
  std::string address_ = "scripted:1";
  std::deque<Call> calls_;
};

ResumeOptions Fast() {
  ResumeOptions options;
  options.grace = absl::Seconds(30);
  options.retry_pause = absl::ZeroDuration();
  return options;
}

v1::RunRequest Request() {
  v1::RunRequest request;
  request.set_run_id("r");
  return request;
}

TEST(ResumableRunTest, ABrokenStreamIsResumedAfterTheLastSeqAndRepeatedEventsAreSkipped) {
  ScriptedClient client({
      {{Event(1), Event(2), Event(3)}, absl::UnavailableError("reset")},
      {{}, absl::UnavailableError("connection refused")},  // not back yet
      // The agent replays from 4 on; 3 arrives again (a replay from an older point).
      {{Event(3), Event(4), Event(5, true)}, absl::OkStatus()},
  });
  std::vector<uint64_t> consumed;
  std::vector<StreamResume> resumes;
  ResumeOptions options = Fast();
  options.on_resumed = [&](const StreamResume& r) { resumes.push_back(r); };
  const absl::Status status = RunResumable(
      client, Request(),
      [&](const v1::RunEvent& e) {
        consumed.push_back(e.seq());
        return true;
      },
      options);
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_EQ(consumed, (std::vector<uint64_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(client.attached_after, (std::vector<uint64_t>{3, 3}));
  ASSERT_EQ(resumes.size(), 1u);
  EXPECT_EQ(resumes[0].after_seq, 3u);
  EXPECT_EQ(resumes[0].attempts, 2);
}

TEST(ResumableRunTest, AStreamThatBreaksTwiceIsResumedTwice) {
  ScriptedClient client({
      {{Event(1)}, absl::UnavailableError("reset")},
      {{Event(2)}, absl::InternalError("RST_STREAM")},
      {{Event(3, true)}, absl::OkStatus()},
  });
  int resumes = 0;
  ResumeOptions options = Fast();
  options.on_resumed = [&](const StreamResume&) { ++resumes; };
  std::vector<uint64_t> consumed;
  EXPECT_TRUE(RunResumable(
                  client, Request(),
                  [&](const v1::RunEvent& e) {
                    consumed.push_back(e.seq());
                    return true;
                  },
                  options)
                  .ok());
  EXPECT_EQ(consumed, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(client.attached_after, (std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(resumes, 2);
}

TEST(ResumableRunTest, NotFoundOrDataLossEndsTheAttemptsAndTheBreakIsFinal) {
  for (const absl::Status& answer :
       {absl::NotFoundError("grace over"), absl::DataLossError("oldest kept is seq 9")}) {
    ScriptedClient client({{{Event(1)}, absl::UnavailableError("reset")}, {{}, answer}});
    const absl::Status status = RunResumable(
        client, Request(), [](const v1::RunEvent&) { return true; }, Fast());
    EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable) << status;
    EXPECT_NE(status.message().find("reset"), std::string::npos) << status;
    EXPECT_NE(status.message().find(answer.message()), std::string::npos) << status;
    EXPECT_EQ(client.attached_after.size(), 1u);
    EXPECT_EQ(client.cancelled, (std::vector<std::string>{"r"}))
        << "the agent may still run it: it is told to stop";
  }
}

TEST(ResumableRunTest, AStreamGivenUpOnForALocalErrorCancelsTheRun) {
  ScriptedClient client({{{Event(1)}, absl::ResourceExhaustedError("message larger than max")}});
  const absl::Status status = RunResumable(
      client, Request(), [](const v1::RunEvent&) { return true; }, Fast());
  EXPECT_EQ(status.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_TRUE(client.attached_after.empty());
  EXPECT_EQ(client.cancelled, (std::vector<std::string>{"r"}));
}

TEST(ResumableRunTest, AFinishedOrStoppedRunIsNotCancelled) {
  {
    ScriptedClient client({{{Event(1), Event(2, true)}, absl::OkStatus()}});
    EXPECT_TRUE(RunResumable(
                    client, Request(), [](const v1::RunEvent&) { return true; }, Fast())
                    .ok());
    EXPECT_TRUE(client.cancelled.empty());
  }
  {
    ScriptedClient client({{{Event(1)}, absl::UnavailableError("reset")}});
    ResumeOptions options = Fast();
    options.keep_trying = [] { return false; };  // Ctrl-C: the coordinator cancels itself
    EXPECT_FALSE(RunResumable(
                     client, Request(), [](const v1::RunEvent&) { return true; }, options)
                     .ok());
    EXPECT_TRUE(client.cancelled.empty());
  }
}

TEST(ResumableRunTest, NoAttachWhileCancellingNorAfterTheConsumerStopped) {
  {
    ScriptedClient client({{{Event(1)}, absl::UnavailableError("reset")}});
    ResumeOptions options = Fast();
    options.keep_trying = [] { return false; };  // Ctrl-C
    const absl::Status status = RunResumable(
        client, Request(), [](const v1::RunEvent&) { return true; }, options);
    EXPECT_FALSE(status.ok());
    EXPECT_TRUE(client.attached_after.empty());
  }
  {
    ScriptedClient client({{{Event(1), Event(2)}, absl::OkStatus()}});
    const absl::Status status = RunResumable(
        client, Request(), [](const v1::RunEvent&) { return false; }, Fast());
    EXPECT_EQ(status.code(), absl::StatusCode::kCancelled);
    EXPECT_TRUE(client.attached_after.empty());
  }
}

TEST(ResumableRunTest, ARefusedRunOrAnAgentWithoutGraceIsNotResumed) {
  {
    ScriptedClient client({{{}, absl::FailedPreconditionError("already run")}});
    EXPECT_EQ(RunResumable(
                  client, Request(), [](const v1::RunEvent&) { return true; }, Fast())
                  .code(),
              absl::StatusCode::kFailedPrecondition);
    EXPECT_TRUE(client.attached_after.empty());
  }
  {
    ScriptedClient client({{{Event(1)}, absl::UnavailableError("reset")}});
    ResumeOptions options = Fast();
    options.grace = absl::ZeroDuration();
    EXPECT_EQ(RunResumable(
                  client, Request(), [](const v1::RunEvent&) { return true; }, options)
                  .code(),
              absl::StatusCode::kUnavailable);
    EXPECT_TRUE(client.attached_after.empty());
  }
}

TEST(ResumableRunTest, AnAgentUnreachableForTheWholeGraceIsGivenUpOn) {
  std::deque<Call> calls = {{{Event(1)}, absl::UnavailableError("reset")}};
  for (int i = 0; i < 1000; ++i) calls.push_back({{}, absl::UnavailableError("refused")});
  ScriptedClient client(std::move(calls));
  ResumeOptions options;
  options.grace = absl::Milliseconds(50);
  options.retry_pause = absl::Milliseconds(10);
  const absl::Status status = RunResumable(
      client, Request(), [](const v1::RunEvent&) { return true; }, options);
  EXPECT_EQ(status.code(), absl::StatusCode::kUnavailable);
  EXPECT_NE(status.message().find("no reattach within"), std::string::npos) << status;
  EXPECT_GE(client.attached_after.size(), 1u);
  EXPECT_LT(client.attached_after.size(), 1000u);
}

// The stream broke after RunFinished reached the coordinator, before the stream's status did: the
// run's outcome is the one RunFinished carried, not the break; nothing is reattached for it.
TEST(ResumableRunTest, ABreakAfterRunFinishedKeepsTheRunsOwnOutcome) {
  const absl::Status job_error =
      absl::NotFoundError("job 'c2c': rel_dir: mkdir /m/c2c: No such file or directory");
  {
    ScriptedClient client({{{Event(1), Finished(2, job_error)}, absl::UnavailableError("reset")}});
    const absl::Status status = RunResumable(
        client, Request(), [](const v1::RunEvent&) { return true; }, Fast());
    EXPECT_EQ(status.code(), absl::StatusCode::kNotFound) << status;
    EXPECT_EQ(std::string(status.message()),
              "agent scripted:1 Run: job 'c2c': rel_dir: mkdir /m/c2c: No such file or directory");
    EXPECT_TRUE(client.attached_after.empty());
    EXPECT_TRUE(client.cancelled.empty());
  }
  {
    ScriptedClient client(
        {{{Event(1), Finished(2, absl::OkStatus())}, absl::UnavailableError("reset")}});
    const absl::Status status = RunResumable(
        client, Request(), [](const v1::RunEvent&) { return true; }, Fast());
    EXPECT_TRUE(status.ok()) << status << ": the run succeeded; only its stream's end was lost";
  }
  {
    // An agent that sends no outcome: the stream's status, as before.
    ScriptedClient client({{{Event(1), Event(2, true)}, absl::InternalError("job 'j': failed")}});
    EXPECT_EQ(RunResumable(
                  client, Request(), [](const v1::RunEvent&) { return true; }, Fast())
                  .code(),
              absl::StatusCode::kInternal);
  }
}

// The whole scenario: an agent whose job failed, and whose stream then broke before its status
// arrived, fails the scenario with the job's own error, not the break.
TEST(RunScenarioOutcomeTest, AJobErrorCarriedByRunFinishedSurvivesABreakBeforeTheStatus) {
  v1::RunEvent started;
  started.set_seq(1);
  started.mutable_started()->set_start_realtime_ns(RealtimeNanos());
  JobResult result;
  result.name = "c2c";
  v1::RunEvent result_event;
  result_event.set_seq(2);
  JobResultToProto(result, result_event.mutable_result());
  const absl::Status job_error =
      absl::NotFoundError("job 'c2c': rel_dir: mkdir /m/c2c: No such file or directory");
  Fleet fleet;
  FleetMember& member = fleet.members.emplace_back();
  member.info.agent_id = "a1";
  member.info.reattach_grace = absl::Seconds(30);
  member.client = std::make_unique<ScriptedClient>(std::deque<Call>{
      {{started, result_event, Finished(3, job_error)}, absl::UnavailableError("Socket closed")}});
  Scenario scenario;
  scenario.key = "outcome";
  scenario.agent_ids = {"a1"};
  scenario.jobs.push_back({"c2c", "block_io", {{"ioengine", "null"}}, 0});
  RunOptions options;
  options.start_margin = absl::Milliseconds(10);
  options.progress_interval_ms = 10;
  const ScenarioResult out = RunScenario(fleet, scenario, options);
  EXPECT_EQ(out.status, ScenarioStatus::kFailed) << out.status_detail;
  EXPECT_TRUE(out.lost.empty());
  EXPECT_NE(out.status_detail.find("rel_dir: mkdir /m/c2c: No such file or directory"),
            std::string::npos)
      << out.status_detail;
  EXPECT_EQ(out.status_detail.find("Socket closed"), std::string::npos) << out.status_detail;
}

}  // namespace
}  // namespace azbench
