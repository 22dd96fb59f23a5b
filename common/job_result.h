// What one job reports: per op kind counts and latency histograms, an interval series, times and
// errors.
//
// Results carry histograms, never percentiles: every percentile anywhere in azbench is computed
// from a (merged) Histogram. Merging two results of the same job (numjobs clones, agents) adds
// counts, bytes and histogram buckets, and adds interval series index by index (intervals are
// aligned on a common start).
//
// Latency kinds per op: `lat` (total, submit-start to completion) always; `slat` (start to the
// return of the submit call) and `clat` (submit return to completion) only for asynchronous
// engines, as fio.
#ifndef AZBENCH_COMMON_JOB_RESULT_H_
#define AZBENCH_COMMON_JOB_RESULT_H_

#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "common/histogram.h"
#include "common/op_kind.h"
#include "common/steady_state.h"

namespace azbench {

// Counts and histograms of one op kind.
struct OpStats {
  uint64_t ops = 0;        // completed without error
  uint64_t bytes = 0;      // bytes transferred by those ops
  uint64_t errors = 0;     // ops that completed with an error
  uint64_t short_ios = 0;  // ops that transferred fewer bytes than asked
  Histogram lat;
  Histogram slat;  // empty for sync engines
  Histogram clat;  // empty for sync engines

  void Merge(const OpStats& other);
};

// Per op kind totals of one interval; `lat` is that interval's own latency histogram (sparse), so
// p99 over time can be merged across clones and agents.
struct IntervalOpStats {
  uint64_t ops = 0;
  uint64_t bytes = 0;
  uint64_t errors = 0;
  Histogram::Sparse lat;
};

struct IntervalStats {
  int64_t index = 0;  // interval number since the measured start (0-based)
  std::array<IntervalOpStats, kOpKindCount> by_kind;

  // Adds another interval with the same index.
  void Merge(const IntervalStats& other);
};

// One raw op of a job with `op_log` on. Times are relative to the job's measured start (after
// ramp).
struct OpRecord {
  uint64_t start_ns = 0;  // since the measured start, monotonic
  uint64_t latency_ns = 0;
  uint64_t offset_bytes = 0;
  uint32_t bytes = 0;  // transferred (0 on error)
  int32_t error = 0;   // errno, 0 = success
  OpKind kind = OpKind::kRead;
  uint16_t clone = 0;
  // Asynchronous engines: the op's submission latency (fio's slat; its clat is the rest of
  // latency_ns). Sync engines have no slat, as in fio.
  bool has_slat = false;
  uint64_t slat_ns = 0;
};

// CPU that the job's own threads used in the measured phase, summed over them: getrusage
// (RUSAGE_THREAD) sampled by each thread when its measured phase begins (after ramp_time) and when
// it ends (common/thread_cpu.h). `threads` is 0 when nothing was measured (visibility probes,
// results of an agent older than this field). fio's figures follow from it: usr_cpu =
// user_ns / wall_ns x 100, the average over threads as fio's group_reporting sums each thread's
// CPU time and runtime; ctx = voluntary + involuntary switches; minf / majf the page faults.
struct CpuUsage {
  uint32_t threads = 0;
  uint64_t wall_ns = 0;  // sum over threads of the time between the two samples
  uint64_t user_ns = 0;
  uint64_t system_ns = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
  uint64_t minor_faults = 0;
  uint64_t major_faults = 0;

  bool measured() const { return threads > 0; }
  double UserPercent() const;    // 0 when wall_ns is 0
  double SystemPercent() const;  // 0 when wall_ns is 0
  uint64_t ContextSwitches() const { return voluntary_switches + involuntary_switches; }
  void Merge(const CpuUsage& other);  // sums every field
  bool operator==(const CpuUsage&) const = default;
};

// How deep the job's queue was and how its requests were batched into calls: fio's "IO depths",
// "submit" and "complete" lines (iodepth_level / iodepth_submit / iodepth_complete in its JSON),
// each in fio's 7 buckets. Only the measured phase counts.
//   level:    requests submitted, by how many requests the job held (queued + in flight) just
//             before the submit call: 1, 2-3, 4-7, 8-15, 16-31, 32-63, >= 64.
//   submit:   submit calls by how many requests each submitted: 0, 1-4, 5-8, 9-16, 17-32, 33-64,
//             > 64 (fio's keys "0", "4", "8", "16", "32", "64", ">=64").
//   complete: reap calls by how many completions each returned, same buckets (a reap that found
//             nothing counts in "0").
// A sync engine's op is one call of one request at depth 1, as in fio.
struct DepthStats {
  static constexpr int kBuckets = 7;
  // fio's names of the buckets (its JSON keys and its text).
  static constexpr std::array<const char*, kBuckets> kLevelKeys = {"1",  "2",  "4",   "8",
                                                                   "16", "32", ">=64"};
  static constexpr std::array<const char*, kBuckets> kCallKeys = {"0",  "4",  "8",   "16",
                                                                  "32", "64", ">=64"};
  using Buckets = std::array<uint64_t, kBuckets>;
  Buckets level{};
  Buckets submit{};
  Buckets complete{};

