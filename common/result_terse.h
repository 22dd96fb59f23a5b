// fio's terse output (`--minimal`, `--output-format=terse`, `--terse-version=N`), versions 2 to 5,
// rendered from a fio JSON document (common/result_json.h), so both formats show the same figures.
//
// One line per job, fields separated by ';', in fio 3.33's order (version 3: 130 fields with one
// disk; 2: 161 with none; 4: 171 and 5: 189 with one):
//   terse version; "fio version" (not in version 2); jobname; groupid; error;
//   read, then write, then trim (versions 2, 4, 5) (41 fields each, 47 in version 5): io_kbytes;
//     bw (KiB/s); iops; runtime (ms); slat, clat (min; max; mean; stddev, each in us);
//     20 percentiles "<p>%=<us>": the total latency's with lat_percentiles, else clat's with
//     clat_percentiles (the default), in ascending order, then "0%=0" to fill the 20 (fio's 17
//     and three by default);
//     lat (min; max; mean; stddev in us); bw_min; bw_max; bw_agg "%"; bw_mean; bw_dev;
//     version 5 only: bw_samples; iops_min; iops_max; iops_mean; iops_stddev; iops_samples;
//   usr_cpu "%"; sys_cpu "%"; ctx; majf; minf;
//   iodepth_level (7, "%"); latency in us (10, "%"; the ns ranges count in the first, as fio's);
//   latency in ms (12, "%");
//   per disk of "disk_util" (not in version 2): name; read_ios; write_ios; read_merges;
//     write_merges; read_ticks; write_ticks; in_queue; util "%".
// fio's optional description field is not written (azbench takes no description option).
//
//   std::string text = FioTerseLines(ResultsToFioJson(results), /*terse_version=*/3);
#ifndef AZBENCH_COMMON_RESULT_TERSE_H_
#define AZBENCH_COMMON_RESULT_TERSE_H_

#include <array>
#include <string>
#include <vector>

#include "common/report_choice.h"
#include "nlohmann/json.hpp"

namespace azbench {

// fio's default terse version, and every version written.
inline constexpr int kFioTerseVersion = 3;
inline constexpr std::array<int, 4> kFioTerseVersions = {2, 3, 4, 5};

bool IsFioTerseVersion(int version);

// One line per job of `document`, each ending in '\n'. `terse_version` must be one of
// kFioTerseVersions. `percentiles[i]` is job i's choice (the default where missing); its
// percentile values come from the document.
std::string FioTerseLines(const nlohmann::json& document, int terse_version = kFioTerseVersion,
                          const std::vector<ReportChoice>& percentiles = {});

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_TERSE_H_
