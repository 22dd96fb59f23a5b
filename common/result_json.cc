#include "common/result_json.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cmath>
#include <ctime>
#include <map>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/time/time.h"
#include "common/job_spec.h"
#include "common/stats.h"
#include "common/version.h"

namespace azbench {

using nlohmann::json;

namespace {

std::string PercentileKey(double p) { return absl::StrFormat("%.6f", p); }

json LatencyJson(const Histogram& h, bool with_percentiles, const ReportChoice& choice) {
  json out = {{"min", h.min_ns()},
              {"max", h.max_ns()},
              {"mean", h.mean_ns()},
              {"stddev", h.stddev_ns()},
              {"N", h.count()}};
  if (with_percentiles && h.count() > 0) {
    json pct = json::object();
    for (double p : choice.list) pct[PercentileKey(p)] = h.Percentile(p);
    out["percentile"] = pct;
  }
  return out;
}

// Per-interval samples of bandwidth (KiB/s) and IOPS for one op kind, as fio's bw_* / iops_*
// fields, by the rule in result_json.h. Why only full intervals: the last one holds a fraction
// of an interval's work (drain, tail), and divided by the whole interval it reads as a collapse.
// Why not past the runtime: the carrier of an agent's interval latency (interval_fold.h) has
// intervals there with ops = 0 that are other jobs' time, not this job's.
void AddIntervalFigures(const JobResult& result, int kind, double group_bytes_per_s, json& out) {
  std::vector<double> bw_kib, iops;
  const OpStats* stats = result.by_kind[kind].get();
  const bool did_any = stats != nullptr && stats->ops > 0;
  const uint64_t full_intervals =
      did_any && result.interval_ns > 0 ? result.runtime_ns / result.interval_ns : 0;
  if (full_intervals > 0) {
    const double interval_s = static_cast<double>(result.interval_ns) / 1e9;
    // Only the intervals the result has, by index: a full interval with no entry has no bytes and
    // no ops, so it is no sample either. (Not one slot per full interval: their number is the
    // runtime's, unbounded by what was recorded.)
    std::map<uint64_t, std::pair<uint64_t, uint64_t>> bytes_ops;
    for (const auto& interval : result.intervals) {
      if (interval.index < 0 || static_cast<uint64_t>(interval.index) >= full_intervals) continue;
      auto& [bytes, ops] = bytes_ops[static_cast<uint64_t>(interval.index)];
      bytes += interval.by_kind[kind].bytes;
      ops += interval.by_kind[kind].ops;
    }
    // As fio (stat.c: "No entries for interval"), an interval without bytes is no bw sample and
    // one without ops no iops sample: a stall shows in the interval series, not in bw_min.
    for (const auto& [index, counts] : bytes_ops) {
      const auto [bytes, ops] = counts;
      if (bytes > 0) bw_kib.push_back(static_cast<double>(bytes) / 1024.0 / interval_s);
      if (ops > 0) iops.push_back(static_cast<double>(ops) / interval_s);
    }
  }
  auto summarize = [](const std::vector<double>& v, double& min, double& max, double& mean,
                      double& dev) {
    min = max = mean = dev = 0;
    if (v.empty()) return;
    min = *std::min_element(v.begin(), v.end());
    max = *std::max_element(v.begin(), v.end());
    for (double x : v) mean += x;
    mean /= static_cast<double>(v.size());
    for (double x : v) dev += (x - mean) * (x - mean);
    dev = v.size() > 1 ? std::sqrt(dev / static_cast<double>(v.size() - 1)) : 0.0;
  };
  double mn, mx, mean, dev;
  summarize(bw_kib, mn, mx, mean, dev);
  out["bw_min"] = static_cast<int64_t>(mn);
  out["bw_max"] = static_cast<int64_t>(mx);
  // fio's bw_agg (p_of_agg in its stat.c): the mean of the samples as a percentage of the group's
  // aggregate bandwidth, at most 100; 100 when the aggregate is 0, 0 without samples.
  double share = 0;
  if (!bw_kib.empty()) {
    share = group_bytes_per_s > 0 ? std::min(100.0, mean * 100.0 / (group_bytes_per_s / 1024.0))
                                  : 100.0;
  }
  out["bw_agg"] = share;
  out["bw_mean"] = mean;
  out["bw_dev"] = dev;
  out["bw_samples"] = bw_kib.size();
  summarize(iops, mn, mx, mean, dev);
  out["iops_min"] = static_cast<int64_t>(mn);
  out["iops_max"] = static_cast<int64_t>(mx);
  out["iops_mean"] = mean;
  out["iops_stddev"] = dev;
  out["iops_samples"] = iops.size();
}

json DirectionJson(const JobResult& result, OpKind kind, double group_bytes_per_s,
                   const ReportChoice& percentiles) {
  const OpStats* stats = result.Find(kind);
  static const OpStats kEmpty;
  if (stats == nullptr) stats = &kEmpty;
  const bool async = stats->clat.count() > 0;
  json out;
  out["io_bytes"] = stats->bytes;
  out["io_kbytes"] = stats->bytes / 1024;
  out["bw_bytes"] = static_cast<uint64_t>(PerSecond(stats->bytes, result.runtime_ns));
  out["bw"] = static_cast<uint64_t>(PerSecond(stats->bytes, result.runtime_ns) / 1024.0);
  out["iops"] = PerSecond(stats->ops, result.runtime_ns);
  out["runtime"] = stats->ops > 0 ? result.runtime_ns / 1'000'000 : 0;
  out["total_ios"] = stats->ops + stats->errors;  // as fio, the failed I/Os too
  out["short_ios"] = stats->short_ios;
  out["drop_ios"] = 0;
  out["slat_ns"] = LatencyJson(stats->slat, percentiles.slat, percentiles);
  out["clat_ns"] = LatencyJson(async ? stats->clat : stats->lat, percentiles.clat, percentiles);
  out["lat_ns"] = LatencyJson(stats->lat, percentiles.lat, percentiles);
  AddIntervalFigures(result, static_cast<int>(kind), group_bytes_per_s, out);
  return out;
}

// fio's completion-latency distribution (io_u_mark_latency in fio's io_u.c): the share (percent)
// of all read/write/trim completions whose latency falls in each range. Keys are each range's
// exclusive upper bound: latency_ns "2" = [0, 2) ns ... "1000" = [750, 1000) ns; latency_us "2" =
// [1, 2) us ... "1000" = [750, 1000) us; latency_ms "2" = [1, 2) ms ... "2000" = [1000, 2000) ms,
// ">=2000". The latency is clat where the engine separates it, else the total (fio's clat for
// sync engines). Each sample is placed by its histogram bucket's reported value (midpoint clamped
// to min/max), so a sample within the histogram's error bound (0.39%) of a range edge may be
// counted in the neighbouring range.
void AddLatencyDistribution(const JobResult& result, json& job) {
  static constexpr uint64_t kEdges[] = {2, 4, 10, 20, 50, 100, 250, 500, 750, 1000};
  static constexpr char const* kMsKeys[] = {"2",   "4",   "10",  "20",   "50",   "100",
                                            "250", "500", "750", "1000", "2000", ">=2000"};
  std::array<uint64_t, 10> ns{}, us{};
  std::array<uint64_t, 12> ms{};
  uint64_t total = 0;
  // The range index of `value` among kEdges (value < 1000).
  auto index_of = [](uint64_t value) {
    int i = 0;
    while (value >= kEdges[i]) ++i;
    return i;
  };
  for (OpKind kind : {OpKind::kRead, OpKind::kWrite, OpKind::kTrim}) {
    const OpStats* stats = result.Find(kind);
    if (stats == nullptr) continue;
    const Histogram& h = stats->clat.count() > 0 ? stats->clat : stats->lat;
    if (h.count() == 0) continue;
    for (int b = 0; b < Histogram::kBucketCount; ++b) {
      const uint64_t count = h.bucket_count_at(b);
      if (count == 0) continue;
      const uint64_t value = std::clamp(Histogram::BucketValue(b), h.min_ns(), h.max_ns());
      total += count;
      if (value < 1000) {
        ns[index_of(value)] += count;
      } else if (value < 1'000'000) {
        us[index_of(value / 1000)] += count;
      } else {
        const uint64_t msec = value / 1'000'000;
        ms[msec >= 2000 ? 11 : msec >= 1000 ? 10 : index_of(msec)] += count;
      }
    }
  }
  // As fio's stat_calc_lat: a range with any completion shows at least 0.01%.
  auto percent = [total](uint64_t n) {
    if (total == 0) return 0.0;
    const double share = 100.0 * static_cast<double>(n) / static_cast<double>(total);
    return n > 0 && share < 0.01 ? 0.01 : share;
  };
  json j_ns = json::object(), j_us = json::object(), j_ms = json::object();
  for (size_t i = 0; i < ns.size(); ++i) j_ns[std::to_string(kEdges[i])] = percent(ns[i]);
  for (size_t i = 0; i < us.size(); ++i) j_us[std::to_string(kEdges[i])] = percent(us[i]);
  for (size_t i = 0; i < ms.size(); ++i) j_ms[kMsKeys[i]] = percent(ms[i]);
  job["latency_ns"] = j_ns;
  job["latency_us"] = j_us;
  job["latency_ms"] = j_ms;
}

}  // namespace

json HistogramToJson(const Histogram::Sparse& sparse) {
  json buckets = json::array();
  for (const auto& b : sparse.buckets) buckets.push_back({b.index, b.count});
  return {{"count", sparse.count},
          {"min_ns", sparse.min_ns},
          {"max_ns", sparse.max_ns},
          {"sum_ns", sparse.sum_ns},
          {"sum_sq_hi", sparse.sum_sq_hi},
          {"sum_sq_lo", sparse.sum_sq_lo},
          {"sum_ns_hi", sparse.sum_ns_hi},
          {"sum_sq_top", sparse.sum_sq_top},
          {"buckets", buckets}};
}

absl::StatusOr<Histogram> HistogramFromJson(const json& j) {
  if (!j.is_object()) return absl::InvalidArgumentError("histogram: expected an object");
  Histogram::Sparse sparse;
  try {
    sparse.count = j.at("count").get<uint64_t>();
    sparse.min_ns = j.at("min_ns").get<uint64_t>();
    sparse.max_ns = j.at("max_ns").get<uint64_t>();
    sparse.sum_ns = j.at("sum_ns").get<uint64_t>();
    sparse.sum_sq_hi = j.at("sum_sq_hi").get<uint64_t>();
    sparse.sum_sq_lo = j.at("sum_sq_lo").get<uint64_t>();
    sparse.sum_ns_hi = j.value("sum_ns_hi", uint64_t{0});
    sparse.sum_sq_top = j.value("sum_sq_top", uint64_t{0});
    for (const auto& b : j.at("buckets")) {
      sparse.buckets.push_back({b.at(0).get<int32_t>(), b.at(1).get<uint64_t>()});
    }
  } catch (const json::exception& e) {
    // nlohmann reports type and key errors by exception; they end here, at the boundary.
    return absl::InvalidArgumentError(absl::StrFormat("histogram: %s", e.what()));
  }
  return Histogram::FromSparse(sparse);
}

FioGroupBandwidth FioGroupAggregate(const std::vector<const JobResult*>& group) {
  FioGroupBandwidth out;
  uint64_t all_bytes = 0, all_longest_ns = 0;
  for (size_t d = 0; d < kFioDirections.size(); ++d) {
    uint64_t bytes = 0, longest_ns = 0;
    for (const JobResult* job : group) {
      const OpStats* stats = job->Find(kFioDirections[d]);
      if (stats == nullptr || stats->ops == 0) continue;
      bytes += stats->bytes;
      longest_ns = std::max(longest_ns, job->runtime_ns);
    }
    out.bytes_per_s[d] = PerSecond(bytes, longest_ns);
    all_bytes += bytes;
    all_longest_ns = std::max(all_longest_ns, longest_ns);
  }
  out.mixed_bytes_per_s = PerSecond(all_bytes, all_longest_ns);
  return out;
}

std::map<int, FioGroupBandwidth> FioGroupAggregates(const std::vector<const JobResult*>& jobs) {
  std::map<int, std::vector<const JobResult*>> groups;
  for (const JobResult* job : jobs) groups[job->group_id].push_back(job);
  std::map<int, FioGroupBandwidth> out;
  for (const auto& [id, group] : groups) out[id] = FioGroupAggregate(group);
  return out;
}

uint64_t FioJobRuntimeSumMs(const std::vector<const JobResult*>& parts) {
  uint64_t ns = 0;
  for (const JobResult* part : parts) {
    ns += static_cast<uint64_t>(std::max(part->clones, 1)) * part->runtime_ns;
  }
  return ns / 1'000'000;
}

int FioJobError(const JobResult& result) {
  if (result.error_errno != 0 || !result.continue_on_error) return result.error_errno;
  return result.first_error;
}

namespace {

// fio's "steadystate" object: the criterion as fio prints it back ("iops:10.000000%"), the
// window in seconds, the verdict, the last criterion and the window's samples.
json SteadyStateJson(const SteadyStateResult& ss) {
  const char* percent = ss.spec.percent ? "%" : "";
  json out;
  out["ss"] = absl::StrFormat("%s:%f%s", std::string(SteadyStateCriterionName(ss.spec)),
                              static_cast<float>(ss.spec.limit), percent);
  out["duration"] = static_cast<int>(ss.spec.window_seconds());
  out["attained"] = ss.attained ? 1 : 0;
  out["criterion"] = absl::StrFormat("%f%s", static_cast<float>(ss.criterion), percent);
  out["max_deviation"] = ss.max_deviation;
  out["slope"] = ss.slope;
  out["data"] = {
      {"bw_mean", ss.BwMean()}, {"iops_mean", ss.IopsMean()}, {"iops", ss.iops}, {"bw", ss.bw}};
  return out;
}

}  // namespace

json JobResultToFioJson(const JobResult& result, bool with_azbench_extras,
                        const FioGroupBandwidth* group, const ReportChoice& percentiles) {
  const FioGroupBandwidth own = group == nullptr ? FioGroupAggregate({&result}) : *group;
  json job;
  job["jobname"] = result.name;
  job["groupid"] = result.group_id;
  job["error"] = FioJobError(result);
  job["eta"] = INT_MAX;
  job["elapsed"] = FioElapsedSeconds(result.start_realtime_ns, result.end_realtime_ns);
  // Summed over the clones, as fio sums a group-reported job's threads: the agent's one-shot
  // output and the coordinator's fio-json (which sets it for entries merged over agents) agree.
  job["job_runtime"] = FioJobRuntimeSumMs({&result});
  job["read"] = DirectionJson(result, OpKind::kRead, own.bytes_per_s[0], percentiles);
  job["write"] = DirectionJson(result, OpKind::kWrite, own.bytes_per_s[1], percentiles);
  job["trim"] = DirectionJson(result, OpKind::kTrim, own.bytes_per_s[2], percentiles);
  const OpStats* sync = result.Find(OpKind::kFsync);
  static const OpStats kEmpty;
  if (sync == nullptr) sync = &kEmpty;
  job["sync"] = {
      {"total_ios", sync->ops},
      {"lat_ns", LatencyJson(sync->lat, percentiles.clat || percentiles.lat, percentiles)}};
  if (percentiles.unified != UnifiedRw::kNone) {
    // As fio: mixed's bw_agg is over the group's bytes of every direction; both's over the
    // group's reads (stat.c passes the read aggregate).
    const JobResult mixed = WithMixedDirections(result);
    if (percentiles.unified == UnifiedRw::kMixed) {
      for (const char* key : {"read", "write", "trim", "sync"}) job.erase(key);
    }
    job["mixed"] = DirectionJson(
        mixed, OpKind::kRead,
        percentiles.unified == UnifiedRw::kMixed ? own.mixed_bytes_per_s : own.bytes_per_s[0],
        percentiles);
  }
  AddLatencyDistribution(result, job);
  if (result.continue_on_error) {
    job["total_err"] = result.total_err_count;
    job["first_error"] = result.first_error;
  }
  job["latency_depth"] = result.latency_depth != 0 ? result.latency_depth : 1;
  job["latency_target"] = 0;
  job["latency_percentile"] = 100.0;
  job["latency_window"] = 0;
  if (result.depth.measured()) {
    auto shares = [](const DepthStats::Buckets& counts,
                     const std::array<const char*, DepthStats::kBuckets>& keys) {
      const std::array<double, DepthStats::kBuckets> pct = DepthStats::Percent(counts);
      json out = json::object();
      for (int i = 0; i < DepthStats::kBuckets; ++i) out[keys[i]] = pct[i];
      return out;
    };
    job["iodepth_level"] = shares(result.depth.level, DepthStats::kLevelKeys);
    job["iodepth_submit"] = shares(result.depth.submit, DepthStats::kCallKeys);
    job["iodepth_complete"] = shares(result.depth.complete, DepthStats::kCallKeys);
  }
  if (result.cpu.measured()) {
    job["usr_cpu"] = result.cpu.UserPercent();
    job["sys_cpu"] = result.cpu.SystemPercent();
    job["ctx"] = result.cpu.ContextSwitches();
    job["majf"] = result.cpu.major_faults;
    job["minf"] = result.cpu.minor_faults;
  }
  if (result.steadystate) job["steadystate"] = SteadyStateJson(*result.steadystate);
  if (with_azbench_extras) {
    json extras;
    extras["clones"] = result.clones;
    extras["runtime_ns"] = result.runtime_ns;
    extras["start_realtime_ns"] = result.start_realtime_ns;
    extras["end_realtime_ns"] = result.end_realtime_ns;
    extras["error_message"] = result.error_message;
    extras["warnings"] = result.warnings;
    extras["interval_ns"] = result.interval_ns;
    if (result.verify_failures > 0) {
      extras["verify"] = {{"failures", result.verify_failures},
                          {"failure_offsets", result.verify_failure_offsets}};
    }
    if (result.depth.measured()) {
      extras["depth"] = {{"level", result.depth.level},
                         {"submit", result.depth.submit},
                         {"complete", result.depth.complete}};
    }
    if (result.cpu.measured()) {
      extras["cpu"] = {{"threads", result.cpu.threads},
                       {"wall_ns", result.cpu.wall_ns},
                       {"user_ns", result.cpu.user_ns},
                       {"system_ns", result.cpu.system_ns},
                       {"voluntary_switches", result.cpu.voluntary_switches},
                       {"involuntary_switches", result.cpu.involuntary_switches},
                       {"minor_faults", result.cpu.minor_faults},
                       {"major_faults", result.cpu.major_faults}};
    }
    json kinds = json::object();
    for (int k = 0; k < kOpKindCount; ++k) {
      const OpStats* stats = result.by_kind[k].get();
      if (stats == nullptr) continue;
      kinds[std::string(OpKindName(static_cast<OpKind>(k)))] = {
          {"ops", stats->ops},
          {"bytes", stats->bytes},
          {"errors", stats->errors},
          {"short_ios", stats->short_ios},
          {"lat", HistogramToJson(stats->lat.ToSparse())},
          {"slat", HistogramToJson(stats->slat.ToSparse())},
          {"clat", HistogramToJson(stats->clat.ToSparse())}};
    }
    extras["ops"] = kinds;
    json intervals = json::array();
    for (const auto& interval : result.intervals) {
      json by_kind = json::object();
      for (int k = 0; k < kOpKindCount; ++k) {
        const IntervalOpStats& s = interval.by_kind[k];
        if (s.ops == 0 && s.errors == 0) continue;
        by_kind[std::string(OpKindName(static_cast<OpKind>(k)))] = {
            {"ops", s.ops}, {"bytes", s.bytes}, {"errors", s.errors}};
      }
      intervals.push_back({{"index", interval.index}, {"ops", by_kind}});
    }
    extras["intervals"] = intervals;
    job["azbench"] = extras;
  }
  return job;
}

int FioPlatIndex(uint64_t value_ns) {
  constexpr uint64_t kExact = uint64_t{1} << (kFioPlatBits + 1);  // 128: one bin per value
  if (value_ns < kExact) return static_cast<int>(value_ns);
  const int msb = 63 - __builtin_clzll(value_ns);
  const int error_bits = msb - kFioPlatBits;
  const uint64_t base = static_cast<uint64_t>(error_bits + 1) << kFioPlatBits;
  const uint64_t offset = (value_ns >> error_bits) & ((uint64_t{1} << kFioPlatBits) - 1);
  return static_cast<int>(std::min<uint64_t>(base + offset, kFioPlatBins - 1));
}

uint64_t FioPlatWidth(int index) {
  if (index < (2 << kFioPlatBits)) return 1;
  return uint64_t{1} << ((index >> kFioPlatBits) - 1);
}

uint64_t FioPlatValue(int index) {
  if (index < (2 << kFioPlatBits)) return static_cast<uint64_t>(index);
  const int error_bits = (index >> kFioPlatBits) - 1;
  const uint64_t base = uint64_t{1} << (error_bits + kFioPlatBits);
  const uint64_t k = static_cast<uint64_t>(index) % (uint64_t{1} << kFioPlatBits);
  // The bin's midpoint: error_bits >= 1 here, so it is a whole number.
  return base + k * FioPlatWidth(index) + FioPlatWidth(index) / 2;
}

json FioBinsJson(const Histogram& h) {
  std::map<int, uint64_t> bins;
  for (int b = 0; b < Histogram::kBucketCount; ++b) {
    const uint64_t count = h.bucket_count_at(b);
    if (count > 0) bins[FioPlatIndex(Histogram::BucketLowerBound(b))] += count;
  }
  json out = json::object();
  for (const auto& [index, count] : bins) out[std::to_string(FioPlatValue(index))] = count;
  return out;
}

void AddFioLatencyBins(json& job, const JobResult& result) {
  auto add = [](json& object, const Histogram& h) {
    if (object.contains("percentile")) object["bins"] = FioBinsJson(h);
  };
  auto add_direction = [&](const char* key, const OpStats& stats) {
    if (!job.contains(key)) return;
    json& direction = job[key];
    add(direction["slat_ns"], stats.slat);
    add(direction["clat_ns"], stats.clat.count() > 0 ? stats.clat : stats.lat);
    add(direction["lat_ns"], stats.lat);
  };
  for (OpKind kind : kFioDirections) {
    const OpStats* stats = result.Find(kind);
    if (stats != nullptr) add_direction(std::string(OpKindName(kind)).c_str(), *stats);
  }
  if (const OpStats* sync = result.Find(OpKind::kFsync); sync != nullptr && job.contains("sync")) {
    add(job["sync"]["lat_ns"], sync->lat);
  }
  if (job.contains("mixed")) {
    const JobResult mixed = WithMixedDirections(result);
    if (const OpStats* stats = mixed.Find(OpKind::kRead); stats != nullptr) {
      add_direction("mixed", *stats);
    }
  }
}

json FioOptionsJson(const FioOptionList& options) {
  json out = json::object();
  for (const auto& [key, value] : options) out[key] = value;
  return out;
}

namespace {

// The options a job's report reads (percentiles, depth, latency target), global ones first,
// applied to a default JobSpec. A bad value was refused before the job ran.
JobSpec FioReportingSpec(const FioOptionList& global, const FioOptionList& own) {
  JobSpec spec;
  for (const FioOptionList* list : {&global, &own}) {
    for (const auto& [key, value] : *list) {
      if (key == "percentile_list" || absl::EndsWith(key, "_percentiles") || key == "iodepth" ||
          absl::StartsWith(key, "latency_") || key == "unified_rw_reporting" ||
          key == "significant_figures" || key == "kb_base") {
        (void)ApplyJobOption(spec, key, value);
      }
    }
  }
  return spec;
}

}  // namespace

ReportChoice FioReportChoice(const FioOptionList& global, const FioOptionList& own) {
  const JobSpec spec = FioReportingSpec(global, own);
  ReportChoice choice = spec.report;
  choice.kb_base = spec.kb_base;  // kb_base also reads sizes: the spec keeps it
  return choice;
}

std::vector<ReportChoice> FioReportChoices(const FioRunContext& context) {
  std::vector<ReportChoice> out;
  for (const FioOptionList& own : context.job_options) {
    out.push_back(FioReportChoice(context.global_options, own));
  }
  return out;
}

void AddFioJobOptions(json& job, const FioOptionList& global, const FioOptionList& own) {
  job["job options"] = FioOptionsJson(own);
  const JobSpec spec = FioReportingSpec(global, own);
  if (spec.latency_target <= absl::ZeroDuration()) {
    job["latency_depth"] = spec.iodepth;
    return;
  }
  // The depth is the search's (the result's); fio writes the target in ns, the window in us.
  job["latency_target"] = absl::ToInt64Nanoseconds(spec.latency_target);
  job["latency_percentile"] = spec.latency_percentile;
  job["latency_window"] = absl::ToInt64Microseconds(spec.latency_window);
}

int64_t FioElapsedSeconds(int64_t start_realtime_ns, int64_t end_realtime_ns) {
  const int64_t span_ns = std::max<int64_t>(0, end_realtime_ns - start_realtime_ns);
  return (span_ns + 999'999'999) / 1'000'000'000;
}

json DiskUtilJson(const std::vector<DiskUtil>& disks) {
  json out = json::array();
  for (const DiskUtil& d : disks) {
    out.push_back({{"name", d.name},
                   {"read_ios", d.read_ios},
                   {"write_ios", d.write_ios},
                   {"read_merges", d.read_merges},
                   {"write_merges", d.write_merges},
                   {"read_ticks", d.read_ticks},
                   {"write_ticks", d.write_ticks},
                   {"in_queue", d.in_queue},
                   {"util", d.util}});
  }
  return out;
}

json FioDocumentHeader(int64_t realtime_ns) {
  const int64_t ms = realtime_ns / 1'000'000;
  const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
  char text[64];
  std::tm tm_buf;
  std::strftime(text, sizeof(text), "%a %b %e %H:%M:%S %Y", localtime_r(&seconds, &tm_buf));
  json doc;
  doc["fio version"] = absl::StrCat("azbench-", kAzbenchVersion);
  doc["timestamp"] = static_cast<int64_t>(seconds);
  doc["timestamp_ms"] = ms;
  doc["time"] = text;
  return doc;
}

json ResultsToFioJson(const std::vector<JobResult>& results, bool with_azbench_extras,
                      const FioRunContext& context) {
  const auto now = std::chrono::system_clock::now();
  json doc = FioDocumentHeader(
      std::chrono::duration_cast<std::chrono::nanoseconds>(now.time_since_epoch()).count());
  if (!context.global_options.empty()) {
    doc["global options"] = FioOptionsJson(context.global_options);
  }
  doc["jobs"] = json::array();
  std::vector<const JobResult*> all;
  int64_t first_start_ns = INT64_MAX, last_end_ns = 0;
  for (const auto& r : results) {
    all.push_back(&r);
    first_start_ns = std::min(first_start_ns, r.start_realtime_ns);
    last_end_ns = std::max(last_end_ns, r.end_realtime_ns);
  }
  const std::map<int, FioGroupBandwidth> groups = FioGroupAggregates(all);
  const std::vector<ReportChoice> percentiles = FioReportChoices(context);
  for (size_t i = 0; i < results.size(); ++i) {
    const JobResult& r = results[i];
    json job = JobResultToFioJson(r, with_azbench_extras, &groups.at(r.group_id),
                                  ChoiceOfJob(percentiles, i));
    job["elapsed"] = FioElapsedSeconds(first_start_ns, last_end_ns);
    if (i < context.job_options.size()) {
      AddFioJobOptions(job, context.global_options, context.job_options[i]);
    }
    if (context.with_bins) AddFioLatencyBins(job, r);
    doc["jobs"].push_back(std::move(job));
  }
  if (!context.disks.empty()) doc["disk_util"] = DiskUtilJson(context.disks);
  return doc;
}

}  // namespace azbench
