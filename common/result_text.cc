#include "common/result_text.h"

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

std::string PercentileTable(const char* label, const Histogram& h) {
  const LatUnit u = PickUnit(h);
  std::string out = absl::StrFormat("    %s percentiles (%s):\n", label, u.name);
  int column = 0;
  for (double p : kReportPercentiles) {
    if (column == 0) absl::StrAppend(&out, "     |");
    absl::StrAppend(&out, absl::StrFormat(" %6.2fth=[%8.0f]", p, h.Percentile(p) / u.divisor));
    if (++column == 4) {
      absl::StrAppend(&out, "\n");
      column = 0;
    } else {
      absl::StrAppend(&out, ",");
    }
  }
  if (column != 0) absl::StrAppend(&out, "\n");
  return out;
}

}  // namespace

std::string FormatJobResultText(const JobResult& result) {
  std::string out = absl::StrFormat("%s: (groupid=%d, jobs=%d): err=%3d\n", result.name,
                                    result.group_id, result.clones, FioJobError(result));
  for (int k = 0; k < kOpKindCount; ++k) {
    const OpStats* stats = result.by_kind[k].get();
    if (stats == nullptr || (stats->ops == 0 && stats->errors == 0)) continue;
    const OpKind kind = static_cast<OpKind>(k);
    const double iops = PerSecond(stats->ops, result.runtime_ns);
    const double bw = PerSecond(stats->bytes, result.runtime_ns);
    if (kind == OpKind::kFsync) {
      absl::StrAppend(&out,
                      absl::StrFormat("  fsync: ops=%d, errors=%d\n", stats->ops, stats->errors));
    } else {
      absl::StrAppend(
          &out,
          // As fio: the binary rate, then the decimal one in parentheses.
          absl::StrFormat("  %s: IOPS=%.1f, BW=%s/s (%s/s)(%s/%dmsec), errors=%d\n",
                          OpKindName(kind), iops, FormatBytes(static_cast<uint64_t>(bw)),
                          FormatBytesDecimal(bw), FormatBytes(stats->bytes),
                          result.runtime_ns / 1'000'000, stats->errors));
    }
    if (stats->slat.count() > 0) absl::StrAppend(&out, LatLine("slat", stats->slat));
    if (stats->clat.count() > 0) absl::StrAppend(&out, LatLine("clat", stats->clat));
    absl::StrAppend(&out, LatLine("lat", stats->lat));
    if (stats->lat.count() > 0) absl::StrAppend(&out, PercentileTable("lat", stats->lat));
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
    absl::StrAppend(
        &out,
        absl::StrFormat("  steadystate  : attained=%s, bw=%s/s (%s/s), iops=%d, %s%s=%.3f%s\n",
                        ss.attained ? "yes" : "no", FormatBytes(ss.BwMean()),
                        FormatBytesDecimal(static_cast<double>(ss.BwMean())), ss.IopsMean(),
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
