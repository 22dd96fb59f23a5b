// The coordinator's client_to_client join: reader latencies count from the writer's completion on
// the coordinator clock, whatever the agents' schedules; a reader that "sees" a file before the
// write returned is clamped to 0 and counted; writer failures and reader timeouts are counted,
// never dropped; the histograms are built from the joined samples exactly.
#include "coordinator/visibility_join.h"

#include <cerrno>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::Not;

constexpr int64_t kMs = 1'000'000;

OpRecord Rec(OpKind kind, int64_t start_ms, int64_t latency_ms, int error = 0) {
  OpRecord r;
  r.kind = kind;
  r.start_ns = static_cast<uint64_t>(start_ms * kMs);
  r.latency_ns = static_cast<uint64_t>(latency_ms * kMs);
  r.error = error;
  return r;
}

TEST(VisibilityJoinTest, ReaderLatencyCountsFromTheWritersCompletionOnTheCoordinatorClock) {
  // Writer job start (coordinator clock) at 1000 s; trials 100 ms apart; writes take 30/50/20 ms.
  JobResult writer_result;
  writer_result.start_realtime_ns = 1'000'000 * kMs;
  std::vector<OpRecord> writes = {Rec(OpKind::kWrite, 0, 30), Rec(OpKind::kWrite, 100, 50),
                                  Rec(OpKind::kWrite, 200, 20)};
  // The reader's job started 4 ms later than the writer's on the coordinator clock (its own
  // schedule, after offset correction); it saw the files 40/75 ms after their scheduled instants
  // and never saw trial 2 (last miss at +900 ms).
  JobResult reader_result;
  reader_result.start_realtime_ns = writer_result.start_realtime_ns + 4 * kMs;
  reader_result.Stats(OpKind::kProbe).lat.Record(999 * kMs);  // the agent's own: replaced
  std::vector<OpRecord> seen = {Rec(OpKind::kProbe, 0, 40), Rec(OpKind::kProbe, 100, 75),
                                Rec(OpKind::kProbe, 200, 900, ETIMEDOUT)};
  ASSERT_TRUE(IsClientToClientWriter(writes));
  ASSERT_FALSE(IsClientToClientWriter(seen));
  ClientToClientHalf writer{"w", &writer_result, &writes, 2 * kMs};
  std::vector<ClientToClientHalf> readers = {{"r", &reader_result, &seen, 4 * kMs}};
  JoinClientToClient(writer, readers);

  // 4 + 40 - 30 = 14 ms; 4 + 175 - 150 = 29 ms; timeout: last miss 4 + 1100 - 220 = 884 ms.
  EXPECT_EQ(seen[0].latency_ns, static_cast<uint64_t>(14 * kMs));
  EXPECT_EQ(seen[1].latency_ns, static_cast<uint64_t>(29 * kMs));
  EXPECT_EQ(seen[2].latency_ns, static_cast<uint64_t>(884 * kMs));
  EXPECT_EQ(seen[2].error, ETIMEDOUT);
  // Record starts: the writer's completion since the reader's job start.
  EXPECT_EQ(seen[0].start_ns, static_cast<uint64_t>(26 * kMs));
  EXPECT_EQ(seen[1].start_ns, static_cast<uint64_t>(146 * kMs));
  const OpStats* probe = reader_result.Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 2u);
  EXPECT_EQ(probe->errors, 1u) << "the timeout is counted";
  EXPECT_EQ(probe->lat.count(), 2u);
  EXPECT_EQ(probe->lat.min_ns(), static_cast<uint64_t>(14 * kMs));
  EXPECT_EQ(probe->lat.max_ns(), static_cast<uint64_t>(29 * kMs));
  // (2 ms + 4 ms) / 2 = 3 ms.
  EXPECT_THAT(reader_result.warnings,
              Contains(HasSubstr("counted from writer w's write completion")));
  EXPECT_THAT(reader_result.warnings, Contains(HasSubstr("uncertainty +-3.00ms")));
  EXPECT_THAT(reader_result.warnings,
              Contains(HasSubstr("0 trial(s) seen before the write returned")));
}

TEST(VisibilityJoinTest, ASeenBeforeTheWriteReturnedIsClampedToZeroAndCounted) {
  JobResult writer_result, reader_result;
  writer_result.start_realtime_ns = reader_result.start_realtime_ns = 5'000 * kMs;
  std::vector<OpRecord> writes = {Rec(OpKind::kWrite, 0, 50), Rec(OpKind::kWrite, 10, 50)};
  // Trial 0 "seen" 20 ms before the write returned (clock error, or a slow fsync); trial 1 10 ms
  // after.
  std::vector<OpRecord> seen = {Rec(OpKind::kProbe, 0, 30), Rec(OpKind::kProbe, 10, 60)};
  ClientToClientHalf writer{"w", &writer_result, &writes, 0};
  std::vector<ClientToClientHalf> readers = {{"r", &reader_result, &seen, 0}};
  JoinClientToClient(writer, readers);
  EXPECT_EQ(seen[0].latency_ns, 0u) << "clamped, not wrapped around";
  EXPECT_EQ(seen[1].latency_ns, static_cast<uint64_t>(10 * kMs));
  const OpStats* probe = reader_result.Find(OpKind::kProbe);
  EXPECT_EQ(probe->ops, 2u);
  EXPECT_EQ(probe->lat.max_ns(), static_cast<uint64_t>(10 * kMs));
  EXPECT_THAT(reader_result.warnings,
              Contains(HasSubstr("1 trial(s) seen before the write returned, clamped")));
}

