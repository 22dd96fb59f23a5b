// The lab's network: one namespace per AZ and a router namespace, joined by veth pairs; the host
// reaches every AZ through the router. On the router, HTB limits what one AZ receives from the
// others to the cross-AZ bandwidth, and policy routing sends every packet from one AZ to another
// through the AZ's TUN device, where the delay line (delay_line.h) holds it before passing it on.
// Traffic between the host and an AZ takes no detour.
#ifndef AZBENCH_COORDINATOR_LAB_LAB_NETWORK_H_
#define AZBENCH_COORDINATOR_LAB_LAB_NETWORK_H_

#include "absl/status/status.h"
#include "coordinator/lab/lab_topology.h"

namespace azbench {

// Builds the namespaces, links, addresses, routes, shaping and TUN devices. Internal naming the
// command that failed; what was built stays for RemoveLabNetwork.
absl::Status BuildLabNetwork(const LabTopology& lab);

// Removes every namespace and host link whose name starts with kLabPrefix (with the processes
// inside the namespaces), whether or not `lab` made them.
void RemoveLabNetwork();

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_LAB_NETWORK_H_
