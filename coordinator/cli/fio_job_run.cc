#include "coordinator/cli/fio_job_run.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/file_util.h"
#include "common/fio_jobfile.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/plan/plan.h"

namespace azbench {

namespace {

constexpr char kCommandLineWorkload[] = "fio";

// A workload name ([A-Za-z0-9._-]+) from a job file name: its stem, other characters as '-'.
std::string WorkloadNameFor(const std::string& job_file) {
  std::string name = std::filesystem::path(job_file).stem().string();
  for (char& c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) c = '-';
  }
  return name.empty() ? std::string(kCommandLineWorkload) : name;
}

// What the results database keeps as the "campaign text": how the run was asked for, and the job
// file as it was, as comments (it is no campaign: `azbench report` falls back to keep=all).
std::string DescribeRun(const FioJobRunOptions& options, const std::string& job_text) {
  std::string text = "# azbench run ";
  if (!options.job_file.empty()) {
    absl::StrAppend(&text, "--fio-job ", options.job_file);
  } else {
    absl::StrAppend(&text, "-- ", absl::StrJoin(options.fio_args, " "));
  }
  if (!options.directory.empty()) absl::StrAppend(&text, " --directory ", options.directory);
  absl::StrAppend(&text, "\n");
  for (absl::string_view line : absl::StrSplit(job_text, '\n')) {
    absl::StrAppend(&text, "# | ", line, "\n");
  }
  return text;
}

}  // namespace

absl::StatusOr<FioJobRun> MakeFioJobRun(const FioJobRunOptions& options) {
  if (options.job_file.empty() == options.fio_args.empty()) {
    return absl::InvalidArgumentError(
        "give either --fio-job FILE or a fio command line after '--' (e.g. -- --name=w "
        "--rw=write --bs=4m --size=4g), not both");
  }
  absl::StatusOr<std::vector<FioJob>> parsed;
  std::string job_text;
  if (!options.job_file.empty()) {
    ASSIGN_OR_RETURN(job_text, ReadWholeFile(options.job_file, "fio job file"));
    parsed = ParseFioJobFile(job_text, options.job_file);
  } else {
    parsed = ParseFioCommandLine(options.fio_args);
  }
  if (!parsed.ok()) {
    // An unsupported option is bad input like any other (the parser says NotFound).
    return absl::InvalidArgumentError(parsed.status().message());
  }
  ASSIGN_OR_RETURN(std::vector<WorkloadJob> jobs, WorkloadJobsFromFioJobs(*parsed));
  if (!options.directory.empty() && options.fleet.kind != FleetSpec::Kind::kLocal &&
      !std::filesystem::path(options.directory).is_absolute()) {
    return absl::InvalidArgumentError(
        absl::StrCat("--directory '", options.directory,
                     "' must be an absolute path on the agents (relative directories are allowed "
                     "only with --local, inside each agent's work directory)"));
  }
  const std::filesystem::path directory(options.directory);
  if (!directory.is_absolute() &&
      std::find(directory.begin(), directory.end(), "..") != directory.end()) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--directory '", options.directory,
        "' must stay inside each agent's work directory (no '..'), or be an absolute path"));
  }

  FioJobRun run;
  Campaign& c = run.campaign;
  Workload workload;
  workload.name = options.job_file.empty() ? std::string(kCommandLineWorkload)
                                           : WorkloadNameFor(options.job_file);
  workload.fio_job_path = options.job_file.empty() ? "command line" : options.job_file;
  workload.location = SourceLocation{workload.fio_job_path, 1, 0};
  workload.jobs = std::move(jobs);
  workload.warnings = FioJobWarnings(*parsed);
  c.name = workload.name;
  c.file = workload.fio_job_path;
  c.text = DescribeRun(options, job_text);
  c.fleet = options.fleet;
  CampaignTarget target;
  target.name = kFioJobTargetName;
  target.path = options.directory;
  target.location = workload.location;
  c.targets.push_back(std::move(target));
  c.workloads.push_back(std::move(workload));
  c.results_path =
      options.results_path.empty() ? absl::StrCat(c.name, ".db") : options.results_path;
  run.keep_job_directories = options.directory.empty();
  if (!run.keep_job_directories) {
    // Every job must still be valid with the directory it will get, and name no file outside it.
    for (const WorkloadJob& job : c.workloads[0].jobs) {
      const JobOptions job_options = CellJobOptions(job, {}, c.targets[0]);
      absl::Status valid = ValidateJobOptions(job_options, job.name);
      if (valid.ok()) {
        valid = CheckJobPathsInTarget("block_io", job_options, options.directory,
                                      absl::StrCat("--directory ", options.directory));
      }
      if (!valid.ok()) {
        return absl::InvalidArgumentError(absl::StrCat(c.file, ": job '", job.name,
                                                       "' with --directory ", options.directory,
                                                       ": ", valid.message()));
      }
    }
  }
  return run;
}

absl::StatusOr<std::vector<Scenario>> ExpandFioJobRun(const FioJobRun& run,
                                                      const std::vector<AgentInfo>& agents) {
  if (!run.keep_job_directories) return ExpandCampaign(run.campaign, agents);
  // The plan adds the target's directory to every job (and checks it): plan with a stand-in, then
  // give every job back its options as written.
  Campaign stand_in = run.campaign;
  stand_in.targets[0].path = ".";
  ASSIGN_OR_RETURN(std::vector<Scenario> plan, ExpandCampaign(stand_in, agents));
  const std::vector<WorkloadJob>& jobs = run.campaign.workloads[0].jobs;
  for (Scenario& scenario : plan) {
    for (ScenarioJob& job : scenario.jobs) {
      for (const WorkloadJob& written : jobs) {
        if (written.name == job.name) job.options = written.options;
      }
    }
  }
  return plan;
}

absl::StatusOr<FleetSpec> FleetFromFlags(const std::string* hosts, const std::string* local,
                                         const std::string* azs) {
  FleetSpec spec;
  if (hosts != nullptr && local != nullptr) {
    return absl::InvalidArgumentError("give --hosts or --local, not both");
  }
  if (hosts != nullptr && azs != nullptr) {
    return absl::InvalidArgumentError(
        "--azs names the AZs of a --local fleet; remote agents report their own");
  }
  if (hosts != nullptr) {
    spec.kind = FleetSpec::Kind::kHosts;
    if (std::filesystem::exists(*hosts)) {
      ASSIGN_OR_RETURN(spec.hosts, ReadHostsFile(*hosts));
      spec.hosts_file = *hosts;
    } else {
      for (absl::string_view h : absl::StrSplit(*hosts, ',', absl::SkipEmpty())) {
        ASSIGN_OR_RETURN(std::string address, NormalizeAddress(std::string(h)));
        spec.hosts.push_back(std::move(address));
      }
    }
    if (spec.hosts.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--hosts '", *hosts, "': no hosts (a file of host[:port] lines or a list)"));
    }
    return spec;
  }
  spec.kind = FleetSpec::Kind::kLocal;
  spec.local_agents = 1;
  if (local != nullptr) {
    absl::StatusOr<int64_t> n = ParseInt(*local, 1, kMaxLocalAgents);
    if (!n.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("--local '", *local, "': ", n.status().message()));
    }
    spec.local_agents = static_cast<int>(*n);
  }
  spec.local_azs = {"local"};
  if (azs != nullptr) {
    spec.local_azs = absl::StrSplit(*azs, ',', absl::SkipEmpty());
    if (spec.local_azs.empty()) return absl::InvalidArgumentError("--azs: give a,b,...");
  }
  return spec;
}

}  // namespace azbench
