#include "coordinator/run/agent_stream.h"

#include <algorithm>
#include <cmath>

#include "coordinator/run/interval_fold.h"

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

bool HasLatency(const IntervalStats& interval) {
  for (const IntervalOpStats& s : interval.by_kind) {
    if (s.lat.count > 0 || !s.lat.buckets.empty()) return true;
  }
  return false;
}

}  // namespace

AgentStream::AgentStream(int64_t offset_ns, uint64_t interval_ns, bool fold_latency,
                         IntervalSink* sink, std::string agent_id)
    : offset_ns_(offset_ns),
      interval_ns_(interval_ns == 0 ? 1'000'000'000 : interval_ns),
      fold_latency_(fold_latency),
      sink_(sink),
      agent_id_(std::move(agent_id)) {}

void AgentStream::SpillFolded(bool all) {
  if (sink_ == nullptr) return;
  while (!folded_.empty() && (all || folded_.size() > kFoldWindowSlots)) {
    auto oldest = folded_.begin();
    oldest->second.index = oldest->first;
    sink_->Add({agent_id_, kFoldedLatency, std::string(), std::move(oldest->second)});
    folded_.erase(oldest);
  }
}

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
  SpillFolded(/*all=*/false);  // a slot spilled and folded into again is summed when saved
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
  if (sink_ != nullptr) {
    for (int k = 0; k < kOpKindCount; ++k) {
      const IntervalOpStats& s = interval.by_kind[k];
      if (s.ops == 0 && s.errors == 0 && s.lat.count == 0) continue;
      IntervalOpStats& sum = series.sums[k];
      series.seen[k] = true;
      sum.ops += s.ops;
      sum.bytes += s.bytes;
      sum.errors += s.errors;
      if (s.lat.count > 0) sum.lat = Histogram::AddSparse(sum.lat, s.lat);
    }
    series.last_index = std::max(series.last_index, interval.index);
    if (HasLatency(interval)) series.latency_staged = true;
    sink_->Add({agent_id_, job_index, result_name, std::move(interval)});
    return;
  }
  auto [at, fresh] = series.intervals.try_emplace(interval.index, std::move(interval));
  if (!fresh) at->second.Merge(interval);
}

void AgentStream::AddResult(int job_index, JobResult result) {
  // 0 is "none" (a job that never started, or ended before its end was taken): it stays 0
  // rather than become an instant near 1970 that merge would take for a real one.
  if (result.start_realtime_ns != 0) result.start_realtime_ns -= offset_ns_;
  if (result.end_realtime_ns != 0) result.end_realtime_ns -= offset_ns_;
  // Its own intervals are the ones not streamed: their latency is folded like streamed ones.
  if (fold_latency_ && result.interval_ns == interval_ns_ && result.start_realtime_ns != 0) {
    for (IntervalStats& interval : result.intervals)
      FoldLatency(result.start_realtime_ns, interval);
  }
  auto it = series_.find({job_index, result.name});
  if (sink_ != nullptr) {
    bool latency_staged = it != series_.end() && it->second.latency_staged;
    for (IntervalStats& interval : result.intervals) {
      if (HasLatency(interval)) latency_staged = true;
      sink_->Add({agent_id_, job_index, result.name, std::move(interval)});
    }
    result.intervals.clear();
    if (it != series_.end()) series_.erase(it);
    results_.push_back({job_index, std::move(result), latency_staged});
    return;
  }
  if (it != series_.end()) {
    result.intervals.reserve(result.intervals.size() + it->second.intervals.size());
    for (auto& [index, interval] : it->second.intervals) {
      AddToSeries(result.intervals, std::move(interval));
    }
    series_.erase(it);  // its latency totals are in the result already, exactly
  }
  results_.push_back({job_index, std::move(result)});
}

std::vector<JobResult> AgentStream::TakeResults(bool lost) {
  std::vector<StreamedResult> streamed = TakeStreamedResults(lost);
  std::vector<JobResult> out;
  out.reserve(streamed.size());
  for (StreamedResult& r : streamed) out.push_back(std::move(r.result));
  return out;
}

std::vector<StreamedResult> AgentStream::TakeStreamedResults(bool lost) {
  std::vector<StreamedResult> out;
  out.reserve(results_.size() + series_.size());
  for (Received& r : results_) {
    StreamedResult& o = out.emplace_back();
    o.result = std::move(r.result);
    if (sink_ != nullptr) {
      o.staged.job_index = r.job_index;
      o.staged.latency_staged = r.latency_staged;
    }
  }
  results_.clear();
  // Series whose result never came become partial results.
  for (auto& [key, series] : series_) {
    JobResult partial;
    partial.name = key.second;
    partial.interval_ns = interval_ns_;
    partial.start_realtime_ns = series.start_ns;
    if (sink_ != nullptr) {  // the same sums, from the running totals (the intervals are staged)
      for (int k = 0; k < kOpKindCount; ++k) {
        if (!series.seen[k]) continue;
        OpStats& stats = partial.Stats(static_cast<OpKind>(k));
        stats.ops += series.sums[k].ops;
        stats.bytes += series.sums[k].bytes;
        stats.errors += series.sums[k].errors;
        (void)stats.lat.MergeSparse(series.sums[k].lat);
      }
      if (series.last_index >= 0) {
        partial.runtime_ns = static_cast<uint64_t>(series.last_index + 1) * interval_ns_;
      }
    }
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
    StreamedResult& o = out.emplace_back();
    o.result = std::move(partial);
    if (sink_ != nullptr) {
      o.staged.job_index = key.first;
      o.staged.latency_staged = series.latency_staged;
    }
  }
  series_.clear();
  // The folded interval latency goes to the earliest-starting result with this interval length,
  // re-indexed from its start (interval_fold.h).
  // With a sink, slots may have been spilled already: the carrier is named whenever folding.
  if (!folded_.empty() || (sink_ != nullptr && fold_latency_ && anchored_)) {
    StreamedResult* carrier_of = nullptr;
    for (StreamedResult& o : out) {
      const JobResult& r = o.result;
      if (r.interval_ns != interval_ns_ || r.start_realtime_ns == 0) continue;
      if (carrier_of == nullptr || r.start_realtime_ns < carrier_of->result.start_realtime_ns) {
        carrier_of = &o;
      }
    }
    if (sink_ != nullptr) {
      SpillFolded(/*all=*/true);
      if (carrier_of != nullptr) {
        carrier_of->staged.fold_carrier = true;
        carrier_of->staged.fold_shift = SlotOf(carrier_of->result.start_realtime_ns);
      }
    } else if (carrier_of != nullptr) {
      JobResult* carrier = &carrier_of->result;
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
