// What the coordinator holds of an agent's stream: every interval once, results rebuilt exactly,
// a lost agent's data kept, and memory per agent bounded by buckets, not by ops or totals.
#include "coordinator/run/agent_stream.h"

#include <malloc.h>

#include <memory>
#include <vector>

#include "coordinator/merge.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr uint64_t kSecond = 1'000'000'000;
constexpr int64_t kOffset = 5'000;  // agent clock - coordinator clock

// Interval `i` of a job: `ops` reads whose latency spans `buckets` distinct buckets (1 us apart,
// from `base_ns`).
IntervalStats Interval(int64_t i, uint64_t ops, int buckets, uint64_t base_ns = 100'000) {
  Histogram h;
  for (uint64_t op = 0; op < ops; ++op) h.Record(base_ns + (op % buckets) * 1'000);
  IntervalStats in;
  in.index = i;
  IntervalOpStats& read = in.by_kind[static_cast<int>(OpKind::kRead)];
  read.ops = h.count();
  read.bytes = h.count() * 4096;
  read.lat = h.ToSparse();
  return in;
}

// A job as the agent has it: its full series and totals (times in the agent's clock).
JobResult Job(const std::string& name, int intervals, uint64_t ops, int buckets,
              uint64_t base_ns = 100'000) {
  JobResult job;
  job.name = name;
  job.interval_ns = kSecond;
  job.start_realtime_ns = kT0 + kOffset;
  job.end_realtime_ns = job.start_realtime_ns + intervals * static_cast<int64_t>(kSecond);
  job.runtime_ns = intervals * kSecond;
  OpStats& totals = job.Stats(OpKind::kRead);
  for (int i = 0; i < intervals; ++i) {
    IntervalStats in = Interval(i, ops, buckets, base_ns);
    const IntervalOpStats& read = in.by_kind[static_cast<int>(OpKind::kRead)];
    totals.ops += read.ops;
    totals.bytes += read.bytes;
    EXPECT_TRUE(totals.lat.MergeSparse(read.lat).ok());
    job.intervals.push_back(std::move(in));
  }
  return job;
}

// Streams `job` (index `job_index`) into `stream` as the agent does: each interval as an event,
// then the result without them.
void Stream(AgentStream& stream, int job_index, const JobResult& job) {
  for (const IntervalStats& in : job.intervals) {
    stream.AddInterval(job_index, job.name, job.start_realtime_ns, in);
  }
  JobResult result = job.Clone();
  result.intervals.clear();
  stream.AddResult(job_index, std::move(result));
}

ScenarioResult Scenario(std::vector<JobResult> results) {
  ScenarioResult s;
  for (JobResult& r : results) s.results.push_back({"a", std::move(r)});
  return s;
}

TEST(AgentStreamTest, ResultsRebuiltFromTheStreamGiveTheSameFiguresAsFullResults) {
  std::vector<JobResult> full;
  full.push_back(Job("j0", 5, 100, 20));
  full.push_back(Job("j1", 5, 50, 30, 200'000));
  full.push_back(Job("j0", 3, 10, 5));  // a second job with the same name
  AgentStream stream(kOffset, kSecond, /*fold_latency=*/true);
  for (size_t j = 0; j < full.size(); ++j) Stream(stream, static_cast<int>(j), full[j]);
  EXPECT_EQ(stream.pending_intervals(), 0u) << "each result took its series over";
  std::vector<JobResult> rebuilt = stream.TakeResults(/*lost=*/false);
  ASSERT_EQ(rebuilt.size(), 3u);
  for (size_t j = 0; j < full.size(); ++j) {
    EXPECT_EQ(rebuilt[j].intervals.size(), full[j].intervals.size()) << j;
    EXPECT_EQ(rebuilt[j].start_realtime_ns, kT0) << "converted to the coordinator's clock";
    EXPECT_EQ(rebuilt[j].Find(OpKind::kRead)->ops, full[j].Find(OpKind::kRead)->ops);
    EXPECT_FALSE(rebuilt[j].Find(OpKind::kRead)->lat.is_dense()) << "totals are held sparse";
    for (size_t i = 0; i < full[j].intervals.size(); ++i) {
      EXPECT_EQ(rebuilt[j].intervals[i].by_kind[0].ops, full[j].intervals[i].by_kind[0].ops);
    }
  }
  // The interval latency of all three is on the first (they start together).
  EXPECT_EQ(rebuilt[0].intervals[0].by_kind[0].lat.count, 100u + 50u + 10u);
  EXPECT_EQ(rebuilt[1].intervals[0].by_kind[0].lat.count, 0u);

  for (JobResult& r : full) {
    r.start_realtime_ns -= kOffset;
    r.end_realtime_ns -= kOffset;
  }
  const ScenarioFigures before = ComputeFigures(Scenario(std::move(full)));
  const ScenarioFigures after = ComputeFigures(Scenario(std::move(rebuilt)));
  ASSERT_EQ(after.ops.size(), 1u);
  EXPECT_EQ(after.ops[0].ops, before.ops[0].ops);
  EXPECT_TRUE(after.ops[0].lat == before.ops[0].lat);
  EXPECT_DOUBLE_EQ(after.ops[0].stonewall_ops, before.ops[0].stonewall_ops);
  ASSERT_EQ(after.intervals.size(), before.intervals.size());
  for (size_t i = 0; i < after.intervals.size(); ++i) {
    EXPECT_EQ(after.intervals[i].by_kind[0].ops, before.intervals[i].by_kind[0].ops);
    EXPECT_EQ(after.intervals[i].by_kind[0].lat, before.intervals[i].by_kind[0].lat) << i;
  }
}

TEST(AgentStreamTest, AJobThatNeverStartedKeepsNoInstants) {
  // The agent sends 0 for a start or end it never took (a job refused at its start): converting
  // it to the coordinator's clock made it an instant near 1970, and merge then measured a span of
  // decades.
  JobResult never;
  never.name = "never";
  never.interval_ns = kSecond;
  never.error_errno = EIO;
  AgentStream stream(kOffset, kSecond, /*fold_latency=*/true);
  stream.AddResult(0, never.Clone());
  JobResult ran = Job("ran", 2, 10, 2);
  ran.end_realtime_ns = 0;
  stream.AddResult(1, ran.Clone());
  std::vector<JobResult> out = stream.TakeResults(/*lost=*/false);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].start_realtime_ns, 0);
  EXPECT_EQ(out[0].end_realtime_ns, 0);
  EXPECT_EQ(out[1].start_realtime_ns, kT0) << "a real instant is still converted";
  EXPECT_EQ(out[1].end_realtime_ns, 0);
}

TEST(AgentStreamTest, IntervalsTheResultCarriesAreAddedToTheStreamedOnes) {
  const JobResult job = Job("j", 4, 20, 4);
  AgentStream stream(kOffset, kSecond, /*fold_latency=*/false);
  for (int i = 0; i < 3; ++i) stream.AddInterval(0, "j", job.start_realtime_ns, job.intervals[i]);
  JobResult result = job.Clone();
  result.intervals.erase(result.intervals.begin(), result.intervals.begin() + 3);  // the tail
  stream.AddResult(0, std::move(result));
  std::vector<JobResult> out = stream.TakeResults(false);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(out[0].intervals.size(), 4u);
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(out[0].intervals[i].index, i);
    EXPECT_EQ(out[0].intervals[i].by_kind[0].lat, job.intervals[i].by_kind[0].lat);
  }
}

