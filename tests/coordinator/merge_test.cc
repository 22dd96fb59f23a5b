#include "coordinator/merge.h"

#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kT0 = 1'700'000'000 * kSecond;  // an arbitrary coordinator-clock origin

// A job that did ops_per_interval[i] ops of `bytes_per_op` bytes in interval i (1 s each), every op
// taking `latency_ns`; it runs from `start_ns` for exactly its intervals.
JobResult MakeJob(OpKind kind, int64_t start_ns, const std::vector<uint64_t>& ops_per_interval,
                  uint64_t bytes_per_op, uint64_t latency_ns = 1000) {
  JobResult job;
  job.name = "job";
  job.interval_ns = kSecond;
  job.start_realtime_ns = start_ns;
  job.runtime_ns = ops_per_interval.size() * kSecond;
  job.end_realtime_ns = start_ns + static_cast<int64_t>(job.runtime_ns);
  OpStats& stats = job.Stats(kind);
  for (size_t i = 0; i < ops_per_interval.size(); ++i) {
    IntervalStats interval;
    interval.index = static_cast<int64_t>(i);
    Histogram h;
    for (uint64_t n = 0; n < ops_per_interval[i]; ++n) {
      h.Record(latency_ns);
      stats.lat.Record(latency_ns);
    }
    IntervalOpStats& s = interval.by_kind[static_cast<int>(kind)];
    s.ops = ops_per_interval[i];
    s.bytes = ops_per_interval[i] * bytes_per_op;
    s.lat = h.ToSparse();
    stats.ops += s.ops;
    stats.bytes += s.bytes;
    job.intervals.push_back(std::move(interval));
  }
  return job;
}

void AddResult(ScenarioResult& result, const std::string& agent_id, JobResult job) {
  result.results.push_back(AgentJobResult{agent_id, std::move(job)});
}

TEST(MergeTest, MergedHistogramsEqualTheHistogramOfEverySampleOfEveryAgentAndJob) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> latency(10.0, 1.5);
  ScenarioResult result;
  Histogram expected_lat, expected_slat, expected_clat;
  uint64_t expected_ops = 0, expected_bytes = 0;
  for (int agent = 0; agent < 3; ++agent) {
    for (int j = 0; j < 2; ++j) {
      JobResult job;
      job.name = "job" + std::to_string(j);
      OpStats& stats = job.Stats(OpKind::kRead);
      const int samples = 1000 + 137 * agent + 11 * j;
      for (int i = 0; i < samples; ++i) {
        const uint64_t slat = static_cast<uint64_t>(latency(rng));
        const uint64_t clat = static_cast<uint64_t>(latency(rng));
        stats.slat.Record(slat);
        stats.clat.Record(clat);
        stats.lat.Record(slat + clat);
        expected_slat.Record(slat);
        expected_clat.Record(clat);
        expected_lat.Record(slat + clat);
      }
      stats.ops = samples;
      stats.bytes = samples * 4096ull;
      expected_ops += stats.ops;
      expected_bytes += stats.bytes;
      AddResult(result, "agent" + std::to_string(agent), std::move(job));
    }
  }
  const ScenarioFigures figures = ComputeFigures(result);
  ASSERT_EQ(figures.ops.size(), 1u);
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->lat, expected_lat);
  EXPECT_EQ(read->slat, expected_slat);
  EXPECT_EQ(read->clat, expected_clat);
  EXPECT_EQ(read->lat.Percentile(99.9), expected_lat.Percentile(99.9));
  EXPECT_EQ(read->ops, expected_ops);
  EXPECT_EQ(read->bytes, expected_bytes);
  EXPECT_EQ(figures.agents, 3);
}

TEST(MergeTest, OpKindsThatNothingDidAreLeftOut) {
  ScenarioResult result;
  JobResult job = MakeJob(OpKind::kWrite, kT0, {1, 1}, 4096);
  job.Stats(OpKind::kRead);  // allocated but empty
  AddResult(result, "a", std::move(job));
  const ScenarioFigures figures = ComputeFigures(result);
  ASSERT_EQ(figures.ops.size(), 1u);
  EXPECT_EQ(figures.ops[0].kind, OpKind::kWrite);
  EXPECT_EQ(figures.Find(OpKind::kRead), nullptr);
}

