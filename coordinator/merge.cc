#include "coordinator/merge.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <map>
#include <utility>
#include <vector>

#include "common/stats.h"

namespace azbench {

namespace {

// floor(a / b) for b > 0, also for negative a.
int64_t FloorDiv(int64_t a, int64_t b) {
  const int64_t q = a / b;
  return (a % b != 0 && a < 0) ? q - 1 : q;
}

// a + b, a - b and a * b clamped to int64_t's range: loading refuses the values no run has
// (store_load.cc), and a figure made of them anyway (a result built in memory) is then absurd, not
// undefined.
int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum;
  if (!__builtin_add_overflow(a, b, &sum)) return sum;
  return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}
int64_t SaturatingSub(int64_t a, int64_t b) {
  int64_t difference;
  if (!__builtin_sub_overflow(a, b, &difference)) return difference;
  return b < 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
}
int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t product;
  if (!__builtin_mul_overflow(a, b, &product)) return product;
  return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min()
                            : std::numeric_limits<int64_t>::max();
}

// A duration as int64_t, clamped.
int64_t Int64(uint64_t ns) {
  return static_cast<int64_t>(std::min<uint64_t>(ns, std::numeric_limits<int64_t>::max()));
}

// Where interval `index` of `job` begins.
int64_t IntervalBegin(const JobResult& job, int64_t index) {
  return SaturatingAdd(job.start_realtime_ns, SaturatingMul(index, Int64(job.interval_ns)));
}

// A job's measured end (rule 2): its reported end, which every family makes the end of its
// measured phase on the agent's realtime clock (block_io: the last completion, end_fsync's
// included, or the runtime's end when later, never the drain after it; the file-level families:
// their last op of that result, so a metadata phase's barrier wait is in no result; a partial
// result of a lost agent: the end of its last streamed interval). start + runtime_ns only when the
// end is missing: that sum is not the end in general, as a result merged from numjobs clones that
// started apart keeps the earliest start and the longest runtime, and its end is the latest one.
int64_t JobEnd(const JobResult& job) {
  if (job.end_realtime_ns > job.start_realtime_ns) return job.end_realtime_ns;
  return SaturatingAdd(job.start_realtime_ns, Int64(job.runtime_ns));
}

// Rule 5's measured time of one agent: the length of the union of its results' measured
// windows [start, start + runtime_ns), so results that ran together (clones, jobs of one group)
// count once and results that ran one after another (stonewall groups, passes, phases) add up.
// A result without a start time counts as a window of its runtime alone (the union is then at
// least the longest such runtime).
class MeasuredTime {
 public:
  void Add(const JobResult& job) {
    uint64_t runtime = job.runtime_ns;
    if (runtime == 0 && job.start_realtime_ns != 0) {
      runtime = static_cast<uint64_t>(std::max<int64_t>(JobEnd(job) - job.start_realtime_ns, 0));
    }
    if (job.start_realtime_ns == 0) {
      untimed_ns_ = std::max(untimed_ns_, runtime);
      return;
    }
    windows_.emplace_back(job.start_realtime_ns,
                          SaturatingAdd(job.start_realtime_ns, Int64(runtime)));
  }
  uint64_t ns() const {
    std::vector<std::pair<int64_t, int64_t>> sorted = windows_;
    std::sort(sorted.begin(), sorted.end());
    uint64_t covered = 0;
    int64_t end = std::numeric_limits<int64_t>::min();
    for (const auto& [from, to] : sorted) {
      const int64_t begin = std::max(from, end);
      if (to > begin) covered += static_cast<uint64_t>(to - begin);
      end = std::max(end, to);
    }
    return std::max(covered, untimed_ns_);
  }

 private:
  std::vector<std::pair<int64_t, int64_t>> windows_;
  uint64_t untimed_ns_ = 0;
};

bool KindUsed(const OpStats& stats) {
  return stats.ops > 0 || stats.errors > 0 || stats.lat.count() > 0;
}

// What rule 2 needs of one agent, and its per-kind totals for rule 5.
struct AgentAggregate {
  std::string agent_id;
  bool has_times = false;
  int64_t start_ns = std::numeric_limits<int64_t>::max();
  int64_t end_ns = std::numeric_limits<int64_t>::min();
  MeasuredTime measured;  // rule 5
  std::array<uint64_t, kOpKindCount> ops{};
  std::array<uint64_t, kOpKindCount> bytes{};
};

// Rule 2's instants (and rule 5's per-agent runtimes) over a subset of the results.
struct Instants {
  int64_t first_start = 0, last_start = 0, first_end = 0, last_end = 0;
  std::map<std::string, MeasuredTime> measured;  // per agent (rule 5)
  bool any = false;
};

