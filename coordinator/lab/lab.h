// `azbench lab up | down | status`: a multi-AZ testbed on one machine (docs/lab.md). `up` builds
// the network (lab_network.h), starts the delay line, an NFS server in the first AZ and the agents
// with their instance-metadata services, and writes DIR/state, DIR/hosts and DIR/tls/. `down`
// removes all of it, also what a crashed `up` left. Both hold /var/tmp/azbench-lab.lock, so two at
// once do not interleave. Needs root.
//
//   ASSIGN_OR_RETURN(std::string summary, LabUp({.azs = 3}));
//   LabDown(kLabDefaultDir);
#ifndef AZBENCH_COORDINATOR_LAB_LAB_H_
#define AZBENCH_COORDINATOR_LAB_LAB_H_

#include <string>

#include "absl/status/statusor.h"
#include "coordinator/lab/lab_topology.h"

namespace azbench {

// Idempotent: a lab that is up with the same options and answers is left as it is; any other
// lab is taken down first. Returns what a user needs (hosts file, TLS files, topology). Errors:
// FailedPrecondition (not root, a missing tool, a --dir that holds files but no lab state),
// InvalidArgument (options), Internal (a command or process that failed, with its log's tail); what
// was built is removed again.
absl::StatusOr<std::string> LabUp(const LabOptions& options);

// Removes every lab namespace and its processes, the host link and `dir` (when it holds a lab's
// state file, or is the default directory).
absl::Status LabDown(const std::string& dir);

// The topology from DIR/state and the round trip measured per AZ pair (TCP connects to an agent
// of each AZ from every AZ). NotFound when no lab is up.
absl::StatusOr<std::string> LabStatus(const std::string& dir);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_LAB_H_
