// The visibility family behind agent/workloads/family.h. Its options are parsed at Prepare, with
// the run's id and the agent's place (agent/workloads/visibility/visibility_workload.h); Parse
// keeps them and names the directories the policy checks.
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_FAMILY_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_FAMILY_H_

#include "agent/workloads/family.h"

namespace azbench {

const Family& VisibilityFamily();

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_FAMILY_H_
