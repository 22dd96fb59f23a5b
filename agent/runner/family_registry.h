// The workload families the agent knows, one line each in family_registry.cc (explicit, as
// agent/engines/engine_registry.cc; no static self-registration).
//
//   ASSIGN_OR_RETURN(const Family* family, FindFamily("metadata"));
#ifndef AZBENCH_AGENT_RUNNER_FAMILY_REGISTRY_H_
#define AZBENCH_AGENT_RUNNER_FAMILY_REGISTRY_H_

#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/family.h"

namespace azbench {

// Every family, in the order their names are listed to users.
const std::vector<const Family*>& Families();

// The family named `workload`. InvalidArgument naming the value and the allowed families.
absl::StatusOr<const Family*> FindFamily(std::string_view workload);

}  // namespace azbench

#endif  // AZBENCH_AGENT_RUNNER_FAMILY_REGISTRY_H_