TEST(VisibilityJoinTest, AWriterFailureFailsTheTrialForEveryReader) {
  JobResult writer_result, r1, r2;
  std::vector<OpRecord> writes = {Rec(OpKind::kWrite, 0, 5), Rec(OpKind::kWrite, 0, 0, EIO)};
  std::vector<OpRecord> s1 = {Rec(OpKind::kProbe, 0, 10), Rec(OpKind::kProbe, 0, 500, ETIMEDOUT)};
  std::vector<OpRecord> s2 = s1;
  ClientToClientHalf writer{"w", &writer_result, &writes, 0};
  std::vector<ClientToClientHalf> readers = {{"r1", &r1, &s1, 0}, {"r2", &r2, &s2, 0}};
  JoinClientToClient(writer, readers);
  for (const JobResult* r : {&r1, &r2}) {
    const OpStats* probe = r->Find(OpKind::kProbe);
    ASSERT_NE(probe, nullptr);
    EXPECT_EQ(probe->ops, 1u);
    EXPECT_EQ(probe->errors, 1u);
    EXPECT_THAT(r->warnings, Contains(HasSubstr("1 failed at the writer")));
  }
  EXPECT_EQ(s1[1].error, EIO);
}

// The reader agent's own summary counted against its schedule; after the join it states the
// joined counts, and its own "seen before the write returned" count (against the schedule) goes.
TEST(VisibilityJoinTest, TheReadersSummaryStatesTheJoinedCounts) {
  JobResult writer_result, reader;
  std::vector<OpRecord> writes = {Rec(OpKind::kWrite, 0, 5), Rec(OpKind::kWrite, 100, 0, EIO),
                                  Rec(OpKind::kWrite, 200, 5)};
  std::vector<OpRecord> seen = {Rec(OpKind::kProbe, 0, 10), Rec(OpKind::kProbe, 100, 10),
                                Rec(OpKind::kProbe, 200, 500, ETIMEDOUT)};
  reader.warnings = {
      "visibility c2c-read: 2 of 3 trials visible, 1 timed out, 0 failed; latency resolution 1ms "
      "(the poll interval)",
      "visibility c2c-read: 1 trial(s) seen before the write returned, latency clamped to 0",
      "visibility c2c-read trial 2 timed-out: not seen within 500ms", "another warning"};
  ClientToClientHalf writer{"w", &writer_result, &writes, 0};
  std::vector<ClientToClientHalf> readers = {{"r", &reader, &seen, 0}};
  JoinClientToClient(writer, readers);
  EXPECT_THAT(
      reader.warnings,
      Contains(HasSubstr("visibility c2c-read: 1 of 3 trials visible, 1 timed out, 1 failed; "
                         "latency resolution 1ms (the poll interval)")));
  EXPECT_THAT(reader.warnings, Not(Contains(HasSubstr("2 of 3 trials visible"))));
  EXPECT_THAT(reader.warnings, Not(Contains(HasSubstr("latency clamped to 0"))))
      << "the join's note counts those";
  EXPECT_THAT(reader.warnings,
              Contains(HasSubstr("0 trial(s) seen before the write returned, clamped")));
  EXPECT_THAT(reader.warnings, Contains(HasSubstr("trial 2 timed-out")));
  EXPECT_THAT(reader.warnings, Contains(HasSubstr("another warning")));
}

TEST(VisibilityJoinTest, AReaderWithADifferentTrialCountIsLeftAsReportedAndSaysSo) {
  JobResult writer_result, reader_result;
  std::vector<OpRecord> writes = {Rec(OpKind::kWrite, 0, 5), Rec(OpKind::kWrite, 100, 5)};
  std::vector<OpRecord> seen = {Rec(OpKind::kProbe, 0, 10)};
  reader_result.Stats(OpKind::kProbe).lat.Record(10 * kMs);
  reader_result.Stats(OpKind::kProbe).ops = 1;
  ClientToClientHalf writer{"w", &writer_result, &writes, 0};
  std::vector<ClientToClientHalf> readers = {{"r", &reader_result, &seen, 0}};
  JoinClientToClient(writer, readers);
  EXPECT_EQ(seen[0].latency_ns, static_cast<uint64_t>(10 * kMs));
  EXPECT_EQ(reader_result.Find(OpKind::kProbe)->ops, 1u);
  EXPECT_THAT(reader_result.warnings,
              Contains(HasSubstr("not joined with writer w (2 trials, this reader 1)")));
}

}  // namespace
}  // namespace azbench