// A trimwrite job on two agents: its trims are merged as their own kind beside the writes, and
// count as I/O (fio counts trims in IOPS, as reads and writes).
TEST(MergeTest, TrimsMergeAsTheirOwnKindAndCountAsIo) {
  ScenarioResult result;
  for (const std::string agent : {"a", "b"}) {
    JobResult job = MakeJob(OpKind::kWrite, kT0, {10, 10}, 4096);
    JobResult trims = MakeJob(OpKind::kTrim, kT0, {10, 10}, 4096, 2000);
    job.Stats(OpKind::kTrim) = trims.Stats(OpKind::kTrim);
    for (size_t i = 0; i < job.intervals.size(); ++i) {
      const int trim = static_cast<int>(OpKind::kTrim);
      job.intervals[i].by_kind[trim] = trims.intervals[i].by_kind[trim];
    }
    AddResult(result, agent, std::move(job));
  }
  const ScenarioFigures figures = ComputeFigures(result);
  ASSERT_EQ(figures.ops.size(), 2u);
  const OpFigures* trim = figures.Find(OpKind::kTrim);
  ASSERT_NE(trim, nullptr);
  EXPECT_EQ(trim->ops, 40u);
  EXPECT_EQ(trim->bytes, 40u * 4096);
  EXPECT_EQ(trim->lat.Percentile(50), figures.Find(OpKind::kWrite)->lat.Percentile(50) * 2);
  EXPECT_EQ(figures.io_ops, 80u) << "40 writes and 40 trims";
  EXPECT_EQ(figures.io_bytes, 80u * 4096);
}

TEST(MergeTest, FullThroughputDividesAllBytesByFirstStartToLastEnd) {
  ScenarioResult result;
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 1), 100));
  AddResult(result, "b",
            MakeJob(OpKind::kRead, kT0 + 2 * kSecond, std::vector<uint64_t>(6, 1), 100));
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_EQ(figures.first_start_ns, kT0);
  EXPECT_EQ(figures.last_start_ns, kT0 + 2 * kSecond);
  EXPECT_EQ(figures.first_end_ns, kT0 + 8 * kSecond);
  EXPECT_EQ(figures.last_end_ns, kT0 + 10 * kSecond);
  EXPECT_EQ(figures.start_skew_ns, 2 * kSecond);
  EXPECT_EQ(figures.full_window_ns, 10 * kSecond);
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->full_bytes_per_s, 1600.0 / 10.0);
  EXPECT_DOUBLE_EQ(read->full_iops, 16.0 / 10.0);
}

TEST(MergeTest, StonewallSumsEachAgentsBytesInsideLastStartToFirstEnd) {
  ScenarioResult result;
  // a: 10 intervals of 100 B from t0; b: 6 intervals of 100 B from t0+2s. Window [2s, 8s): a's
  // intervals 2..7 (600 B) and all of b (600 B) over 6 s.
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 1), 100));
  AddResult(result, "b",
            MakeJob(OpKind::kRead, kT0 + 2 * kSecond, std::vector<uint64_t>(6, 1), 100));
  const ScenarioFigures figures = ComputeFigures(result);
  ASSERT_TRUE(figures.stonewall_valid);
  EXPECT_EQ(figures.stonewall_window_ns, 6 * kSecond);
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_DOUBLE_EQ(read->stonewall_bytes, 1200.0);
  EXPECT_DOUBLE_EQ(read->stonewall_ops, 12.0);
  EXPECT_DOUBLE_EQ(read->stonewall_bytes_per_s, 200.0);
  EXPECT_DOUBLE_EQ(read->stonewall_iops, 2.0);
}

