// The campaign's `matrix` section (coordinator/campaign/campaign.h): its axes and values, and the
// check that every workload job is valid in every cell. The matrix helpers of campaign.h
// (MatrixCells, CellJobOptions, WorkloadAxes) are defined in campaign_matrix.cc. Internal to the
// campaign parser.
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_MATRIX_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_MATRIX_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/campaign/campaign_yaml.h"

namespace azbench::campaign_internal {

// Errors: InvalidArgument located at the offending axis or value.
absl::StatusOr<std::vector<MatrixAxis>> ParseMatrixSection(const CampaignYaml& yaml,
                                                           const YAML::Node& node);

// The campaign's scenarios (for each workload: targets x (repeats, + 1 with warmup) x the sizes of
// its axes, WorkloadAxes), counted without expanding anything, must be at most kMaxScenarios.
// Errors: InvalidArgument at the first matrix axis naming the count and the biggest workload's
// factors. Run before anything that does per-cell work.
absl::Status CheckScenarioCount(const Campaign& campaign);

// Every workload job must be valid in every matrix cell (the nodes axes do not change jobs), every
// job axis must be an option of some workload, and a strided metadata workload needs targets with
// absolute paths. Records what it checked in campaign.checked_jobs. Errors: InvalidArgument at the
// axis's or the workload's location.
absl::Status ValidateCampaignCells(Campaign& campaign);

}  // namespace azbench::campaign_internal

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_MATRIX_H_
