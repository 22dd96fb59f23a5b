// Where everything is: each agent x target pair classified `same-az`, `cross-az` or `unknown`,
// with the evidence it was decided on, as the field studies proved it by hand (study A: resolve
// the file system's name, read `addr=` in the mount table, compare with the subnets' AZs).
//
// How a pair is decided (first rule that applies):
//   1. The agent's AZ must be known (config or IMDS; az_source "none" -> unknown).
//   2. A target with `server_az` (campaign) has its server in that AZ: compare with the agent's.
//   3. Otherwise the server address is taken from the agent's own mount of the target: `addr=`
//      (the address the kernel is connected to) unless it is loopback (efs-utils' TLS tunnel),
//      else the addresses the server name resolved to on that agent. No network mount -> unknown.
//      A target whose path is an nfs:// URL (reached through libnfs) has no mount: the agent
//      reports the URL's server resolved in its place (agent/host/target_mounts.h), and it is
//      classified by this same rule.
//   4. The address is looked up in the subnet map (longest prefix): CIDR -> AZ from every agent's
//      IMDS subnets (each in that agent's AZ) and the campaign's `topology.subnets`. No match, or
//      resolved addresses in several AZs -> unknown. A CIDR claimed for two different AZs is
//      dropped (with a warning) so it can never decide anything; claimed under an AZ name and an AZ
//      id that cannot be related, the first claim (campaign before agents) is kept, with a warning.
//   5. Same AZ -> same-az, another AZ -> cross-az. AZ names (us-east-1a) and AZ ids (use1-az1)
//      are compared like with like; a name and an id are related through agents that know both
//      (AZ names are account-specific, ids are not). When they cannot be related -> unknown.
// Unknown is never treated as same-AZ: a `placement` axis value only ever selects agents whose
// pair says exactly that value.
//
// Because each agent classifies with its own mount, an EFS file system (one mount target per AZ,
// the name resolving to the local one) comes out same-az everywhere, and an FSx Multi-AZ file
// system (one active address, a standby in the other subnet) comes out same-az only in the
// active server's AZ and cross-az elsewhere, as in study A.
//
//   PlacementTable table = ClassifyPlacements(agents, targets, campaign_subnets);
//   const PlacementEvidence* e = table.Find("a1", "efs");
#ifndef AZBENCH_COORDINATOR_PLAN_PLACEMENT_H_
#define AZBENCH_COORDINATOR_PLAN_PLACEMENT_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "azbench/v1/agent.pb.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/placement_evidence.h"
#include "coordinator/scenario.h"

namespace azbench {

// What the coordinator learned of an agent from Describe.
struct PlacementAgent {
  std::string agent_id;
  std::string availability_zone;
  std::string availability_zone_id;
  std::string az_source;  // config, imds, none
  struct Subnet {
    std::string subnet_id;
    std::string cidr;
  };
  std::vector<Subnet> subnets;        // from IMDS
  std::vector<v1::MountInfo> mounts;  // one per target path it has a mount for
};

struct PlacementTargetSpec {
  std::string name;
  std::string path;
  std::string server_az;  // campaign `server_az` (name or id), "" = not given
};

// A subnet declared by hand (campaign `topology.subnets`).
struct DeclaredSubnet {
  std::string cidr;
  std::string az;  // name or id
};

struct PlacementTable {
  std::vector<PlacementEvidence> entries;  // agents in input order, then targets in input order
  std::vector<std::string> warnings;       // conflicting subnets and the like
  const PlacementEvidence* Find(const std::string& agent_id, const std::string& target) const;
};

PlacementTable ClassifyPlacements(const std::vector<PlacementAgent>& agents,
                                  const std::vector<PlacementTargetSpec>& targets,
                                  const std::vector<DeclaredSubnet>& declared_subnets);

// The campaign's targets (name, path, server_az) and `topology.subnets` applied to `agents`.
PlacementTable ClassifyCampaignPlacements(const Campaign& campaign,
                                          const std::vector<PlacementAgent>& agents);

// Agents known only by AgentInfo (no Describe: `azbench plan`): their AZ, no subnets, no mounts.
// Only targets with server_az can then be placed.
std::vector<PlacementAgent> PlacementAgentsFromInfos(const std::vector<AgentInfo>& agents);

// One line for people: "cross-az: addr=10.0.1.20 in 10.0.1.0/24 (az-a, imds a1); agent in az-b
// (imds)".
std::string FormatPlacementEvidence(const PlacementEvidence& evidence);

// The agent as Describe answered.
PlacementAgent PlacementAgentFromDescribe(const std::string& agent_id,
                                          const v1::DescribeResponse& description);

// Each member as placement sees it (its Describe answer).
std::vector<PlacementAgent> PlacementAgentsFromFleet(const Fleet& fleet);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_PLAN_PLACEMENT_H_
