// fio's terse output (`--minimal`, `--output-format=terse`), version 3, rendered from a fio JSON
// document (common/result_json.h), so both formats show the same figures.
//
// One line per job, fields separated by ';', in fio 3.33's order (130 fields with one disk):
//   terse version (3); "fio version"; jobname; groupid; error;
//   read, then write (41 each): io_kbytes; bw (KiB/s); iops; runtime (ms);
//     slat, clat (min; max; mean; stddev, each in us);
//     20 clat percentiles "<p>%=<us>" (fio's 17, then "0%=0" three times);
//     lat (min; max; mean; stddev in us); bw_min; bw_max; bw_agg "%"; bw_mean; bw_dev;
//   usr_cpu "%"; sys_cpu "%"; ctx; majf; minf;
//   iodepth_level (7, "%"); latency in us (10, "%"; the ns ranges count in the first, as fio's);
//   latency in ms (12, "%");
//   per disk of "disk_util": name; read_ios; write_ios; read_merges; write_merges; read_ticks;
//     write_ticks; in_queue; util "%".
// Version 3 has no trim fields; fio's optional fields (continue_on_error, description) are not
// written (azbench takes neither option).
//
//   std::string text = FioTerseLines(ResultsToFioJson(results));
#ifndef AZBENCH_COMMON_RESULT_TERSE_H_
#define AZBENCH_COMMON_RESULT_TERSE_H_

#include <string>

#include "nlohmann/json.hpp"

namespace azbench {

// The only terse version written; fio's default.
inline constexpr int kFioTerseVersion = 3;

// One line per job of `document`, each ending in '\n'.
std::string FioTerseLines(const nlohmann::json& document);

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_TERSE_H_
