// The block-I/O job behind the Workload interface.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_WORKLOAD_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_WORKLOAD_H_

#include <memory>

#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/workload.h"

namespace azbench {

// `waits_for_writer` (sharing=write-verify's verifiers): the job is phased, with one barrier
// ("write") before its first op, released once the writer's agent has finished.
std::unique_ptr<Workload> WrapBlockIoJob(std::unique_ptr<BlockIoJob> job,
                                         bool waits_for_writer = false);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_WORKLOAD_H_