TEST(MergeTest, StonewallCountsTheInsideFractionOfAnIntervalCutByTheWindow) {
  ScenarioResult result;
  // a: intervals of 1000, 2000, 3000, 4000 B from t0. b starts at t0+1.5s and runs 2 s.
  // Window [1.5s, 3.5s): a contributes half of interval 1, all of 2, half of 3 = 1000+3000+2000.
  AddResult(result, "a", MakeJob(OpKind::kWrite, kT0, {10, 20, 30, 40}, 100));
  AddResult(result, "b", MakeJob(OpKind::kWrite, kT0 + 3 * kSecond / 2, {5, 5}, 100));
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_EQ(figures.last_start_ns, kT0 + 3 * kSecond / 2);
  EXPECT_EQ(figures.first_end_ns, kT0 + 7 * kSecond / 2);
  const OpFigures* write = figures.Find(OpKind::kWrite);
  ASSERT_NE(write, nullptr);
  EXPECT_DOUBLE_EQ(write->stonewall_bytes, 6000.0 + 1000.0);
  EXPECT_DOUBLE_EQ(write->stonewall_bytes_per_s, 7000.0 / 2.0);
}

TEST(MergeTest, TheLastPartialIntervalIsClippedAtTheJobEnd) {
  // Interval 2 of the job covers only [2s, 2.5s): its 100 B are all inside [2s, 2.5s).
  JobResult job = MakeJob(OpKind::kRead, kT0, {1, 1, 1}, 100);
  job.end_realtime_ns = kT0 + 5 * kSecond / 2;
  const WindowAmount amount =
      AmountInWindow(job, OpKind::kRead, kT0 + 2 * kSecond, kT0 + 5 * kSecond / 2);
  EXPECT_DOUBLE_EQ(amount.bytes, 100.0);
  EXPECT_DOUBLE_EQ(amount.ops, 1.0);
}

TEST(MergeTest, AJobWithoutIntervalsCountsAsOneUniformInterval) {
  JobResult job;
  job.start_realtime_ns = kT0;
  job.end_realtime_ns = kT0 + 4 * kSecond;
  job.Stats(OpKind::kRead).ops = 40;
  job.Stats(OpKind::kRead).bytes = 4000;
  const WindowAmount amount = AmountInWindow(job, OpKind::kRead, kT0 + kSecond, kT0 + 2 * kSecond);
  EXPECT_DOUBLE_EQ(amount.bytes, 1000.0);
  EXPECT_DOUBLE_EQ(amount.ops, 10.0);
}

TEST(MergeTest, AgentsThatNeverOverlapGiveNoStonewallFigures) {
  ScenarioResult result;
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, {1, 1}, 100));
  AddResult(result, "b", MakeJob(OpKind::kRead, kT0 + 5 * kSecond, {1, 1}, 100));
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_FALSE(figures.stonewall_valid);
  EXPECT_EQ(figures.stonewall_window_ns, 0);
  EXPECT_EQ(figures.Find(OpKind::kRead)->stonewall_bytes_per_s, 0.0);
  EXPECT_DOUBLE_EQ(figures.Find(OpKind::kRead)->full_bytes_per_s, 400.0 / 7.0);
}

// A partial scenario: "lost" started last (0.5 s late) and its streamed intervals end at 2.5 s. It
// started, so start skew counts it; its last report ends the stonewall window, so the stonewall
// figure is the rate of all three agents while all three ran (3 x 100 B/s), not a window of the
// other two with the lost agent's bytes counted over part of it (220 B/s: neither two nor three
// agents' rate).
TEST(MergeTest, ALostAgentTakesPartInStartSkewAndStonewallUpToItsLastReport) {
  ScenarioResult result;
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 1), 100));
  AddResult(result, "b", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 1), 100));
  AddResult(result, "lost", MakeJob(OpKind::kRead, kT0 + kSecond / 2, {1, 1}, 100));
  result.lost.push_back(LostAgent{"lost", kT0 + 12 * kSecond, "stream broken"});
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_EQ(figures.agents, 3);
  EXPECT_EQ(figures.agents_lost, 1);
  EXPECT_EQ(figures.start_skew_ns, kSecond / 2);
  EXPECT_EQ(figures.last_start_ns, kT0 + kSecond / 2);
  EXPECT_EQ(figures.first_end_ns, kT0 + 5 * kSecond / 2);
  EXPECT_EQ(figures.last_end_ns, kT0 + 10 * kSecond);
  ASSERT_TRUE(figures.stonewall_valid);
  EXPECT_EQ(figures.stonewall_window_ns, 2 * kSecond);
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  EXPECT_EQ(read->bytes, 2200u);  // every byte received counts in the sums
  EXPECT_DOUBLE_EQ(read->full_bytes_per_s, 2200.0 / 10.0);
  // Inside [0.5 s, 2.5 s): a and b 200 B each (half, whole, half interval), lost all of its 200 B.
  EXPECT_DOUBLE_EQ(read->stonewall_bytes, 600.0);
  EXPECT_DOUBLE_EQ(read->stonewall_bytes_per_s, 300.0);
  EXPECT_DOUBLE_EQ(figures.stonewall_io_bytes, 600.0);
}

