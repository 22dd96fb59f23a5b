// JSON rendering of job results in fio's layout (jobs[] with read/write/trim/sync objects, slat_ns
// / clat_ns / lat_ns with min, max, mean, stddev, N and a percentile map keyed like fio,
// "1.000000"), so tooling written for `fio --output-format=json` reads azbench output. azbench adds
// an "azbench" object per job with what fio has no place for: the sparse histograms (exact,
// mergeable) and the interval series.
#ifndef AZBENCH_COMMON_RESULT_JSON_H_
#define AZBENCH_COMMON_RESULT_JSON_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_result.h"
#include "nlohmann/json.hpp"

namespace azbench {

nlohmann::json HistogramToJson(const Histogram::Sparse& sparse);
absl::StatusOr<Histogram> HistogramFromJson(const nlohmann::json& json);

// One fio-style job object. For synchronous engines (no slat/clat recorded) clat_ns carries the
// total latency, as fio does for sync engines, and slat_ns is all zeros.
nlohmann::json JobResultToFioJson(const JobResult& result, bool with_azbench_extras = true);

// The whole document: {"fio version": "azbench-<v>", "timestamp", "timestamp_ms", "time", "jobs":
// [...]}.
nlohmann::json ResultsToFioJson(const std::vector<JobResult>& results,
                                bool with_azbench_extras = true);

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_JSON_H_