Instants InstantsOf(const std::vector<const AgentJobResult*>& results) {
  std::map<std::string, std::pair<int64_t, int64_t>> span;  // agent -> (start, end)
  Instants out;
  for (const AgentJobResult* r : results) {
    const JobResult& job = r->result;
    out.measured[r->agent_id].Add(job);
    if (job.start_realtime_ns == 0) continue;
    auto [it, inserted] =
        span.try_emplace(r->agent_id, std::make_pair(job.start_realtime_ns, JobEnd(job)));
    if (!inserted) {
      it->second.first = std::min(it->second.first, job.start_realtime_ns);
      it->second.second = std::max(it->second.second, JobEnd(job));
    }
  }
  // Lost agents included, as in ComputeFigures (rule 2).
  for (const auto& [agent, times] : span) {
    if (!out.any) {
      out.first_start = out.last_start = times.first;
      out.first_end = out.last_end = times.second;
      out.any = true;
      continue;
    }
    out.first_start = std::min(out.first_start, times.first);
    out.last_start = std::max(out.last_start, times.first);
    out.first_end = std::min(out.first_end, times.second);
    out.last_end = std::max(out.last_end, times.second);
  }
  return out;
}

}  // namespace

Spread SpreadOf(const std::vector<double>& values) {
  Spread s;
  if (values.empty()) return s;
  s.min = *std::min_element(values.begin(), values.end());
  s.max = *std::max_element(values.begin(), values.end());
  double sum = 0;
  for (double v : values) sum += v;
  s.mean = sum / static_cast<double>(values.size());
  if (values.size() < 2 || s.mean == 0) return s;
  double sq = 0;
  for (double v : values) sq += (v - s.mean) * (v - s.mean);
  s.cv = std::sqrt(sq / static_cast<double>(values.size())) / s.mean;
  return s;
}

const OpFigures* ScenarioFigures::Find(OpKind kind) const {
  for (const auto& op : ops) {
    if (op.kind == kind) return &op;
  }
  return nullptr;
}

uint64_t ScenarioFigures::TotalOps() const {
  uint64_t total = 0;
  for (const auto& op : ops) total += op.ops;
  return total;
}

uint64_t ScenarioFigures::TotalBytes() const {
  uint64_t total = 0;
  for (const auto& op : ops) total += op.bytes;
  return total;
}

uint64_t ScenarioFigures::TotalErrors() const {
  uint64_t total = 0;
  for (const auto& op : ops) total += op.errors;
  return total;
}

double ScenarioFigures::TotalFullIops() const {
  return PerSecond(TotalOps(), static_cast<uint64_t>(std::max<int64_t>(full_window_ns, 0)));
}

double ScenarioFigures::TotalFullBytesPerSecond() const {
  return PerSecond(TotalBytes(), static_cast<uint64_t>(std::max<int64_t>(full_window_ns, 0)));
}

WindowAmount AmountInWindow(const JobResult& job, OpKind kind, int64_t window_start_ns,
                            int64_t window_end_ns) {
  WindowAmount amount;
  if (window_end_ns <= window_start_ns) return amount;
  const int64_t job_start = job.start_realtime_ns;
  const int64_t job_end = JobEnd(job);
  // Adds `ops` and `bytes` done uniformly over [from, to), pro rata to its overlap with the window.
  auto add = [&](int64_t from, int64_t to, uint64_t ops, uint64_t bytes) {
    if (to <= from || (ops == 0 && bytes == 0)) return;
    const int64_t overlap =
        SaturatingSub(std::min(to, window_end_ns), std::max(from, window_start_ns));
    if (overlap <= 0) return;
    const double fraction =
        static_cast<double>(overlap) / static_cast<double>(SaturatingSub(to, from));
    amount.ops += static_cast<double>(ops) * fraction;
    amount.bytes += static_cast<double>(bytes) * fraction;
  };
  const int k = static_cast<int>(kind);
  if (job.intervals.empty()) {
    if (const OpStats* stats = job.Find(kind)) add(job_start, job_end, stats->ops, stats->bytes);
    return amount;
  }
  for (const auto& interval : job.intervals) {
    const int64_t from = IntervalBegin(job, interval.index);
    int64_t to = IntervalBegin(job, SaturatingAdd(interval.index, 1));
    if (job_end > from && job_end < to) to = job_end;  // the last, partial interval
    add(from, to, interval.by_kind[k].ops, interval.by_kind[k].bytes);
  }
  return amount;
}

