// Who and where the agent is: its identity as configured, completed from the EC2 instance metadata
// service (IMDSv2, agent/host/imds_client.h).
//
// What IMDS gives (paths under /latest/meta-data/): placement/region, placement/availability-zone,
// placement/availability-zone-id, instance-id, instance-type, local-ipv4, and for every MAC under
// network/interfaces/macs/ its subnet-id and subnet-ipv4-cidr-block (what coordinator/placement
// turns into the subnet -> AZ map).
//
// Pinning: an AZ or AZ id set in the config (or --az / --az-id) wins over IMDS; az_source is then
// "config". Otherwise an AZ from IMDS gives az_source "imds", and no AZ at all "none" (the
// coordinator then classifies every target of this agent as `unknown`). A pinned AZ that IMDS
// contradicts is kept, with a note saying so.
//
//   IdentityDiscovery found = DiscoverIdentity(imds.get(), config.identity);
//   for (const auto& note : found.notes) spdlog::info("{}", note);
#ifndef AZBENCH_AGENT_HOST_IDENTITY_H_
#define AZBENCH_AGENT_HOST_IDENTITY_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "agent/host/imds_client.h"

namespace azbench {

struct AgentSubnet {
  std::string mac;
  std::string subnet_id;
  std::string cidr;  // subnet-ipv4-cidr-block, "10.0.1.0/24"
};

struct AgentIdentity {
  std::string agent_id;
  std::string hostname;
  std::string region;
  std::string availability_zone;
  std::string availability_zone_id;
  std::string instance_id;
  std::string instance_type;
  std::string local_ipv4;
  std::vector<AgentSubnet> subnets;
  std::string az_source = "none";  // "config", "imds", "none"
};

struct IdentityDiscovery {
  AgentIdentity identity;
  // OK when IMDS answered; FailedPrecondition (disabled) or Unavailable (not on EC2) otherwise,
  // in which case `identity` is the pinned one unchanged.
  absl::Status imds_status;
  std::vector<std::string> notes;  // what was learned or overridden, for the log
};

// Completes `pinned` from `imds` (nullptr: no IMDS). Never fails: a missing service leaves the
// pinned identity and says why in imds_status. Optional paths missing on an instance (404) are
// skipped.
IdentityDiscovery DiscoverIdentity(MetadataClient* imds, AgentIdentity pinned);

}  // namespace azbench

#endif  // AZBENCH_AGENT_HOST_IDENTITY_H_
