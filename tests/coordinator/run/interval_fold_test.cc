// Folding an agent's interval latency onto one job keeps every total and every merged figure.
#include "coordinator/run/interval_fold.h"

#include <map>

#include "coordinator/merge.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr int64_t kT0 = 1'700'000'000'000'000'000;
constexpr uint64_t kSecond = 1'000'000'000;

// A job of `intervals` one-second intervals starting at kT0 + offset, latency `lat_ns`.
JobResult Job(const std::string& name, int64_t offset_ns, int intervals, uint64_t lat_ns) {
  JobResult job;
  job.name = name;
  job.interval_ns = kSecond;
  job.start_realtime_ns = kT0 + offset_ns;
  job.end_realtime_ns = job.start_realtime_ns + intervals * static_cast<int64_t>(kSecond);
  job.runtime_ns = intervals * kSecond;
  OpStats& totals = job.Stats(OpKind::kRead);
  for (int i = 0; i < intervals; ++i) {
    Histogram h;
    for (int op = 0; op < 10 * (i + 1); ++op) h.Record(lat_ns + static_cast<uint64_t>(op) * 1000);
    IntervalStats in;
    in.index = i;
    in.by_kind[0].ops = h.count();
    in.by_kind[0].bytes = h.count() * 4096;
    in.by_kind[0].lat = h.ToSparse();
    totals.ops += h.count();
    totals.bytes += h.count() * 4096;
    totals.lat.Merge(h);
    job.intervals.push_back(std::move(in));
  }
  return job;
}

ScenarioResult Scenario2Agents() {
  ScenarioResult r;
  r.results.push_back({"a", Job("j0", 0, 4, 100'000)});
  r.results.push_back({"a", Job("j1", 1'000'000'000, 3, 300'000)});  // waited one interval
  r.results.push_back({"a", Job("j2", 2'000, 4, 500'000)});
  r.results.push_back({"b", Job("j0", 5'000, 4, 200'000)});
  return r;
}

TEST(IntervalFoldTest, LatencyMovesToTheCarrierAndEveryCountStays) {
  ScenarioResult folded = Scenario2Agents();
  const ScenarioResult original = Scenario2Agents();
  FoldIntervalLatency(folded.results[0].result, folded.results[1].result);
  FoldIntervalLatency(folded.results[0].result, folded.results[2].result);
  for (const IntervalStats& in : folded.results[1].result.intervals) {
    EXPECT_EQ(in.by_kind[0].lat.count, 0u);
    EXPECT_GT(in.by_kind[0].ops, 0u) << "counts stay with their job";
  }
  // j1's interval 0 began one interval after j0's start: it lands in the carrier's interval 1.
  const JobResult& carrier = folded.results[0].result;
  ASSERT_EQ(carrier.intervals.size(), 4u);
  EXPECT_EQ(carrier.intervals[0].by_kind[0].lat.count, 10u + 10u);        // j0 + j2
  EXPECT_EQ(carrier.intervals[1].by_kind[0].lat.count, 20u + 10u + 20u);  // j0 + j1 + j2
  EXPECT_EQ(carrier.intervals[1].by_kind[0].ops, 20u) << "the carrier's own count";

  const ScenarioFigures before = ComputeFigures(original);
  const ScenarioFigures after = ComputeFigures(folded);
  ASSERT_EQ(after.ops.size(), 1u);
  EXPECT_EQ(after.ops[0].ops, before.ops[0].ops);
  EXPECT_EQ(after.ops[0].bytes, before.ops[0].bytes);
  EXPECT_TRUE(after.ops[0].lat == before.ops[0].lat);
  EXPECT_DOUBLE_EQ(after.ops[0].stonewall_ops, before.ops[0].stonewall_ops);
  EXPECT_DOUBLE_EQ(after.ops[0].full_iops, before.ops[0].full_iops);
  EXPECT_DOUBLE_EQ(after.ops[0].agent_iops.cv, before.ops[0].agent_iops.cv);
  // Rule 6: the same buckets with the same ops and the same latency samples.
  ASSERT_EQ(after.intervals.size(), before.intervals.size());
  for (size_t i = 0; i < after.intervals.size(); ++i) {
    EXPECT_EQ(after.intervals[i].index, before.intervals[i].index);
    EXPECT_EQ(after.intervals[i].by_kind[0].ops, before.intervals[i].by_kind[0].ops);
    EXPECT_EQ(after.intervals[i].by_kind[0].lat, before.intervals[i].by_kind[0].lat) << i;
  }
}

TEST(IntervalFoldTest, DifferentIntervalLengthsOrMissingTimesAreLeftAlone) {
  JobResult carrier = Job("j0", 0, 2, 100'000);
  JobResult other = Job("j1", 0, 2, 100'000);
  other.interval_ns = 2 * kSecond;
  FoldIntervalLatency(carrier, other);
  EXPECT_EQ(other.intervals[0].by_kind[0].lat.count, 10u);
  other.interval_ns = kSecond;
  other.start_realtime_ns = 0;
  FoldIntervalLatency(carrier, other);
  EXPECT_EQ(other.intervals[0].by_kind[0].lat.count, 10u);
  FoldIntervalLatency(carrier, carrier);
  EXPECT_EQ(carrier.intervals[0].by_kind[0].lat.count, 10u);
}

TEST(IntervalFoldTest, StreamedLatencyGoesToTheAgentSeriesAtTheSameIndex) {
  std::map<int64_t, IntervalStats> series;
  JobResult job = Job("j", 0, 3, 100'000);
  for (IntervalStats& in : job.intervals) FoldStreamedLatency(series, in);
  JobResult again = Job("k", 0, 2, 100'000);
  for (IntervalStats& in : again.intervals) FoldStreamedLatency(series, in);
  ASSERT_EQ(series.size(), 3u);
  EXPECT_EQ(series[0].by_kind[0].lat.count, 20u);
  EXPECT_EQ(series[1].by_kind[0].lat.count, 40u);
  EXPECT_EQ(series[2].by_kind[0].lat.count, 30u);
  EXPECT_EQ(series[1].by_kind[0].ops, 0u) << "only latency moves";
  EXPECT_EQ(job.intervals[1].by_kind[0].lat.count, 0u);
  EXPECT_EQ(job.intervals[1].by_kind[0].ops, 20u);
}

}  // namespace
}  // namespace azbench
