// JSON rendering of job results in fio's layout (jobs[] with read/write/trim/sync objects, slat_ns
// / clat_ns / lat_ns with min, max, mean, stddev, N and a percentile map keyed like fio,
// "1.000000"), so tooling written for `fio --output-format=json` reads azbench output. azbench adds
// an "azbench" object per job with what fio has no place for: the sparse histograms (exact,
// mergeable) and the interval series.
#ifndef AZBENCH_COMMON_RESULT_JSON_H_
#define AZBENCH_COMMON_RESULT_JSON_H_

#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_result.h"
#include "nlohmann/json.hpp"

namespace azbench {

nlohmann::json HistogramToJson(const Histogram::Sparse& sparse);
absl::StatusOr<Histogram> HistogramFromJson(const nlohmann::json& json);

// fio's group aggregate bandwidth (group_run_stats.agg) per direction, read / write / trim: the
// bytes of the group's jobs that did that direction / the longest runtime_ns among them, in
// bytes/s. A job's bw_agg is the mean of its bw samples as a percentage of it (at most 100).
inline constexpr std::array<OpKind, 3> kFioDirections = {OpKind::kRead, OpKind::kWrite,
                                                         OpKind::kTrim};
struct FioGroupBandwidth {
  std::array<double, 3> bytes_per_s{};  // in kFioDirections order
};
FioGroupBandwidth FioGroupAggregate(const std::vector<const JobResult*>& group);
// FioGroupAggregate of each group_id among `jobs`.
std::map<int, FioGroupBandwidth> FioGroupAggregates(const std::vector<const JobResult*>& jobs);

// fio's job_runtime (ms) of an entry that merges `parts`: as fio 3.33 (sum_thread_stats, for
// group_reporting and client/server's "All clients"), the sum of its threads' runtimes, so two 2 s
// threads give 4000, while read / write / trim "runtime" (what bw and iops are over) is the
// longest. A result keeps only its longest clone's runtime (JobResult::Merge), so each of its
// `clones` counts that long.
uint64_t FioJobRuntimeSumMs(const std::vector<const JobResult*>& parts);

// One fio-style job object: jobname, groupid, error, job_runtime (ms, FioJobRuntimeSumMs of the
// result: its clones are fio's threads of a group-reported job), read / write / trim (each
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
// bw_* / iops_* are fio's per-interval samples, by fio's rule: one sample per full interval
// (interval_ns) of the job's measured runtime, from its measured start; an interval in there with
// no bytes (no ops) gives no bw (iops) sample, as in fio, so a stall shows in the interval series
// and the reports' charts, not in bw_min. The last, partial interval (the drain after a time-based
// runtime, the tail of a size-based job) is not a sample, nor is any interval past the runtime
// (latency-only intervals the coordinator moved onto the job, coordinator/run/interval_fold.h). A
// job shorter than one interval has one sample: its interval 0 over runtime_ns. A direction without
// ops has no samples (all figures 0). bw_agg is the share of `group`'s aggregate (above); without
// `group` the job is its own group.
nlohmann::json JobResultToFioJson(const JobResult& result, bool with_azbench_extras = true,
                                  const FioGroupBandwidth* group = nullptr);

// The head of a fio document for a run that ended at `realtime_ns` (CLOCK_REALTIME): {"fio
// version": "azbench-<v>", "timestamp" (s), "timestamp_ms", "time" (local, ctime-like as fio)}.
nlohmann::json FioDocumentHeader(int64_t realtime_ns);

// The whole document: FioDocumentHeader(now) plus "jobs": [...].
nlohmann::json ResultsToFioJson(const std::vector<JobResult>& results,
                                bool with_azbench_extras = true);

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_JSON_H_