// The same for a kind only some results carry (rule 7: a metadata phase the lost agent was in).
TEST(MergeTest, ALostAgentBoundsTheStonewallWindowOfAKindSomeResultsCarry) {
  ScenarioResult result;
  AddResult(result, "a", MakeJob(OpKind::kCreate, kT0, std::vector<uint64_t>(4, 1), 0));
  AddResult(result, "b", MakeJob(OpKind::kCreate, kT0, std::vector<uint64_t>(4, 1), 0));
  AddResult(result, "lost", MakeJob(OpKind::kCreate, kT0, {1, 1}, 0));
  AddResult(result, "a", MakeJob(OpKind::kStat, kT0 + 5 * kSecond, {3}, 0));
  AddResult(result, "b", MakeJob(OpKind::kStat, kT0 + 5 * kSecond, {3}, 0));
  result.lost.push_back(LostAgent{"lost", kT0 + 4 * kSecond, "stream broken"});
  const ScenarioFigures figures = ComputeFigures(result);
  const OpFigures* create = figures.Find(OpKind::kCreate);
  ASSERT_NE(create, nullptr);
  ASSERT_TRUE(create->stonewall_valid);
  // [0 s, 2 s): two intervals of each of the three agents.
  EXPECT_DOUBLE_EQ(create->stonewall_ops, 6.0);
  EXPECT_DOUBLE_EQ(create->stonewall_iops, 3.0);
}

// A job's end for the stonewall is its measured end (end_realtime_ns), which a block_io agent
// reports as its last completion or runtime end, not the drain after it: a job whose measured
// phase ended 0.5 s into its third interval closes the window there, and that interval's work is
// all inside it.
TEST(MergeTest, TheStonewallWindowEndsAtTheFirstMeasuredEnd) {
  ScenarioResult result;
  JobResult short_job = MakeJob(OpKind::kRead, kT0, {2, 2, 1}, 100);
  short_job.runtime_ns = 5 * kSecond / 2;
  short_job.end_realtime_ns = kT0 + 5 * kSecond / 2;
  AddResult(result, "a", std::move(short_job));
  AddResult(result, "b", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 2), 100));
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_EQ(figures.first_end_ns, kT0 + 5 * kSecond / 2);
  EXPECT_EQ(figures.stonewall_window_ns, 5 * kSecond / 2);
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  // a: 5 ops; b: 2 + 2 + half of 2.
  EXPECT_DOUBLE_EQ(read->stonewall_ops, 5.0 + 5.0);
  EXPECT_DOUBLE_EQ(read->stonewall_iops, 10.0 / 2.5);
}

