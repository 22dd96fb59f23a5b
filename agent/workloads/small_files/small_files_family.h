// The small_files family behind agent/workloads/family.h: parses the options into a
// SmallFilesSpec (agent/workloads/small_files/small_files.h runs it).
#ifndef AZBENCH_AGENT_WORKLOADS_SMALL_FILES_SMALL_FILES_FAMILY_H_
#define AZBENCH_AGENT_WORKLOADS_SMALL_FILES_SMALL_FILES_FAMILY_H_

#include "agent/workloads/family.h"

namespace azbench {

const Family& SmallFilesFamily();

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_SMALL_FILES_SMALL_FILES_FAMILY_H_
