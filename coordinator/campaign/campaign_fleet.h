// The campaign's `fleet` section (coordinator/campaign/campaign.h): local agents, hosts or a hosts
// file, and the TLS / token settings for remote agents. Internal to the campaign parser.
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_FLEET_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_FLEET_H_

#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign_types.h"
#include "coordinator/campaign/campaign_yaml.h"

namespace azbench::campaign_internal {

// Errors: InvalidArgument located at the offending node; an unreadable hosts_file gives its
// errno-derived code with the location that named it.
absl::StatusOr<FleetSpec> ParseFleetSection(const CampaignYaml& yaml, const YAML::Node& node);

}  // namespace azbench::campaign_internal

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_FLEET_H_