TEST(AgentStreamTest, ALostAgentKeepsItsResultsAndExactPartialsOfTheRest) {
  const JobResult done = Job("done", 3, 40, 8);
  const JobResult cut = Job("cut", 4, 30, 6, 300'000);
  AgentStream stream(kOffset, kSecond, /*fold_latency=*/true);
  Stream(stream, 0, done);
  for (int i = 0; i < 2; ++i) stream.AddInterval(1, "cut", cut.start_realtime_ns, cut.intervals[i]);
  std::vector<JobResult> out = stream.TakeResults(/*lost=*/true);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].name, "done");
  EXPECT_TRUE(out[0].warnings.empty());
  EXPECT_EQ(out[0].Find(OpKind::kRead)->ops, 120u);
  EXPECT_EQ(out[1].name, "cut");
  ASSERT_EQ(out[1].warnings.size(), 1u);
  EXPECT_NE(out[1].warnings[0].find("partial"), std::string::npos);
  EXPECT_EQ(out[1].start_realtime_ns, kT0);
  EXPECT_EQ(out[1].runtime_ns, 2 * kSecond);
  Histogram expected;
  ASSERT_TRUE(expected.MergeSparse(cut.intervals[0].by_kind[0].lat).ok());
  ASSERT_TRUE(expected.MergeSparse(cut.intervals[1].by_kind[0].lat).ok());
  EXPECT_EQ(out[1].Find(OpKind::kRead)->ops, 60u);
  EXPECT_TRUE(out[1].Find(OpKind::kRead)->lat == expected) << "exact totals of what streamed";
  // Interval latency of both (4 + 2 intervals of them) is folded on the first result.
  uint64_t folded = 0;
  for (const JobResult& r : out) {
    for (const IntervalStats& in : r.intervals) folded += in.by_kind[0].lat.count;
  }
  EXPECT_EQ(folded, 120u + 60u);
}

