#include "coordinator/plan/placement.h"

#include <map>
#include <set>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/nfs_url.h"
#include "coordinator/campaign/cidr.h"

namespace azbench {
namespace {

// "use1-az1", "apne1-az4": AZ ids end in "-az" and digits; AZ names ("us-east-1a") do not.
bool IsAzId(const std::string& az) {
  const size_t pos = az.rfind("-az");
  if (pos == std::string::npos || pos == 0 || pos + 3 >= az.size()) return false;
  for (size_t i = pos + 3; i < az.size(); ++i) {
    if (!absl::ascii_isdigit(static_cast<unsigned char>(az[i]))) return false;
  }
  return true;
}

// AZ name <-> id, learned from agents that know both.
class AzAliases {
 public:
  explicit AzAliases(const std::vector<PlacementAgent>& agents) {
    for (const PlacementAgent& a : agents) {
      if (a.availability_zone.empty() || a.availability_zone_id.empty()) continue;
      id_of_[a.availability_zone] = a.availability_zone_id;
      name_of_[a.availability_zone_id] = a.availability_zone;
    }
  }
  struct Zone {
    std::string name;
    std::string id;
  };
  Zone Normalize(const std::string& name, const std::string& id) const {
    Zone z{name, id};
    if (z.id.empty()) {
      if (auto it = id_of_.find(z.name); it != id_of_.end()) z.id = it->second;
    }
    if (z.name.empty()) {
      if (auto it = name_of_.find(z.id); it != name_of_.end()) z.name = it->second;
    }
    return z;
  }
  Zone FromString(const std::string& az) const {
    return IsAzId(az) ? Normalize("", az) : Normalize(az, "");
  }
  // same-az, cross-az, or unknown when the two cannot be related.
  static Placement Compare(const Zone& a, const Zone& b) {
    if (!a.id.empty() && !b.id.empty())
      return a.id == b.id ? Placement::kSameAz : Placement::kCrossAz;
    if (!a.name.empty() && !b.name.empty()) {
      return a.name == b.name ? Placement::kSameAz : Placement::kCrossAz;
    }
    return Placement::kUnknown;
  }

 private:
  std::map<std::string, std::string> id_of_;
  std::map<std::string, std::string> name_of_;
};

struct SubnetEntry {
  Cidr cidr;
  std::string az;  // name or id as given
  std::vector<std::string> sources;
  bool conflicting = false;
};

class SubnetMap {
 public:
  explicit SubnetMap(const AzAliases& aliases) : aliases_(aliases) {}

  void Add(const std::string& cidr_text, const std::string& az, const std::string& source,
           std::vector<std::string>& warnings) {
    absl::StatusOr<Cidr> cidr = ParseCidr(cidr_text);
    if (!cidr.ok()) {
      warnings.push_back(absl::StrCat(source, ": ", cidr.status().message()));
      return;
    }
    const std::string key = cidr->ToString();
    auto it = entries_.find(key);
    if (it == entries_.end()) {
      entries_.emplace(key, SubnetEntry{*cidr, az, {source}, false});
      return;
    }
    SubnetEntry& e = it->second;
    if (std::find(e.sources.begin(), e.sources.end(), source) == e.sources.end()) {
      e.sources.push_back(source);
    }
    if (e.az == az) return;
    const Placement relation =
        AzAliases::Compare(aliases_.FromString(e.az), aliases_.FromString(az));
    if (relation == Placement::kSameAz) return;
    if (relation == Placement::kUnknown) {
      // "us-east-1a" vs "use1-az1" with no agent knowing both: probably one AZ named twice.
      warnings.push_back(absl::StrCat("subnet ", key, ": cannot tell whether ", e.az, " (",
                                      absl::StrJoin(e.sources, ", "), ") and ", az, " (", source,
                                      ") are the same AZ; using ", e.az));
      return;
    }
    if (!e.conflicting) {
      e.conflicting = true;
      warnings.push_back(absl::StrCat("subnet ", key, " is in ", e.az, " (",
                                      absl::StrJoin(e.sources, ", "), ") and in ", az, " (", source,
                                      "): it decides no placement"));
    }
  }

  const SubnetEntry* Lookup(const IpAddress& address) const {
    const SubnetEntry* best = nullptr;
    for (const auto& [key, e] : entries_) {
      if (e.conflicting || !e.cidr.Contains(address)) continue;
      if (best == nullptr || e.cidr.prefix_length > best->cidr.prefix_length) best = &e;
    }
    return best;
  }

