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
// (agent/engines/op_clock.h) is the TSC where the CPU declares it invariant, ~8-11 ns per read on
// the 2-vCPU KVM hosts of bench/README.md, else clock_gettime (~20-26 ns, vDSO). Recording into the
// histogram costs a few ns; the histograms of an interval are merged into the job's totals once
// per interval, not per op. The clone's loop itself: agent/workloads/block_io/block_io_clone.h.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"
#include "agent/workloads/dedupe_working_set.h"
#include "agent/workloads/file_layout.h"
#include "agent/workloads/flow_registry.h"
#include "agent/workloads/job_progress.h"
#include "agent/workloads/run_control.h"
#include "common/job_result.h"
#include "common/job_spec.h"

namespace azbench {

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
  // during the layout ends it between files: Cancelled, the files made removed. `job_index` is the
  // job's place in its run (its clones' buffers differ from other jobs', as fio's threads'), and
  // `dedupe_threads` the run's registry for dedupe_global (may be null: this job's clones only;
  // it must outlive the job).
  using EngineFactory =
      std::function<absl::StatusOr<std::unique_ptr<IoEngine>>(std::string_view name)>;
  static absl::StatusOr<std::unique_ptr<BlockIoJob>> Prepare(
      const JobSpec& spec, int group_id = 0, const EngineFactory& create_engine = CreateEngine,
      const std::atomic<bool>* cancel = nullptr, int job_index = 0,
      DedupeThreads* dedupe_threads = nullptr);
  ~BlockIoJob();

  // Runs every clone to completion (or cancellation) and merges their results. Fails only if a
  // clone could not run at all; I/O errors are reported inside the result (error_errno,
  // error_message, errors).
  absl::StatusOr<JobResult> Run(const RunControl& control);
  // Joins each clone to the job's flow (none without flow=): Workload::JoinFlows.
  void JoinFlows(FlowRegistry& flows);

  // Removes the files that Prepare() created (reused files are kept). Safe to call more than once.
  absl::Status RemoveCreatedFiles();

  const JobSpec& spec() const { return spec_; }
  int group_id() const { return group_id_; }
  const std::vector<LaidOutFile>& files() const { return files_; }
  // What Prepare noticed that does not stop the job (e.g. iodepth ignored by a sync engine); the
  // result carries them too.
  const std::vector<std::string>& warnings() const { return warnings_; }
  // Ops completed so far over all clones (for live progress); relaxed.
  uint64_t ops_done() const { return ops_done_.load(std::memory_order_relaxed); }
  uint64_t bytes_done() const { return bytes_done_.load(std::memory_order_relaxed); }
  // Each clone's run state and per-direction counters (fio's status line).
  const JobProgress* progress() const { return progress_.get(); }

  struct Clone;  // one numjobs clone: its engine, buffers, files, offsets (block_io_clone.h)

 private:
  BlockIoJob() = default;
  JobSpec spec_;
  int group_id_ = 0;
  OpClockSource op_clock_;  // resolved from spec_.clocksource in Prepare
  std::vector<LaidOutFile> files_;
  std::vector<std::unique_ptr<Clone>> clones_;
  std::vector<std::string> warnings_;
  // For the page-cache trap warnings (cache_traps.h); 0 when the engine does no I/O.
  uint64_t working_set_bytes_ = 0;
  uint64_t client_memory_bytes_ = 0;
  FlowRegistry own_flows_;  // the clones' flows when RunControl::flows is null
  int job_index_ = 0;
  DedupeThreads own_dedupe_threads_;         // dedupe_global without the run's registry
  DedupeThreads* dedupe_threads_ = nullptr;  // where the clones registered (dedupe_global)
  std::atomic<uint64_t> ops_done_{0};
  std::atomic<uint64_t> bytes_done_{0};
  std::unique_ptr<JobProgress> progress_;  // set by Prepare, one entry per clone
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_H_
