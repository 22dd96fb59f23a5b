// Campaign files: what to run, where and how often, as the user writes it (YAML), parsed and fully
// validated before anything runs.
//
// Format (every key below; nothing else is accepted):
//
//   name: quickstart              # required; [A-Za-z0-9._-]+ (used in file names and reports)
//   fleet:                        # required; exactly one of local, hosts, hosts_file
//     local: {agents: 4, azs: [local-a, local-b]}  # agents on this machine (agents >= 1 required;
//                                 # azs optional, default [local]: agents are labelled with them)
//     # hosts: [10.0.1.5:7480, "[fd00::5]:7480"]   # host[:port]; default port 7480
//     # hosts_file: hosts.txt     # one host[:port] per line, '#' comments; relative to this file
//     # tls: {ca_file: certs/ca.crt, cert_file: certs/coordinator.crt,
//     #       key_file: certs/coordinator.key, server_name: agent-1}
//     #                           # hosts only: TLS to the agents (files relative to this file);
//     #                           # server_name overrides the name checked in agent certificates
//     # token_file: token         # hosts only: bearer token sent over TLS
//   targets:                      # required, non-empty list
//     - name: scratch             # required, unique, [A-Za-z0-9._-]+
//       path: /mnt/efs/azbench    # required; directory on the agents. Absolute, except with
//                                 # fleet.local, where a relative path means "inside each agent's
//                                 # own work directory" (passed on verbatim; the agent resolves it)
//       kind: local               # efs | fsx-openzfs | fsx-lustre | s3files | local | other
//                                 # (default other)
//       labels: {tier: test}      # optional free-form string -> string map
//       server_az: use1-az1       # optional: the AZ (name or id) of the file system's server
//   workloads:                    # required, non-empty list
//     - name: randread            # required, unique, [A-Za-z0-9._-]+
//       options: {rw: randread, bs: 4k, size: 64m, runtime: 5s, time_based: true}
//                                 # fio option names, values and units (common/job_spec.h)
//     - name: md
//       workload: metadata        # block_io (default) | metadata | small_files | large_stream;
//       options: {files: 5000}    # options are then that family's (common/workload_spec.h)
//     - name: study-c
//       fio_job: study-c.fio      # or a fio job file, relative to this file: every job of the
//                                 # file is one job of the workload (they run at once, in fio's
//                                 # stonewall/new_group groups)
//   matrix:                       # optional map: axis -> non-empty list of values. Cross product,
//     iodepth: [1, 16]            # first axis outermost (at most kMaxScenarios scenarios in all,
//                                 # counted before expanding). An axis is a job option (fio name;
//     nodes: [1, 2, all]          # set on every job of every workload, overriding the workload's
//     own
//                                 # value; it varies only workloads whose family has that option,
//                                 # and small_files get an implied per-size `filesizes` axis) or
//                                 # `nodes` (a count >= 1 or `all`: how many agents run
//                                 # the scenario, chosen balanced over AZs, see plan.h) or
//                                 # `nodes_per_az` (a count >= 1 or `all` per AZ, see plan.h).
//     placement: [same-az, cross-az]  # or `placement`: for each target, only the agents whose
//                                 # placement to it is that value (coordinator/plan/placement.h;
//                                 never # `unknown`); `nodes` then counts among them. A scenario
//                                 without # such agents is kept as skipped, with the reason. #
//                                 `directory` and `name` belong to targets and workloads and are #
//                                 refused as axes.
//   repeats: 3                    # measured runs of each scenario, 1..1000 (default 1)
//   keep: last                    # all | last | median (default all): which repeat reports show;
//                                 # every repeat is stored
//   warmup: 0s                    # 0, or >= 1ms: before the measured repeats of each cell and
//                                 # target, one discarded run whose jobs run time_based for this
//                                 # long (fio's ramp_time is the in-job alternative)
//   cooldown: 2s                  # pause before every scenario but the first (default 0)
//   topology:                     # optional: what agents' instance metadata does not tell
//     subnets:                    # CIDR -> AZ (name or id) of subnets holding file servers,
//       10.0.9.0/24: use1-az1     # e.g. a storage subnet no agent is in (placement.h)
//   results: results.db           # SQLite path, relative to this file
//                                 # (default: <name>.db beside this file)
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
// checked with the agent's own rules (ApplyJobOption + ValidateJobSpec) for every matrix cell, so a
// campaign that parses is one whose jobs every agent accepts.
//
// Example:
//   ASSIGN_OR_RETURN(Campaign campaign, ParseCampaignFile("examples/quickstart.yaml"));
//   ASSIGN_OR_RETURN(std::vector<Scenario> plan, ExpandCampaign(campaign, agents));  // plan.h
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_H_

#include <map>
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
};

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
