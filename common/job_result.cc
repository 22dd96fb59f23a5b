#include "common/job_result.h"

#include <algorithm>

namespace azbench {

void OpStats::Merge(const OpStats& other) {
  ops += other.ops;
  bytes += other.bytes;
  errors += other.errors;
  short_ios += other.short_ios;
  lat.Merge(other.lat);
  slat.Merge(other.slat);
  clat.Merge(other.clat);
}

void IntervalStats::Merge(const IntervalStats& other) {
  for (int k = 0; k < kOpKindCount; ++k) {
    IntervalOpStats& mine = by_kind[k];
    const IntervalOpStats& theirs = other.by_kind[k];
    mine.ops += theirs.ops;
    mine.bytes += theirs.bytes;
    mine.errors += theirs.errors;
    mine.lat = Histogram::AddSparse(mine.lat, theirs.lat);
  }
}

double CpuUsage::UserPercent() const {
  return wall_ns == 0 ? 0.0 : static_cast<double>(user_ns) * 100.0 / static_cast<double>(wall_ns);
}

double CpuUsage::SystemPercent() const {
  return wall_ns == 0 ? 0.0 : static_cast<double>(system_ns) * 100.0 / static_cast<double>(wall_ns);
}

void CpuUsage::Merge(const CpuUsage& other) {
  threads += other.threads;
  wall_ns += other.wall_ns;
  user_ns += other.user_ns;
  system_ns += other.system_ns;
  voluntary_switches += other.voluntary_switches;
  involuntary_switches += other.involuntary_switches;
  minor_faults += other.minor_faults;
  major_faults += other.major_faults;
}

bool DepthStats::measured() const {
  for (int i = 0; i < kBuckets; ++i) {
    if (submit[i] != 0 || complete[i] != 0) return true;
  }
  return false;
}

std::array<double, DepthStats::kBuckets> DepthStats::Percent(const Buckets& counts) {
  uint64_t total = 0;
  for (uint64_t c : counts) total += c;
  std::array<double, kBuckets> out{};
  if (total == 0) return out;
  for (int i = 0; i < kBuckets; ++i) {
    out[i] = static_cast<double>(counts[i]) * 100.0 / static_cast<double>(total);
  }
  return out;
}

void DepthStats::Merge(const DepthStats& other) {
  for (int i = 0; i < kBuckets; ++i) {
    level[i] += other.level[i];
    submit[i] += other.submit[i];
    complete[i] += other.complete[i];
  }
}

JobResult JobResult::Clone() const {
  JobResult copy;
  copy.name = name;
  copy.group_id = group_id;
  copy.clones = clones;
  for (int k = 0; k < kOpKindCount; ++k) {
    if (by_kind[k]) copy.by_kind[k] = std::make_unique<OpStats>(*by_kind[k]);
  }
  copy.intervals = intervals;
  copy.interval_ns = interval_ns;
  copy.runtime_ns = runtime_ns;
  copy.start_realtime_ns = start_realtime_ns;
  copy.end_realtime_ns = end_realtime_ns;
  copy.error_errno = error_errno;
  copy.error_message = error_message;
  copy.warnings = warnings;
  copy.op_log_records = op_log_records;
  copy.op_log_dropped = op_log_dropped;
  copy.cpu = cpu;
  copy.depth = depth;
  copy.verify_failures = verify_failures;
  copy.verify_failure_offsets = verify_failure_offsets;
  copy.continue_on_error = continue_on_error;
  copy.total_err_count = total_err_count;
  copy.first_error = first_error;
  copy.steadystate = steadystate;
  copy.latency_depth = latency_depth;
  return copy;
}

OpStats& JobResult::Stats(OpKind kind) {
  auto& slot = by_kind[static_cast<int>(kind)];
  if (!slot) slot = std::make_unique<OpStats>();
  return *slot;
}

uint64_t JobResult::TotalErrors() const {
  uint64_t total = 0;
  for (const auto& stats : by_kind) {
    if (stats) total += stats->errors;
  }
  return total;
}

void JobResult::Merge(const JobResult& other) {
  clones += other.clones;
  for (int k = 0; k < kOpKindCount; ++k) {
    if (other.by_kind[k]) Stats(static_cast<OpKind>(k)).Merge(*other.by_kind[k]);
  }
  // Both series are sorted by index: merge them in one pass.
  std::vector<IntervalStats> merged;
  merged.reserve(std::max(intervals.size(), other.intervals.size()));
  size_t i = 0, j = 0;
  while (i < intervals.size() || j < other.intervals.size()) {
    if (j == other.intervals.size() ||
        (i < intervals.size() && intervals[i].index < other.intervals[j].index)) {
      merged.push_back(std::move(intervals[i++]));
    } else if (i == intervals.size() || other.intervals[j].index < intervals[i].index) {
      merged.push_back(other.intervals[j++]);
    } else {
      merged.push_back(std::move(intervals[i++]));
      merged.back().Merge(other.intervals[j++]);
    }
  }
  intervals = std::move(merged);
  runtime_ns = std::max(runtime_ns, other.runtime_ns);
  if (other.start_realtime_ns != 0 &&
      (start_realtime_ns == 0 || other.start_realtime_ns < start_realtime_ns)) {
    start_realtime_ns = other.start_realtime_ns;
  }
  end_realtime_ns = std::max(end_realtime_ns, other.end_realtime_ns);
  op_log_records += other.op_log_records;
  op_log_dropped += other.op_log_dropped;
  cpu.Merge(other.cpu);
  depth.Merge(other.depth);
  verify_failures += other.verify_failures;
  for (const uint64_t offset : other.verify_failure_offsets) {
    if (verify_failure_offsets.size() >= kMaxVerifyFailureOffsets) break;
    verify_failure_offsets.push_back(offset);
  }
  continue_on_error |= other.continue_on_error;
  total_err_count += other.total_err_count;
  if (first_error == 0) first_error = other.first_error;
  // Each agent judged its own share; a merge keeps the first verdict it has.
  if (!steadystate) steadystate = other.steadystate;
  if (other.latency_depth != 0) latency_depth = other.latency_depth;
  if (error_errno == 0 && error_message.empty()) {
    error_errno = other.error_errno;
    error_message = other.error_message;
  }
  for (const auto& w : other.warnings) {
    if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);
  }
}

}  // namespace azbench