// Live heap (malloc's in-use bytes), or 0 where malloc does not report it (sanitizer builds).
size_t HeapInUse() {
  const struct mallinfo2 info = mallinfo2();
  return info.uordblks + info.hblkhd;
}

// Heap bytes one agent's data takes in the coordinator, from the first event to the results
// (held), for `jobs` jobs of `intervals` intervals of `ops` ops spanning `buckets` buckets.
size_t HeapOfOneAgent(int jobs, int intervals, uint64_t ops, int buckets) {
  std::vector<JobResult> input;
  for (int j = 0; j < jobs; ++j)
    input.push_back(Job("j" + std::to_string(j), intervals, ops, buckets));
  const size_t before = HeapInUse();
  std::vector<JobResult> held;
  {
    AgentStream stream(kOffset, kSecond, /*fold_latency=*/true);
    for (int j = 0; j < jobs; ++j) Stream(stream, j, input[static_cast<size_t>(j)]);
    held = stream.TakeResults(false);
  }
  const size_t after = HeapInUse();
  return after > before ? after - before : 0;
}

TEST(AgentStreamTest, MemoryPerAgentGrowsWithTheIntervalSeriesOnlyNotWithOpsOrTotals) {
  {
    const size_t before = HeapInUse();
    auto probe = std::make_unique<char[]>(1 << 20);
    probe[0] = 1;
    if (HeapInUse() < before + (1 << 20)) {
      GTEST_SKIP() << "malloc does not report in-use bytes here (a sanitizer allocator?)";
    }
  }
  constexpr int kJobs = 4;
  constexpr int kBuckets = 200;
  // Per interval and agent: one IntervalStats of counts per job, and one folded latency
  // histogram of kBuckets buckets; plus allocator overhead per block.
  constexpr size_t kPerInterval = kJobs * (sizeof(IntervalStats) + 64) + sizeof(IntervalStats) +
                                  64 + kBuckets * sizeof(Histogram::Bucket) + 64;
  // Per agent, whatever the run length: each job's sparse totals (and its name, vector headers).
  constexpr size_t kPerAgent = kJobs * (kBuckets * sizeof(Histogram::Bucket) + 1024);

  const size_t short_run = HeapOfOneAgent(kJobs, 50, 1'000, kBuckets);
  const size_t long_run = HeapOfOneAgent(kJobs, 100, 1'000, kBuckets);
  const size_t busy_run = HeapOfOneAgent(kJobs, 50, 100'000, kBuckets);  // 100x the ops
  RecordProperty("heap_50_intervals", std::to_string(short_run));
  RecordProperty("heap_100_intervals", std::to_string(long_run));
  // Twice the intervals: only the interval series grows.
  EXPECT_LE(long_run - std::min(long_run, short_run), 50 * kPerInterval);
  EXPECT_LE(short_run, 50 * kPerInterval + kPerAgent);
  EXPECT_LE(long_run, 100 * kPerInterval + kPerAgent);
  // 100x the ops in the same buckets: the same memory (to an allocator block or two).
  EXPECT_LE(busy_run, short_run + 4096);
  EXPECT_GE(busy_run + 4096, short_run);
}

}  // namespace
}  // namespace azbench