TEST(MergeTest, MergedIntervalsAlignOnTheFirstStartOfTheScenario) {
  ScenarioResult result;
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, {1, 2, 3}, 10));
  // b started 0.3 s late: its interval i began in bucket i. c started 1.2 s late: bucket i + 1.
  AddResult(result, "b", MakeJob(OpKind::kRead, kT0 + 3 * kSecond / 10, {10, 20, 30}, 10));
  AddResult(result, "c", MakeJob(OpKind::kRead, kT0 + 12 * kSecond / 10, {100, 200}, 10));
  const ScenarioFigures figures = ComputeFigures(result);
  ASSERT_EQ(figures.intervals.size(), 3u);
  const int read = static_cast<int>(OpKind::kRead);
  EXPECT_EQ(figures.intervals[0].index, 0);
  EXPECT_EQ(figures.intervals[0].by_kind[read].ops, 11u);
  EXPECT_EQ(figures.intervals[1].by_kind[read].ops, 2u + 20u + 100u);
  EXPECT_EQ(figures.intervals[2].by_kind[read].ops, 3u + 30u + 200u);
  EXPECT_EQ(figures.intervals[2].by_kind[read].bytes, 2330u);
  EXPECT_EQ(figures.intervals[2].by_kind[read].lat.count, 233u);
}

TEST(MergeTest, PerAgentThroughputGivesMinMaxAndCoefficientOfVariation) {
  ScenarioResult result;
  AddResult(result, "slow", MakeJob(OpKind::kRead, kT0, {1, 1}, 100));   // 100 B/s
  AddResult(result, "fast", MakeJob(OpKind::kRead, kT0, {3, 3}, 100));   // 300 B/s
  AddResult(result, "fast", MakeJob(OpKind::kWrite, kT0, {1, 1}, 100));  // other kind: not read
  const ScenarioFigures figures = ComputeFigures(result);
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  ASSERT_EQ(read->per_agent.size(), 2u);
  EXPECT_EQ(read->per_agent[0].agent_id, "slow");
  EXPECT_DOUBLE_EQ(read->per_agent[0].bytes_per_s, 100.0);
  EXPECT_DOUBLE_EQ(read->per_agent[1].bytes_per_s, 300.0);
  EXPECT_DOUBLE_EQ(read->agent_bytes_per_s.min, 100.0);
  EXPECT_DOUBLE_EQ(read->agent_bytes_per_s.max, 300.0);
  EXPECT_DOUBLE_EQ(read->agent_bytes_per_s.cv, 0.5);  // population stdev 100 / mean 200
}

TEST(MergeTest, PerAgentThroughputAddsTheDurationsOfResultsThatRanOneAfterAnother) {
  // large_stream passes=3 on one agent: three 10 s writes of 1000 MiB, one after another (every
  // result carries the kind, so the agent's time is all of its results').
  constexpr uint64_t kMiB = 1 << 20;
  ScenarioResult result;
  for (int pass = 0; pass < 3; ++pass) {
    JobResult job =
        MakeJob(OpKind::kWrite, kT0 + pass * 10 * kSecond, std::vector<uint64_t>(10, 100), kMiB);
    job.name = "stream.pass" + std::to_string(pass + 1);
    AddResult(result, "a", std::move(job));
  }
  const ScenarioFigures figures = ComputeFigures(result);
  const OpFigures* write = figures.Find(OpKind::kWrite);
  ASSERT_NE(write, nullptr);
  ASSERT_EQ(write->per_agent.size(), 1u);
  EXPECT_EQ(write->per_agent[0].runtime_ns, 30u * kSecond);
  EXPECT_DOUBLE_EQ(write->per_agent[0].bytes_per_s, 100.0 * kMiB);
}

TEST(MergeTest, PerAgentThroughputCountsResultsThatRanTogetherOnce) {
  // Two jobs of one agent side by side for 10 s, and one that overlaps them by 5 s: 15 s in all.
  ScenarioResult result;
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 100), 4096));
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 100), 4096));
  AddResult(result, "a",
            MakeJob(OpKind::kRead, kT0 + 5 * kSecond, std::vector<uint64_t>(10, 100), 4096));
  const ScenarioFigures figures = ComputeFigures(result);
  const OpFigures* read = figures.Find(OpKind::kRead);
  ASSERT_NE(read, nullptr);
  ASSERT_EQ(read->per_agent.size(), 1u);
  EXPECT_EQ(read->per_agent[0].runtime_ns, 15u * kSecond);
  EXPECT_DOUBLE_EQ(read->per_agent[0].iops, 3000.0 / 15.0);
}