  static int LevelBucket(int depth) {
    if (depth <= 1) return 0;
    if (depth >= 64) return 6;
    return std::bit_width(static_cast<unsigned>(depth)) - 1;  // 2-3 -> 1, ..., 32-63 -> 5
  }
  static int CallBucket(int requests) {
    if (requests <= 0) return 0;
    if (requests > 64) return 6;
    // 1-4 -> 1, 5-8 -> 2, 9-16 -> 3, 17-32 -> 4, 33-64 -> 5
    return requests <= 4 ? 1 : std::bit_width(static_cast<unsigned>(requests - 1)) - 1;
  }
  // One submit call that sent `submitted` requests while the job held `depth_before`.
  void RecordSubmit(int depth_before, int submitted) {
    if (submitted <= 0) return;
    level[LevelBucket(depth_before)] += static_cast<uint64_t>(submitted);
    ++submit[CallBucket(submitted)];
  }
  void RecordComplete(int reaped) { ++complete[CallBucket(reaped)]; }
  // One op of a sync engine (or one an async engine completed in its queue call).
  void RecordSyncOp() {
    ++level[0];
    ++submit[1];
    ++complete[1];
  }
  bool measured() const;
  // Each bucket's share of their sum, in percent (all 0 when the sum is 0).
  static std::array<double, kBuckets> Percent(const Buckets& counts);
  void Merge(const DepthStats& other);  // adds bucket by bucket
  bool operator==(const DepthStats&) const = default;
};

struct JobResult {
  std::string name;
  int group_id = 0;
  int clones = 1;  // numjobs clones merged into this result
  // Which op kinds this job did (lazily allocated: a Histogram is 58 KiB).
  std::array<std::unique_ptr<OpStats>, kOpKindCount> by_kind;
  std::vector<IntervalStats> intervals;  // sorted by index
  uint64_t interval_ns = 1'000'000'000;
  // Measured phase (after ramp): monotonic duration from the measured start to the last completion,
  // the largest over clones. Wall-clock times are CLOCK_REALTIME ns.
  uint64_t runtime_ns = 0;
  int64_t start_realtime_ns = 0;
  int64_t end_realtime_ns = 0;
  int error_errno = 0;        // first error's errno, 0 if none
  std::string error_message;  // first error, with the op, file and offset
  std::vector<std::string> warnings;
  uint64_t op_log_records = 0;  // op_log: records streamed
  uint64_t op_log_dropped = 0;  // op_log: measured ops over the rate cap, not recorded
  CpuUsage cpu;
  DepthStats depth;
  // verify: the verify intervals (blocks, at fio's default verify_interval) whose check failed,
  // and the file offsets of the first kMaxVerifyFailureOffsets of them. The job's error is then
  // EILSEQ, as fio's.
  static constexpr size_t kMaxVerifyFailureOffsets = 10;
  uint64_t verify_failures = 0;
  std::vector<uint64_t> verify_failure_offsets;
  // fio's continue_on_error (common/error_policy.h): whether the job set it (fio then reports
  // total_err and first_error), the errors it counted (the ignored ones, plus the one that ended a
  // clone when continue_on_error covered its type) and the first of them. Ignored errors are not
  // the job's error (error_errno).
  bool continue_on_error = false;
  uint64_t total_err_count = 0;
  int first_error = 0;
  // fio's steadystate (ss_dur set): the detector's window and verdict, the same in every job of a
  // group_reporting group (fio reports it per reporting group).
  std::optional<SteadyStateResult> steadystate;
  // fio's latency_depth under latency_target (agent/workloads/block_io/latency_target.h): the
  // queue depth the search ended at; 0 when the job set no latency_target (its depth is iodepth).
  // Merged as fio reports a group: the last clone's that has one.
  int latency_depth = 0;

  JobResult() = default;
  JobResult(JobResult&&) = default;
  JobResult& operator=(JobResult&&) = default;
  JobResult Clone() const;

  OpStats& Stats(OpKind kind);  // allocates on first use
  const OpStats* Find(OpKind kind) const { return by_kind[static_cast<int>(kind)].get(); }
  uint64_t TotalErrors() const;

  // Adds `other` (another clone or agent of the same job). Runtime is the max, start the min, end
  // the max.
  void Merge(const JobResult& other);
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_JOB_RESULT_H_
