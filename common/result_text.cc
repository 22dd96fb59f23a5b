#include "common/result_text.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string_view>
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

// fio picks the unit from the values; so do we: nsec below 10 us, usec below 10 ms, else msec.
struct LatUnit {
  const char* name;
  double divisor;
};
LatUnit PickUnit(const Histogram& h) {
  const double typical = h.mean_ns();
  if (typical < 10'000) return {"nsec", 1};
  if (typical < 10'000'000) return {"usec", 1e3};
  return {"msec", 1e6};
}

std::string LatLine(const char* label, const Histogram& h) {
  const LatUnit u = PickUnit(h);
  return absl::StrFormat("    %5s (%s): min=%.0f, max=%.0f, avg=%.2f, stdev=%.2f, N=%d\n", label,
                         u.name, h.min_ns() / u.divisor, h.max_ns() / u.divisor,
                         h.mean_ns() / u.divisor, h.stddev_ns() / u.divisor, h.count());
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

// One op kind's section: its rate line (fsync: its count), its latency lines and the chosen
// percentile blocks.
std::string KindSection(std::string_view label, OpKind kind, const OpStats& stats,
                        uint64_t runtime_ns, const ReportChoice& percentiles) {
  std::string out;
  if (kind == OpKind::kFsync) {
    absl::StrAppend(&out, absl::StrFormat("  fsync: ops=%d, errors=%d\n", stats.ops, stats.errors));
  } else {
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
    absl::StrAppend(
        &out,
        absl::StrFormat("  %s: IOPS=%s, BW=%s (%s)(%s/%dmsec), errors=%d\n", label,
                        FioNum2Str(per_second(stats.ops), digits, 1, false, ""),
                        FioNum2Str(bw, digits, 1, binary, "B/s"),
                        FioNum2Str(bw, digits, 1, !binary, "B/s"),
                        FioNum2Str(stats.bytes, digits, 1, binary, "B"), runtime_ms, stats.errors));
  }
  if (stats.slat.count() > 0) absl::StrAppend(&out, LatLine("slat", stats.slat));
  if (stats.clat.count() > 0) absl::StrAppend(&out, LatLine("clat", stats.clat));
  absl::StrAppend(&out, LatLine("lat", stats.lat));
  // As fio's: slat, clat (the total latency where the engine has no separate completion), lat.
  if (kind == OpKind::kFsync) {
    if (percentiles.clat || percentiles.lat) {
      absl::StrAppend(&out, PercentileBlock("lat", stats.lat, percentiles));
    }
    return out;
  }
  if (percentiles.slat) absl::StrAppend(&out, PercentileBlock("slat", stats.slat, percentiles));
  if (percentiles.clat) {
    absl::StrAppend(&out, PercentileBlock("clat", stats.clat.count() > 0 ? stats.clat : stats.lat,
                                          percentiles));
  }
  if (percentiles.lat) absl::StrAppend(&out, PercentileBlock("lat", stats.lat, percentiles));
  return out;
}

bool Reported(const OpStats* stats) {
  return stats != nullptr && (stats->ops > 0 || stats->errors > 0);
}

}  // namespace

std::string FormatJobResultText(const JobResult& result, const ReportChoice& percentiles) {
  std::string out = absl::StrFormat("%s: (groupid=%d, jobs=%d): err=%3d\n", result.name,
                                    result.group_id, result.clones, FioJobError(result));
  // unified_rw_reporting (common/report_choice.h): mixed's section in place of the directions
  // and fsync, both's after the others.
  const bool mixed_only = percentiles.unified == UnifiedRw::kMixed;
  for (int k = 0; k < kOpKindCount; ++k) {
    const OpKind kind = static_cast<OpKind>(k);
    const bool direction = kind == OpKind::kRead || kind == OpKind::kWrite ||
                           kind == OpKind::kTrim || kind == OpKind::kFsync;
    if (mixed_only && direction) continue;
    const OpStats* stats = result.by_kind[k].get();
    if (!Reported(stats)) continue;
    absl::StrAppend(&out,
                    KindSection(OpKindName(kind), kind, *stats, result.runtime_ns, percentiles));
  }
  if (percentiles.unified != UnifiedRw::kNone) {
    const JobResult mixed = WithMixedDirections(result);
    if (const OpStats* stats = mixed.Find(OpKind::kRead); Reported(stats)) {
      absl::StrAppend(&out,
                      KindSection("mixed", OpKind::kRead, *stats, result.runtime_ns, percentiles));
    }
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
  if (result.continue_on_error) {
    absl::StrAppend(&out, absl::StrFormat("     errors    : total=%d, first_error=%d/<%s>\n",
                                          result.total_err_count, result.first_error,
                                          result.first_error == 0 ? std::string("Success")
                                                                  : ErrnoText(result.first_error)));
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

}  // namespace azbench
