#include "coordinator/agent_stream.h"

#include <algorithm>
#include <cmath>

#include "coordinator/interval_fold.h"

namespace azbench {

namespace {

// Adds `interval` into the sorted series `series` (same index: merged).
void AddToSeries(std::vector<IntervalStats>& series, IntervalStats interval) {
  auto it =
      std::lower_bound(series.begin(), series.end(), interval.index,
                       [](const IntervalStats& s, int64_t wanted) { return s.index < wanted; });
  if (it != series.end() && it->index == interval.index) {
    it->Merge(interval);
  } else {
    series.insert(it, std::move(interval));
  }
}

}  // namespace

AgentStream::AgentStream(int64_t offset_ns, uint64_t interval_ns, bool fold_latency)
    : offset_ns_(offset_ns),
      interval_ns_(interval_ns == 0 ? 1'000'000'000 : interval_ns),
      fold_latency_(fold_latency) {}

int64_t AgentStream::SlotOf(int64_t start_ns) const {
  return std::llround(static_cast<double>(start_ns - anchor_ns_) /
                      static_cast<double>(interval_ns_));
}

void AgentStream::FoldLatency(int64_t series_start_ns, IntervalStats& interval) {
  if (!anchored_) {
    anchored_ = true;
    anchor_ns_ = series_start_ns;
  }
  const int64_t index = interval.index;
  interval.index = SlotOf(series_start_ns) + index;
  FoldStreamedLatency(folded_, interval);  // moves the latency, keeps the counts
  interval.index = index;
}

void AgentStream::AddInterval(int job_index, const std::string& result_name,
                              int64_t series_start_agent_ns, IntervalStats interval) {
  const int64_t start_ns = series_start_agent_ns - offset_ns_;
  auto [it, inserted] = series_.try_emplace({job_index, result_name});
  Series& series = it->second;
  if (inserted || start_ns < series.start_ns) series.start_ns = start_ns;
  if (fold_latency_) {
    for (int k = 0; k < kOpKindCount; ++k) {
      const Histogram::Sparse& lat = interval.by_kind[k].lat;
      if (lat.count > 0) series.lat[k] = Histogram::AddSparse(series.lat[k], lat);
    }
    FoldLatency(start_ns, interval);
  }
  auto [at, fresh] = series.intervals.try_emplace(interval.index, std::move(interval));
  if (!fresh) at->second.Merge(interval);
}

void AgentStream::AddResult(int job_index, JobResult result) {
  result.start_realtime_ns -= offset_ns_;
  result.end_realtime_ns -= offset_ns_;
  // Its own intervals are the ones not streamed: their latency is folded like streamed ones.
  if (fold_latency_ && result.interval_ns == interval_ns_ && result.start_realtime_ns != 0) {
    for (IntervalStats& interval : result.intervals)
      FoldLatency(result.start_realtime_ns, interval);
  }
  auto it = series_.find({job_index, result.name});
  if (it != series_.end()) {
    result.intervals.reserve(result.intervals.size() + it->second.intervals.size());
    for (auto& [index, interval] : it->second.intervals) {
      AddToSeries(result.intervals, std::move(interval));
    }
    series_.erase(it);  // its latency totals are in the result already, exactly
  }
  results_.push_back(std::move(result));
}

std::vector<JobResult> AgentStream::TakeResults(bool lost) {
  std::vector<JobResult> out = std::move(results_);
  results_.clear();
  // Series whose result never came become partial results.
  for (auto& [key, series] : series_) {
    JobResult partial;
    partial.name = key.second;
    partial.interval_ns = interval_ns_;
    partial.start_realtime_ns = series.start_ns;
    for (auto& [index, interval] : series.intervals) {
      for (int k = 0; k < kOpKindCount; ++k) {
        const IntervalOpStats& s = interval.by_kind[k];
        if (s.ops == 0 && s.errors == 0 && s.lat.count == 0) continue;
        OpStats& stats = partial.Stats(static_cast<OpKind>(k));
        stats.ops += s.ops;
        stats.bytes += s.bytes;
        stats.errors += s.errors;
        (void)stats.lat.MergeSparse(s.lat);  // without the fold; else series.lat below
      }
      partial.runtime_ns = static_cast<uint64_t>(index + 1) * interval_ns_;
      partial.intervals.push_back(std::move(interval));
    }
    for (int k = 0; k < kOpKindCount; ++k) {
      if (series.lat[k].count > 0)
        (void)partial.Stats(static_cast<OpKind>(k)).lat.MergeSparse(series.lat[k]);
    }
    partial.end_realtime_ns = partial.start_realtime_ns + static_cast<int64_t>(partial.runtime_ns);
    partial.warnings.push_back(
        lost ? "partial: the agent was lost; figures cover its streamed intervals only"
             : "partial: the job sent no result; figures cover its streamed intervals only");
    out.push_back(std::move(partial));
  }
  series_.clear();
  // The folded interval latency goes to the earliest-starting result with this interval length,
  // re-indexed from its start (interval_fold.h).
  if (!folded_.empty()) {
    JobResult* carrier = nullptr;
    for (JobResult& r : out) {
      if (r.interval_ns != interval_ns_ || r.start_realtime_ns == 0) continue;
      if (carrier == nullptr || r.start_realtime_ns < carrier->start_realtime_ns) carrier = &r;
    }
    if (carrier != nullptr) {
      const int64_t shift = SlotOf(carrier->start_realtime_ns);
      for (auto& [slot, latency] : folded_) {
        latency.index = std::max<int64_t>(0, slot - shift);
        AddToSeries(carrier->intervals, std::move(latency));
      }
    }
    folded_.clear();
  }
  anchored_ = false;
  return out;
}

size_t AgentStream::pending_intervals() const {
  size_t n = 0;
  for (const auto& [key, series] : series_) n += series.intervals.size();
  return n;
}

}  // namespace azbench
