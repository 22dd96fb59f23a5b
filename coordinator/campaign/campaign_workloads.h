// The campaign's `workloads` section (coordinator/campaign/campaign.h): each workload's family and
// its jobs, from `options` or a `fio_job` file, every option checked with the agent's own rules as
// it is read. Internal to the campaign parser; the public job-option checks (ValidateJobOptions,
// ValidateWorkloadJobOptions, WorkloadJobsFromFioJobs) are declared in campaign.h and defined in
// campaign_workloads.cc.
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_WORKLOADS_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_WORKLOADS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/job_spec.h"
#include "common/workload_spec.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/campaign/campaign_yaml.h"

namespace azbench::campaign_internal {

// Errors: InvalidArgument located at the offending node; an unreadable fio_job gives its
// errno-derived code with the location that named it.
absl::StatusOr<std::vector<Workload>> ParseWorkloadsSection(const CampaignYaml& yaml,
                                                            const YAML::Node& node);

// Applies one fio option to `scratch` as an agent does: an unknown option is an error at
// `key_node`, a bad value one at `value_node` (at the key when the value is empty).
absl::Status CheckJobOption(const CampaignYaml& yaml, JobSpec& scratch, const YAML::Node& key_node,
                            const YAML::Node& value_node, const std::string& field,
                            const std::string& key, const std::string& value);

// Checks one option of a family alone (visibility's options only as far as one value can be).
absl::Status ValidateSingleFamilyOption(WorkloadFamily family, const std::string& key,
                                        const std::string& value);

}  // namespace azbench::campaign_internal

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_WORKLOADS_H_
