// The campaign's `matrix` section (coordinator/campaign/campaign.h): its axes and values, and the
// check that every workload job is valid in every cell. The matrix helpers plan uses
// (MatrixCells, CellJobOptions, WorkloadAxes, CheckJobPathsInTarget) come first; the section
// parser after them is internal to the campaign parser.
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_MATRIX_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_MATRIX_H_

#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign_types.h"
#include "coordinator/campaign/campaign_yaml.h"

namespace azbench {

// Whether every job of every workload in every matrix cell was checked when `campaign` was parsed,
// and the campaign still holds those jobs and job axes (a campaign built or changed by hand does
// not). The target's directory is not part of the check: it only names where a job runs
// (CheckJobPathsInTarget checks it against each target).
bool JobsCheckedAtParse(const Campaign& campaign);

// Every cell of the campaign's matrix in expansion order (first axis outermost).
std::vector<MatrixCell> MatrixCells(const std::vector<MatrixAxis>& matrix);

// The options `job` runs with in `cell` on `target`: the workload's options with the cell's job
// option values replacing any of the same name (kNodesAxis is not a job option and is left out),
// and the target's directory (see "Where jobs run" above); on an nfs:// target also its nfs_url,
// and for block_io (`family`) ioengine=nfs when no engine is given.
JobOptions CellJobOptions(const WorkloadJob& job, const MatrixCell& cell,
                          const CampaignTarget& target, std::string_view family = "block_io");

// The matrix axes that vary `workload`'s scenarios: `nodes`, the axes naming an option its family
// accepts (the others do not multiply its scenarios), and for small_files without a `filesizes`
// axis one axis over its own `filesizes` list (default 4k, 64k, 128k, 256k, 1m), so every size is
// its own scenario and reports key sizes by that parameter.
std::vector<MatrixAxis> WorkloadAxes(const Workload& workload,
                                     const std::vector<MatrixAxis>& matrix);

// Checks that the paths `options` name (a job's options as it runs, CellJobOptions: its
// `directory`, and every `filename` entry: block_io's ':'-separated list or large_stream's one
// file, relative ones resolved in the directory) lie beneath `target_path` (see "Where jobs run").
// `family` is the workload family's name. Errors: InvalidArgument naming the path, the target as
// `target_description` says it ("target 'efs' (path /mnt/efs)") and what to write instead.
absl::Status CheckJobPathsInTarget(std::string_view family, const JobOptions& options,
                                   const std::string& target_path,
                                   std::string_view target_description);

}  // namespace azbench

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
