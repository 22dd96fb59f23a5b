// Accounting of one thread's ops for the file-level families (metadata, small_files,
// large_stream): per op kind counts, bytes, errors and latency histograms, an interval series with
// the same rules as block_io (intervals from the measured start, each with its own sparse
// histogram, emitted through RunControl::on_interval), op_log records with a per-second cap, and
// the live progress counters. Sync ops only: lat is recorded, slat/clat stay empty. The thread's
// CPU is measured from construction to Finish(), so a recorder is made on the thread that does the
// ops, when its measured work begins.
//
//   OpRecorder rec("md.create", clone, control, start_ns, &ops, &bytes, op_log, rate);
//   const uint64_t t0 = MonotonicNanos();  int r = ...;  rec.Record(OpKind::kCreate, t0,
//   MonotonicNanos(), r < 0 ? -errno : 0, 0, path);  JobResult result = rec.Finish();
#ifndef AZBENCH_AGENT_WORKLOADS_OP_RECORDER_H_
#define AZBENCH_AGENT_WORKLOADS_OP_RECORDER_H_

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agent/workloads/interval_accumulator.h"
#include "agent/workloads/run_control.h"
#include "common/job_result.h"
#include "common/thread_cpu.h"

namespace azbench {

class OpRecorder {
 public:
  // `start_ns`: monotonic instant the measured work starts (the interval origin). The counters may
  // be null.
  OpRecorder(std::string result_name, int clone, const RunControl& control, uint64_t start_ns,
             std::atomic<uint64_t>* ops_done, std::atomic<uint64_t>* bytes_done, bool op_log,
             uint64_t op_log_rate);

  // Makes `kind` appear in the result even if no op of it completes.
  void Activate(OpKind kind);
  // One finished op: `result` >= 0 is the bytes it transferred, < 0 is -errno. The first error's
  // message names `what` (usually the path).
  void Record(OpKind kind, uint64_t start_ns, uint64_t end_ns, int64_t result,
              uint64_t offset_bytes, const std::string& what);
  uint64_t errors() const { return errors_; }
  // Closes the intervals, sets runtime (start to the last completion), the realtime bounds and the
  // thread's CPU usage.
  JobResult Finish();

 private:
  void CloseIntervals(uint64_t now_ns, bool final);
  // Hands the kept op records to on_op_log (at most kOpLogBatchRecords at a time).
  void FlushOpLog();
  void FlushProgress();

  const RunControl& control_;
  int clone_;
  uint64_t start_ns_;
  std::atomic<uint64_t>* ops_done_;
  std::atomic<uint64_t>* bytes_done_;
  bool op_log_;
  uint64_t op_log_rate_;
  uint64_t op_log_window_end_ns_;
  uint64_t op_log_in_window_ = 0;
  std::vector<OpRecord> op_log_records_;
  uint64_t next_interval_ns_;
  int64_t interval_index_ = 0;
  uint64_t last_complete_ns_;
  uint64_t local_ops_ = 0, local_bytes_ = 0, errors_ = 0;
  IntervalAccumulator accum_;
  ThreadCpuWindow cpu_window_;
  JobResult result_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_OP_RECORDER_H_
