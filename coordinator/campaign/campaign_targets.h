// The campaign's `targets` and `topology` sections (coordinator/campaign/campaign.h): where the
// file systems under test are (name, path, kind, labels, server AZ) and which subnets hold their
// servers. Internal to the campaign parser.
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_TARGETS_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_TARGETS_H_

#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign_types.h"
#include "coordinator/campaign/campaign_yaml.h"

namespace azbench::campaign_internal {

// `fleet` decides whether relative paths are allowed (fleet.local only). Errors: InvalidArgument
// located at the offending node.
absl::StatusOr<std::vector<CampaignTarget>> ParseTargetsSection(const CampaignYaml& yaml,
                                                                const YAML::Node& node,
                                                                const FleetSpec& fleet);

// `topology.subnets`, in file order. Errors: InvalidArgument located at the offending node.
absl::StatusOr<std::vector<TopologySubnet>> ParseTopologySection(const CampaignYaml& yaml,
                                                                 const YAML::Node& node);

}  // namespace azbench::campaign_internal

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_TARGETS_H_
