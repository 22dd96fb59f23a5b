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

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "common/fio_jobfile.h"
#include "common/version.h"  // kDefaultAgentPort
#include "coordinator/fleet/client_security.h"
#include "coordinator/fleet/local_fleet.h"  // kMaxLocalFleetAgents
#include "coordinator/scenario.h"

namespace azbench {

// fleet.local.agents and --local: what the local fleet can start, so plan refuses what run would.
inline constexpr int kMaxLocalAgents = kMaxLocalFleetAgents;
inline constexpr int kMaxRepeats = 1000;
// The most scenarios a campaign may expand to (workloads x matrix cells x targets x runs), checked
// before anything is expanded: a bigger one is refused at parse and plan time.
inline constexpr int kMaxScenarios = 10'000;

// Where something was written: 1-based line and column (column 0 = unknown, e.g. hosts files).
struct SourceLocation {
  std::string file;
  int line = 0;
  int column = 0;
  std::string ToString() const;  // "file:line:column" or "file:line"
};

enum class TargetKind { kEfs, kFsxOpenZfs, kFsxLustre, kS3Files, kLocal, kOther };
// The campaign spelling: efs, fsx-openzfs, fsx-lustre, s3files, local, other.
std::string_view TargetKindName(TargetKind kind);

struct FleetSpec {
  enum class Kind { kLocal, kHosts };
  Kind kind = Kind::kLocal;
  // kLocal
  int local_agents = 0;
  std::vector<std::string> local_azs;  // never empty after parsing (default {"local"})
  // kHosts: "host:port" (default port filled in), in file order, unique.
  std::vector<std::string> hosts;
  std::string hosts_file;   // resolved path when the hosts came from hosts_file
  ClientSecurity security;  // fleet.tls / fleet.token_file (paths resolved); kHosts only
};

struct CampaignTarget {
  std::string name;
  std::string path;  // as written (relative only with a local fleet)
  TargetKind kind = TargetKind::kOther;
  std::map<std::string, std::string> labels;
  std::string server_az;  // empty = not given
  SourceLocation location;
};

// One job of a workload: its fio options as written (a fio job file's inherited [global] options
// first, then its section's; env variables expanded), without `name`.
struct WorkloadJob {
  std::string name;
  JobOptions options;
  int group_id = 0;  // fio reporting group (stonewall / new_group)
};

struct Workload {
  std::string name;
  // The family (`workload:` key): block_io (default), metadata, small_files, large_stream
  // (common/workload_spec.h). Only block_io takes fio_job.
  std::string family = "block_io";
  std::string fio_job_path;  // resolved path of `fio_job`; empty for `options`
  std::vector<WorkloadJob> jobs;
  SourceLocation location;
};

inline constexpr char kNodesAxis[] = "nodes";
inline constexpr char kNodesAll[] = "all";
// `nodes_per_az: N` (a count >= 1 or `all`): N agents from every AZ (plan.h); with `nodes` too,
// `nodes` then takes the first agents of that selection.
inline constexpr char kNodesPerAzAxis[] = "nodes_per_az";
// The placement axis: which agents run a scenario, by their placement to its target
// (coordinator/plan/placement.h). Values kPlacementSameAz, kPlacementCrossAz.
inline constexpr char kPlacementAxis[] = "placement";
inline constexpr char kPlacementSameAz[] = "same-az";
inline constexpr char kPlacementCrossAz[] = "cross-az";

// A subnet declared in `topology.subnets`: CIDR -> AZ (name or id).
struct TopologySubnet {
  std::string cidr;  // canonical, e.g. "10.0.1.0/24"
  std::string az;
  SourceLocation location;
};

struct MatrixAxis {
  std::string key;                  // a job option (fio name) or kNodesAxis
  std::vector<std::string> values;  // non-empty, unique
  SourceLocation location;
};

// One cell of the matrix: (axis key, value) in axis order. The matrix without axes has one empty
// cell.
using MatrixCell = std::vector<std::pair<std::string, std::string>>;

enum class KeepPolicy { kAll, kLast, kMedian };
std::string_view KeepPolicyName(KeepPolicy keep);  // all, last, median

// What ParseCampaign checked with the agent's rules (every job of every workload in every cell of
// the matrix's job-option axes), kept so plan does not parse the same options again.
struct CheckedJobs {
  std::vector<std::pair<std::string, std::vector<std::string>>> job_axes;  // key, values
  std::vector<std::string> families;                                       // by workload
  std::vector<std::vector<JobOptions>> options;                            // [workload][job]
};

struct Campaign {
  std::string name;
  std::string file;  // the campaign file as named to the parser
  std::string text;  // its contents, for the results database
  FleetSpec fleet;
  std::vector<CampaignTarget> targets;
  std::vector<Workload> workloads;
  std::vector<MatrixAxis> matrix;
  int repeats = 1;
  KeepPolicy keep = KeepPolicy::kAll;
  absl::Duration warmup = absl::ZeroDuration();
  absl::Duration cooldown = absl::ZeroDuration();
  std::string results_path;                      // resolved against the campaign file's directory
  std::vector<TopologySubnet> topology_subnets;  // `topology.subnets`, in file order
  // Set by ParseCampaign; none for a campaign built by hand (JobsCheckedAtParse).
  std::optional<CheckedJobs> checked_jobs;
};

// Whether every job of every workload in every matrix cell was checked when `campaign` was parsed,
// and the campaign still holds those jobs and job axes (a campaign built or changed by hand does
// not). The target's directory is not part of the check: it only names where a job runs
// (CheckJobPathsInTarget checks it against each target).
bool JobsCheckedAtParse(const Campaign& campaign);

// Parses campaign text. `file_name` prefixes errors and is the base for relative paths (fio_job,
// hosts_file, results), which are read or resolved now. Errors: see the header comment.
absl::StatusOr<Campaign> ParseCampaign(std::string_view text, std::string_view file_name);

// Reads and parses the campaign file at `path`. Errors: as ParseCampaign, plus the errno-derived
// code when the file cannot be read (NotFound if it does not exist).
absl::StatusOr<Campaign> ParseCampaignFile(const std::string& path);

// Every cell of the campaign's matrix in expansion order (first axis outermost).
std::vector<MatrixCell> MatrixCells(const std::vector<MatrixAxis>& matrix);

// The options `job` runs with in `cell` on `target`: the workload's options with the cell's job
// option values replacing any of the same name (kNodesAxis is not a job option and is left out),
// and the target's directory (see "Where jobs run" above).
JobOptions CellJobOptions(const WorkloadJob& job, const MatrixCell& cell,
                          const CampaignTarget& target);

// Checks options the way an agent applies them (ApplyJobOption in order, kb_base first, then
// ValidateJobSpec). Errors: InvalidArgument naming the option (unknown ones as "unknown job option
// 'X'") and what is allowed.
absl::Status ValidateJobOptions(const JobOptions& options, std::string_view job_name);

// Parsed fio jobs (common/fio_jobfile) as workload jobs: each job's options as written (inherited
// [global] options first, `name` left out) and its reporting group. Used for `fio_job:` workloads
// and `azbench run --fio-job`. Errors: InvalidArgument "file:line: job 'x': ..." for a job whose
// sizes agents could not reproduce from one flat option list (see FlatOptionsMatchSpec).
absl::StatusOr<std::vector<WorkloadJob>> WorkloadJobsFromFioJobs(const std::vector<FioJob>& jobs);
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

// ValidateJobOptions for the workload's family.
absl::Status ValidateWorkloadJobOptions(const Workload& workload, const JobOptions& options,
                                        std::string_view job_name);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_H_
