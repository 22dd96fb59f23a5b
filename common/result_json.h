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
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "common/disk_util.h"
#include "common/job_result.h"
#include "common/report_choice.h"
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
  // The three directions' bytes together over the longest runtime of a job that did any: the
  // group's bandwidth for unified_rw_reporting=mixed.
  double mixed_bytes_per_s = 0;
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

// fio's "error" of a job: the errno that ended it; with continue_on_error and no such errno, the
// first error it counted and went on after (fio's first_error).
int FioJobError(const JobResult& result);

// One fio-style job object: jobname, groupid, error (FioJobError), eta, elapsed, job_runtime (ms,
// FioJobRuntimeSumMs of the result: its clones are fio's threads of a group-reported job), read /
// write / trim (each io_bytes, io_kbytes, bw_bytes, bw (KiB/s), iops, runtime (ms), total_ios,
// short_ios, drop_ios, slat_ns / clat_ns / lat_ns, bw_* and iops_* interval figures), sync,
// latency_ns / latency_us / latency_ms (fio's completion-latency distribution, in percent) and
// latency_depth / latency_target / latency_percentile / latency_window. For synchronous engines (no
// slat/clat recorded) clat_ns carries the total latency, as fio does for sync engines, and slat_ns
// is all zeros. usr_cpu / sys_cpu (percent of the threads' measured time, averaged over threads as
// fio's group_reporting), ctx, majf and minf are written when the job's CPU was measured
// (JobResult::cpu; the extras then carry the raw sums under "cpu"). iodepth_level / iodepth_submit
// / iodepth_complete (percent per fio bucket, JobResult::depth; raw counts under the extras'
// "depth") likewise.
// eta is fio's value for a finished run (INT_MAX: no estimate). elapsed is whole seconds, rounded
// up, from the result's start to its end; fio's counts from its own start to the report, so
// ResultsToFioJson and the coordinator set it to the whole run's span (FioElapsedSeconds).
// latency_depth is the depth the job's latency_target search ended at (JobResult::latency_depth),
// else 1 until AddFioJobOptions sets it to the job's iodepth (fio's queue depth without a
// latency_target); latency_target 0, latency_percentile 100.0 and latency_window 0 are fio's
// values without one, which AddFioJobOptions replaces with the job's (target in ns, window in us).
// total_err and first_error are written, as fio, only when the job set continue_on_error.
// bw_* / iops_* are fio's per-interval samples, by fio's rule: one sample per full interval
// (interval_ns) of the job's measured runtime, from its measured start; an interval in there with
// no bytes (no ops) gives no bw (iops) sample, as in fio, so a stall shows in the interval series
// and the reports' charts, not in bw_min. The last, partial interval (the drain after a time-based
// runtime, the tail of a size-based job) is not a sample, nor is any interval past the runtime
// (latency-only intervals the coordinator moved onto the job, coordinator/run/interval_fold.h). A
// job shorter than one interval has none, as fio's. A direction without ops has no samples (all
// figures 0). bw_agg is the share of `group`'s aggregate (above); without `group` the job is its
// own group. slat_ns / clat_ns / lat_ns and sync's lat_ns carry "percentile" as `percentiles`
// chooses (common/report_choice.h), keyed "%f" of each value ("99.500000").
nlohmann::json JobResultToFioJson(const JobResult& result, bool with_azbench_extras = true,
                                  const FioGroupBandwidth* group = nullptr,
                                  const ReportChoice& percentiles = {});

// The options a job was given, as written (key, value), in order.
using FioOptionList = std::vector<std::pair<std::string, std::string>>;

// fio's "job options" / "global options" object: each option's value as the string given; the
// last value of a repeated option wins, as in fio.
nlohmann::json FioOptionsJson(const FioOptionList& options);

// Adds "job options" (`own`: the job's options without the global ones, which fio writes once in
// "global options") to a JobResultToFioJson object. Without a latency_target it sets
// latency_depth to the iodepth that `global` then `own` give (ApplyJobOption's rule; 1 when
// neither sets it); with one, latency_target, latency_percentile and latency_window to theirs.
void AddFioJobOptions(nlohmann::json& job, const FioOptionList& global, const FioOptionList& own);

// The percentile choice that `global` then `own` make (the last value of an option wins).
ReportChoice FioReportChoice(const FioOptionList& global, const FioOptionList& own);

// fio's "elapsed" of a run from `start_realtime_ns` to `end_realtime_ns`: whole seconds, rounded
// up (a 3 ms run is 1).
int64_t FioElapsedSeconds(int64_t start_realtime_ns, int64_t end_realtime_ns);

// fio's "disk_util" array.
nlohmann::json DiskUtilJson(const std::vector<DiskUtil>& disks);

// The head of a fio document for a run that ended at `realtime_ns` (CLOCK_REALTIME): {"fio
// version": "azbench-<v>", "timestamp" (s), "timestamp_ms", "time" (local, ctime-like as fio)}.
nlohmann::json FioDocumentHeader(int64_t realtime_ns);

// fio's latency bins (json+), as fio's stat.h lays them out: values below 128 ns have a bin each;
// above, every power-of-two octave [2^e, 2^(e+1)) is split into 64 bins of width 2^(e-6); values
// from 2^34 ns (17.2 s) on share the last bin, index 1855. A bin is named by its value: its index
// below 128, else its midpoint (fio's plat_idx_to_val).
inline constexpr int kFioPlatBits = 6;
inline constexpr int kFioPlatBins = 29 << kFioPlatBits;  // 1856
int FioPlatIndex(uint64_t value_ns);
uint64_t FioPlatValue(int index);
// The width of bin `index` in ns (1 below 128).
uint64_t FioPlatWidth(int index);

// fio's json+ "bins" of `h`: {"<bin value>": count} for every non-empty bin. No sample is lost or
// moved to a neighbouring bin: each of the histogram's buckets (128 per octave, aligned on powers
// of two) lies inside one of fio's bins (64 per octave, aligned alike), so its count goes there.
nlohmann::json FioBinsJson(const Histogram& h);

// json+: sets "bins" (FioBinsJson) in every latency object of `job` that has a "percentile"
// object, from the histogram it describes (clat_ns: clat, else the total latency), as fio's
// --output-format=json+; a "mixed" direction's from WithMixedDirections.
void AddFioLatencyBins(nlohmann::json& job, const JobResult& result);

// What a fio document says beside the results: how the jobs were given and what the disks did.
struct FioRunContext {
  FioOptionList global_options;  // "global options", written only when not empty (as fio)
  // Per result (parallel to the results; empty: no "job options" and latency_depth 1).
  std::vector<FioOptionList> job_options;
  // "disk_util", written only when not empty: fio writes none where the jobs' files are on no
  // block device.
  std::vector<DiskUtil> disks;
  bool with_bins = false;  // json+ (AddFioLatencyBins)
};

// FioReportChoice of each of context.job_options.
std::vector<ReportChoice> FioReportChoices(const FioRunContext& context);

// The whole document: FioDocumentHeader(now), "global options", "jobs": [...] (each job's elapsed
// the span of all results), "disk_util".
nlohmann::json ResultsToFioJson(const std::vector<JobResult>& results,
                                bool with_azbench_extras = true, const FioRunContext& context = {});

}  // namespace azbench

#endif  // AZBENCH_COMMON_RESULT_JSON_H_
