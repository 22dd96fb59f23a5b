// The outcome of placement (coordinator/plan/placement.h) for one agent x target pair, as plan,
// store and reports carry it: no dependencies, so Scenario can hold it.
#ifndef AZBENCH_COORDINATOR_PLACEMENT_EVIDENCE_H_
#define AZBENCH_COORDINATOR_PLACEMENT_EVIDENCE_H_

#include <optional>
#include <string>
#include <string_view>

namespace azbench {

enum class Placement { kSameAz, kCrossAz, kUnknown };
// "same-az", "cross-az", "unknown".
std::string_view PlacementName(Placement placement);
std::optional<Placement> ParsePlacement(std::string_view name);

struct PlacementEvidence {
  std::string agent_id;
  std::string target;
  Placement placement = Placement::kUnknown;
  std::string agent_az;  // name, or id when only the id is known
  std::string agent_az_id;
  std::string az_source;         // how the agent knows its AZ: config, imds, none
  std::string server_address;    // the address decided on ("" when none)
  std::string address_source;    // "addr=", "resolved <name>", "" (server_az)
  std::string subnet;            // the matching CIDR ("" when none)
  std::string subnet_source;     // "imds <agent>[, imds <agent>...]" or "campaign"
  std::string server_az;         // the server's AZ as known ("" when unknown)
  std::string server_az_source;  // "subnet map" or "target server_az"
  std::string reason;            // one line a person can check, e.g.
                                 // "addr=198.18.1.20 in 198.18.1.0/24 (az-a, imds a1);
                                 // agent in az-b (imds)"
  // The agent's mount of the target as Describe saw it, "nfs4 fs-1.efs...:/ on /mnt/efs
  // (hard,nconnect=4,rsize=1048576,vers=4.1,...)": every mount and super option, sorted by name;
  // "" when the agent reported no mount (azbench plan, or files written before this field).
  std::string mount;
};

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_PLACEMENT_EVIDENCE_H_
