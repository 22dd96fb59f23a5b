// Runner's half of Prepare that meets the workload families, through their interface only
// (agent/workloads/family.h): parses each job request by its family (errors name the job and the
// option), checks the run's clones, confines each job's paths when the agent enforces a policy and
// prepares it. The id reservation around it is in runner.cc (PrepareAll).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

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
    confined->disk_util = set.disk_util;
    run->confined.push_back(*std::move(confined));
    return absl::OkStatus();
  };
  // Each job's paths, then its layout. fio's create_serialize: the jobs with 1 lay out one after
  // another in their order; then those with 0 all at once, each on its own thread, as fio's job
  // threads lay out their own files when they start.
  struct Step {
    absl::Status status = absl::OkStatus();  // the paths' confinement, then the layout
    int confined = -1;                       // its last entry in run->confined; -1: none
    std::unique_ptr<Workload> job;
    bool attempted = false;
  };
  std::vector<Step> steps(jobs.size());
  auto confine_paths = [&](size_t i) {
    const size_t before = run->confined.size();
    for (const JobPathSet& set : jobs[i]->Paths()) {
      if (enforce_policy) {
        steps[i].status = confine(jobs[i]->name(), set, footprints[i]);
      } else if (set.agent_subdir) {
        steps[i].status = agent_directory(*set.paths, jobs[i]->name());
      }
      if (!steps[i].status.ok()) break;
    }
    if (run->confined.size() > before) {
      steps[i].confined = static_cast<int>(run->confined.size()) - 1;
    }
  };
  auto prepare = [&](size_t i) {
    steps[i].attempted = true;
    if (!steps[i].status.ok()) return;
    FamilyContext job_context = context;
    job_context.job_index = static_cast<int>(i);
    job_context.dedupe_threads = &run->dedupe_threads;
    absl::StatusOr<std::unique_ptr<Workload>> job = jobs[i]->Prepare(job_context);
    if (job.ok()) {
      steps[i].job = *std::move(job);
    } else {
      steps[i].status = job.status();
    }
  };
  bool failed = false;
  std::vector<size_t> together;
  for (size_t i = 0; i < jobs.size() && !failed; ++i) {
    if (!jobs[i]->create_serialize()) {
      together.push_back(i);
      continue;
    }
    confine_paths(i);
    prepare(i);
    failed = !steps[i].status.ok();
  }
  if (!failed && !together.empty()) {
    for (const size_t i : together) confine_paths(i);
    std::vector<std::thread> threads;
    for (const size_t i : together) threads.emplace_back(prepare, i);
    for (std::thread& t : threads) t.join();
  }
  // Messages and file lists name the directories, not the descriptors they go through.
  auto display = [&](size_t i, std::string text) {
    return steps[i].confined >= 0 ? run->confined[steps[i].confined].DisplayText(std::move(text))
                                  : text;
  };
  // A failure removes what every job laid out, those not yet taken into the run included.
  auto fail = [&](size_t i, const absl::Status& status) {
    for (Step& step : steps) {
      if (step.job != nullptr) (void)step.job->RemoveCreatedFiles();
    }
    run->RemoveFiles(nullptr);
    const absl::Status named = WithJobName(jobs[i]->name(), status);
    return absl::Status(named.code(), display(i, std::string(named.message())));
  };
  for (size_t i = 0; i < jobs.size(); ++i) {
    if (steps[i].attempted && !steps[i].status.ok()) return fail(i, steps[i].status);
  }
  for (size_t i = 0; i < jobs.size(); ++i) {
    const std::string name = jobs[i]->name();
    std::unique_ptr<Workload>& job = steps[i].job;
    for (const auto& f : job->files()) {
      outcome.files.push_back(f);
      outcome.files.back().path = display(i, f.path);
    }
    for (const auto& w : job->warnings()) {
      outcome.warnings.push_back(absl::StrCat("job '", name, "': ", w));
    }
    int waitee = -1;
    if (const std::string wait_for = job->wait_for(); !wait_for.empty()) {
      for (size_t j = 0; j < run->jobs.size(); ++j) {
        if (run->jobs[j]->name() == wait_for) waitee = static_cast<int>(j);
      }
      if (waitee < 0) {
        return fail(i, absl::InvalidArgumentError(absl::StrCat(
                           "wait_for=", wait_for,
                           " names no job before this one (a job can wait only for one defined "
                           "earlier)")));
      }
    }
    run->wait_for.push_back(waitee);
    run->stonewall.push_back(job->stonewall());
    run->jobs.push_back(std::move(job));
  }
  return outcome;
}

}  // namespace azbench
