// The metadata family behind agent/workloads/family.h: parses the options into a MetadataSpec
// (agent/workloads/metadata/metadata.h runs it).
#ifndef AZBENCH_AGENT_WORKLOADS_METADATA_METADATA_FAMILY_H_
#define AZBENCH_AGENT_WORKLOADS_METADATA_METADATA_FAMILY_H_

#include "agent/workloads/family.h"

namespace azbench {

const Family& MetadataFamily();

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_METADATA_METADATA_FAMILY_H_
