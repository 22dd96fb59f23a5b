// Reading a campaign's YAML (coordinator/campaign/campaign.h) with every problem located: the map,
// scalar, name, duration and list readers that the section parsers (campaign_fleet,
// campaign_targets, campaign_workloads, campaign_matrix) share. Every error is an InvalidArgument
// starting "file:line:column: field: ". Internal to the campaign parser.
//
// Example:
//   CampaignYaml yaml("campaign.yaml");
//   ASSIGN_OR_RETURN(MapFields map, yaml.ReadMap(node, "fleet", kFleetKeys));
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_YAML_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_YAML_H_

#include <yaml-cpp/yaml.h>

#include <cstddef>
#include <iterator>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "coordinator/campaign/campaign_types.h"

namespace azbench::campaign_internal {

// This Abseil build's string_view is its own type, not std::string_view: convert at the boundary.
inline absl::string_view Av(std::string_view s) { return absl::string_view(s.data(), s.size()); }

// "a, b, c" from a table of entries with a `name`.
template <typename T, size_t N>
std::string JoinNames(const T (&entries)[N]) {
  std::vector<std::string> names;
  for (const T& e : entries) names.emplace_back(e.name);
  return absl::StrJoin(names, ", ");
}

std::string ListOf(const absl::string_view* begin, const absl::string_view* end);

// Names of campaigns, targets, workloads, AZs: [A-Za-z0-9._-]{1,100}, not "." or "..". They become
// parts of file names (`<name>.db`, the agents' `<job>.<clone>.<file>`, op-log paths), so a name is
// refused where it is written rather than when the first file is made; 100 is the agent's limit on
// a job name too (kMaxJobNameLength).
inline constexpr size_t kMaxNameLength = 100;
bool IsValidName(absl::string_view name);

// `path` relative to the directory of `base_file` (absolute paths are kept).
std::string ResolveRelativeTo(const std::string& base_file, const std::string& path);

// What a node is, for "got ..." in errors: "a map", "a list", "the value 'x'", ...
std::string NodeTypeName(const YAML::Node& node);

struct Field {
  std::string key;
  YAML::Node key_node;
  YAML::Node value;
};

struct MapFields {
  YAML::Node node;
  std::vector<Field> fields;
  const Field* Find(absl::string_view key) const {
    for (const Field& f : fields) {
      if (f.key == key) return &f;
    }
    return nullptr;
  }
};

// The readers for the campaign file `file`: the prefix of every error and the base of relative
// paths. Section parsers derive from it.
class CampaignYaml {
 public:
  explicit CampaignYaml(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }

  std::string Where(const YAML::Node& node) const { return Location(node).ToString(); }
  SourceLocation Location(const YAML::Node& node) const;
  absl::Status Error(const YAML::Node& node, absl::string_view field,
                     absl::string_view message) const;

  // The entries of a map, checked against the allowed keys (unknown and repeated keys are errors).
  template <size_t N>
  absl::StatusOr<MapFields> ReadMap(const YAML::Node& node, absl::string_view field,
                                    const absl::string_view (&allowed)[N]) const {
    if (!node.IsMap()) {
      return Error(node, field,
                   absl::StrCat("must be a map with the keys ",
                                ListOf(std::begin(allowed), std::end(allowed)), "; got ",
                                NodeTypeName(node)));
    }
    MapFields map{node, {}};
    for (const auto& entry : node) {
      const YAML::Node key = entry.first;
      if (!key.IsScalar()) return Error(key, field, "keys must be plain words");
      const std::string& name = key.Scalar();
      bool known = false;
      for (absl::string_view a : allowed) known = known || a == name;
      if (!known) {
        return Error(key, field,
                     absl::StrCat("unknown key '", name,
                                  "'; allowed: ", ListOf(std::begin(allowed), std::end(allowed))));
      }
      if (map.Find(name) != nullptr) {
        return Error(key, field, absl::StrCat("key '", name, "' is given twice"));
      }
      map.fields.push_back(Field{name, key, entry.second});
    }
    return map;
  }

  // An error at `node` when an entry of `seen` (each with .name and .location) already has `name`;
  // `what` names the kind ("target", "workload").
  template <typename Named>
  absl::Status CheckUniqueName(const std::vector<Named>& seen, const std::string& name,
                               const YAML::Node& node, absl::string_view field,
                               absl::string_view what) const {
    for (const Named& other : seen) {
      if (other.name == name) {
        return Error(node, field,
                     absl::StrCat(what, " name '", name, "' is already used by ",
                                  other.location.ToString()));
      }
    }
    return absl::OkStatus();
  }

  // `parent` is the field holding the map ("" for the campaign itself).
  absl::StatusOr<const Field*> Require(const MapFields& map, absl::string_view key,
                                       absl::string_view parent) const;
  absl::StatusOr<std::string> Scalar(const YAML::Node& node, absl::string_view field,
                                     absl::string_view expected) const;
  absl::StatusOr<std::string> Name(const YAML::Node& node, absl::string_view field) const;
  absl::StatusOr<absl::Duration> Duration(const YAML::Node& node, absl::string_view field) const;
  // A non-empty list, as its items.
  absl::StatusOr<std::vector<YAML::Node>> List(const YAML::Node& node, absl::string_view field,
                                               absl::string_view example) const;

 protected:
  std::string file_;
};

}  // namespace azbench::campaign_internal

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_YAML_H_
