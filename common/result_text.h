// The human summary of job results, in the spirit of fio's normal output: per job and op kind, IOPS
// and bandwidth, latency min/avg/max/stdev and the percentile table, then warnings and errors.
#ifndef AZBENCH_COMMON_RESULT_TEXT_H_
#define AZBENCH_COMMON_RESULT_TEXT_H_

#include <string>

#include "common/job_result.h"

namespace azbench {

std::string FormatJobResultText(const JobResult& result);

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_TEXT_H_
