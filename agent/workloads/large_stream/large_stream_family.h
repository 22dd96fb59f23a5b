// The large_stream family behind agent/workloads/family.h: parses the options into a
// LargeStreamSpec (agent/workloads/large_stream/large_stream.h runs it).
#ifndef AZBENCH_AGENT_WORKLOADS_LARGE_STREAM_LARGE_STREAM_FAMILY_H_
#define AZBENCH_AGENT_WORKLOADS_LARGE_STREAM_LARGE_STREAM_FAMILY_H_

#include "agent/workloads/family.h"

namespace azbench {

const Family& LargeStreamFamily();

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_LARGE_STREAM_LARGE_STREAM_FAMILY_H_
