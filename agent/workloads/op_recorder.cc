#include "agent/workloads/op_recorder.h"

#include <cstring>
#include <utility>

#include "absl/strings/str_cat.h"
#include "common/clock.h"
#include "common/errno_text.h"

namespace azbench {

OpRecorder::OpRecorder(std::string result_name, int clone, const RunControl& control,
                       uint64_t start_ns, std::atomic<uint64_t>* ops_done,
                       std::atomic<uint64_t>* bytes_done, bool op_log, uint64_t op_log_rate)
    : control_(control),
      clone_(clone),
      start_ns_(start_ns),
      ops_done_(ops_done),
      bytes_done_(bytes_done),
      op_log_(op_log),
      op_log_rate_(op_log_rate),
      op_log_window_end_ns_(start_ns + 1'000'000'000ULL),
      next_interval_ns_(start_ns + control.interval_ns),
      last_complete_ns_(start_ns) {
  result_.name = std::move(result_name);
  result_.interval_ns = control.interval_ns;
  const uint64_t now = MonotonicNanos();
  result_.start_realtime_ns =
      RealtimeNanos() + (static_cast<int64_t>(start_ns) - static_cast<int64_t>(now));
}

void OpRecorder::Activate(OpKind kind) { accum_.Activate(kind, result_); }

void OpRecorder::Record(OpKind kind, uint64_t start_ns, uint64_t end_ns, int64_t result,
                        uint64_t offset_bytes, const std::string& what) {
  Activate(kind);
  result_.depth.RecordSyncOp();
  if (end_ns > last_complete_ns_) last_complete_ns_ = end_ns;
  if (end_ns >= next_interval_ns_) CloseIntervals(end_ns, /*final=*/false);
  IntervalAccumulator::Kind& acc = accum_.kind(kind);
  if (result < 0) {
    ++acc.errors;
    ++errors_;
    if (result_.error_errno == 0) {
      result_.error_errno = static_cast<int>(-result);
      result_.error_message =
          absl::StrCat(std::string(OpKindName(kind)), " of '", what, "' (clone ", clone_,
                       ") failed: ", ErrnoText(static_cast<int>(-result)));
    }
  } else {
    ++acc.ops;
    acc.bytes += static_cast<uint64_t>(result);
    acc.lat.Record(end_ns - start_ns);
    ++local_ops_;
    local_bytes_ += static_cast<uint64_t>(result);
    if (local_ops_ >= 64) FlushProgress();
  }
  if (op_log_) {
    while (end_ns >= op_log_window_end_ns_) {
      op_log_window_end_ns_ += 1'000'000'000ULL;
      op_log_in_window_ = 0;
    }
    if (op_log_in_window_ >= op_log_rate_) {
      ++result_.op_log_dropped;
    } else {
      ++op_log_in_window_;
      ++result_.op_log_records;
      OpRecord r;
      r.start_ns = start_ns > start_ns_ ? start_ns - start_ns_ : 0;
      r.latency_ns = end_ns - start_ns;
      r.offset_bytes = offset_bytes;
      r.bytes = result > 0 ? static_cast<uint32_t>(result) : 0;
      r.error = result < 0 ? static_cast<int32_t>(-result) : 0;
      r.kind = kind;
      r.clone = static_cast<uint16_t>(clone_);
      op_log_records_.push_back(r);
      if (op_log_records_.size() >= kOpLogBatchRecords) FlushOpLog();
    }
  }
}

void OpRecorder::FlushOpLog() {
  if (op_log_records_.empty()) return;
  if (control_.on_op_log) control_.on_op_log(clone_, std::move(op_log_records_));
  op_log_records_.clear();
  op_log_records_.reserve(kOpLogBatchRecords);
}

void OpRecorder::FlushProgress() {
  if (ops_done_ != nullptr) ops_done_->fetch_add(local_ops_, std::memory_order_relaxed);
  if (bytes_done_ != nullptr) bytes_done_->fetch_add(local_bytes_, std::memory_order_relaxed);
  local_ops_ = local_bytes_ = 0;
}

void OpRecorder::CloseIntervals(uint64_t now_ns, bool final) {
  while (now_ns >= next_interval_ns_ || final) {
    IntervalStats interval;
    interval.index = interval_index_;
    const bool any = accum_.Close(result_, interval);
    FlushOpLog();
    if (!final || any) {
      if (control_.on_interval) {
        control_.on_interval(IntervalOrigin{result_.name, clone_, result_.start_realtime_ns},
                             interval);
      }
      result_.intervals.push_back(std::move(interval));
    }
    if (final) break;
    ++interval_index_;
    next_interval_ns_ += control_.interval_ns;
  }
}

JobResult OpRecorder::Finish() {
  CloseIntervals(last_complete_ns_, /*final=*/true);
  FlushProgress();
  result_.runtime_ns = last_complete_ns_ - start_ns_;
  result_.end_realtime_ns = result_.start_realtime_ns + static_cast<int64_t>(result_.runtime_ns);
  result_.cpu = cpu_window_.Close();
  if (result_.op_log_dropped > 0) {
    result_.warnings.push_back(
        absl::StrCat("op_log: ", result_.op_log_dropped, " ops over the cap of ", op_log_rate_,
                     " records/s (clone ", clone_, ") were measured but not logged"));
  }
  return std::move(result_);
}

}  // namespace azbench
