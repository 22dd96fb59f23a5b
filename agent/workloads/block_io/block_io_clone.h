// One numjobs clone of a block-I/O job (agent/workloads/block_io/block_io.h): its state, which
// BlockIoJob::Prepare builds, and its job loop, which BlockIoJob::Run starts on the clone's own
// thread. Internal to the block-I/O workload.
//
//   JobResult result = RunBlockIoClone(spec, clone, control, op_clock, start_ns, ops, bytes,
//                                      progress);
//
// The loop, as fio's: sync engines complete each op inside Queue(); async engines fill every free
// slot, submit as the batching options say (agent/workloads/block_io/submit_batch.h) and reap
// between iodepth_batch_complete_min and _max completions per call. Every completion is accounted
// into the current interval's histograms (agent/workloads/interval_accumulator.h); intervals close
// every RunControl::interval_ns. The clone stops at its first error, as fio's default
// continue_on_error=none, and quiesces its engine before it returns.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_CLONE_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_CLONE_H_

#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "agent/engines/io_engine.h"
#include "agent/engines/op_clock.h"
#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/block_size_picker.h"
#include "agent/workloads/buffer_pool.h"
#include "agent/workloads/flow_registry.h"
#include "agent/workloads/offset_generator.h"
#include "agent/workloads/verify_block.h"
#include "common/job_result.h"
#include "common/job_spec.h"

namespace azbench {

inline constexpr uint64_t kBlockIoDefaultSeed = 0x89;  // fio's default randseed

struct BlockIoJob::Clone {
  struct File {
    std::string path;
    int fd = -1;
    bool engine_handle = false;  // fd is the engine's handle (IoEngine::OpenFile), not a descriptor
    // Offset streams per direction (fio keeps one position per data direction); index 0 read, 1
    // write, 2 trim (only in a job that trims).
    std::unique_ptr<OffsetGenerator> offsets[3];
    // The I/O region, and per direction where the last I/O started and ended: fio's rw
    // modifiers (`rw=read:-8k`, `rw=randread:8`) place the next I/O from them.
    uint64_t region_start_bytes = 0;
    uint64_t region_end_bytes = 0;
    uint64_t last_start_bytes[3] = {0, 0, 0};
    uint64_t last_end_bytes[3] = {0, 0, 0};
  };
  int index = 0;
  std::unique_ptr<IoEngine> engine;
  EngineCapabilities caps;
  std::unique_ptr<BufferPool> buffers;
  std::vector<File> files;
  // I/O sizes per direction (fio keeps one size generator per direction); index 0 read, 1 write,
  // 2 trim.
  std::vector<BlockSizePicker> block_sizes;
  uint64_t seed = kBlockIoDefaultSeed;
  VerifyFormat verify;  // the job's verify format (type kNone: no verify)
  // The clone's place in its flow (fio's flow) while it runs; null when the job sets no flow.
  std::unique_ptr<FlowMember> flow;

  // The engine goes first: until it is quiesced and gone the kernel may still hold requests on
  // these files and write into these buffers (members are destroyed in reverse order, which would
  // free the buffers before the engine). Requests the engine could not wait for (a failed Quiesce
  // leaves them in inflight()) may be written into the buffers even after the engine is gone (an
  // io_uring ring's exit does not wait for them): then the buffers are kept, not freed
  // (KeepBuffersForTheKernel), with a warning.
  ~Clone();
};

// Runs one clone from `start_ns` (0: now) to its end (runtime, size or cancellation) on the
// calling thread and returns its result. `ops_done` / `bytes_done` are the job's shared progress
// counters (relaxed, updated every few hundred ops); `progress` (may be null) the clone's run state
// and per-direction counters, ramp_time included, published as often.
JobResult RunBlockIoClone(const JobSpec& spec, BlockIoJob::Clone& clone, const RunControl& control,
                          const OpClockSource& op_clock, uint64_t start_ns,
                          std::atomic<uint64_t>& ops_done, std::atomic<uint64_t>& bytes_done,
                          CloneProgress* progress = nullptr);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_CLONE_H_
