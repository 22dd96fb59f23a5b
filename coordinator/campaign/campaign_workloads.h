// The campaign's `workloads` section (coordinator/campaign/campaign.h): each workload's family and
// its jobs, from `options` or a `fio_job` file, every option checked with the agent's own rules as
// it is read. The public job-option checks (ValidateJobOptions, ValidateWorkloadJobOptions,
// WorkloadJobsFromFioJobs) come first; the section parser after them is internal to the campaign
// parser.
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_WORKLOADS_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_WORKLOADS_H_

#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/job_spec.h"
#include "common/workload_spec.h"
#include "coordinator/campaign/campaign_types.h"
#include "coordinator/campaign/campaign_yaml.h"

namespace azbench {

// Checks options the way an agent applies them (ApplyJobOption in order, kb_base first, then
// ValidateJobSpec). Errors: InvalidArgument naming the option (unknown ones as "unknown job option
// 'X'") and what is allowed.
absl::Status ValidateJobOptions(const JobOptions& options, std::string_view job_name);

// Parsed fio jobs (common/fio_jobfile) as workload jobs: each job's options as written (inherited
// [global] options first, `name` left out) and its reporting group. Used for `fio_job:` workloads
// and `azbench run --fio-job`. Errors: InvalidArgument "file:line: job 'x': ..." for a job whose
// sizes agents could not reproduce from one flat option list (see FlatOptionsMatchSpec).
absl::StatusOr<std::vector<WorkloadJob>> WorkloadJobsFromFioJobs(const std::vector<FioJob>& jobs);
// ValidateJobOptions for the workload's family.
absl::Status ValidateWorkloadJobOptions(const Workload& workload, const JobOptions& options,
                                        std::string_view job_name);

}  // namespace azbench

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
