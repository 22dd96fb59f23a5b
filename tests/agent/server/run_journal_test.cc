// The run event journal (agent/server/run_journal.h): numbering, the replay ring and its bound, the
// detached buffer and its bound, the reattach grace, and a finished run kept for the grace then
// forgotten. A fake clock drives the grace; a recording writer stands for the gRPC stream.
#include "agent/server/run_journal.h"

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "agent/server/journal_sink.h"
#include "common/job_result.h"
#include "common/proto_convert.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

class RecordingWriter final : public JournalWriter {
 public:
  bool Write(const v1::RunEvent& event) override {
    if (fail) return false;
    events.push_back(event);
    return true;
  }
  bool Cancelled() override { return cancelled.load(); }
  void Cancel() override { cancelled.store(true); }
  std::vector<uint64_t> seqs() const {
    std::vector<uint64_t> out;
    for (const auto& e : events) out.push_back(e.seq());
    return out;
  }
  std::vector<v1::RunEvent> events;
  bool fail = false;
  std::atomic<bool> cancelled{false};
};

constexpr uint64_t kSecondNs = 1'000'000'000;

class RunJournalTest : public ::testing::Test {
 protected:
  RunJournalConfig Config() {
    RunJournalConfig config;
    config.grace = absl::Seconds(10);
    config.reap_interval = absl::ZeroDuration();
    config.now_ns = [this] { return now_ns_.load(); };
    return config;
  }
  static v1::RunEvent Progress(uint64_t ops, size_t padding = 0) {
    v1::RunEvent event;
    event.mutable_progress()->set_ops(ops);
    if (padding > 0) {  // an op-log batch stands for a large event
      event.mutable_op_log()->set_job_name(std::string(padding, 'x'));
    }
    return event;
  }
  static v1::RunEvent Finished() {
    v1::RunEvent event;
    event.mutable_finished()->set_end_realtime_ns(1);
    return event;
  }
  std::atomic<uint64_t> now_ns_{1000 * kSecondNs};
};

