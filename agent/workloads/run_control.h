// What a running job of any family gets from the runner: its start instant, cancellation, the
// interval length and the callbacks that carry intervals, op-log batches and phase barriers out.
#ifndef AZBENCH_AGENT_WORKLOADS_RUN_CONTROL_H_
#define AZBENCH_AGENT_WORKLOADS_RUN_CONTROL_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_result.h"

namespace azbench {

class FlowRegistry;  // agent/workloads/flow_registry.h

// Where a streamed interval belongs: the result it will be part of (JobResult::name, e.g. the
// job's name or "md.create") and when that clone's series began (interval 0, agent
// CLOCK_REALTIME).
struct IntervalOrigin {
  const std::string& result_name;
  int clone = 0;
  int64_t series_start_realtime_ns = 0;
};

// The most raw op records a clone holds before it hands them over (RunControl::on_op_log). A
// clone's buffer never grows past it, so keeping records costs the thread that times I/O no copy
// of a growing array (an interval's worth doubled in place on it: 131,073 records at 250k ops/s
// stopped a clone's I/O for up to 159 ms), and the records reach the op-log file as they come.
inline constexpr size_t kOpLogBatchRecords = 4096;

struct RunControl {
  // Monotonic instant at which every clone starts its first op; 0 = each clone as its thread
  // starts.
  uint64_t start_monotonic_ns = 0;
  // Set to true (from any thread) to stop the job early; the result covers what was done.
  const std::atomic<bool>* cancel = nullptr;
  uint64_t interval_ns = 1'000'000'000;
  // Called as each interval closes (block_io and small_files: on the job's relay thread, in
  // order, never on a clone thread; metadata and large_stream: on their job threads). May be empty.
  // Contract: every interval a returned result holds was passed here first, with that result's name
  // (the coordinator then gets each interval once, agent.proto's JobResult).
  std::function<void(const IntervalOrigin&, const IntervalStats&)> on_interval;
  // With `op_log`, called with each batch of raw op records (from the same thread as
  // on_interval): a batch holds at most kOpLogBatchRecords, and one is handed over as each
  // interval closes and at the end. May be empty: the records are then counted but not kept.
  std::function<void(int, std::vector<OpRecord>&&)> on_op_log;
  // Multi-phase workloads (metadata) call this after finishing phase `phase_index` (named
  // `phase`): it blocks until every phased job on every agent of the scenario is done with it and
  // returns the monotonic instant the next phase starts at (0: now; in the past when the release
  // came after the instant every agent was given), or Cancelled. Empty: phases follow each other
  // at once.
  std::function<absl::StatusOr<uint64_t>(int phase_index, const std::string& phase)> await_phase;
  // The run's flows (fio's flow_id), shared by every job of the run; outlives the job's Run. Null:
  // the job keeps a registry of its own, shared by its clones only.
  FlowRegistry* flows = nullptr;
  // Called as each clone ends (block_io: on the clone's thread), `failed` when it ended with an
  // error; the runner ends the jobs fio's exitall would (agent/runner/job_exits.h). May be empty.
  std::function<void(bool failed)> on_clone_end;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_RUN_CONTROL_H_
