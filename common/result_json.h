// JSON rendering of job results in fio's layout (jobs[] with read/write/trim/sync objects, slat_ns
// / clat_ns / lat_ns with min, max, mean, stddev, N and a percentile map keyed like fio,
// "1.000000"), so tooling written for `fio --output-format=json` reads azbench output. azbench adds
// an "azbench" object per job with what fio has no place for: the sparse histograms (exact,
// mergeable) and the interval series.
#ifndef AZBENCH_COMMON_RESULT_JSON_H_
#define AZBENCH_COMMON_RESULT_JSON_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_result.h"
#include "nlohmann/json.hpp"

namespace azbench {

nlohmann::json HistogramToJson(const Histogram::Sparse& sparse);
absl::StatusOr<Histogram> HistogramFromJson(const nlohmann::json& json);

// One fio-style job object: jobname, groupid, error, job_runtime (ms), read / write / trim (each
// io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops, runtime (ms), total_ios, short_ios, drop_ios,
// slat_ns / clat_ns / lat_ns, bw_* and iops_* interval figures), sync, and latency_ns /
// latency_us / latency_ms (fio's completion-latency distribution, in percent). For synchronous
// engines (no slat/clat recorded) clat_ns carries the total latency, as fio does for sync engines,
// and slat_ns is all zeros. usr_cpu / sys_cpu (percent of the threads' measured time, averaged over
// threads as fio's group_reporting), ctx, majf and minf are written when the job's CPU was measured
// (JobResult::cpu; the extras then carry the raw sums under "cpu"). iodepth_level / iodepth_submit
// / iodepth_complete (percent per fio bucket, JobResult::depth; raw counts under the extras'
// "depth") likewise. Not written (azbench does not measure them): eta, elapsed, latency_depth /
// latency_target / latency_percentile / latency_window.
nlohmann::json JobResultToFioJson(const JobResult& result, bool with_azbench_extras = true);

// The head of a fio document for a run that ended at `realtime_ns` (CLOCK_REALTIME): {"fio
// version": "azbench-<v>", "timestamp" (s), "timestamp_ms", "time" (local, ctime-like as fio)}.
nlohmann::json FioDocumentHeader(int64_t realtime_ns);

// The whole document: FioDocumentHeader(now) plus "jobs": [...].
nlohmann::json ResultsToFioJson(const std::vector<JobResult>& results,
                                bool with_azbench_extras = true);

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_JSON_H_