TEST_F(RunJournalTest, NumbersEventsFromOneAndWritesThemToTheAttachedStream) {
  RunJournal journal("r", Config());
  RecordingWriter writer;
  const absl::StatusOr<uint64_t> id = journal.Attach(&writer, 0);
  ASSERT_TRUE(id.ok()) << id.status();
  for (uint64_t i = 0; i < 3; ++i) ASSERT_TRUE(journal.Append(Progress(i)));
  EXPECT_EQ(writer.seqs(), (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_EQ(writer.events[2].progress().ops(), 2u);
  EXPECT_EQ(journal.last_seq(), 3u);
  EXPECT_FALSE(journal.Detach(*id)) << "no RunFinished was written";
}

TEST_F(RunJournalTest, AnAttachReplaysEveryEventAfterTheGivenSeqThenContinuesLive) {
  RunJournal journal("r", Config());
  RecordingWriter first;
  const uint64_t first_id = *journal.Attach(&first, 0);
  for (uint64_t i = 0; i < 5; ++i) ASSERT_TRUE(journal.Append(Progress(i)));
  first.fail = true;  // the stream breaks: seq 6 is not delivered
  ASSERT_TRUE(journal.Append(Progress(5))) << "within the grace the run goes on";
  ASSERT_TRUE(journal.Append(Progress(6)));
  EXPECT_EQ(journal.Wait(first_id).code(), absl::StatusCode::kUnavailable);
  RecordingWriter second;
  const absl::StatusOr<uint64_t> id = journal.Attach(&second, 3);  // the coordinator had 1..3
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(second.seqs(), (std::vector<uint64_t>{4, 5, 6, 7}));
  ASSERT_TRUE(journal.Append(Finished()));
  EXPECT_EQ(second.seqs(), (std::vector<uint64_t>{4, 5, 6, 7, 8}));
  EXPECT_TRUE(journal.Wait(*id).ok()) << "RunFinished was written to it";
}

TEST_F(RunJournalTest, ASecondAttachReplacesTheFirstWhichEndsAborted) {
  RunJournal journal("r", Config());
  RecordingWriter first, second;
  const uint64_t first_id = *journal.Attach(&first, 0);
  ASSERT_TRUE(journal.Append(Progress(1)));
  const uint64_t second_id = *journal.Attach(&second, 0);
  EXPECT_TRUE(first.cancelled.load()) << "the replaced stream is cancelled";
  EXPECT_EQ(journal.Wait(first_id).code(), absl::StatusCode::kAborted);
  ASSERT_TRUE(journal.Append(Progress(2)));
  EXPECT_EQ(first.seqs(), (std::vector<uint64_t>{1}));
  EXPECT_EQ(second.seqs(), (std::vector<uint64_t>{1, 2}));
  journal.Detach(second_id);
}

TEST_F(RunJournalTest, TheRingKeepsTheNewestWrittenEventsWithinItsBoundAndOlderOnesAreDataLoss) {
  RunJournalConfig config = Config();
  config.ring_bytes = 10'000;
  RunJournal journal("r", config);
  RecordingWriter writer;
  const uint64_t id = *journal.Attach(&writer, 0);
  for (uint64_t i = 0; i < 20; ++i) ASSERT_TRUE(journal.Append(Progress(i, 1000)));
  journal.Detach(id);
  // 1072 bytes each as the journal counts them: the last 9 (seq 12..20) fit in 10 000 bytes.
  RecordingWriter late;
  const absl::StatusOr<uint64_t> lost = journal.Attach(&late, 10);
  ASSERT_EQ(lost.status().code(), absl::StatusCode::kDataLoss);
  EXPECT_NE(lost.status().message().find("the oldest kept is seq 12"), std::string::npos)
      << lost.status();
  EXPECT_TRUE(late.events.empty());
  RecordingWriter replay;
  const absl::StatusOr<uint64_t> attached = journal.Attach(&replay, 11);
  ASSERT_TRUE(attached.ok()) << attached.status();
  EXPECT_EQ(replay.seqs(), (std::vector<uint64_t>{12, 13, 14, 15, 16, 17, 18, 19, 20}));
  journal.Detach(*attached);
  EXPECT_TRUE(journal.Alive());
}

TEST_F(RunJournalTest, ABacklogKeptWhileDetachedDoesNotPushOutTheWrittenEventsAReplayNeeds) {
  RunJournalConfig config = Config();
  config.ring_bytes = 3000;  // two written events of 1072 bytes
  config.detached_bytes = 100'000;
  RunJournal journal("r", config);
  RecordingWriter writer;
  const uint64_t id = *journal.Attach(&writer, 0);
  for (uint64_t i = 1; i <= 5; ++i) ASSERT_TRUE(journal.Append(Progress(i, 1000)));
  writer.fail = true;  // the coordinator got 1..3; 4 and 5 were in flight
  for (uint64_t i = 6; i <= 25; ++i) ASSERT_TRUE(journal.Append(Progress(i, 1000)));
  EXPECT_EQ(journal.Wait(id).code(), absl::StatusCode::kUnavailable);
  RecordingWriter again;
  const absl::StatusOr<uint64_t> resumed = journal.Attach(&again, 3);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  ASSERT_EQ(again.events.size(), 22u);
  EXPECT_EQ(again.events.front().seq(), 4u);
  EXPECT_EQ(again.events.back().seq(), 25u);
  journal.Detach(*resumed);
}

TEST_F(RunJournalTest, AWrittenEventLargerThanTheRingIsStillKept) {
  RunJournalConfig config = Config();
  config.ring_bytes = 1000;
  RunJournal journal("r", config);
  RecordingWriter writer;
  const uint64_t id = *journal.Attach(&writer, 0);
  ASSERT_TRUE(journal.Append(Progress(1, 5000)));
  journal.Detach(id);
  RecordingWriter replay;
  const absl::StatusOr<uint64_t> attached = journal.Attach(&replay, 0);
  ASSERT_TRUE(attached.ok()) << attached.status();
  EXPECT_EQ(replay.seqs(), (std::vector<uint64_t>{1}));
  journal.Detach(*attached);
}

TEST_F(RunJournalTest, WhileDetachedEveryEventIsKeptUpToTheDetachedBoundThenTheLeaseIsLost) {
  RunJournalConfig config = Config();
  config.ring_bytes = 1000;
  config.detached_bytes = 20'000;
  RunJournal journal("r", config);
  RecordingWriter writer;
  const uint64_t id = *journal.Attach(&writer, 0);
  ASSERT_TRUE(journal.Append(Progress(0)));
  writer.fail = true;
  // Past the ring's bound but within the detached one: all kept for a replay.
  for (uint64_t i = 1; i <= 15; ++i) ASSERT_TRUE(journal.Append(Progress(i, 1000)));
  EXPECT_EQ(journal.Wait(id).code(), absl::StatusCode::kUnavailable);
  RecordingWriter again;
  const absl::StatusOr<uint64_t> resumed = journal.Attach(&again, 1);
  ASSERT_TRUE(resumed.ok()) << resumed.status();
  EXPECT_EQ(again.events.size(), 15u);
  again.fail = true;
  bool alive = true;
  for (uint64_t i = 16; i <= 40 && alive; ++i) alive = journal.Append(Progress(i, 1000));
  EXPECT_FALSE(alive) << "past detached_bytes the journal gives up";
  EXPECT_TRUE(journal.lease_lost());
  EXPECT_FALSE(journal.Alive());
  RecordingWriter late;
  EXPECT_EQ(journal.Attach(&late, 1).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(RunJournalTest, EventsAReplayWroteNoLongerCountAsUnsent) {
  RunJournalConfig config = Config();
  config.detached_bytes = 5000;  // four events of 1072 bytes, not five
  RunJournal journal("r", config);
  RecordingWriter first;
  first.fail = true;
  const uint64_t first_id = *journal.Attach(&first, 0);
  for (uint64_t i = 1; i <= 4; ++i) ASSERT_TRUE(journal.Append(Progress(i, 1000)));
  EXPECT_EQ(journal.Wait(first_id).code(), absl::StatusCode::kUnavailable);
  RecordingWriter second;
  const uint64_t second_id = *journal.Attach(&second, 0);
  EXPECT_EQ(second.seqs(), (std::vector<uint64_t>{1, 2, 3, 4}));
  second.fail = true;
  for (uint64_t i = 5; i <= 8; ++i) ASSERT_TRUE(journal.Append(Progress(i, 1000))) << i;
  EXPECT_FALSE(journal.Append(Progress(9, 1000))) << "five unsent events are past the bound";
  EXPECT_EQ(journal.Wait(second_id).code(), absl::StatusCode::kUnavailable);
}

TEST_F(RunJournalTest, WithoutAnAttachWithinTheGraceTheLeaseIsLost) {
  RunJournal journal("r", Config());
  RecordingWriter writer;
  const uint64_t id = *journal.Attach(&writer, 0);
  ASSERT_TRUE(journal.Append(Progress(0)));
  writer.cancelled.store(true);  // the coordinator went away
  EXPECT_TRUE(journal.Alive()) << "the grace starts now";
  EXPECT_EQ(journal.Wait(id).code(), absl::StatusCode::kUnavailable);
  now_ns_ += 9 * kSecondNs;
  EXPECT_TRUE(journal.Alive());
  EXPECT_TRUE(journal.Append(Progress(1)));
  now_ns_ += 1 * kSecondNs;
  EXPECT_FALSE(journal.Alive()) << "10 s of grace are over";
  EXPECT_FALSE(journal.Append(Progress(2)));
  RecordingWriter late;
  EXPECT_EQ(journal.Attach(&late, 1).status().code(), absl::StatusCode::kNotFound);
}

TEST_F(RunJournalTest, AnAttachWithinTheGraceKeepsTheRunAlive) {
  RunJournal journal("r", Config());
  RecordingWriter writer;
  (void)*journal.Attach(&writer, 0);
  ASSERT_TRUE(journal.Append(Progress(0)));
  writer.cancelled.store(true);
  EXPECT_TRUE(journal.Alive());
  now_ns_ += 9 * kSecondNs;
  RecordingWriter again;
  ASSERT_TRUE(journal.Attach(&again, 1).ok());
  now_ns_ += 60 * kSecondNs;
  EXPECT_TRUE(journal.Alive()) << "attached: no grace runs";
  EXPECT_TRUE(journal.Append(Progress(1)));
  EXPECT_EQ(again.seqs(), (std::vector<uint64_t>{2}));
}

TEST_F(RunJournalTest, WithNoGraceABrokenStreamLosesTheLeaseAtOnceButANewJournalWaitsForItsFirst) {
  RunJournalConfig config = Config();
  config.grace =
      absl::ZeroDuration();  // reattach_grace_ms 0: the broken stream is the broken lease
  RunJournal journal("r", config);
  now_ns_ += 60 * kSecondNs;
  EXPECT_TRUE(journal.Alive()) << "not attached yet: the Run handler attaches first";
  RecordingWriter writer;
  ASSERT_TRUE(journal.Attach(&writer, 0).ok());
  ASSERT_TRUE(journal.Append(Progress(0)));
  writer.fail = true;
  EXPECT_FALSE(journal.Append(Progress(1)));
  EXPECT_TRUE(journal.lease_lost());
}

// The journal's side of an Attach stream's end (AgentService::Attach ends a stream whose Wait was
// OK with outcome()): the outcome RunFinished carried stays the journal's for every Attach after
// it, whether it replays RunFinished or has nothing left to send. The streams' own ends:
// ServiceStreamTest.AnAttachAfterAFailedRunEndedEndsWithTheJobsError (service_stream_test.cc).
TEST_F(RunJournalTest, TheOutcomeRunFinishedCarriesStaysForEveryAttachThatFollowsIt) {
  RunJournal journal("r", Config());
  RecordingWriter run_stream;
  const uint64_t run_id = *journal.Attach(&run_stream, 0);
  ASSERT_TRUE(journal.Append(Progress(1)));
  EXPECT_TRUE(journal.outcome().ok()) << "not finished yet";
  run_stream.fail = true;  // the Run stream broke; the run ends while detached
  v1::RunEvent finished = Finished();
  RunOutcomeToProto(absl::InternalError("job 'j': the disk went away"),
                    finished.mutable_finished()->mutable_outcome());
  ASSERT_TRUE(journal.Append(finished));
  EXPECT_EQ(journal.Wait(run_id).code(), absl::StatusCode::kUnavailable);
  EXPECT_EQ(journal.outcome().code(), absl::StatusCode::kInternal);
  EXPECT_EQ(journal.outcome().message(), "job 'j': the disk went away");
  RecordingWriter replay;
  const uint64_t replay_id = *journal.Attach(&replay, 1);
  EXPECT_TRUE(journal.Wait(replay_id).ok()) << "RunFinished was replayed";
  ASSERT_EQ(replay.seqs(), (std::vector<uint64_t>{2}));
  EXPECT_EQ(replay.events[0].finished().outcome().message(), "job 'j': the disk went away");
  // The coordinator had RunFinished but not the stream's end: nothing to replay, the same outcome.
  RecordingWriter again;
  const uint64_t again_id = *journal.Attach(&again, 2);
  EXPECT_TRUE(journal.Wait(again_id).ok());
  EXPECT_TRUE(again.events.empty());
  EXPECT_EQ(journal.outcome().code(), absl::StatusCode::kInternal);
}

// RunFinished waits in the sink for the runner's status (Runner::Run returns it after OnFinished)
// and goes out with it; an end without a held RunFinished appends nothing.
TEST_F(RunJournalTest, TheSinkHoldsRunFinishedBackUntilTheRunsStatusFillsItIn) {
  RunJournal journal("r", Config());
  JournalSink sink(journal);
  RecordingWriter writer;
  const uint64_t id = *journal.Attach(&writer, 0);
  EXPECT_FALSE(sink.Finish(absl::OkStatus())) << "no RunFinished yet";
  ASSERT_TRUE(sink.OnStarted(1));
  ASSERT_TRUE(sink.OnFinished(2, /*cancelled=*/false));
  EXPECT_EQ(writer.seqs(), (std::vector<uint64_t>{1})) << "held back";
  EXPECT_FALSE(journal.finished());
  ASSERT_TRUE(sink.Finish(absl::NotFoundError("job 'c2c': rel_dir: mkdir: No such file")));
  ASSERT_EQ(writer.seqs(), (std::vector<uint64_t>{1, 2}));
  const v1::RunFinished& finished = writer.events[1].finished();
  EXPECT_EQ(finished.end_realtime_ns(), 2);
  ASSERT_TRUE(finished.has_outcome());
  EXPECT_EQ(finished.outcome().code(), static_cast<int>(absl::StatusCode::kNotFound));
  EXPECT_EQ(finished.outcome().message(), "job 'c2c': rel_dir: mkdir: No such file");
  EXPECT_TRUE(journal.Wait(id).ok()) << "RunFinished ends the stream";
  EXPECT_FALSE(sink.Finish(absl::OkStatus())) << "appended once";
  EXPECT_EQ(journal.last_seq(), 2u);
}

TEST_F(RunJournalTest, AnAttachThatCannotBeServedLeavesTheAttachedStreamAlone) {
  RunJournalConfig config = Config();
  config.ring_bytes = 1000;
  RunJournal journal("r", config);
  RecordingWriter live;
  const uint64_t id = *journal.Attach(&live, 0);
  for (uint64_t i = 1; i <= 3; ++i) ASSERT_TRUE(journal.Append(Progress(i, 1000)));
  RecordingWriter past, lost, gone;
  EXPECT_EQ(journal.Attach(&past, 9).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(journal.Attach(&lost, 0).status().code(), absl::StatusCode::kDataLoss);
  gone.cancelled.store(true);  // its caller went away before it was served
  const absl::Status refused = journal.Attach(&gone, 2).status();
  EXPECT_EQ(refused.code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(refused.message(),
            "run 'r': the stream was cancelled (its caller went away) before it was attached");
  EXPECT_FALSE(live.cancelled.load());
  EXPECT_TRUE(journal.attached());
  ASSERT_TRUE(journal.Append(Progress(4)));
  EXPECT_EQ(live.seqs(), (std::vector<uint64_t>{1, 2, 3, 4}));
  EXPECT_TRUE(past.events.empty() && lost.events.empty() && gone.events.empty());
  journal.Detach(id);
}

TEST_F(RunJournalTest, AnAfterSeqPastTheLastEventIsInvalid) {
  RunJournal journal("r", Config());
  ASSERT_TRUE(journal.Append(Progress(0)));
  RecordingWriter writer;
  EXPECT_EQ(journal.Attach(&writer, 2).status().code(), absl::StatusCode::kInvalidArgument);
}

TEST_F(RunJournalTest, AFinishedJournalIsKeptForTheGraceThenForgotten) {
  RunJournals journals(Config());
  RecordingWriter writer;
  absl::StatusOr<RunJournals::Started> started = journals.Start("r", &writer);
  ASSERT_TRUE(started.ok());
  RecordingWriter second;
  EXPECT_EQ(journals.Start("r", &second).status().code(), absl::StatusCode::kFailedPrecondition);
  std::shared_ptr<RunJournal>* journal = &started->journal;
  const uint64_t id = started->attachment;
  ASSERT_TRUE((*journal)->Append(Progress(0)));
  writer.fail = true;  // the results and RunFinished never reached the coordinator
  v1::RunEvent result;
  result.mutable_result()->set_name("j");
  ASSERT_TRUE((*journal)->Append(result));
  ASSERT_TRUE((*journal)->Append(Finished()));
  EXPECT_FALSE((*journal)->Detach(id));
  journal->reset();
  now_ns_ += 9 * kSecondNs;
  EXPECT_EQ(journals.Reap(), 0);
  absl::StatusOr<std::shared_ptr<RunJournal>> found = journals.Find("r");
  ASSERT_TRUE(found.ok());
  RecordingWriter late;
  const absl::StatusOr<uint64_t> attached = (*found)->Attach(&late, 1);
  ASSERT_TRUE(attached.ok());
  EXPECT_EQ(late.seqs(), (std::vector<uint64_t>{2, 3}));
  EXPECT_EQ(late.events[0].result().name(), "j");
  EXPECT_TRUE((*found)->Wait(*attached).ok());
  // An Attach of a finished run the coordinator already has all of ends at once.
  RecordingWriter again;
  const absl::StatusOr<uint64_t> done = (*found)->Attach(&again, 3);
  ASSERT_TRUE(done.ok());
  EXPECT_TRUE((*found)->Wait(*done).ok());
  EXPECT_TRUE(again.events.empty());
  found->reset();
  now_ns_ += 1 * kSecondNs;
  EXPECT_EQ(journals.Reap(), 1);
  EXPECT_EQ(journals.Find("r").status().code(), absl::StatusCode::kNotFound);
}

// The Run stream is attached before an Attach can find the journal: the first Attach to find it
// replaces the Run stream (cancelled), never the reverse (which ended the Attach CANCELLED).
TEST_F(RunJournalTest, AnAttachThatFindsANewJournalReplacesTheRunStream) {
  RunJournals journals(Config());
  RecordingWriter run_stream;
  RunJournals::Started started = *journals.Start("r", &run_stream);
  absl::StatusOr<std::shared_ptr<RunJournal>> found = journals.Find("r");
  ASSERT_TRUE(found.ok());
  RecordingWriter attach_stream;
  const absl::StatusOr<uint64_t> attached = (*found)->Attach(&attach_stream, 0);
  ASSERT_TRUE(attached.ok());
  EXPECT_TRUE(run_stream.cancelled.load());
  EXPECT_FALSE(attach_stream.cancelled.load());
  EXPECT_EQ(started.journal->Wait(started.attachment).code(), absl::StatusCode::kAborted);
  ASSERT_TRUE(started.journal->Append(Progress(1)));
  ASSERT_TRUE(started.journal->Append(Finished()));
  EXPECT_EQ(attach_stream.seqs(), (std::vector<uint64_t>{1, 2}));
  EXPECT_TRUE(run_stream.events.empty());
}

// A Run whose caller went away before its stream was attached gets no journal, and the error says
// it was the stream (not an Attach) that was cancelled.
TEST_F(RunJournalTest, ARunStreamCancelledBeforeStartGetsNoJournal) {
  RunJournals journals(Config());
  RecordingWriter run_stream;
  run_stream.cancelled.store(true);
  const absl::StatusOr<RunJournals::Started> started = journals.Start("r", &run_stream);
  ASSERT_FALSE(started.ok());
  EXPECT_EQ(started.status().code(), absl::StatusCode::kCancelled);
  EXPECT_EQ(started.status().message(),
            "run 'r': the stream was cancelled (its caller went away) before it was attached");
  EXPECT_EQ(journals.Find("r").status().code(), absl::StatusCode::kNotFound);
  RecordingWriter again;
  EXPECT_TRUE(journals.Start("r", &again).ok()) << "the run may still be run";
}

TEST_F(RunJournalTest, AFinishedRunWhoseEndNoStreamCarriedIsHandedOverWhenForgotten) {
  std::vector<std::string> abandoned;
  RunJournals journals(Config(), [&](const std::string& id) { abandoned.push_back(id); });
  for (const char* id : {"delivered", "undelivered"}) {
    RecordingWriter writer;
    RunJournals::Started started = *journals.Start(id, &writer);
    std::shared_ptr<RunJournal> journal = std::move(started.journal);
    const uint64_t attachment = started.attachment;
    ASSERT_TRUE(journal->Append(Progress(0)));
    writer.fail = std::string(id) == "undelivered";  // the coordinator went away before the end
    ASSERT_TRUE(journal->Append(Finished()));
    journal->Detach(attachment);
  }
  now_ns_ += 10 * kSecondNs;
  EXPECT_EQ(journals.Reap(), 2);
  EXPECT_EQ(abandoned, (std::vector<std::string>{"undelivered"}));
}

TEST_F(RunJournalTest, ALostLeaseIsForgottenAndCleanupForgetsAtOnce) {
  RunJournals journals(Config());
  RecordingWriter writer;
  std::shared_ptr<RunJournal> journal = journals.Start("lost", &writer)->journal;
  writer.fail = true;
  ASSERT_TRUE(journal->Append(Progress(0)));  // the stream breaks: the grace starts
  now_ns_ += 10 * kSecondNs;
  EXPECT_FALSE(journal->Alive());
  journal.reset();
  EXPECT_EQ(journals.Reap(), 1);
  RecordingWriter kept;
  ASSERT_TRUE(journals.Start("kept", &kept).ok());
  journals.Forget("kept");
  EXPECT_EQ(journals.size(), 0u);
}

TEST_F(RunJournalTest, AResultLeavesOutTheIntervalsJournaledBeforeItWhicheverStreamCarriedThem) {
  RunJournal journal("r", Config());
  JournalSink sink(journal);
  RecordingWriter first;
  const uint64_t first_id = *journal.Attach(&first, 0);
  IntervalStats interval;
  interval.index = 0;
  ASSERT_TRUE(sink.OnSeriesInterval(0, "j", IntervalOrigin{"j", 0, 1}, interval));
  first.fail = true;  // interval 1 is journaled while no stream carries it
  interval.index = 1;
  ASSERT_TRUE(sink.OnSeriesInterval(0, "j", IntervalOrigin{"j", 0, 1}, interval));
  EXPECT_EQ(journal.Wait(first_id).code(), absl::StatusCode::kUnavailable);
  RecordingWriter second;
  ASSERT_TRUE(journal.Attach(&second, 1).ok());
  JobResult result;
  result.name = "j";
  for (int64_t i = 0; i < 3; ++i) {
    IntervalStats own;
    own.index = i;
    result.intervals.push_back(own);
  }
  ASSERT_TRUE(sink.OnJobResult(0, result));
  ASSERT_EQ(second.events.size(), 2u);
  EXPECT_EQ(second.events[0].interval().interval().index(), 1);
  const v1::JobResult& sent = second.events[1].result();
  ASSERT_EQ(sent.intervals_size(), 1) << "intervals 0 and 1 were journaled";
  EXPECT_EQ(sent.intervals(0).index(), 2);
}

}  // namespace
}  // namespace azbench
