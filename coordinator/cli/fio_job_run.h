// `azbench run --fio-job FILE` and `azbench run -- <fio command line>`: a fio job file or command
// line run unchanged on every agent of a fleet at once, stored like a one-scenario campaign.
//
// The jobs are parsed by common/fio_jobfile (the agent one-shot's parser), so an option azbench
// does not support stops the run before anything starts, with the file and line (or the argument)
// that named it. The run becomes a Campaign with one workload (named after the job file, or "fio"
// for a command line), one target named "fio-job", no matrix and one repeat; every agent runs every
// job. Jobs keep their own `directory` / `filename` as written (no directory: the agent's working
// directory, as fio) unless `directory` is given, which then acts as a campaign target path
// (campaign.h "Where jobs run": it replaces an absolute job directory and holds a relative one).
// On every agent, jobs with a directory work in `<directory>/<agent_id>/`, as in campaigns.
//
// Example:
//   FioJobRunOptions options{.job_file = "study-c.fio", .fleet = fleet};
//   ASSIGN_OR_RETURN(FioJobRun run, MakeFioJobRun(options));
//   ASSIGN_OR_RETURN(std::vector<Scenario> plan, ExpandFioJobRun(run, fleet_agents));
#ifndef AZBENCH_COORDINATOR_CLI_FIO_JOB_RUN_H_
#define AZBENCH_COORDINATOR_CLI_FIO_JOB_RUN_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/scenario.h"

namespace azbench {

inline constexpr char kFioJobTargetName[] = "fio-job";

struct FioJobRunOptions {
  std::string job_file;               // a fio job file, or
  std::vector<std::string> fio_args;  // fio's command-line job form (--name=... --rw=...)
  FleetSpec fleet;                    // where to run
  std::string directory;              // empty: jobs keep their own directories
  std::string results_path;           // empty: "<workload name>.db" in the current directory
};

struct FioJobRun {
  Campaign campaign;
  bool keep_job_directories = true;  // directory was not given
};

// Parses the jobs and builds the campaign. Errors: InvalidArgument naming the file and line (or the
// argument) and the option for any unsupported option or bad value; the file's read error code
// (NotFound when missing); InvalidArgument when both or neither of job_file and fio_args are given.
absl::StatusOr<FioJobRun> MakeFioJobRun(const FioJobRunOptions& options);

// ExpandCampaign (plan.h), then, when the jobs keep their own directories, each job's options are
// its options as written (no target directory added).
absl::StatusOr<std::vector<Scenario>> ExpandFioJobRun(const FioJobRun& run,
                                                      const std::vector<AgentInfo>& agents);

// The fleet of `--hosts FILE|host[:port],...` or `--local N [--azs a,b]` (default: --local 1).
// Errors: InvalidArgument for bad counts or addresses; the hosts file's read error.
absl::StatusOr<FleetSpec> FleetFromFlags(const std::string* hosts, const std::string* local,
                                         const std::string* azs);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_CLI_FIO_JOB_RUN_H_
