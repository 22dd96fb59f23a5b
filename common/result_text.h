// fio's normal output (`--output-format=normal`), laid out as fio 3.33's: per job its header, per
// direction the rate line, the slat / clat / lat lines and the percentile blocks, the latency
// distribution, the sync section, cpu, IO depths, issued, latency target and steady state lines,
// then azbench's warnings and errors; after the jobs, "Run status group" per group and the disk
// stats. The lines fio derives from its JSON figures are rendered from azbench's fio JSON
// (common/result_json.h), so both formats show the same numbers. azbench adds `, errors=N` to each
// rate line.
#ifndef AZBENCH_COMMON_RESULT_TEXT_H_
#define AZBENCH_COMMON_RESULT_TEXT_H_

#include <string>
#include <vector>

#include "common/job_result.h"
#include "common/report_choice.h"
#include "nlohmann/json.hpp"

namespace azbench {

// One job's section. The percentile blocks are fio's (slat, clat, lat as `percentiles` chooses;
// see common/report_choice.h). `fio_job` is the job's object in ResultsToFioJson's document: the
// latency distribution, issued and latency lines come from it (absent when it is null).
std::string FormatJobResultText(const JobResult& result, const ReportChoice& percentiles = {},
                                const nlohmann::json& fio_job = nlohmann::json());

// fio's "Run status group N (all jobs):" block of each group of `document`'s jobs (job i reported
// as `choices[i]` chooses: significant_figures, kb_base, unified_rw_reporting), then its
// "Disk stats (read/write):" when the document has disk_util.
std::string FioGroupStatusText(const nlohmann::json& document,
                               const std::vector<ReportChoice>& choices);

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_TEXT_H_