 private:
  const AzAliases& aliases_;
  std::map<std::string, SubnetEntry> entries_;
};

std::string AgentZoneText(const PlacementAgent& a) {
  if (!a.availability_zone.empty() && !a.availability_zone_id.empty()) {
    return absl::StrCat(a.availability_zone, "/", a.availability_zone_id);
  }
  return a.availability_zone.empty() ? a.availability_zone_id : a.availability_zone;
}

const v1::MountInfo* FindMount(const PlacementAgent& agent, const std::string& path) {
  for (const v1::MountInfo& m : agent.mounts) {
    if (m.target_path() == path) return &m;
  }
  return nullptr;
}

// PlacementEvidence::mount: options sorted by name (the proto map has no order).
std::string MountText(const v1::MountInfo& m) {
  std::map<std::string, std::string> sorted(m.options().begin(), m.options().end());
  std::vector<std::string> options;
  for (const auto& [name, value] : sorted) {
    options.push_back(value.empty() ? name : absl::StrCat(name, "=", value));
  }
  return absl::StrCat(m.fstype(), " ", m.source(),
                      m.mount_point().empty() ? "" : absl::StrCat(" on ", m.mount_point()),
                      options.empty() ? "" : absl::StrCat(" (", absl::StrJoin(options, ","), ")"));
}

PlacementEvidence Classify(const PlacementAgent& agent, const PlacementTargetSpec& target,
                           const SubnetMap& subnets, const AzAliases& aliases) {
  PlacementEvidence e;
  e.agent_id = agent.agent_id;
  e.target = target.name;
  e.agent_az =
      agent.availability_zone.empty() ? agent.availability_zone_id : agent.availability_zone;
  e.agent_az_id = agent.availability_zone_id;
  e.az_source = agent.az_source.empty() ? "none" : agent.az_source;
  if (const v1::MountInfo* m = FindMount(agent, target.path)) e.mount = MountText(*m);
  const AzAliases::Zone agent_zone =
      aliases.Normalize(agent.availability_zone, agent.availability_zone_id);
  const std::string agent_text = absl::StrCat(
      "agent in ", e.agent_az.empty() ? "?" : AgentZoneText(agent), " (", e.az_source, ")");
  if (agent.availability_zone.empty() && agent.availability_zone_id.empty()) {
    e.reason = "the agent's AZ is unknown (no IMDS answer and none configured)";
    return e;
  }
  auto decide = [&](const std::string& server_az, const std::string& evidence) {
    e.server_az = server_az;
    e.placement = AzAliases::Compare(agent_zone, aliases.FromString(server_az));
    e.reason = absl::StrCat(evidence, "; ", agent_text);
    if (e.placement == Placement::kUnknown) {
      absl::StrAppend(&e.reason, "; cannot relate AZ '", server_az,
                      "' to the agent's (name vs id; no agent knows both)");
    }
  };
  const v1::MountInfo* mount = FindMount(agent, target.path);
  // The address, whatever decides: evidence even when server_az does.
  std::vector<std::pair<std::string, std::string>> candidates;  // address, how it was found
  if (mount != nullptr) {
    const std::optional<IpAddress> addr = ParseIpAddress(mount->addr());
    if (addr && !addr->IsLoopback()) {
      candidates.emplace_back(mount->addr(), "addr=");
    } else {
      // An nfs:// target's server given as an address is its own evidence: "nfs_url 10.0.1.5".
      const bool url_address =
          mount->fstype() == kNfsUrlMountType && ParseIpAddress(mount->server()).has_value();
      for (const std::string& a : mount->server_addresses()) {
        const std::optional<IpAddress> parsed = ParseIpAddress(a);
        if (parsed && !parsed->IsLoopback()) {
          candidates.emplace_back(
              a, url_address ? "nfs_url" : absl::StrCat("resolved ", mount->server()));
        }
      }
    }
  }
  if (!target.server_az.empty()) {
    e.server_az_source = "target server_az";
    if (!candidates.empty()) {
      e.server_address = candidates.front().first;
      e.address_source = candidates.front().second;
    }
    decide(target.server_az, absl::StrCat("server_az ", target.server_az, " (campaign)"));
    return e;
  }
  if (mount == nullptr) {
    e.reason = absl::StrCat("no mount information for ", target.path);
    return e;
  }
  if (mount->server().empty()) {
    e.reason = absl::StrCat(target.path, " is on ", mount->fstype(),
                            " (not a network mount): no server to place");
    return e;
  }
  if (candidates.empty()) {
    e.reason = absl::StrCat("no server address for ", mount->server(),
                            mount->resolve_error().empty() ? "" : ": ", mount->resolve_error());
    return e;
  }
  // Every candidate that is in a known subnet must agree on the AZ.
  const SubnetEntry* match = nullptr;
  std::set<std::string> zones;
  std::vector<std::string> unmatched;
  for (const auto& [address, how] : candidates) {
    const SubnetEntry* s = subnets.Lookup(*ParseIpAddress(address));
    if (s == nullptr) {
      unmatched.push_back(address);
      continue;
    }
    zones.insert(s->az);
    if (match == nullptr) {
      match = s;
      e.server_address = address;
      e.address_source = how;
    }
  }
  if (match == nullptr) {
    e.server_address = candidates.front().first;
    e.address_source = candidates.front().second;
    e.reason = absl::StrCat(e.address_source, " ", absl::StrJoin(unmatched, ","),
                            " is in no known subnet (add it to topology.subnets or set the "
                            "target's server_az)");
    return e;
  }
  e.subnet = match->cidr.ToString();
  e.subnet_source = absl::StrJoin(match->sources, ", ");
  if (zones.size() > 1) {
    e.reason = absl::StrCat(mount->server(), " resolves to addresses in several AZs (",
                            absl::StrJoin(zones, ", "), ")");
    return e;
  }
  e.server_az_source = "subnet map";
  decide(match->az,
         absl::StrCat(e.address_source, e.address_source == "addr=" ? "" : " ", e.server_address,
                      " in ", e.subnet, " (", match->az, ", ", e.subnet_source, ")"));
  return e;
}

}  // namespace

const PlacementEvidence* PlacementTable::Find(const std::string& agent_id,
                                              const std::string& target) const {
  for (const PlacementEvidence& e : entries) {
    if (e.agent_id == agent_id && e.target == target) return &e;
  }
  return nullptr;
}

PlacementTable ClassifyPlacements(const std::vector<PlacementAgent>& agents,
                                  const std::vector<PlacementTargetSpec>& targets,
                                  const std::vector<DeclaredSubnet>& declared_subnets) {
  PlacementTable table;
  const AzAliases aliases(agents);
  SubnetMap subnets(aliases);
  for (const DeclaredSubnet& s : declared_subnets) {
    subnets.Add(s.cidr, s.az, "campaign", table.warnings);
  }
  for (const PlacementAgent& a : agents) {
    const std::string az =
        a.availability_zone.empty() ? a.availability_zone_id : a.availability_zone;
    if (az.empty()) continue;
    for (const PlacementAgent::Subnet& s : a.subnets) {
      subnets.Add(s.cidr, az, absl::StrCat("imds ", a.agent_id), table.warnings);
    }
  }
  for (const PlacementAgent& a : agents) {
    for (const PlacementTargetSpec& t : targets) {
      table.entries.push_back(Classify(a, t, subnets, aliases));
    }
  }
  return table;
}

PlacementTable ClassifyCampaignPlacements(const Campaign& campaign,
                                          const std::vector<PlacementAgent>& agents) {
  std::vector<PlacementTargetSpec> targets;
  for (const CampaignTarget& t : campaign.targets) targets.push_back({t.name, t.path, t.server_az});
  std::vector<DeclaredSubnet> subnets;
  for (const TopologySubnet& s : campaign.topology_subnets) subnets.push_back({s.cidr, s.az});
  return ClassifyPlacements(agents, targets, subnets);
}

std::vector<PlacementAgent> PlacementAgentsFromInfos(const std::vector<AgentInfo>& agents) {
  std::vector<PlacementAgent> out;
  for (const AgentInfo& a : agents) {
    PlacementAgent p;
    p.agent_id = a.agent_id;
    p.availability_zone = a.availability_zone;
    p.availability_zone_id = a.availability_zone_id;
    p.az_source = a.availability_zone.empty() && a.availability_zone_id.empty() ? "none" : "config";
    out.push_back(std::move(p));
  }
  return out;
}

std::string FormatPlacementEvidence(const PlacementEvidence& e) {
  return absl::StrCat(std::string(PlacementName(e.placement)), ": ", e.reason);
}

PlacementAgent PlacementAgentFromDescribe(const std::string& agent_id,
                                          const v1::DescribeResponse& description) {
  PlacementAgent agent;
  const v1::Identity& id = description.identity();
  agent.agent_id = agent_id;
  agent.availability_zone = id.availability_zone();
  agent.availability_zone_id = id.availability_zone_id();
  agent.az_source = id.az_source();
  for (const v1::Subnet& s : id.subnets()) agent.subnets.push_back({s.subnet_id(), s.cidr()});
  agent.mounts.assign(description.mounts().begin(), description.mounts().end());
  return agent;
}

std::vector<PlacementAgent> PlacementAgentsFromFleet(const Fleet& fleet) {
  std::vector<PlacementAgent> agents;
  for (const FleetMember& m : fleet.members) {
    agents.push_back(PlacementAgentFromDescribe(m.info.agent_id, m.description));
  }
  return agents;
}

}  // namespace azbench
