// The campaign as parsed: the types every section parser fills and plan, run and reports read.
// docs/campaigns.md documents the file format; coordinator/campaign/campaign.h parses it.
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_TYPES_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_TYPES_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

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
  std::string path;  // as written (relative only with a local fleet), or an nfs:// URL
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
  // The fio job's warnings (FioJobWarnings: options without effect in azbench, with file and
  // line), for the CLI to show when the campaign is loaded.
  std::vector<std::string> warnings;
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

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CAMPAIGN_TYPES_H_
