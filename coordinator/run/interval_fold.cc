#include "coordinator/run/interval_fold.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace azbench {

namespace {

// Moves the latency histograms of `from` into `to`, leaving `from`'s counts alone.
void MoveLatency(IntervalStats& from, IntervalStats& to) {
  for (int k = 0; k < kOpKindCount; ++k) {
    Histogram::Sparse& lat = from.by_kind[k].lat;
    if (lat.count == 0) continue;
    IntervalOpStats& target = to.by_kind[k];
    target.lat = target.lat.count == 0 ? std::move(lat) : Histogram::AddSparse(target.lat, lat);
    lat = Histogram::Sparse{};
  }
}

bool HasLatency(const IntervalStats& interval) {
  for (const IntervalOpStats& s : interval.by_kind) {
    if (s.lat.count > 0) return true;
  }
  return false;
}

}  // namespace

void FoldIntervalLatency(JobResult& carrier, JobResult& job) {
  if (&carrier == &job || carrier.interval_ns == 0 || carrier.interval_ns != job.interval_ns ||
      carrier.start_realtime_ns == 0 || job.start_realtime_ns == 0) {
    return;
  }
  const double length = static_cast<double>(carrier.interval_ns);
  const int64_t shift =
      std::llround(static_cast<double>(job.start_realtime_ns - carrier.start_realtime_ns) / length);
  for (IntervalStats& interval : job.intervals) {
    if (!HasLatency(interval)) continue;
    const int64_t index = interval.index + shift;
    auto it =
        std::lower_bound(carrier.intervals.begin(), carrier.intervals.end(), index,
                         [](const IntervalStats& s, int64_t wanted) { return s.index < wanted; });
    if (it == carrier.intervals.end() || it->index != index) {
      it = carrier.intervals.insert(it, IntervalStats{});
      it->index = index;
    }
    MoveLatency(interval, *it);
  }
}

void FoldStreamedLatency(std::map<int64_t, IntervalStats>& carrier_series,
                         IntervalStats& interval) {
  if (!HasLatency(interval)) return;
  auto [it, inserted] = carrier_series.try_emplace(interval.index);
  if (inserted) it->second.index = interval.index;
  MoveLatency(interval, it->second);
}

}  // namespace azbench
