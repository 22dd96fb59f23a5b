// Merge rule 7: an op kind carried by only some results (metadata phases, small-file passes) is
// rated over the window of those results.
#include <cstdint>
#include <string>
#include <vector>

#include "coordinator/merge.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

constexpr int64_t kSecond = 1'000'000'000;
constexpr int64_t kT0 = 1'700'000'000 * kSecond;

// `ops` ops of `kind` spread evenly over one interval per second from `start_ns` for `seconds`.
JobResult Phase(const std::string& name, OpKind kind, int64_t start_ns, int seconds, uint64_t ops) {
  JobResult job;
  job.name = name;
  job.interval_ns = kSecond;
  job.start_realtime_ns = start_ns;
  job.runtime_ns = static_cast<uint64_t>(seconds) * kSecond;
  job.end_realtime_ns = start_ns + static_cast<int64_t>(job.runtime_ns);
  OpStats& stats = job.Stats(kind);
  for (int i = 0; i < seconds; ++i) {
    IntervalStats interval;
    interval.index = i;
    Histogram h;
    for (uint64_t n = 0; n < ops / seconds; ++n) {
      h.Record(1000);
      stats.lat.Record(1000);
    }
    interval.by_kind[static_cast<int>(kind)].ops = ops / seconds;
    interval.by_kind[static_cast<int>(kind)].lat = h.ToSparse();
    stats.ops += ops / seconds;
    job.intervals.push_back(std::move(interval));
  }
  return job;
}

TEST(MergeKindWindowTest, EachPhaseIsRatedOverItsOwnWindowAcrossAgents) {
  ScenarioResult result;
  // Two agents; create runs [0 s, 2 s) on a and [0 s, 1 s) on b, stat [3 s, 4 s) on both.
  result.results.push_back({"a", Phase("md.create", OpKind::kCreate, kT0, 2, 200)});
  result.results.push_back({"b", Phase("md.create", OpKind::kCreate, kT0, 1, 200)});
  result.results.push_back({"a", Phase("md.stat", OpKind::kStat, kT0 + 3 * kSecond, 1, 500)});
  result.results.push_back({"b", Phase("md.stat", OpKind::kStat, kT0 + 3 * kSecond, 1, 500)});
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_EQ(figures.full_window_ns, 4 * kSecond);
  const OpFigures* create = figures.Find(OpKind::kCreate);
  const OpFigures* stat = figures.Find(OpKind::kStat);
  ASSERT_NE(create, nullptr);
  ASSERT_NE(stat, nullptr);
  EXPECT_EQ(create->full_window_ns, 2 * kSecond);
  EXPECT_DOUBLE_EQ(create->full_iops, 400.0 / 2.0);
  EXPECT_EQ(stat->full_window_ns, 1 * kSecond);
  EXPECT_DOUBLE_EQ(stat->full_iops, 1000.0);
  // Stonewall of create: [last start 0 s, first end 1 s): a did 100, b 200.
  EXPECT_DOUBLE_EQ(create->stonewall_ops, 300.0);
  EXPECT_DOUBLE_EQ(create->stonewall_iops, 300.0);
  // Per agent: the runtime of that agent's create result.
  ASSERT_EQ(create->per_agent.size(), 2u);
  EXPECT_DOUBLE_EQ(create->per_agent[0].iops, 100.0);
  EXPECT_DOUBLE_EQ(create->per_agent[1].iops, 200.0);
}

TEST(MergeKindWindowTest, KindsThatEveryResultCarriesUseTheScenarioWindow) {
  ScenarioResult result;
  JobResult a = Phase("rw", OpKind::kRead, kT0, 2, 100);
  JobResult extra = Phase("rw", OpKind::kWrite, kT0, 2, 50);
  a.Stats(OpKind::kWrite) = std::move(*extra.by_kind[static_cast<int>(OpKind::kWrite)]);
  result.results.push_back({"a", std::move(a)});
  result.results.push_back({"b", Phase("r", OpKind::kRead, kT0 + kSecond, 2, 100)});
  const ScenarioFigures figures = ComputeFigures(result);
  EXPECT_EQ(figures.Find(OpKind::kRead)->full_window_ns, 3 * kSecond);
  EXPECT_DOUBLE_EQ(figures.Find(OpKind::kRead)->full_iops, 200.0 / 3.0);
  // Only agent a wrote: the write window is a's [0 s, 2 s).
  EXPECT_EQ(figures.Find(OpKind::kWrite)->full_window_ns, 2 * kSecond);
}

}  // namespace
}  // namespace azbench
