// What fio's reporting options choose for a job's fio-format outputs (JSON, json+ bins, normal
// text, terse). azbench keeps whole histograms, so a choice shapes what is reported, never what
// is measured; azbench's own reports (coordinator terminal, Markdown, CSV, HTML, JSON) keep their
// fixed columns.
//
// Percentiles (percentile_list, clat_percentiles, lat_percentiles, slat_percentiles), as fio 3.33
// (stat.c): slat_ns / clat_ns / lat_ns get a "percentile" object when their option is on and they
// have samples; the sync object's lat_ns when clat or lat is; terse's 20 slots carry the lat list
// with lat_percentiles, else the clat list with clat_percentiles, else zeros.
//
// Figures (significant_figures, kb_base): the normal output prints IOPS, bandwidth and sizes as
// fio's num2str does (common/units.h FioNum2Str).
//
// Directions (unified_rw_reporting), as fio 3.33: `mixed` reports read, write and trim summed into
// one direction named "mixed" in place of all of them and of sync (JSON's "mixed" object, terse's
// read slots and no write or trim slots, the text's "mixed:" section); `both` reports the
// directions as usual, then the mixed one (JSON's "mixed" after "sync", terse's slots after the
// last direction's, the text's section after the others).
#ifndef AZBENCH_COMMON_REPORT_CHOICE_H_
#define AZBENCH_COMMON_REPORT_CHOICE_H_

#include <cstddef>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/job_result.h"
#include "common/stats.h"

namespace azbench {

// fio's FIO_IO_U_LIST_MAX_LEN: the most values percentile_list takes, and terse's slot count.
inline constexpr int kMaxPercentiles = 20;

enum class UnifiedRw { kNone, kMixed, kBoth };

struct ReportChoice {
  // Ascending (fio sorts the list before it reports), each in (0, 100].
  std::vector<double> list{kReportPercentiles.begin(), kReportPercentiles.end()};
  // Digits after the point in the text output: the most any value of the list was written with
  // (fio's percentile_precision; 2 for the default list).
  int precision = 2;
  bool clat = true;
  bool lat = false;
  bool slat = false;
  UnifiedRw unified = UnifiedRw::kNone;
  // The normal output's figures (IOPS, bandwidth, sizes): fio's significant_figures, 1..10, and
  // kb_base (1024: binary units first, decimal ones in parentheses; 1000: the other way round).
  int significant_figures = 4;
  int kb_base = 1024;
};

// Sets choice.list and choice.precision from fio's percentile_list syntax: values separated by
// ':', each 0..100, at most kMaxPercentiles. As fio, a 0 ends the list (what follows is not
// reported) and the values are reported in ascending order. InvalidArgument names the value and
// what is allowed.
absl::Status ParsePercentileList(std::string_view value, ReportChoice& choice);

// fio's unified_rw_reporting values: none, mixed, both, or the former booleans 0, 1 (mixed) and 2
// (both). InvalidArgument names the value and what is allowed.
absl::StatusOr<UnifiedRw> ParseUnifiedRw(std::string_view value);

// `result` with its write and trim summed into its read direction, overall and in each interval
// (ops, bytes, errors, short I/Os and every latency histogram), as fio sums the directions for
// mixed reporting; fsync and the other op kinds stay as they are. The fio-format writers report
// that read direction as "mixed".
JobResult WithMixedDirections(const JobResult& result);

// The choice of job `index` among per-job choices; fio's default for a job without one (a
// result that came with no job options).
inline ReportChoice ChoiceOfJob(const std::vector<ReportChoice>& choices, size_t index) {
  return index < choices.size() ? choices[index] : ReportChoice{};
}

}  // namespace azbench

#endif  // AZBENCH_COMMON_REPORT_CHOICE_H_
