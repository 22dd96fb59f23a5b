#include "common/result_text.h"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <ctime>
#include <map>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/errno_text.h"
#include "common/result_json.h"
#include "common/stats.h"
#include "common/units.h"

namespace azbench {

namespace {

// fio's display_lat: min and max in 6 significant figures; usec (msec) when the smallest value,
// the largest and the deviation are all past fio's thresholds.
std::string LatLine(const char* label, const Histogram& h) {
  uint64_t min = h.min_ns(), max = h.max_ns();
  double mean = h.mean_ns(), dev = h.stddev_ns();
  const char* base = "(nsec)";
  for (const auto& [divisor, name] : {std::pair<uint64_t, const char*>{1'000'000, "(msec)"},
                                      std::pair<uint64_t, const char*>{1'000, "(usec)"}}) {
    if (min > 2 * divisor && max > 100 * divisor - 1 && dev > static_cast<double>(divisor)) {
      min /= divisor;
      max /= divisor;
      mean /= static_cast<double>(divisor);
      dev /= static_cast<double>(divisor);
      base = name;
      break;
    }
  }
  return absl::StrFormat("    %s %s: min=%s, max=%s, avg=%5.02f, stdev=%5.02f\n", label, base,
                         FioNum2Str(min, 6, 1, false, ""), FioNum2Str(max, 6, 1, false, ""), mean,
                         dev);
}

// fio's percentile block (stat.c show_clat_percentiles): the unit from the smallest and largest
// value shown (ns; us when the smallest is over 2,000 ns and the largest over 99,999 ns; ms when
// over 2,000,000 and 99,999,999 ns), each value rounded up in it; as many entries per line as fit
// 80 columns.
std::string PercentileBlock(const char* label, const Histogram& h,
                            const ReportChoice& percentiles) {
  if (percentiles.list.empty() || h.count() == 0) return "";
  std::vector<uint64_t> values;
  for (double p : percentiles.list) values.push_back(h.Percentile(p));
  const uint64_t min = *std::min_element(values.begin(), values.end());
  const uint64_t max = *std::max_element(values.begin(), values.end());
  int scale_down = 0;
  const char* unit = "nsec";
  if (min > 2'000'000 && max > 99'999'999) {
    scale_down = 2;
    unit = "msec";
  } else if (min > 2'000 && max > 99'999) {
    scale_down = 1;
    unit = "usec";
  }
  const uint64_t divisor = scale_down == 2 ? 1'000'000 : scale_down == 1 ? 1'000 : 1;
  // Zero (a null engine's latencies) has no logarithm; it takes the minimum width.
  const uint64_t shown_max = max / divisor;
  const int time_width =
      shown_max == 0
          ? 5
          : std::max(5, static_cast<int>(std::log10(static_cast<double>(shown_max)) + 1));
  const int per_line = (80 - 7) / (percentiles.precision + 10 + time_width);
  std::string out = absl::StrFormat("    %s percentiles (%s):\n     |", label, unit);
  for (size_t j = 0; j < values.size(); ++j) {
    if (j != 0 && j % per_line == 0) absl::StrAppend(&out, "     |");
    uint64_t v = values[j];
    for (int i = 0; i < scale_down; ++i) v = (v + 999) / 1000;
    const bool last = j + 1 == values.size();
    absl::StrAppend(
        &out, absl::StrFormat(" %*.*fth=[%*d]%c", percentiles.precision + 3, percentiles.precision,
                              percentiles.list[j], time_width, v, last ? '\n' : ','));
    if (!last && j % per_line == static_cast<size_t>(per_line - 1)) absl::StrAppend(&out, "\n");
  }
  return out;
}

}  // namespace

namespace {

// fio's bw and iops lines: the per-interval samples of the JSON direction object (bw in KiB/s,
// shown in MiB/s once the mean passes kb_base squared, as fio's; its "per" is bw_agg).
std::string SampleLines(const nlohmann::json& direction, const ReportChoice& choice) {
  if (!direction.is_object()) return "";
  std::string out;
  if (direction.value("bw_samples", uint64_t{0}) > 0) {
    const double base = choice.kb_base;
    double min = direction.value("bw_min", 0.0), max = direction.value("bw_max", 0.0);
    double mean = direction.value("bw_mean", 0.0), dev = direction.value("bw_dev", 0.0);
    const char* unit = choice.kb_base == 1024 ? "KiB" : "kB";
    if (mean > base * base) {
      min = std::floor(min / base);
      max = std::floor(max / base);
      mean /= base;
      dev /= base;
      unit = "MiB";
    }
    absl::StrAppend(&out,
                    absl::StrFormat("   bw (%5s/s): min=%5d, max=%5d, per=%3.2f%%, "
                                    "avg=%5.02f, stdev=%5.02f, samples=%d\n",
                                    unit, static_cast<uint64_t>(min), static_cast<uint64_t>(max),
                                    direction.value("bw_agg", 0.0), mean, dev,
                                    direction.value("bw_samples", uint64_t{0})));
  }
  if (direction.value("iops_samples", uint64_t{0}) > 0) {
    absl::StrAppend(
        &out,
        absl::StrFormat("   iops        : min=%5d, max=%5d, avg=%5.02f, stdev=%5.02f, "
                        "samples=%d\n",
                        direction.value("iops_min", uint64_t{0}),
                        direction.value("iops_max", uint64_t{0}), direction.value("iops_mean", 0.0),
                        direction.value("iops_stddev", 0.0),
                        direction.value("iops_samples", uint64_t{0})));
  }
  return out;
}

// One op kind's section, as fio's show_ddir_status: its rate line, its slat / clat / lat lines
// (clat from the total latency where the engine separates none, as fio's for sync engines) and the
// chosen percentile blocks.
std::string KindSection(std::string_view label, const OpStats& stats, uint64_t runtime_ns,
                        const ReportChoice& percentiles, const nlohmann::json& direction) {
  std::string out;
  // As fio: per second over whole milliseconds of runtime, in significant_figures digits, the
  // kb_base's units first and the others in parentheses.
  const uint64_t runtime_ms = runtime_ns / 1'000'000;
  const auto per_second = [&](uint64_t n) {
    return runtime_ms > 0
               ? static_cast<uint64_t>(static_cast<unsigned __int128>(n) * 1000 / runtime_ms)
               : static_cast<uint64_t>(PerSecond(n, runtime_ns));
  };
  const int digits = percentiles.significant_figures;
  const bool binary = percentiles.kb_base == 1024;
  const uint64_t bw = per_second(stats.bytes);
  absl::StrAppend(&out, absl::StrFormat("  %s: IOPS=%s, BW=%s (%s)(%s/%dmsec), errors=%d\n", label,
                                        FioNum2Str(per_second(stats.ops), digits, 1, false, ""),
                                        FioNum2Str(bw, digits, 1, binary, "B/s"),
                                        FioNum2Str(bw, digits, 1, !binary, "B/s"),
                                        FioNum2Str(stats.bytes, digits, 1, binary, "B"), runtime_ms,
                                        stats.errors));
  const Histogram& clat = stats.clat.count() > 0 ? stats.clat : stats.lat;
  if (stats.slat.count() > 0) absl::StrAppend(&out, LatLine("slat", stats.slat));
  if (clat.count() > 0) absl::StrAppend(&out, LatLine("clat", clat));
  if (stats.lat.count() > 0) absl::StrAppend(&out, LatLine(" lat", stats.lat));
  if (percentiles.slat) absl::StrAppend(&out, PercentileBlock("slat", stats.slat, percentiles));
  if (percentiles.clat) absl::StrAppend(&out, PercentileBlock("clat", clat, percentiles));
  if (percentiles.lat) absl::StrAppend(&out, PercentileBlock("lat", stats.lat, percentiles));
  absl::StrAppend(&out, SampleLines(direction, percentiles));
  return out;
}

// fio's sync section: the fsyncs' latency (their count is in the issued line).
std::string SyncSection(const OpStats& stats, const ReportChoice& percentiles) {
  if (stats.lat.count() == 0) return "";
  std::string out = "  fsync/fdatasync/sync_file_range:\n" + LatLine("sync", stats.lat);
  if (percentiles.clat || percentiles.lat) {
    absl::StrAppend(&out, PercentileBlock("sync", stats.lat, percentiles));
  }
  return out;
}

// fio's show_latencies: the completion-latency distribution of the JSON job's latency_ns /
// latency_us / latency_ms, each range with any share, five to a line.
std::string LatencyDistributionLines(const nlohmann::json& fio_job) {
  static constexpr const char* kKeys[] = {"2",   "4",   "10",  "20",   "50",   "100",
                                          "250", "500", "750", "1000", "2000", ">=2000"};
  std::string out;
  for (const auto& [key, unit, ranges] :
       {std::tuple{"latency_ns", "nsec", 10}, std::tuple{"latency_us", "usec", 10},
        std::tuple{"latency_ms", "msec", 12}}) {
    const auto it = fio_job.find(key);
    if (it == fio_job.end()) continue;
    int on_line = 0;
    for (int i = 0; i < ranges; ++i) {
      const double share = it->value(kKeys[i], 0.0);
      if (share <= 0.0) continue;
      if (on_line == 5) {
        out += "\n";
        on_line = 0;
      }
      absl::StrAppend(&out, on_line == 0 ? absl::StrFormat("  lat (%s)   : ", unit) : ", ",
                      absl::StrFormat("%s=%3.2f%%", kKeys[i], share));
      ++on_line;
    }
    if (on_line > 0) out += "\n";
  }
  return out;
}

const nlohmann::json& JsonMember(const nlohmann::json& object, std::string_view key) {
  static const nlohmann::json kNull;
  if (!object.is_object()) return kNull;
  const auto it = object.find(key);
  return it == object.end() ? kNull : *it;
}

uint64_t JsonCount(const nlohmann::json& object, const char* direction, const char* key) {
  const nlohmann::json& member = JsonMember(object, direction);
  return member.is_object() ? member.value(key, uint64_t{0}) : 0;
}

bool Reported(const OpStats* stats) {
  return stats != nullptr && (stats->ops > 0 || stats->errors > 0);
}

// ctime's form of now, with its newline, as fio's job header ends.
std::string CtimeNow() {
  const std::time_t now = std::time(nullptr);
  char text[32] = {};
  if (ctime_r(&now, text) == nullptr) return "\n";
  return text;
}

}  // namespace

std::string FormatJobResultText(const JobResult& result, const ReportChoice& percentiles,
                                const nlohmann::json& fio_job) {
  const int error = FioJobError(result);
  std::string out = absl::StrFormat("%s: (groupid=%d, jobs=%d): err=%2d", result.name,
                                    result.group_id, result.clones, error);
  if (error != 0) absl::StrAppend(&out, " (", ErrnoText(error), ")");
  absl::StrAppend(&out, absl::StrFormat(": pid=%d: %s", getpid(), CtimeNow()));
  // unified_rw_reporting (common/report_choice.h): mixed's section in place of the directions,
  // both's after them; the fsyncs keep their own section, as fio's.
  const bool mixed_only = percentiles.unified == UnifiedRw::kMixed;
  for (OpKind kind : {OpKind::kRead, OpKind::kWrite, OpKind::kTrim}) {
    const OpStats* stats = result.Find(kind);
    if (mixed_only || !Reported(stats)) continue;
    absl::StrAppend(&out, KindSection(OpKindName(kind), *stats, result.runtime_ns, percentiles,
                                      JsonMember(fio_job, OpKindName(kind))));
  }
  if (percentiles.unified != UnifiedRw::kNone) {
    const JobResult mixed = WithMixedDirections(result);
    if (const OpStats* stats = mixed.Find(OpKind::kRead); Reported(stats)) {
      absl::StrAppend(&out, KindSection("mixed", *stats, result.runtime_ns, percentiles,
                                        JsonMember(fio_job, "mixed")));
    }
  }
  absl::StrAppend(&out, LatencyDistributionLines(fio_job));
  if (const OpStats* sync = result.Find(OpKind::kFsync); Reported(sync)) {
    absl::StrAppend(&out, SyncSection(*sync, percentiles));
  }
  // The kinds of the other families (metadata, small files, streams, probes).
  for (int k = static_cast<int>(OpKind::kOpen); k < kOpKindCount; ++k) {
    const OpKind kind = static_cast<OpKind>(k);
    const OpStats* stats = result.by_kind[k].get();
    if (!Reported(stats)) continue;
    absl::StrAppend(&out, KindSection(OpKindName(kind), *stats, result.runtime_ns, percentiles,
                                      nlohmann::json()));
  }
  if (result.cpu.measured()) {
    absl::StrAppend(&out,
                    absl::StrFormat("  cpu          : usr=%.2f%%, sys=%.2f%%, ctx=%d, majf=%d, "
                                    "minf=%d\n",
                                    result.cpu.UserPercent(), result.cpu.SystemPercent(),
                                    result.cpu.ContextSwitches(), result.cpu.major_faults,
                                    result.cpu.minor_faults));
  }
  if (result.depth.measured()) {
    auto line = [](const char* label, const DepthStats::Buckets& counts,
                   const std::array<const char*, DepthStats::kBuckets>& keys) {
      const std::array<double, DepthStats::kBuckets> pct = DepthStats::Percent(counts);
      std::string text = label;
      for (int i = 0; i < DepthStats::kBuckets; ++i) {
        absl::StrAppend(&text, i == 0 ? "" : ", ", keys[i], "=", absl::StrFormat("%.1f%%", pct[i]));
      }
      return absl::StrCat(text, "\n");
    };
    absl::StrAppend(&out, line("  IO depths    : ", result.depth.level, DepthStats::kLevelKeys));
    absl::StrAppend(&out, line("     submit    : ", result.depth.submit, DepthStats::kCallKeys));
    absl::StrAppend(&out, line("     complete  : ", result.depth.complete, DepthStats::kCallKeys));
  }
  if (fio_job.contains("latency_depth")) {
    // fio's issued I/Os per direction, sync fourth; a unified "mixed" job's are all in the first.
    const char* first = fio_job.contains("read") ? "read" : "mixed";
    absl::StrAppend(
        &out, absl::StrFormat(
                  "     issued rwts: total=%d,%d,%d,%d short=%d,%d,%d,0 dropped=%d,%d,%d,0\n",
                  JsonCount(fio_job, first, "total_ios"), JsonCount(fio_job, "write", "total_ios"),
                  JsonCount(fio_job, "trim", "total_ios"), JsonCount(fio_job, "sync", "total_ios"),
                  JsonCount(fio_job, first, "short_ios"), JsonCount(fio_job, "write", "short_ios"),
                  JsonCount(fio_job, "trim", "short_ios"), JsonCount(fio_job, first, "drop_ios"),
                  JsonCount(fio_job, "write", "drop_ios"), JsonCount(fio_job, "trim", "drop_ios")));
  }
  if (result.continue_on_error) {
    absl::StrAppend(&out, absl::StrFormat("     errors    : total=%d, first_error=%d/<%s>\n",
                                          result.total_err_count, result.first_error,
                                          result.first_error == 0 ? std::string("Success")
                                                                  : ErrnoText(result.first_error)));
  }
  if (fio_job.contains("latency_depth")) {
    absl::StrAppend(
        &out,
        absl::StrFormat("     latency   : target=%d, window=%d, percentile=%.2f%%, depth=%d\n",
                        fio_job.value("latency_target", int64_t{0}),
                        fio_job.value("latency_window", int64_t{0}),
                        fio_job.value("latency_percentile", 100.0),
                        fio_job.value("latency_depth", int64_t{1})));
  }
  if (result.steadystate) {
    // As fio: the window's mean bandwidth and IOPS, then the last criterion.
    const SteadyStateResult& ss = *result.steadystate;
    const int digits = percentiles.significant_figures;
    const uint64_t kb = static_cast<uint64_t>(percentiles.kb_base);
    const bool binary = kb == 1024;
    absl::StrAppend(
        &out, absl::StrFormat("  steadystate  : attained=%s, bw=%s (%s), iops=%s, %s%s=%.3f%s\n",
                              ss.attained ? "yes" : "no",
                              FioNum2Str(ss.BwMean() / kb, digits, kb, binary, "B/s"),
                              FioNum2Str(ss.BwMean() / kb, digits, kb, !binary, "B/s"),
                              FioNum2Str(ss.IopsMean(), digits, 1, false, ""),
                              ss.spec.iops ? "iops" : "bw", ss.spec.slope ? " slope" : " mean dev",
                              ss.criterion, ss.spec.percent ? "%" : ""));
  }
  for (const auto& w : result.warnings) absl::StrAppend(&out, "  warning: ", w, "\n");
  if (result.verify_failures > 0) {
    absl::StrAppend(&out, "  verify: ", result.verify_failures, " failed at offsets ",
                    absl::StrJoin(result.verify_failure_offsets, ", "),
                    result.verify_failures > result.verify_failure_offsets.size() ? ", ..." : "",
                    "\n");
  }
  if (!result.error_message.empty()) {
    absl::StrAppend(&out, "  error: ", result.error_message, "\n");
  }
  return out;
}

std::string FioGroupStatusText(const nlohmann::json& document,
                               const std::vector<ReportChoice>& choices) {
  // fio's group_run_stats: per group and direction, the shortest and longest runtime of a job that
  // did it, the smallest and largest job bandwidth (bytes x 1000 / its runtime in ms), the bytes,
  // and the aggregate (bytes x 1000 / the longest runtime).
  struct Direction {
    uint64_t min_run = 0, max_run = 0, min_bw = UINT64_MAX, max_bw = 0, bytes = 0;
  };
  struct Group {
    std::array<Direction, 3> directions;
    UnifiedRw unified = UnifiedRw::kNone;
    int digits = 4;
    bool binary = true;
  };
  std::map<int64_t, Group> groups;
  const nlohmann::json& jobs = JsonMember(document, "jobs");
  static constexpr std::array<const char*, 3> kDirections = {"read", "write", "trim"};
  for (size_t i = 0; i < jobs.size(); ++i) {
    const nlohmann::json& job = jobs[i];
    Group& group = groups[job.value("groupid", int64_t{0})];
    const ReportChoice choice = i < choices.size() ? choices[i] : ReportChoice{};
    group.digits = choice.significant_figures;
    group.binary = choice.kb_base == 1024;
    if (choice.unified != UnifiedRw::kNone) group.unified = choice.unified;
    for (size_t d = 0; d < kDirections.size(); ++d) {
      // A unified "mixed" job has its one direction under "mixed": fio sums it into the first.
      const char* key = d == 0 && !job.contains("read") ? "mixed" : kDirections[d];
      const uint64_t runtime = JsonCount(job, key, "runtime");
      if (runtime == 0) continue;
      Direction& dir = group.directions[d];
      const uint64_t bytes = JsonCount(job, key, "io_bytes");
      if (dir.min_run == 0 || runtime < dir.min_run) dir.min_run = runtime;
      dir.max_run = std::max(dir.max_run, runtime);
      const uint64_t bw =
          static_cast<uint64_t>(static_cast<unsigned __int128>(bytes) * 1000 / runtime);
      dir.min_bw = std::min(dir.min_bw, bw);
      dir.max_bw = std::max(dir.max_bw, bw);
      dir.bytes += bytes;
    }
  }
  std::string out;
  static constexpr std::array<const char*, 3> kLabels = {"   READ", "  WRITE", "   TRIM"};
  for (const auto& entry : groups) {
    const int64_t id = entry.first;
    const Group& group = entry.second;  // clang 14 cannot capture a structured binding
    absl::StrAppend(&out, absl::StrFormat("\nRun status group %d (all jobs):\n", id));
    auto line = [&](const char* label, uint64_t agg, uint64_t min_bw, uint64_t max_bw,
                    uint64_t bytes, uint64_t min_run, uint64_t max_run) {
      const auto num = [&](uint64_t n, bool binary, const char* unit) {
        return FioNum2Str(n, group.digits, 1, binary, unit);
      };
      absl::StrAppend(
          &out, absl::StrFormat("%s: bw=%s (%s), %s-%s (%s-%s), io=%s (%s), run=%d-%dmsec\n", label,
                                num(agg, group.binary, "B/s"), num(agg, !group.binary, "B/s"),
                                num(min_bw, group.binary, "B/s"), num(max_bw, group.binary, "B/s"),
                                num(min_bw, !group.binary, "B/s"),
                                num(max_bw, !group.binary, "B/s"), num(bytes, group.binary, "B"),
                                num(bytes, !group.binary, "B"), min_run, max_run));
    };
    Direction mixed;
    uint64_t mixed_agg = 0;
    for (size_t d = 0; d < kLabels.size(); ++d) {
      const Direction& dir = group.directions[d];
      if (dir.max_run == 0) continue;
      const uint64_t agg =
          static_cast<uint64_t>(static_cast<unsigned __int128>(dir.bytes) * 1000 / dir.max_run);
      line(group.unified == UnifiedRw::kMixed ? "  MIXED" : kLabels[d], agg, dir.min_bw, dir.max_bw,
           dir.bytes, dir.min_run, dir.max_run);
      // fio's show_mixed_group_stats for unified_rw_reporting=both.
      mixed.bytes += dir.bytes;
      mixed_agg += agg;
      mixed.min_bw = std::min(mixed.min_bw, dir.min_bw);
      mixed.max_bw = std::max(mixed.max_bw, dir.max_bw);
      mixed.min_run = mixed.min_run == 0 ? dir.min_run : std::min(mixed.min_run, dir.min_run);
      mixed.max_run = std::max(mixed.max_run, dir.max_run);
    }
    if (group.unified == UnifiedRw::kBoth && mixed.max_run > 0) {
      line("  MIXED", mixed_agg, mixed.min_bw, mixed.max_bw, mixed.bytes, mixed.min_run,
           mixed.max_run);
    }
  }
  const nlohmann::json& disks = JsonMember(document, "disk_util");
  if (!disks.empty()) out += "\nDisk stats (read/write):\n";
  for (const nlohmann::json& disk : disks) {
    const auto u = [&](const char* key) { return disk.value(key, uint64_t{0}); };
    absl::StrAppend(
        &out,
        absl::StrFormat("  %s: ios=%d/%d, merge=%d/%d, ticks=%d/%d, in_queue=%d, util=%3.2f%%\n",
                        disk.value("name", std::string()), u("read_ios"), u("write_ios"),
                        u("read_merges"), u("write_merges"), u("read_ticks"), u("write_ticks"),
                        u("in_queue"), disk.value("util", 0.0)));
  }
  return out;
}

}  // namespace azbench