TEST(MergeTest, PerAgentThroughputOfAKindSomeResultsCarryAddsTheirSequentialDurations) {
  // Three fio stonewall groups one after another: read, read, write (10 s each).
  ScenarioResult result;
  AddResult(result, "a", MakeJob(OpKind::kRead, kT0, std::vector<uint64_t>(10, 100), 4096));
  AddResult(result, "a",
            MakeJob(OpKind::kRead, kT0 + 10 * kSecond, std::vector<uint64_t>(10, 100), 4096));
  AddResult(result, "a",
            MakeJob(OpKind::kWrite, kT0 + 20 * kSecond, std::vector<uint64_t>(10, 50), 4096));
  const ScenarioFigures figures = ComputeFigures(result);
  const OpFigures* read = figures.Find(OpKind::kRead);
  const OpFigures* write = figures.Find(OpKind::kWrite);
  ASSERT_NE(read, nullptr);
  ASSERT_NE(write, nullptr);
  EXPECT_EQ(read->per_agent[0].runtime_ns, 20u * kSecond);
  EXPECT_DOUBLE_EQ(read->per_agent[0].iops, 100.0);
  EXPECT_EQ(write->per_agent[0].runtime_ns, 10u * kSecond);
  EXPECT_DOUBLE_EQ(write->per_agent[0].iops, 50.0);
}

TEST(MergeTest, AnAgentFilterMergesOnlyTheAgentsItAccepts) {
  ScenarioResult result;
  AddResult(result, "az-a/1", MakeJob(OpKind::kRead, kT0, {1}, 100, 1000));
  AddResult(result, "az-b/1", MakeJob(OpKind::kRead, kT0 + kSecond / 2, {5}, 100, 9000));
  const ScenarioFigures figures =
      ComputeFigures(result, [](const std::string& id) { return id.starts_with("az-a"); });
  EXPECT_EQ(figures.agents, 1);
  EXPECT_EQ(figures.start_skew_ns, 0);
  EXPECT_EQ(figures.Find(OpKind::kRead)->ops, 1u);
  EXPECT_EQ(figures.Find(OpKind::kRead)->lat.max_ns(), 1000u);
}

TEST(MergeTest, ResultsWithoutTimesFallBackToTheScenarioInstants) {
  ScenarioResult result;
  result.first_start_realtime_ns = kT0;
  result.last_start_realtime_ns = kT0;
  result.first_end_realtime_ns = kT0 + 2 * kSecond;
  result.last_end_realtime_ns = kT0 + 2 * kSecond;
  JobResult job;
  job.Stats(OpKind::kRead).ops = 10;
  AddResult(result, "a", std::move(job));
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_EQ(figures.full_window_ns, 2 * kSecond);
  EXPECT_DOUBLE_EQ(figures.Find(OpKind::kRead)->full_iops, 5.0);
}

// An interval index whose start (index * interval_ns) is beyond int64_t (only a result built in
// memory can hold one: loading refuses it, report_load_test.cc) places the interval at the end of
// time, not wherever the wrapped product lands. 2^55 * 1 s is 5^9 * 2^64: wrapped, it would be 0.
TEST(MergeTest, AnIntervalIndexBeyondInt64TimeDoesNotWrapIntoTheRun) {
  constexpr int64_t kWrapsToZero = int64_t{1} << 55;
  JobResult job = MakeJob(OpKind::kRead, kT0, {10, 20}, 4096);
  job.intervals[1].index = kWrapsToZero;
  const WindowAmount amount = AmountInWindow(job, OpKind::kRead, kT0, kT0 + kSecond);
  EXPECT_DOUBLE_EQ(amount.ops, 10.0);  // interval 0 alone

  ScenarioResult result;
  AddResult(result, "a", std::move(job));
  const ScenarioFigures figures = ComputeFigures(result);
  ASSERT_EQ(figures.intervals.size(), 2u);  // not merged into bucket 0
  EXPECT_EQ(figures.intervals[0].index, 0);
  EXPECT_EQ(figures.intervals[0].by_kind[static_cast<int>(OpKind::kRead)].ops, 10u);
  EXPECT_GT(figures.intervals[1].index, 0);
}

}  // namespace
}  // namespace azbench
