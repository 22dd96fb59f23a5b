// The HTML report's throughput-over-time chart: one line per agent (AgentThroughputChart,
// html_report.h).
#include "coordinator/report/html_report.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/stats.h"
#include "common/units.h"
#include "coordinator/report/html_common.h"

namespace azbench {

using html_internal::kMaxAgentLines;

// One line per agent: the agent's throughput per interval, on the coordinator clock relative to
// the scenario's first start (interval midpoints). A bucket's rate is what the agent's jobs did in
// it divided by the time they covered of it (the union of their intervals, the last interval of a
// job clipped at its end), so concurrent jobs add up and back-to-back ones (large_stream's passes)
// do not. A bucket covered for less than a tenth of an interval holds a job's final completions
// only and is left out, unless it is all the agent has (a job shorter than that). With more than
// kMaxAgentLines agents, only the kMaxAgentLines / 2 with the least and the most work are drawn
// (the stragglers and the leaders); `agents_total` says how many there were.
LineChart AgentThroughputChart(const std::string& target, const ScenarioResult& result,
                               const ScenarioFigures& figures, bool bytes, size_t* agents_total) {
  LineChart chart;
  chart.title = absl::StrCat(target, ": throughput per agent over time");
  chart.x = MakeAxis("seconds since the first agent started", AxisKind::kLinear, nullptr, true);
  chart.y = MakeAxis(bytes ? "MiB/s" : "IOPS", AxisKind::kLinear, FormatSiShort, true);
  const int64_t origin = figures.first_start_ns;
  std::vector<std::string> agents;
  for (const AgentJobResult& r : result.results) {
    if (std::find(agents.begin(), agents.end(), r.agent_id) == agents.end()) {
      agents.push_back(r.agent_id);
    }
  }
  for (const std::string& agent : agents) {
    int64_t agent_start = 0;
    uint64_t interval_ns = 0;
    for (const AgentJobResult& r : result.results) {
      if (r.agent_id != agent || r.result.start_realtime_ns == 0) continue;
      if (agent_start == 0 || r.result.start_realtime_ns < agent_start) {
        agent_start = r.result.start_realtime_ns;
      }
      if (interval_ns == 0) interval_ns = r.result.interval_ns;
    }
    if (interval_ns == 0) continue;
    struct Bucket {
      double amount = 0;
      std::vector<std::pair<int64_t, int64_t>> covered;  // [begin, end), coordinator clock
    };
    std::map<int64_t, Bucket> buckets;
    for (const AgentJobResult& r : result.results) {
      if (r.agent_id != agent) continue;
      const JobResult& job = r.result;
      if (job.interval_ns == 0) continue;
      const int64_t shift = static_cast<int64_t>(
          std::llround(static_cast<double>(job.start_realtime_ns - agent_start) / interval_ns));
      for (const IntervalStats& in : job.intervals) {
        double amount = 0;
        for (const IntervalOpStats& s : in.by_kind) {
          amount += bytes ? static_cast<double>(s.bytes) / kMiB : static_cast<double>(s.ops);
        }
        const int64_t begin =
            job.start_realtime_ns + in.index * static_cast<int64_t>(job.interval_ns);
        if (job.end_realtime_ns != 0 && begin >= job.end_realtime_ns) continue;
        int64_t length = static_cast<int64_t>(job.interval_ns);
        if (job.end_realtime_ns > begin && job.end_realtime_ns - begin < length) {
          length = job.end_realtime_ns - begin;
        }
        Bucket& b = buckets[in.index + shift];
        b.amount += amount;
        b.covered.emplace_back(begin, begin + std::max<int64_t>(length, 1));
      }
    }
    std::map<int64_t, std::pair<double, int64_t>> rate;  // bucket -> (per second, covered ns)
    for (auto& [bucket, b] : buckets) {
      std::sort(b.covered.begin(), b.covered.end());
      int64_t covered = 0, end = INT64_MIN;
      for (const auto& [lo, hi] : b.covered) {
        const int64_t from = std::max(lo, end);
        if (hi > from) covered += hi - from;
        end = std::max(end, hi);
      }
      rate[bucket] = {b.amount * 1e9 / static_cast<double>(covered), covered};
    }
    const auto tiny = [&](const auto& entry) {
      return entry.second.second * 10 < static_cast<int64_t>(interval_ns);
    };
    if (!std::all_of(rate.begin(), rate.end(), tiny)) {
      for (auto it = rate.begin(); it != rate.end();) {
        it = tiny(*it) ? rate.erase(it) : std::next(it);
      }
    }
    ChartSeries series{agent, {}};
    for (const auto& [bucket, value_covered] : rate) {
      const double value = value_covered.first;
      const double t = (static_cast<double>(agent_start - origin) +
                        (static_cast<double>(bucket) + 0.5) * interval_ns) /
                       1e9;
      series.points.emplace_back(t, value);
    }
    chart.series.push_back(std::move(series));
  }
  *agents_total = chart.series.size();
  if (chart.series.size() > kMaxAgentLines) {
    std::vector<std::pair<double, size_t>> work;  // (sum of rates, series index)
    for (size_t i = 0; i < chart.series.size(); ++i) {
      double sum = 0;
      for (const auto& [t, v] : chart.series[i].points) sum += v;
      work.emplace_back(sum, i);
    }
    std::stable_sort(work.begin(), work.end());
    std::set<size_t> keep;
    for (size_t i = 0; i < kMaxAgentLines / 2; ++i) {
      keep.insert(work[i].second);
      keep.insert(work[work.size() - 1 - i].second);
    }
    std::vector<ChartSeries> kept;
    for (size_t i : keep) kept.push_back(std::move(chart.series[i]));
    chart.series = std::move(kept);
  }
  chart.markers = true;
  return chart;
}

}  // namespace azbench
