// Campaign files: what to run, where and how often, as the user writes it (YAML), parsed and fully
// validated before anything runs.
//
// The format (every key, its default and what is allowed) is documented in docs/campaigns.md;
// nothing outside it is accepted. The rules below are the ones this code enforces.
//
// Matrix: the cross product of the axes, first axis outermost, at most kMaxScenarios scenarios
// (counted before expanding). A job-option axis overrides the workloads' own value and varies only
// workloads whose family has that option; `directory` and `name` are refused as axes. `nodes`,
// `nodes_per_az` and `placement` choose agents (coordinator/plan/plan.h, placement.h).
//
// Repeats: every repeat is stored; `keep` (all | last | median) only chooses which one reports
// show. A warmup is one extra run per cell and target, before its measured repeats, whose result
// is discarded (coordinator/run/campaign_loop.h).
//
// Where jobs run: the target's path becomes each job's `directory`. A workload's own absolute
// `directory` is replaced by it (study C's `directory=/mnt/efs` is how that file names its mount),
// and a relative one becomes a subdirectory of the target path. `filename` is kept, and every file
// a job names (each entry of fio's ':'-separated `filename` list, large_stream's `filename`) must
// lie beneath the target's path, lexically after normalising: relative names resolve inside the
// directory and must not climb out with '..'; an absolute one must start with the target's path
// (so never with a relative target path). Anything else is refused when the campaign is parsed,
// naming the workload, job, file and target: a result labelled with a target measures that target.
// A target whose path is an nfs:// URL (common/nfs_url.h) is reached through libnfs, with no mount:
// block_io workloads run on it with ioengine=nfs (the default there; another engine is refused),
// metadata, small_files and large_stream through libnfs as they are, visibility with the
// client_to_client probe only; all with the URL as their nfs_url (a workload's own nfs_url is
// refused) and their directory beneath the export's root ("/", or "/<relative directory>").
//
// Errors: every problem is an InvalidArgument whose message starts with "file:line:column: "
// (1-based, pointing at the offending YAML node), names the field ("targets[1].kind") and says what
// is allowed. Unreadable files (the campaign, a fio_job or hosts_file) give the errno-derived code
// (NotFound when missing) with the campaign location that named them. Every workload's jobs are
// checked with the agent's own rules (ApplyJobOption + ValidateJobSpec) for every matrix cell,
// once, when the campaign is parsed (Campaign::checked_jobs), so a campaign that parses is one
// whose jobs every agent accepts.
//
// Example:
//   ASSIGN_OR_RETURN(Campaign campaign, ParseCampaignFile("examples/quickstart.yaml"));
//   ASSIGN_OR_RETURN(std::vector<Scenario> plan, ExpandCampaign(campaign, agents));  // plan.h
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_H_

#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign_matrix.h"  // MatrixCells, CellJobOptions, ...
#include "coordinator/campaign/campaign_types.h"
#include "coordinator/campaign/campaign_workloads.h"  // ValidateJobOptions, ...

namespace azbench {

// Parses campaign text. `file_name` prefixes errors and is the base for relative paths (fio_job,
// hosts_file, results), which are read or resolved now. Errors: see the header comment.
absl::StatusOr<Campaign> ParseCampaign(std::string_view text, std::string_view file_name);

// Reads and parses the campaign file at `path`. Errors: as ParseCampaign, plus the errno-derived
// code when the file cannot be read (NotFound if it does not exist).
absl::StatusOr<Campaign> ParseCampaignFile(const std::string& path);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_H_
