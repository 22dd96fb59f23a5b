// The human summary of job results, in the spirit of fio's normal output: per job and op kind, IOPS
// and bandwidth, latency min/avg/max/stdev and the percentile blocks, then warnings and errors.
#ifndef AZBENCH_COMMON_RESULT_TEXT_H_
#define AZBENCH_COMMON_RESULT_TEXT_H_

#include <string>

#include "common/job_result.h"
#include "common/report_choice.h"

namespace azbench {

// The percentile blocks are fio's (slat, clat, lat as `percentiles` chooses; see
// common/report_choice.h), laid out as fio lays them out.
std::string FormatJobResultText(const JobResult& result, const ReportChoice& percentiles = {});

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_TEXT_H_
