// Runner's half of Prepare that meets the workload families, through their interface only
// (agent/workloads/family.h): parses each job request by its family (errors name the job and the
// option), checks the run's clones, confines each job's paths when the agent enforces a policy and
// prepares it. The id reservation around it is in runner.cc (PrepareAll).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"
#include "agent/runner/family_registry.h"
#include "agent/runner/runner.h"
#include "agent/runner/runner_internal.h"
#include "common/errno_text.h"
#include "common/status_macros.h"

namespace azbench {

namespace {

// What identifies a Prepare request: its jobs (names, families, options in order), interval and
// placement, every string length-prefixed.
std::string PrepareRequestKey(const std::vector<JobRequest>& jobs, uint64_t interval_ns,
                              RunPlacement placement) {
  std::string key = absl::StrCat(interval_ns, ";", placement.agent_index, ";",
                                 placement.agent_count, ";", jobs.size());
  auto add = [&key](const std::string& text) {
    absl::StrAppend(&key, ";", text.size(), ":", text);
  };
  for (const JobRequest& job : jobs) {
    add(job.name);
    add(job.workload);
    absl::StrAppend(&key, ";", job.group_id, ";", job.stonewall ? 1 : 0, ";", job.options.size());
    for (const auto& [option, value] : job.options) {
      add(option);
      add(value);
    }
  }
  return key;
}

}  // namespace

absl::StatusOr<PrepareOutcome> Runner::Prepare(const std::string& run_id,
                                               const std::vector<JobRequest>& jobs,
                                               uint64_t interval_ns, RunPlacement placement) {
  FamilyContext context;
  context.agent_subdir = config_.agent_subdir;
  context.placement = placement;
  std::vector<std::unique_ptr<ParsedJob>> parsed;
  for (const JobRequest& request : jobs) {
    absl::StatusOr<const Family*> family = FindFamily(request.workload);
    if (!family.ok()) return WithJobName(request.name, family.status());
    ASSIGN_OR_RETURN(std::unique_ptr<ParsedJob> job, (*family)->Parse(request, context));
    parsed.push_back(std::move(job));
  }
  return PrepareAll(run_id, std::move(parsed), interval_ns,
                    PrepareRequestKey(jobs, interval_ns, placement), placement);
}

absl::StatusOr<PrepareOutcome> Runner::LayOut(const std::string& run_id, PreparedRun& prepared,
                                              std::vector<std::unique_ptr<ParsedJob>>& jobs,
                                              RunPlacement placement) {
  PreparedRun* const run = &prepared;
  PrepareOutcome outcome;
  JobPolicy policy;
  bool enforce_policy = false;
  {
    absl::MutexLock lock(&mu_);
    policy = config_.policy;
    enforce_policy = config_.enforce_policy;
  }
  // With the policy, every job's footprint first: the run's clones are checked before any job's
  // paths are opened.
  std::vector<JobFootprint> footprints;
  if (enforce_policy) {
    uint64_t clones = 0;
    for (const std::unique_ptr<ParsedJob>& job : jobs) {
      absl::StatusOr<JobFootprint> footprint = job->Footprint();
      if (!footprint.ok()) return WithJobName(job->name(), footprint.status());
      clones += std::max<uint64_t>(1, footprint->clones);
      footprints.push_back(*std::move(footprint));
    }
    RETURN_IF_ERROR(CheckRunJobCount(clones, policy.limits));
  }
  FamilyContext context;
  context.run_id = run_id;
  context.agent_subdir = config_.agent_subdir;
  context.placement = placement;
  context.metadata = config_.metadata;
  if (enforce_policy) context.allowed_roots = policy.allowed_roots;
  context.cancel = &run->cancel;
  // Gives a directory (without a filename) the per-agent subdirectory when there is no policy;
  // with it, ConfineJob does that beneath the allowed root.
  auto agent_directory = [&](JobPaths& paths, const std::string& name) -> absl::Status {
    if (config_.agent_subdir.empty() || paths.directory.empty() || !paths.filename.empty()) {
      return absl::OkStatus();
    }
    paths.directory = absl::StrCat(paths.directory, "/", config_.agent_subdir);
    // Beneath an NFS export the job's layout creates it, over NFS.
    if (!paths.nfs_server.empty()) return absl::OkStatus();
    if (mkdir(paths.directory.c_str(), 0755) == 0) {
      run->created_dirs.push_back(paths.directory);
    } else if (errno != EEXIST) {
      const int err = errno;
      return absl::Status(err == ENOENT ? absl::StatusCode::kFailedPrecondition
                                        : absl::StatusCode::kPermissionDenied,
                          absl::StrCat("job '", name, "': cannot create '", paths.directory,
                                       "': ", ErrnoText(err)));
    }
    return absl::OkStatus();
  };
  // One set of a job's paths through the policy; a labelled set's refusal names it.
  auto confine = [&](const std::string& name, const JobPathSet& set,
                     const JobFootprint& job_footprint) -> absl::Status {
    absl::StatusOr<ConfinedJob> confined =
        ConfineJob(name, set.footprint.value_or(job_footprint), *set.paths, policy,
                   set.agent_subdir ? config_.agent_subdir : std::string());
    if (!confined.ok()) {
      if (set.label.empty()) return confined.status();
      const std::string prefix = absl::StrCat("job '", name, "': ");
      std::string message(confined.status().message());
      if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
      return absl::Status(confined.status().code(), absl::StrCat(prefix, set.label, ": ", message));
    }
    for (const std::string& dir : confined->created_dirs) run->created_dirs.push_back(dir);
    run->confined.push_back(*std::move(confined));
    return absl::OkStatus();
  };
  for (size_t i = 0; i < jobs.size(); ++i) {
    ParsedJob& parsed = *jobs[i];
    const std::string name = parsed.name();
    const size_t confined_before = run->confined.size();
    absl::Status st = absl::OkStatus();
    for (const JobPathSet& set : parsed.Paths()) {
      if (enforce_policy) {
        st = confine(name, set, footprints[i]);
      } else if (set.agent_subdir) {
        st = agent_directory(*set.paths, name);
      }
      if (!st.ok()) break;
    }
    FamilyContext job_context = context;
    job_context.job_index = static_cast<int>(i);
    job_context.dedupe_threads = &run->dedupe_threads;
    absl::StatusOr<std::unique_ptr<Workload>> job =
        st.ok() ? parsed.Prepare(job_context) : absl::StatusOr<std::unique_ptr<Workload>>(st);
    // Messages and file lists name the directories, not the descriptors they go through.
    const bool confined_now = run->confined.size() > confined_before;
    auto display = [&](std::string text) {
      return confined_now ? run->confined.back().DisplayText(std::move(text)) : text;
    };
    if (!job.ok()) {
      run->RemoveFiles(nullptr);
      const absl::Status named = WithJobName(name, job.status());
      return absl::Status(named.code(), display(std::string(named.message())));
    }
    for (const auto& f : (*job)->files()) {
      outcome.files.push_back(f);
      outcome.files.back().path = display(f.path);
    }
    for (const auto& w : (*job)->warnings()) {
      outcome.warnings.push_back(absl::StrCat("job '", name, "': ", w));
    }
    int waitee = -1;
    if (const std::string wait_for = (*job)->wait_for(); !wait_for.empty()) {
      for (size_t j = 0; j < run->jobs.size(); ++j) {
        if (run->jobs[j]->name() == wait_for) waitee = static_cast<int>(j);
      }
      if (waitee < 0) {
        (void)(*job)->RemoveCreatedFiles();
        run->RemoveFiles(nullptr);
        return absl::InvalidArgumentError(
            absl::StrCat("job '", name, "': wait_for=", wait_for,
                         " names no job before this one (a job can wait only for one defined "
                         "earlier)"));
      }
    }
    run->wait_for.push_back(waitee);
    run->stonewall.push_back((*job)->stonewall());
    run->jobs.push_back(*std::move(job));
  }
  return outcome;
}

}  // namespace azbench
