#include "coordinator/campaign/campaign.h"

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "coordinator/campaign/campaign_fleet.h"
#include "coordinator/campaign/campaign_matrix.h"
#include "coordinator/campaign/campaign_targets.h"
#include "coordinator/campaign/campaign_workloads.h"
#include "coordinator/campaign/campaign_yaml.h"

// The campaign file as a whole: its top-level keys (name, repeats, keep, warmup, cooldown,
// results), each section handed to its parser (campaign_fleet, campaign_targets,
// campaign_workloads, campaign_matrix), and YAML syntax errors turned into statuses.

namespace azbench {
namespace {

using campaign_internal::CampaignYaml;
using campaign_internal::CheckScenarioCount;
using campaign_internal::Field;
using campaign_internal::JoinNames;
using campaign_internal::ListOf;
using campaign_internal::MapFields;
using campaign_internal::NodeTypeName;
using campaign_internal::ParseFleetSection;
using campaign_internal::ParseMatrixSection;
using campaign_internal::ParseTargetsSection;
using campaign_internal::ParseTopologySection;
using campaign_internal::ParseWorkloadsSection;
using campaign_internal::ResolveRelativeTo;
using campaign_internal::ValidateCampaignCells;

constexpr absl::string_view kCampaignKeys[] = {"name",     "fleet",   "targets", "workloads",
                                               "matrix",   "repeats", "keep",    "warmup",
                                               "cooldown", "results", "topology"};

struct KeepName {
  KeepPolicy keep;
  absl::string_view name;
};
constexpr KeepName kKeepNames[] = {
    {KeepPolicy::kAll, "all"}, {KeepPolicy::kLast, "last"}, {KeepPolicy::kMedian, "median"}};

class CampaignParser : public CampaignYaml {
 public:
  explicit CampaignParser(std::string file) : CampaignYaml(std::move(file)) {}

  absl::StatusOr<Campaign> Parse(const YAML::Node& root) {
    Campaign campaign;
    campaign.file = file_;
    if (!root.IsMap()) {
      return absl::InvalidArgumentError(
          absl::StrCat(Where(root), ": the campaign must be a map with the keys ",
                       ListOf(std::begin(kCampaignKeys), std::end(kCampaignKeys)), "; got ",
                       NodeTypeName(root)));
    }
    ASSIGN_OR_RETURN(MapFields top, ReadMap(root, "campaign", kCampaignKeys));

    ASSIGN_OR_RETURN(const Field* name, Require(top, "name", ""));
    ASSIGN_OR_RETURN(campaign.name, Name(name->value, "name"));

    ASSIGN_OR_RETURN(const Field* fleet, Require(top, "fleet", ""));
    ASSIGN_OR_RETURN(campaign.fleet, ParseFleetSection(*this, fleet->value));

    ASSIGN_OR_RETURN(const Field* targets, Require(top, "targets", ""));
    ASSIGN_OR_RETURN(campaign.targets, ParseTargetsSection(*this, targets->value, campaign.fleet));

    ASSIGN_OR_RETURN(const Field* workloads, Require(top, "workloads", ""));
    ASSIGN_OR_RETURN(campaign.workloads, ParseWorkloadsSection(*this, workloads->value));

    if (const Field* matrix = top.Find("matrix")) {
      ASSIGN_OR_RETURN(campaign.matrix, ParseMatrixSection(*this, matrix->value));
    }
    if (const Field* repeats = top.Find("repeats")) {
      ASSIGN_OR_RETURN(std::string text, Scalar(repeats->value, "repeats", "a count"));
      absl::StatusOr<int64_t> n = ParseInt(text, 1, kMaxRepeats);
      if (!n.ok()) return Error(repeats->value, "repeats", n.status().message());
      campaign.repeats = static_cast<int>(*n);
    }
    if (const Field* keep = top.Find("keep")) {
      ASSIGN_OR_RETURN(std::string text, Scalar(keep->value, "keep", "one of all, last, median"));
      bool found = false;
      for (const KeepName& k : kKeepNames) {
        if (k.name == text) {
          campaign.keep = k.keep;
          found = true;
        }
      }
      if (!found) {
        return Error(keep->value, "keep",
                     absl::StrCat("'", text, "' is not allowed; allowed: ", JoinNames(kKeepNames)));
      }
    }
    if (const Field* warmup = top.Find("warmup")) {
      ASSIGN_OR_RETURN(campaign.warmup, Duration(warmup->value, "warmup"));
      if (campaign.warmup > absl::ZeroDuration() && campaign.warmup < absl::Milliseconds(1)) {
        return Error(warmup->value, "warmup", "must be 0 (no warmup) or at least 1ms");
      }
    }
    if (const Field* cooldown = top.Find("cooldown")) {
      ASSIGN_OR_RETURN(campaign.cooldown, Duration(cooldown->value, "cooldown"));
    }
    std::string results = absl::StrCat(campaign.name, ".db");
    if (const Field* field = top.Find("results")) {
      ASSIGN_OR_RETURN(results, Scalar(field->value, "results", "a file path"));
      if (results.empty()) return Error(field->value, "results", "must not be empty");
    }
    campaign.results_path = ResolveRelativeTo(file_, results);
    if (const Field* topology = top.Find("topology")) {
      ASSIGN_OR_RETURN(campaign.topology_subnets, ParseTopologySection(*this, topology->value));
    }

    RETURN_IF_ERROR(CheckScenarioCount(campaign));  // before any per-cell work
    RETURN_IF_ERROR(ValidateCampaignCells(campaign));
    return campaign;
  }
};

}  // namespace

std::string SourceLocation::ToString() const {
  if (column <= 0) return absl::StrCat(file, ":", line);
  return absl::StrCat(file, ":", line, ":", column);
}

std::string_view KeepPolicyName(KeepPolicy keep) {
  for (const KeepName& k : kKeepNames) {
    if (k.keep == keep) return std::string_view(k.name.data(), k.name.size());
  }
  return "all";
}

absl::StatusOr<Campaign> ParseCampaign(std::string_view text, std::string_view file_name) {
  const std::string file(file_name);
  absl::StatusOr<Campaign> campaign;
  // yaml-cpp reports syntax errors (and misuse) with exceptions: this is the only place they are
  // caught and turned into a status.
  try {
    const YAML::Node root = YAML::Load(std::string(text));
    if (!root.IsDefined() || root.IsNull()) {
      return absl::InvalidArgumentError(
          absl::StrCat(file,
                       ":1:1: the campaign is empty; it needs at least name, fleet, targets "
                       "and workloads"));
    }
    campaign = CampaignParser(file).Parse(root);
  } catch (const YAML::Exception& e) {
    const SourceLocation where{file, e.mark.line < 0 ? 1 : e.mark.line + 1,
                               e.mark.column < 0 ? 1 : e.mark.column + 1};
    return absl::InvalidArgumentError(
        absl::StrCat(where.ToString(), ": YAML syntax error: ", e.msg));
  }
  if (campaign.ok()) campaign->text = std::string(text);
  return campaign;
}

absl::StatusOr<Campaign> ParseCampaignFile(const std::string& path) {
  ASSIGN_OR_RETURN(std::string text, ReadWholeFile(path, "campaign file"));
  return ParseCampaign(text, path);
}

}  // namespace azbench