ScenarioFigures ComputeFigures(const ScenarioResult& result) {
  return ComputeFigures(result, [](const std::string&) { return true; });
}

ScenarioFigures ComputeFigures(const ScenarioResult& result,
                               const std::function<bool(const std::string& agent_id)>& include) {
  ScenarioFigures figures;
  figures.agents_lost = static_cast<int>(result.lost.size());

  std::vector<const AgentJobResult*> included;
  for (const auto& r : result.results) {
    if (include(r.agent_id)) included.push_back(&r);
  }

  // Per-agent aggregates, in order of first appearance.
  std::vector<AgentAggregate> agents;
  std::map<std::string, size_t> agent_slot;
  for (const AgentJobResult* r : included) {
    auto [it, inserted] = agent_slot.emplace(r->agent_id, agents.size());
    if (inserted) {
      agents.emplace_back();
      agents.back().agent_id = r->agent_id;
    }
    AgentAggregate& agent = agents[it->second];
    const JobResult& job = r->result;
    if (job.start_realtime_ns != 0) {
      agent.has_times = true;
      agent.start_ns = std::min(agent.start_ns, job.start_realtime_ns);
      agent.end_ns = std::max(agent.end_ns, JobEnd(job));
    }
    agent.measured.Add(job);
    // Rule 9.
    figures.continue_on_error |= job.continue_on_error;
    figures.total_err += job.total_err_count;
    if (figures.first_error == 0 && job.total_err_count > 0) figures.first_error = job.first_error;
    for (int k = 0; k < kOpKindCount; ++k) {
      if (const OpStats* stats = job.by_kind[k].get()) {
        agent.ops[k] += stats->ops;
        agent.bytes[k] += stats->bytes;
      }
    }
  }
  figures.agents = static_cast<int>(agents.size());

  // Rule 2: the instants, from every agent with times, lost ones included: a lost agent started
  // (start skew is about every agent that did), and its end is its last reported instant, so the
  // stonewall window is still "while every agent ran" and holds that agent's reported work.
  auto take_instants = [&]() {
    bool any = false;
    for (const auto& agent : agents) {
      if (!agent.has_times) continue;
      if (!any) {
        figures.first_start_ns = figures.last_start_ns = agent.start_ns;
        figures.first_end_ns = figures.last_end_ns = agent.end_ns;
        any = true;
        continue;
      }
      figures.first_start_ns = std::min(figures.first_start_ns, agent.start_ns);
      figures.last_start_ns = std::max(figures.last_start_ns, agent.start_ns);
      figures.first_end_ns = std::min(figures.first_end_ns, agent.end_ns);
      figures.last_end_ns = std::max(figures.last_end_ns, agent.end_ns);
    }
    return any;
  };
  if (!take_instants()) {
    figures.first_start_ns = result.first_start_realtime_ns;
    figures.last_start_ns = result.last_start_realtime_ns;
    figures.first_end_ns = result.first_end_realtime_ns;
    figures.last_end_ns = result.last_end_realtime_ns;
  }
  figures.start_skew_ns = figures.last_start_ns - figures.first_start_ns;
  figures.full_window_ns = std::max<int64_t>(figures.last_end_ns - figures.first_start_ns, 0);
  figures.stonewall_window_ns = std::max<int64_t>(figures.first_end_ns - figures.last_start_ns, 0);
  figures.stonewall_valid = figures.stonewall_window_ns > 0;

  // Rules 1, 3, 4, 5 per op kind.
  const uint64_t full_window = static_cast<uint64_t>(figures.full_window_ns);
  const uint64_t stonewall_window = static_cast<uint64_t>(figures.stonewall_window_ns);
  for (int k = 0; k < kOpKindCount; ++k) {
    const OpKind kind = static_cast<OpKind>(k);
    bool used = false;
    for (const AgentJobResult* r : included) {
      const OpStats* stats = r->result.Find(kind);
      if (stats != nullptr && KindUsed(*stats)) used = true;
    }
    if (!used) continue;
    OpFigures& op = figures.ops.emplace_back();
    op.kind = kind;
    // Rule 7: a kind that only some results carry (metadata phases, small_files passes, fio
    // stonewall groups) is rated over the window of those results.
    std::vector<const AgentJobResult*> carrying;
    for (const AgentJobResult* r : included) {
      const OpStats* stats = r->result.Find(kind);
      if (stats != nullptr && KindUsed(*stats)) carrying.push_back(r);
    }
    uint64_t kind_full_window = full_window;
    uint64_t kind_stonewall_window = stonewall_window;
    int64_t kind_last_start = figures.last_start_ns, kind_first_end = figures.first_end_ns;
    std::map<std::string, MeasuredTime> kind_measured;
    const bool narrowed = carrying.size() != included.size();
    if (narrowed) {
      const Instants in = InstantsOf(carrying);
      if (in.any) {
        kind_full_window =
            static_cast<uint64_t>(std::max<int64_t>(in.last_end - in.first_start, 0));
        kind_stonewall_window =
            static_cast<uint64_t>(std::max<int64_t>(in.first_end - in.last_start, 0));
        kind_last_start = in.last_start;
        kind_first_end = in.first_end;
      }
      kind_measured = in.measured;
    }
    op.full_window_ns = static_cast<int64_t>(kind_full_window);
    for (const AgentJobResult* r : included) {
      const OpStats* stats = r->result.Find(kind);
      if (stats == nullptr) continue;
      op.ops += stats->ops;
      op.bytes += stats->bytes;
      op.errors += stats->errors;
      op.short_ios += stats->short_ios;
      op.lat.Merge(stats->lat);
      op.slat.Merge(stats->slat);
      op.clat.Merge(stats->clat);
      if (kind_stonewall_window > 0) {
        const WindowAmount in_window =
            AmountInWindow(r->result, kind, kind_last_start, kind_first_end);
        op.stonewall_ops += in_window.ops;
        op.stonewall_bytes += in_window.bytes;
      }
    }
    if (kind != OpKind::kFsync) {
      figures.io_ops += op.ops;
      figures.io_bytes += op.bytes;
      if (stonewall_window > 0) {
        if (!narrowed) {
          figures.stonewall_io_ops += op.stonewall_ops;
          figures.stonewall_io_bytes += op.stonewall_bytes;
        } else {
          for (const AgentJobResult* r : carrying) {
            const WindowAmount in_window =
                AmountInWindow(r->result, kind, figures.last_start_ns, figures.first_end_ns);
            figures.stonewall_io_ops += in_window.ops;
            figures.stonewall_io_bytes += in_window.bytes;
          }
        }
      }
    }
    op.full_iops = PerSecond(op.ops, kind_full_window);
    op.full_bytes_per_s = PerSecond(op.bytes, kind_full_window);
    op.stonewall_valid = kind_stonewall_window > 0;
    if (kind_stonewall_window > 0) {
      op.stonewall_iops = op.stonewall_ops * 1e9 / static_cast<double>(kind_stonewall_window);
      op.stonewall_bytes_per_s =
          op.stonewall_bytes * 1e9 / static_cast<double>(kind_stonewall_window);
    }
    std::vector<double> agent_bw, agent_iops;
    for (const auto& agent : agents) {
      AgentThroughput& t = op.per_agent.emplace_back();
      t.agent_id = agent.agent_id;
      t.ops = agent.ops[k];
      t.bytes = agent.bytes[k];
      t.runtime_ns = narrowed ? kind_measured[agent.agent_id].ns() : agent.measured.ns();
      t.iops = PerSecond(t.ops, t.runtime_ns);
      t.bytes_per_s = PerSecond(t.bytes, t.runtime_ns);
      agent_bw.push_back(t.bytes_per_s);
      agent_iops.push_back(t.iops);
    }
    op.agent_bytes_per_s = SpreadOf(agent_bw);
    op.agent_iops = SpreadOf(agent_iops);
  }

  // Rule 6: the merged interval series.
  for (const AgentJobResult* r : included) {
    if (r->result.interval_ns > 0) {
      figures.interval_ns = r->result.interval_ns;
      break;
    }
  }
  const int64_t bucket_ns = static_cast<int64_t>(figures.interval_ns);
  std::map<int64_t, IntervalStats> buckets;
  for (const AgentJobResult* r : included) {
    const JobResult& job = r->result;
    for (const auto& interval : job.intervals) {
      int64_t bucket = interval.index;
      if (job.start_realtime_ns != 0 && figures.first_start_ns != 0 && bucket_ns > 0) {
        const int64_t begin =
            SaturatingSub(IntervalBegin(job, interval.index), figures.first_start_ns);
        bucket = FloorDiv(begin, bucket_ns);
      }
      auto [it, inserted] = buckets.try_emplace(bucket);
      if (inserted) {
        it->second = interval;
        it->second.index = bucket;
      } else {
        it->second.Merge(interval);
      }
    }
  }
  figures.intervals.reserve(buckets.size());
  for (auto& [index, stats] : buckets) figures.intervals.push_back(std::move(stats));
  return figures;
}

}  // namespace azbench
