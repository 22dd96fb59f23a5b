// fio's percentile reporting options (percentile_list, clat_percentiles, lat_percentiles,
// slat_percentiles): which latencies carry a percentile list in the fio-format outputs (JSON,
// json+ bins, normal text, terse), and which percentiles. azbench keeps whole histograms, so the
// choice shapes what is reported, never what is measured. azbench's own reports (coordinator
// terminal, Markdown, CSV, HTML, JSON) keep their fixed columns.
//
// As fio 3.33 (stat.c): slat_ns / clat_ns / lat_ns get a "percentile" object when their option is
// on and they have samples; the sync object's lat_ns when clat or lat is; terse's 20 slots carry
// the lat list with lat_percentiles, else the clat list with clat_percentiles, else zeros.
#ifndef AZBENCH_COMMON_PERCENTILE_CHOICE_H_
#define AZBENCH_COMMON_PERCENTILE_CHOICE_H_

#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "common/stats.h"

namespace azbench {

// fio's FIO_IO_U_LIST_MAX_LEN: the most values percentile_list takes, and terse's slot count.
inline constexpr int kMaxPercentiles = 20;

struct PercentileChoice {
  // Ascending (fio sorts the list before it reports), each in (0, 100].
  std::vector<double> list{kReportPercentiles.begin(), kReportPercentiles.end()};
  // Digits after the point in the text output: the most any value of the list was written with
  // (fio's percentile_precision; 2 for the default list).
  int precision = 2;
  bool clat = true;
  bool lat = false;
  bool slat = false;
};

// Sets choice.list and choice.precision from fio's percentile_list syntax: values separated by
// ':', each 0..100, at most kMaxPercentiles. As fio, a 0 ends the list (what follows is not
// reported) and the values are reported in ascending order. InvalidArgument names the value and
// what is allowed.
absl::Status ParsePercentileList(std::string_view value, PercentileChoice& choice);

}  // namespace azbench

#endif  // AZBENCH_COMMON_PERCENTILE_CHOICE_H_
