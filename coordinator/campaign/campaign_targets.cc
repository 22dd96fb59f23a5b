#include "coordinator/campaign/campaign_targets.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"
#include "coordinator/campaign/cidr.h"

namespace azbench {
namespace campaign_internal {
namespace {

constexpr absl::string_view kTargetKeys[] = {"name", "path", "kind", "labels", "server_az"};
constexpr absl::string_view kTopologyKeys[] = {"subnets"};

struct KindName {
  TargetKind kind;
  absl::string_view name;
};
constexpr KindName kKindNames[] = {
    {TargetKind::kEfs, "efs"},
    {TargetKind::kFsxOpenZfs, "fsx-openzfs"},
    {TargetKind::kFsxLustre, "fsx-lustre"},
    {TargetKind::kS3Files, "s3files"},
    {TargetKind::kLocal, "local"},
    {TargetKind::kOther, "other"},
};

class TargetsParser : public CampaignYaml {
 public:
  explicit TargetsParser(const CampaignYaml& yaml) : CampaignYaml(yaml) {}

  absl::StatusOr<std::vector<CampaignTarget>> ParseTargets(const YAML::Node& node,
                                                           const FleetSpec& fleet) const {
    ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                     List(node, "targets", "[{name: efs, path: /mnt/efs/azbench, kind: efs}]"));
    std::vector<CampaignTarget> targets;
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string field = absl::StrCat("targets[", i, "]");
      ASSIGN_OR_RETURN(MapFields map, ReadMap(items[i], field, kTargetKeys));
      CampaignTarget target;
      target.location = Location(items[i]);
      ASSIGN_OR_RETURN(const Field* name, Require(map, "name", field));
      ASSIGN_OR_RETURN(target.name, Name(name->value, field + ".name"));
      RETURN_IF_ERROR(
          CheckUniqueName(targets, target.name, name->value, field + ".name", "target"));
      ASSIGN_OR_RETURN(const Field* path, Require(map, "path", field));
      ASSIGN_OR_RETURN(target.path,
                       Scalar(path->value, field + ".path", "a directory path or an nfs:// URL"));
      RETURN_IF_ERROR(CheckTargetPath(path->value, field + ".path", target.path, fleet));
      if (const Field* kind = map.Find("kind")) {
        ASSIGN_OR_RETURN(std::string text, Scalar(kind->value, field + ".kind", "a kind"));
        bool found = false;
        for (const KindName& k : kKindNames) {
          if (k.name == text) {
            target.kind = k.kind;
            found = true;
          }
        }
        if (!found) {
          return Error(
              kind->value, field + ".kind",
              absl::StrCat("'", text, "' is not allowed; allowed: ", JoinNames(kKindNames)));
        }
      }
      if (const Field* labels = map.Find("labels")) {
        if (!labels->value.IsMap()) {
          return Error(labels->value, field + ".labels",
                       absl::StrCat("must be a map of strings, e.g. {tier: gold}; got ",
                                    NodeTypeName(labels->value)));
        }
        for (const auto& entry : labels->value) {
          ASSIGN_OR_RETURN(std::string key, Scalar(entry.first, field + ".labels", "a word"));
          ASSIGN_OR_RETURN(std::string value,
                           Scalar(entry.second, absl::StrCat(field, ".labels.", key), "a string"));
          if (key.empty()) return Error(entry.first, field + ".labels", "empty label name");
          if (!target.labels.emplace(key, value).second) {
            return Error(entry.first, field + ".labels",
                         absl::StrCat("label '", key, "' is given twice"));
          }
        }
      }
      if (const Field* az = map.Find("server_az")) {
        ASSIGN_OR_RETURN(target.server_az, Name(az->value, field + ".server_az"));
      }
      targets.push_back(std::move(target));
    }
    return targets;
  }

  absl::Status CheckTargetPath(const YAML::Node& node, const std::string& field,
                               const std::string& path, const FleetSpec& fleet) const {
    if (path.empty()) return Error(node, field, "must not be empty");
    if (IsNfsUrl(path)) {
      // Reached through libnfs by every agent alike (common/nfs_url.h).
      if (absl::StatusOr<NfsUrl> url = ParseNfsUrl(path); !url.ok()) {
        return Error(node, field, std::string(url.status().message()));
      }
      return absl::OkStatus();
    }
    const std::filesystem::path p(path);
    if (p.is_absolute()) return absl::OkStatus();
    if (fleet.kind != FleetSpec::Kind::kLocal) {
      return Error(node, field,
                   absl::StrCat("'", path,
                                "' must be an absolute path on the agents (relative paths are "
                                "allowed only with fleet.local, inside each agent's work "
                                "directory)"));
    }
    for (const auto& part : p) {
      if (part == "..") {
        return Error(
            node, field,
            absl::StrCat("'", path, "' must stay inside each agent's work directory (no '..')"));
      }
    }
    return absl::OkStatus();
  }

  absl::StatusOr<std::vector<TopologySubnet>> ParseTopology(const YAML::Node& node) const {
    ASSIGN_OR_RETURN(MapFields map, ReadMap(node, "topology", kTopologyKeys));
    std::vector<TopologySubnet> subnets;
    const Field* field = map.Find("subnets");
    if (field == nullptr) return subnets;
    if (!field->value.IsMap()) {
      return Error(field->value, "topology.subnets",
                   absl::StrCat("must be a map of CIDR -> AZ, e.g. {10.0.1.0/24: us-east-1a}; got ",
                                NodeTypeName(field->value)));
    }
    for (const auto& entry : field->value) {
      ASSIGN_OR_RETURN(std::string cidr_text, Scalar(entry.first, "topology.subnets", "a CIDR"));
      absl::StatusOr<Cidr> cidr = ParseCidr(cidr_text);
      if (!cidr.ok()) return Error(entry.first, "topology.subnets", cidr.status().message());
      const std::string where = absl::StrCat("topology.subnets.", cidr_text);
      ASSIGN_OR_RETURN(std::string az, Name(entry.second, where));
      TopologySubnet subnet{cidr->ToString(), az, Location(entry.first)};
      for (const TopologySubnet& seen : subnets) {
        if (seen.cidr == subnet.cidr) {
          return Error(entry.first, "topology.subnets",
                       absl::StrCat("subnet ", subnet.cidr, " is already given at ",
                                    seen.location.ToString()));
        }
      }
      subnets.push_back(std::move(subnet));
    }
    return subnets;
  }
};

}  // namespace

absl::StatusOr<std::vector<CampaignTarget>> ParseTargetsSection(const CampaignYaml& yaml,
                                                                const YAML::Node& node,
                                                                const FleetSpec& fleet) {
  return TargetsParser(yaml).ParseTargets(node, fleet);
}

absl::StatusOr<std::vector<TopologySubnet>> ParseTopologySection(const CampaignYaml& yaml,
                                                                 const YAML::Node& node) {
  return TargetsParser(yaml).ParseTopology(node);
}

}  // namespace campaign_internal

std::string_view TargetKindName(TargetKind kind) {
  for (const campaign_internal::KindName& k : campaign_internal::kKindNames) {
    if (k.kind == kind) return std::string_view(k.name.data(), k.name.size());
  }
  return "other";
}

}  // namespace azbench
