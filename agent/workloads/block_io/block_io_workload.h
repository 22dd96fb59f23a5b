// The block-I/O job behind the Workload interface.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_WORKLOAD_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_WORKLOAD_H_

#include <memory>

#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/workload.h"

namespace azbench {

std::unique_ptr<Workload> WrapBlockIoJob(std::unique_ptr<BlockIoJob> job);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_BLOCK_IO_WORKLOAD_H_
