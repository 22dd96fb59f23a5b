// The block-I/O workload: fio's job loop over one engine, per numjobs clone a thread.
//
// Two phases, so that many agents can start together: Prepare() validates the job against the
// engine's capabilities, lays out and opens the files, allocates buffers and sets up every clone's
// engine; Run() waits until the given start instant, runs all clones and returns their merged
// result.
//
//   ASSIGN_OR_RETURN(auto job, BlockIoJob::Prepare(spec));
//   ASSIGN_OR_RETURN(JobResult result, job->Run(RunControl{}));
//
// Timing per op (the cost is stated because it is part of every figure): sync engines read the
// op clock twice per op (start, completion); async engines read it once per batch of queued ops
// (start), once per submit call (issue) and once per reap call (completion). The op clock
// (common/op_clock.h) is the TSC where the CPU declares it invariant, ~8-11 ns per read on the
// 2-vCPU KVM hosts of bench/README.md, else clock_gettime (~20-26 ns, vDSO). Recording into the
// histogram costs a few ns; the histograms of an interval are merged into the job's totals once
// per interval, not per op. The clone's loop itself: agent/workloads/block_io_clone.h.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/engines/io_engine.h"
#include "agent/workloads/file_layout.h"
#include "common/job_result.h"
#include "common/job_spec.h"
#include "common/op_clock.h"

namespace azbench {

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
};

// The engine options of one clone of `spec` at `iodepth`, before its buffers and files are added:
// the depth, batch_submit and, when the job sets uring_wait_pause, the io_uring wait pause.
EngineOptions EngineOptionsForJob(const JobSpec& spec, int iodepth);

// Whether this process may still open the descriptors a job needs: `files_opened` (each clone
// opens each of its files: nrfiles x numjobs) and a margin per clone and per run, against
// RLIMIT_NOFILE's soft limit less the descriptors open now. ResourceExhausted naming nrfiles,
// numjobs and the limit. BlockIoJob::Prepare checks it before laying out any file.
absl::Status CheckDescriptorsAvailable(uint64_t files_opened, int nrfiles, int numjobs);

class BlockIoJob {
 public:
  // Errors: InvalidArgument (invalid spec, engine capability mismatch such as direct=1 with the
  // null engine or iodepth above the engine's limit, O_DIRECT refused by the file system), NotFound
  // (unknown engine), FailedPrecondition (missing directory), PermissionDenied (read-only target),
  // ResourceExhausted (ENOSPC during layout), Unavailable (engine setup refused by the kernel).
  // On error nothing this call created is left behind. `create_engine` makes the job's engines
  // by name (the registry by default; tests pass fakes). `cancel` (may be null; the run's) set
  // during the layout ends it between files: Cancelled, the files made removed.
  using EngineFactory =
      std::function<absl::StatusOr<std::unique_ptr<IoEngine>>(std::string_view name)>;
  static absl::StatusOr<std::unique_ptr<BlockIoJob>> Prepare(
      const JobSpec& spec, int group_id = 0, const EngineFactory& create_engine = CreateEngine,
      const std::atomic<bool>* cancel = nullptr);
  ~BlockIoJob();

  // Runs every clone to completion (or cancellation) and merges their results. Fails only if a
  // clone could not run at all; I/O errors are reported inside the result (error_errno,
  // error_message, errors).
  absl::StatusOr<JobResult> Run(const RunControl& control);

  // Removes the files that Prepare() created (reused files are kept). Safe to call more than once.
  absl::Status RemoveCreatedFiles();

  const JobSpec& spec() const { return spec_; }
  const std::vector<LaidOutFile>& files() const { return files_; }
  // What Prepare noticed that does not stop the job (e.g. iodepth ignored by a sync engine); the
  // result carries them too.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Ops completed so far over all clones (for live progress); relaxed.
  uint64_t ops_done() const { return ops_done_.load(std::memory_order_relaxed); }
  uint64_t bytes_done() const { return bytes_done_.load(std::memory_order_relaxed); }

  struct Clone;  // one numjobs clone: its engine, buffers, files, offsets (block_io_clone.h)

 private:
  BlockIoJob() = default;
  JobSpec spec_;
  int group_id_ = 0;
  OpClockSource op_clock_;  // resolved from spec_.clocksource in Prepare
  std::vector<LaidOutFile> files_;
  std::vector<std::unique_ptr<Clone>> clones_;
  std::vector<std::string> warnings_;
  std::atomic<uint64_t> ops_done_{0};
  std::atomic<uint64_t> bytes_done_{0};
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_H_
