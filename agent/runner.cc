#include "agent/runner.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>
#include <type_traits>

#include <spdlog/spdlog.h>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/visibility_workload.h"
#include "agent/workloads/large_stream.h"
#include "agent/workloads/metadata.h"
#include "agent/workloads/small_files.h"
#include "common/clock.h"
#include "common/job_spec.h"
#include "common/status_macros.h"
#include "common/workload_spec.h"

namespace azbench {

struct Runner::PreparedRun {
  std::vector<ConfinedJob> confined;  // directory descriptors the jobs' paths go through
  std::vector<std::unique_ptr<Workload>> jobs;
  std::vector<std::string> created_dirs;  // per-agent subdirectories this run made
  std::vector<bool> stonewall;            // per job: waits for every job before it
  uint64_t interval_ns = 1'000'000'000;
  std::atomic<bool> cancel{false};
  // Being laid out by its Prepare, which owns the fields above until it clears this (guarded by
  // Runner::mu_): nobody else runs, cleans up, reaps or cancels it meanwhile.
  bool preparing = false;
  std::string request_key;      // see PrepareAll; set before the run is published
  absl::Status prepare_status;  // a failed Prepare's answer (guarded by Runner::mu_)
  PrepareOutcome outcome;       // a finished Prepare's answer (guarded by Runner::mu_)
  bool running = false;
  bool ran = false;
  uint64_t lease_end_ns = 0;  // monotonic; 0 = no lease (guarded by Runner::mu_)

  // Phase barrier state of the stonewall group that is running (see Runner::Run).
  absl::Mutex barrier_mu;
  int barrier_seq ABSL_GUARDED_BY(barrier_mu) = 0;    // barriers completed so far in the run
  int phased_active ABSL_GUARDED_BY(barrier_mu) = 0;  // phased jobs still running
  int arrived ABSL_GUARDED_BY(barrier_mu) = 0;        // of them, waiting at barrier_seq
  std::string arrived_phase ABSL_GUARDED_BY(barrier_mu);
  bool reported ABSL_GUARDED_BY(barrier_mu) = false;  // PhaseDone(barrier_seq) was sent
  int released ABSL_GUARDED_BY(barrier_mu) = -1;      // highest barrier released
  int64_t release_at_realtime_ns ABSL_GUARDED_BY(barrier_mu) = 0;

  void RemoveFiles(int* removed) {
    for (auto& job : jobs) {
      for (const auto& f : job->files()) {
        if (f.created && removed != nullptr) ++*removed;
      }
      (void)job->RemoveCreatedFiles();
    }
    for (auto it = created_dirs.rbegin(); it != created_dirs.rend(); ++it) {
      (void)rmdir(it->c_str());  // only succeeds when empty: files kept by the user stay
    }
    created_dirs.clear();
  }
};

Runner::Runner(RunnerConfig config) : config_(config) {
  if (config_.reap_interval_ns > 0 && config_.prepared_lease_ns > 0) {
    reaper_ = std::thread([this] { ReapLoop(); });
  }
}

Runner::~Runner() {
  {
    absl::MutexLock lock(&mu_);
    stopping_ = true;
  }
  if (reaper_.joinable()) reaper_.join();
  CancelAll();
  absl::MutexLock lock(&mu_);
  for (auto& [id, run] : runs_) {
    if (!run->running && !run->preparing) run->RemoveFiles(nullptr);
  }
}

namespace {

// Applies a family's options in order; errors name the job and the option.
template <typename Spec, typename Apply>
absl::Status ApplyAll(Spec& spec, const JobRequest& request, Apply apply) {
  spec.name = request.name;
  for (const auto& [key, value] : request.options) {
    absl::Status s = apply(spec, key, value);
    if (!s.ok()) {
      return absl::Status(s.code(), absl::StrCat("job '", request.name, "': ", s.message()));
    }
  }
  spec.name = request.name;
  return absl::OkStatus();
}

template <typename T>
absl::StatusOr<std::unique_ptr<Workload>> AsWorkload(absl::StatusOr<std::unique_ptr<T>> job) {
  if (!job.ok()) return job.status();
  if constexpr (std::is_same_v<T, BlockIoJob>) {
    return WrapBlockIoJob(std::move(*job));
  } else {
    return std::unique_ptr<Workload>(std::move(*job));
  }
}

// A start instant (agent realtime, 0 = now) at most kMaxStartAheadNs ahead.
absl::Status CheckStartAhead(int64_t start_at_realtime_ns) {
  const int64_t ahead_ns = start_at_realtime_ns - RealtimeNanos();
  if (start_at_realtime_ns > 0 && ahead_ns > kMaxStartAheadNs) {
    return absl::InvalidArgumentError(
        absl::StrCat("start_at_agent_realtime_ns is ", ahead_ns / 1'000'000'000,
                     " s ahead of this agent's clock; at most ", kMaxStartAheadNs / 1'000'000'000,
                     " s (", kMaxStartAheadNs / 60'000'000'000, " minutes) ahead is allowed"));
  }
  return absl::OkStatus();
}

// The product of named factors ("files", 5000), or InvalidArgument naming them and their values
// when it does not fit in 64 bits (a wrapped product would defeat the limits and free-space checks
// it feeds).
absl::StatusOr<uint64_t> CheckedProduct(
    const std::vector<std::pair<std::string, uint64_t>>& factors) {
  uint64_t product = 1;
  for (const auto& [name, value] : factors) {
    if (__builtin_mul_overflow(product, value, &product)) {
      std::vector<std::string> names, values;
      for (const auto& [n, v] : factors) {
        names.push_back(n);
        values.push_back(absl::StrCat(v));
      }
      return absl::InvalidArgumentError(
          absl::StrCat(absl::StrJoin(names, " x "), " (", absl::StrJoin(values, " x "),
                       ") does not fit in 64 bits; make them smaller"));
    }
  }
  return product;
}

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

absl::Status Named(const std::string& job, const absl::Status& status) {
  if (status.ok()) return status;
  return absl::Status(status.code(), absl::StrCat("job '", job, "': ", status.message()));
}

}  // namespace

absl::StatusOr<PrepareOutcome> Runner::Prepare(const std::string& run_id,
                                               const std::vector<JobRequest>& jobs,
                                               uint64_t interval_ns, RunPlacement placement) {
  std::vector<std::pair<JobSpec, int>> specs;
  std::vector<std::pair<size_t, const JobRequest*>> family_jobs;  // position among all jobs
  for (const JobRequest& request : jobs) {
    absl::StatusOr<WorkloadFamily> family = ParseWorkloadFamily(request.workload);
    if (!family.ok()) return Named(request.name, family.status());
    if (*family != WorkloadFamily::kBlockIo) {
      family_jobs.emplace_back(specs.size() + family_jobs.size(), &request);
      continue;
    }
    specs.emplace_back(JobSpec{}, request.group_id);
    JobSpec& spec = specs.back().first;
    for (const auto& [key, value] : request.options) {
      absl::Status s = ApplyJobOption(spec, key, value);
      if (!s.ok()) {
        return absl::Status(s.code(), absl::StrCat("job '", request.name, "': ", s.message()));
      }
    }
    spec.name = request.name;
    // Files every agent uses (sharing=shared-file, or a `filename`): this agent's own offsets in
    // them (job_spec.h).
    if (spec.sharing == FileSharing::kSharedFile || !spec.filename.empty()) {
      spec.shared_stream_index = placement.agent_index;  // range-checked by block_io
      spec.shared_stream_count = placement.agent_count;
    }
  }
  // Other families: parsed and validated here, prepared with the block-I/O jobs below.
  std::vector<FamilyRequest> families;
  for (const auto& [position, request] : family_jobs) {
    FamilyRequest f;
    f.position = position;
    f.group_id = request->group_id;
    f.family = *ParseWorkloadFamily(request->workload);
    switch (f.family) {
      case WorkloadFamily::kMetadata:
        RETURN_IF_ERROR(ApplyAll(f.metadata, *request, ApplyMetadataOption));
        f.metadata.agent_index = placement.agent_index;
        f.metadata.agent_count = std::max(1, placement.agent_count);
        RETURN_IF_ERROR(Named(request->name, ValidateMetadataSpec(f.metadata)));
        break;
      case WorkloadFamily::kSmallFiles:
        RETURN_IF_ERROR(ApplyAll(f.small_files, *request, ApplySmallFilesOption));
        RETURN_IF_ERROR(Named(request->name, ValidateSmallFilesSpec(f.small_files)));
        break;
      case WorkloadFamily::kLargeStream:
        RETURN_IF_ERROR(ApplyAll(f.large_stream, *request, ApplyLargeStreamOption));
        RETURN_IF_ERROR(Named(request->name, ValidateLargeStreamSpec(f.large_stream)));
        break;
      case WorkloadFamily::kVisibility:
        f.name = request->name;
        f.visibility_options = request->options;
        f.placement = placement;
        break;
      case WorkloadFamily::kBlockIo:
        break;
    }
    families.push_back(std::move(f));
  }
  return PrepareAll(run_id, specs, families, interval_ns,
                    PrepareRequestKey(jobs, interval_ns, placement));
}

absl::StatusOr<PrepareOutcome> Runner::PrepareSpecs(
    const std::string& run_id, const std::vector<std::pair<JobSpec, int>>& specs,
    uint64_t interval_ns) {
  return PrepareAll(run_id, specs, {}, interval_ns, /*request_key=*/"");
}

absl::StatusOr<PrepareOutcome> Runner::PrepareAll(const std::string& run_id,
                                                  const std::vector<std::pair<JobSpec, int>>& specs,
                                                  const std::vector<FamilyRequest>& families,
                                                  uint64_t interval_ns,
                                                  const std::string& request_key) {
  if (run_id.empty()) return absl::InvalidArgumentError("run_id must not be empty");
  if (specs.empty() && families.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("run '", run_id, "' has no jobs"));
  }
  if (interval_ns < 10'000'000) {
    return absl::InvalidArgumentError("interval must be at least 10 ms");
  }
  auto run = std::make_shared<PreparedRun>();
  run->interval_ns = interval_ns;
  run->request_key = request_key;
  {
    // The id is reserved before the layout: two Prepares of one id never lay out (and, failing,
    // remove) the same files at once, and runs being prepared count against the limit.
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it != runs_.end()) {
      const std::shared_ptr<PreparedRun> held = it->second;
      if (request_key.empty() || held->request_key != request_key || held->running || held->ran) {
        return absl::AlreadyExistsError(
            absl::StrCat("run '", run_id, "' is already ",
                         held->preparing ? "being prepared"
                         : held->ran     ? "run"
                                         : "prepared",
                         held->request_key != request_key ? " with other jobs" : ""));
      }
      // The same request again (the coordinator's retry after a broken connection): answer as
      // the first one did, once it has.
      // The wait is bounded (a layout of many GiB takes minutes): a retry that outlives it is told
      // to ask again rather than holding a server thread for ever.
      auto prepared = [&held]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(mu_) { return !held->preparing; };
      if (!mu_.AwaitWithTimeout(absl::Condition(&prepared), absl::Minutes(10))) {
        return absl::UnavailableError(
            absl::StrCat("run '", run_id,
                         "' is still being prepared by an earlier request (10 min); ask again"));
      }
      if (!held->prepare_status.ok()) return held->prepare_status;
      return held->outcome;
    }
    if (runs_.size() >= config_.max_concurrent_runs) {
      return absl::ResourceExhaustedError(absl::StrCat(
          "the agent already holds ", runs_.size(), " runs (limit ", config_.max_concurrent_runs,
          ", counting runs being prepared); clean up finished runs first"));
    }
    run->preparing = true;
    runs_[run_id] = run;
  }
  absl::StatusOr<PrepareOutcome> outcome = LayOut(run_id, *run, specs, families);
  absl::MutexLock lock(&mu_);
  run->preparing = false;
  if (!outcome.ok()) {
    run->prepare_status = outcome.status();
    runs_.erase(run_id);  // the placeholder: nobody else removes a run being prepared
    return outcome.status();
  }
  run->outcome = *outcome;
  if (config_.prepared_lease_ns > 0) {
    run->lease_end_ns = MonotonicNanos() + config_.prepared_lease_ns;
  }
  return outcome;
}

absl::StatusOr<PrepareOutcome> Runner::LayOut(const std::string& run_id, PreparedRun& prepared,
                                              const std::vector<std::pair<JobSpec, int>>& specs,
                                              const std::vector<FamilyRequest>& families) {
  PreparedRun* const run = &prepared;
  PrepareOutcome outcome;
  JobPolicy policy;
  bool enforce_policy = false;
  {
    absl::MutexLock lock(&mu_);
    policy = config_.policy;
    enforce_policy = config_.enforce_policy;
  }
  if (enforce_policy) {
    uint64_t clones = 0;
    for (const auto& spec : specs) clones += static_cast<uint64_t>(std::max(1, spec.first.numjobs));
    for (const FamilyRequest& f : families) {
      clones += static_cast<uint64_t>(
          std::max(1, f.family == WorkloadFamily::kMetadata     ? f.metadata.numjobs
                      : f.family == WorkloadFamily::kSmallFiles ? f.small_files.numjobs
                                                                : 1));
    }
    RETURN_IF_ERROR(CheckRunJobCount(clones, policy.limits));
  }
  // Gives a job that names a directory (and no filename) its per-agent subdirectory (without the
  // policy; with it, ConfineJob does that beneath the allowed root).
  auto agent_directory = [&](std::string& directory, const std::string& name) -> absl::Status {
    if (config_.agent_subdir.empty() || directory.empty()) return absl::OkStatus();
    directory = absl::StrCat(directory, "/", config_.agent_subdir);
    if (mkdir(directory.c_str(), 0755) == 0) {
      run->created_dirs.push_back(directory);
    } else if (errno != EEXIST) {
      const int err = errno;
      return absl::Status(
          err == ENOENT ? absl::StatusCode::kFailedPrecondition
                        : absl::StatusCode::kPermissionDenied,
          absl::StrCat("job '", name, "': cannot create '", directory, "': ", strerror(err)));
    }
    return absl::OkStatus();
  };
  // A family job's directory (and file name) through the policy: confined as a block_io job with
  // the same paths and the family's file count and bytes would be.
  auto confine_family = [&](const std::string& name, std::string& directory, std::string* filename,
                            uint64_t files, uint64_t bytes, bool subdir) -> absl::Status {
    JobSpec scratch;
    scratch.name = name;
    scratch.directory = directory;
    if (filename != nullptr) scratch.filename = *filename;
    scratch.nrfiles = static_cast<int>(std::min<uint64_t>(std::max<uint64_t>(files, 1), 1 << 30));
    scratch.size_bytes = std::max<uint64_t>(bytes, 1);
    absl::StatusOr<ConfinedJob> confined =
        ConfineJob(scratch, policy, subdir ? config_.agent_subdir : std::string());
    if (!confined.ok()) return confined.status();
    for (const std::string& dir : confined->created_dirs) run->created_dirs.push_back(dir);
    run->confined.push_back(std::move(*confined));
    directory = scratch.directory;
    if (filename != nullptr) *filename = scratch.filename;
    return absl::OkStatus();
  };
  size_t next_spec = 0, next_family = 0;
  const size_t total = specs.size() + families.size();
  for (size_t position = 0; position < total; ++position) {
    absl::StatusOr<std::unique_ptr<Workload>> job;
    std::string name;
    const size_t confined_before = run->confined.size();
    if (next_family < families.size() && families[next_family].position == position) {
      FamilyRequest f = families[next_family++];
      switch (f.family) {
        case WorkloadFamily::kMetadata: {
          // No agent subdirectory: the stride needs every agent's paths (they carry the agent
          // index instead).
          name = f.metadata.name;
          absl::Status st = absl::OkStatus();
          if (enforce_policy) {
            const uint64_t numjobs = static_cast<uint64_t>(std::max(1, f.metadata.numjobs));
            absl::StatusOr<uint64_t> files =
                CheckedProduct({{"files", f.metadata.files}, {"numjobs", numjobs}});
            absl::StatusOr<uint64_t> bytes =
                CheckedProduct({{"files", f.metadata.files},
                                {"write_bytes", f.metadata.write_bytes},
                                {"numjobs", numjobs}});
            st = !files.ok() ? files.status()
                 : !bytes.ok()
                     ? bytes.status()
                     : confine_family(name, f.metadata.directory, nullptr, *files, *bytes, false);
          }
          job = st.ok() ? AsWorkload(MetadataJob::Prepare(f.metadata, f.group_id))
                        : absl::StatusOr<std::unique_ptr<Workload>>(st);
          break;
        }
        case WorkloadFamily::kSmallFiles: {
          name = f.small_files.name;
          absl::Status st = absl::OkStatus();
          if (enforce_policy) {
            const uint64_t clones = static_cast<uint64_t>(std::max(1, f.small_files.numjobs));
            absl::StatusOr<uint64_t> files =
                CheckedProduct({{"files", f.small_files.files},
                                {"the number of filesizes", f.small_files.file_sizes_bytes.size()},
                                {"numjobs", clones}});
            uint64_t bytes = 0;
            for (uint64_t size : f.small_files.file_sizes_bytes) {
              if (!st.ok()) break;
              absl::StatusOr<uint64_t> of_size = CheckedProduct(
                  {{"filesize", size}, {"files", f.small_files.files}, {"numjobs", clones}});
              if (!of_size.ok()) {
                st = of_size.status();
              } else if (__builtin_add_overflow(bytes, *of_size, &bytes)) {
                st = absl::InvalidArgumentError(
                    "the bytes of all filesizes x files x numjobs do not fit in 64 bits; make "
                    "them smaller");
              }
            }
            if (st.ok()) st = files.status();
            if (st.ok()) {
              st = confine_family(name, f.small_files.directory, nullptr, *files, bytes, true);
            }
          } else {
            st = agent_directory(f.small_files.directory, name);
          }
          job = st.ok() ? AsWorkload(SmallFilesJob::Prepare(f.small_files, f.group_id))
                        : absl::StatusOr<std::unique_ptr<Workload>>(st);
          break;
        }
        case WorkloadFamily::kLargeStream: {
          name = f.large_stream.name;
          const bool own_dir =
              f.large_stream.filename.empty() || f.large_stream.filename.front() != '/';
          absl::Status st = absl::OkStatus();
          if (enforce_policy) {
            // A relative filename names a file in the confined directory: one plain name, or it
            // could lead out of it ("../../x").
            if (own_dir && !f.large_stream.filename.empty()) {
              st = CheckFileName(f.large_stream.filename, "filename");
            }
            if (st.ok()) {
              st = confine_family(name, f.large_stream.directory,
                                  own_dir ? nullptr : &f.large_stream.filename, 1,
                                  f.large_stream.size_bytes, own_dir);
            }
          } else if (own_dir) {
            st = agent_directory(f.large_stream.directory, name);
          }
          job = st.ok() ? AsWorkload(LargeStreamJob::Prepare(f.large_stream, f.group_id))
                        : absl::StatusOr<std::unique_ptr<Workload>>(st);
          break;
        }
        case WorkloadFamily::kVisibility: {
          name = f.name;
          // The probe works on the target's path itself (its files map to S3 keys and its mount
          // is looked up by path): the policy checks that directory (roots, symlinks, mounts,
          // free space for the probe files) without rewriting it.
          absl::Status st = absl::OkStatus();
          if (enforce_policy) {
            // read_dir (a client_to_client reader's view of the writer's directory) is read
            // only, but it must be beneath the roots too.
            std::string directory, read_dir;
            for (const auto& [key, value] : f.visibility_options) {
              if (key == "directory") directory = value;
              if (key == "read_dir") read_dir = value;
            }
            if (!directory.empty()) {
              st = confine_family(name, directory, nullptr, 1, 1 << 20, false);
            }
            if (st.ok() && !read_dir.empty()) {
              st = confine_family(name, read_dir, nullptr, 1, 1, false);
              if (!st.ok()) {
                const std::string prefix = absl::StrCat("job '", name, "': ");
                std::string message(st.message());
                if (message.rfind(prefix, 0) == 0) message.erase(0, prefix.size());
                st = absl::Status(st.code(), absl::StrCat(prefix, "read_dir: ", message));
              }
            }
          }
          if (!st.ok()) {
            job = st;
            break;
          }
          VisibilityRunContext context{run_id, config_.agent_subdir, f.placement.agent_index,
                                       std::max(1, f.placement.agent_count), config_.metadata};
          // With a policy, the probe's directories are opened through the sandbox beneath the
          // allowed roots, and everything below them without following a symlink.
          job = MakeVisibilityWorkload(
              f.name, f.visibility_options, context,
              enforce_policy ? policy.allowed_roots : std::vector<std::string>{});
          break;
        }
        case WorkloadFamily::kBlockIo:
          job = absl::InternalError("block_io is not a family request");
          break;
      }
    } else {
      const auto& [original, group_id] = specs[next_spec++];
      JobSpec spec = original;
      name = spec.name;
      // `sharing` (job_spec.h): shared-dir names the files after the agent instead of a per-agent
      // subdirectory; shared-file uses the same files as every other agent.
      if (spec.sharing == FileSharing::kSharedDir && !config_.agent_subdir.empty()) {
        spec.file_name_prefix = absl::StrCat(config_.agent_subdir, ".");
      }
      const std::string subdir =
          spec.sharing == FileSharing::kFilePerAgent ? config_.agent_subdir : std::string();
      absl::Status st = absl::OkStatus();
      if (enforce_policy) {
        // Confinement replaces the plain mkdir: the subdirectory is made beneath the root.
        absl::StatusOr<ConfinedJob> confined = ConfineJob(spec, policy, subdir);
        if (confined.ok()) {
          for (const std::string& dir : confined->created_dirs) run->created_dirs.push_back(dir);
          run->confined.push_back(std::move(*confined));
        } else {
          st = confined.status();
        }
      } else if (spec.filename.empty() && !subdir.empty()) {
        st = agent_directory(spec.directory, name);
      }
      job = st.ok() ? AsWorkload(BlockIoJob::Prepare(spec, group_id))
                    : absl::StatusOr<std::unique_ptr<Workload>>(st);
    }
    // Messages and file lists name the directories, not the descriptors they go through.
    const bool confined_now = run->confined.size() > confined_before;
    auto display = [&](std::string text) {
      return confined_now ? run->confined.back().DisplayText(std::move(text)) : text;
    };
    if (!job.ok()) {
      run->RemoveFiles(nullptr);
      const std::string prefix = absl::StrCat("job '", name, "': ");
      const std::string message(job.status().message());
      return absl::Status(
          job.status().code(),
          display(message.rfind(prefix, 0) == 0 ? message : absl::StrCat(prefix, message)));
    }
    for (const auto& f : (*job)->files()) {
      outcome.files.push_back(f);
      outcome.files.back().path = display(f.path);
    }
    for (const auto& w : (*job)->warnings()) {
      outcome.warnings.push_back(absl::StrCat("job '", name, "': ", w));
    }
    run->stonewall.push_back((*job)->stonewall());
    run->jobs.push_back(std::move(*job));
  }
  return outcome;
}

namespace {

// Serialises sink calls from job and clone threads and remembers a broken sink.
class SerialSink {
 public:
  explicit SerialSink(RunEventSink& sink) : sink_(sink) {}
  template <typename F>
  bool Call(F&& f) {
    absl::MutexLock lock(&mu_);
    if (broken_) return false;
    if (!f(sink_)) broken_ = true;
    return !broken_;
  }
  bool broken() {
    absl::MutexLock lock(&mu_);
    return broken_;
  }

 private:
  absl::Mutex mu_;
  RunEventSink& sink_;
  bool broken_ = false;
};

}  // namespace

absl::Status Runner::Run(const std::string& run_id, int64_t start_at_realtime_ns,
                         RunEventSink& sink, uint64_t progress_interval_ns) {
  RETURN_IF_ERROR(CheckStartAhead(start_at_realtime_ns));
  if (progress_interval_ns == 0) progress_interval_ns = config_.progress_interval_ns;
  std::shared_ptr<PreparedRun> run;
  {
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) {
      return absl::NotFoundError(absl::StrCat("run '", run_id, "' is not prepared on this agent"));
    }
    run = it->second;
    if (run->preparing) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run '", run_id, "' is still being prepared; start it once Prepare answered"));
    }
    if (run->running || run->ran) {
      return absl::FailedPreconditionError(absl::StrCat("run '", run_id, "' has already run"));
    }
    run->running = true;
  }
  SerialSink serial(sink);
  // The start instant, converted from the agent's realtime clock to its monotonic clock.
  const int64_t now_real = RealtimeNanos();
  const uint64_t now_mono = MonotonicNanos();
  uint64_t start_mono = now_mono;
  if (start_at_realtime_ns > now_real) start_mono += start_at_realtime_ns - now_real;

  std::atomic<bool> done{false};
  std::atomic<int> jobs_running{0};
  // Progress and lease watch: every progress interval, report counters and poll the sink.
  std::thread watcher([&] {
    while (!done.load()) {
      const uint64_t until = MonotonicNanos() + progress_interval_ns;
      while (!done.load() && MonotonicNanos() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      }
      if (done.load()) break;
      uint64_t ops = 0, bytes = 0;
      for (auto& job : run->jobs) {
        ops += job->ops_done();
        bytes += job->bytes_done();
      }
      const bool alive = serial.Call([&](RunEventSink& s) {
        return s.Alive() && s.OnProgress(RealtimeNanos(), ops, bytes, jobs_running.load());
      });
      if (!alive) run->cancel.store(true);
    }
  });

  std::vector<absl::StatusOr<std::vector<JobResult>>> results;
  for (size_t i = 0; i < run->jobs.size(); ++i) results.emplace_back(absl::UnknownError("not run"));
  const bool drives_phases = sink.DrivesPhases();
  // Sends PhaseDone when every phased job still running waits at the current barrier; without a
  // driving sink, releases it at once. Called with barrier_mu held.
  auto maybe_complete_barrier = [&]() ABSL_EXCLUSIVE_LOCKS_REQUIRED(run->barrier_mu) {
    if (run->arrived == 0 || run->arrived < run->phased_active || run->reported) return;
    run->reported = true;
    const int seq = run->barrier_seq;
    if (!drives_phases) {
      run->released = seq;
      run->release_at_realtime_ns = 0;
      return;
    }
    const std::string phase = run->arrived_phase;
    run->barrier_mu.Unlock();
    if (!serial.Call([&](RunEventSink& s) { return s.OnPhaseDone(seq, phase); })) {
      run->cancel.store(true);
    }
    run->barrier_mu.Lock();
  };
  bool started_sent = false;
  size_t begin = 0;
  while (begin < run->jobs.size() && !run->cancel.load()) {
    size_t end = begin + 1;
    while (end < run->jobs.size() && !run->stonewall[end]) ++end;
    RunControl control;
    control.start_monotonic_ns = begin == 0 ? start_mono : MonotonicNanos();
    control.cancel = &run->cancel;
    control.interval_ns = run->interval_ns;
    std::vector<std::thread> threads;
    {
      absl::MutexLock lock(&run->barrier_mu);
      run->phased_active = 0;
      for (size_t i = begin; i < end; ++i) run->phased_active += run->jobs[i]->phased() ? 1 : 0;
    }
    for (size_t i = begin; i < end; ++i) {
      const std::string name = run->jobs[i]->name();
      RunControl job_control = control;
      const int job_index = static_cast<int>(i);
      job_control.on_interval = [&serial, &run, name, job_index](const IntervalOrigin& origin,
                                                                 const IntervalStats& interval) {
        if (!serial.Call([&](RunEventSink& s) {
              return s.OnSeriesInterval(job_index, name, origin, interval);
            })) {
          run->cancel.store(true);
        }
      };
      job_control.on_op_log = [&serial, &run, name](int clone, std::vector<OpRecord>&& records) {
        if (!serial.Call([&](RunEventSink& s) { return s.OnOpLog(name, clone, records); })) {
          run->cancel.store(true);
        }
      };
      if (run->jobs[i]->phased()) {
        job_control.await_phase = [&](int, const std::string& phase) -> absl::StatusOr<uint64_t> {
          absl::MutexLock lock(&run->barrier_mu);
          const int seq = run->barrier_seq;
          ++run->arrived;
          run->arrived_phase = phase;
          maybe_complete_barrier();
          auto released = [&]() ABSL_SHARED_LOCKS_REQUIRED(run->barrier_mu) {
            return run->released >= seq || run->cancel.load();
          };
          while (!released()) {
            run->barrier_mu.AwaitWithTimeout(absl::Condition(&released), absl::Milliseconds(20));
          }
          if (run->barrier_seq == seq) {  // the first job through opens the next barrier
            run->barrier_seq = seq + 1;
            run->arrived = 0;
            run->reported = false;
          }
          if (run->cancel.load()) return absl::CancelledError("run cancelled at a phase barrier");
          // Agent realtime -> monotonic. A release that reached this agent after its instant (a
          // call lost and made again, a slow link) gives that instant, in the past: the job starts
          // at once and says how late (metadata.cc).
          const int64_t at = run->release_at_realtime_ns;
          const int64_t now_real = RealtimeNanos();
          const uint64_t now_mono = MonotonicNanos();
          if (at == 0) return now_mono;  // "now"
          if (at >= now_real) return now_mono + static_cast<uint64_t>(at - now_real);
          return now_mono - std::min(static_cast<uint64_t>(now_real - at), now_mono - 1);
        };
      }
      const bool phased = run->jobs[i]->phased();
      threads.emplace_back([&, i, job_control, phased] {
        ++jobs_running;
        results[i] = run->jobs[i]->Run(job_control);
        --jobs_running;
        if (phased) {
          absl::MutexLock lock(&run->barrier_mu);
          --run->phased_active;
          maybe_complete_barrier();  // the others may be waiting for this job only
        }
      });
    }
    if (!started_sent) {
      // Sleep until the start instant has passed so the event carries the actual start time; a
      // cancel ends the wait (the jobs' own waits end too, and they measure nothing).
      (void)SleepUntilMonotonicOrCancelled(start_mono, &run->cancel);
      const uint64_t woke_mono = MonotonicNanos();
      const int64_t actual =
          RealtimeNanos() -
          (woke_mono > start_mono ? static_cast<int64_t>(woke_mono - start_mono) : 0);
      serial.Call([&](RunEventSink& s) { return s.OnStarted(actual); });
      started_sent = true;
    }
    for (auto& t : threads) t.join();
    for (size_t i = begin; i < end; ++i) {
      if (!results[i].ok()) continue;
      for (const JobResult& result : *results[i]) {
        if (!serial.Call(
                [&](RunEventSink& s) { return s.OnJobResult(static_cast<int>(i), result); })) {
          run->cancel.store(true);
        }
      }
    }
    begin = end;
  }
  done.store(true);
  watcher.join();
  const bool cancelled = run->cancel.load();
  serial.Call([&](RunEventSink& s) { return s.OnFinished(RealtimeNanos(), cancelled); });
  const bool lease_lost = serial.broken();  // the end too may find the lease gone
  {
    absl::MutexLock lock(&mu_);
    run->running = false;
    run->ran = true;
    if (lease_lost) {
      // The coordinator is gone: nobody will call Cleanup. The run is forgotten in the same step
      // that ends it, so no Cleanup or reaper can take it and remove its files alongside this
      // thread (below).
      runs_.erase(run_id);
    } else if (config_.prepared_lease_ns > 0) {
      // Now waiting for Cleanup: a coordinator that died after the run still gets its files
      // removed.
      run->lease_end_ns = MonotonicNanos() + config_.prepared_lease_ns;
    }
  }
  if (lease_lost) {
    run->RemoveFiles(nullptr);
    return absl::CancelledError(absl::StrCat(
        "run '", run_id, "': the coordinator's stream broke; run cancelled, files removed"));
  }
  for (auto& r : results) {
    if (!r.ok() && r.status().code() != absl::StatusCode::kUnknown) return r.status();
  }
  return absl::OkStatus();
}

absl::StatusOr<bool> Runner::Proceed(const std::string& run_id, int phase_index,
                                     int64_t start_at_realtime_ns) {
  RETURN_IF_ERROR(CheckStartAhead(start_at_realtime_ns));
  std::shared_ptr<PreparedRun> run;
  {
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) {
      return absl::NotFoundError(absl::StrCat("run '", run_id, "' is not known to this agent"));
    }
    run = it->second;
  }
  absl::MutexLock lock(&run->barrier_mu);
  const bool waiting = run->reported && run->barrier_seq == phase_index;
  if (phase_index > run->released) {
    run->released = phase_index;
    run->release_at_realtime_ns = start_at_realtime_ns;
  }
  return waiting;
}

bool Runner::Cancel(const std::string& run_id) {
  absl::MutexLock lock(&mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end() || it->second->preparing) return false;
  it->second->cancel.store(true);
  return it->second->running;
}

absl::Status Runner::Renew(const std::string& run_id, uint64_t lease_ns) {
  absl::MutexLock lock(&mu_);
  auto it = runs_.find(run_id);
  if (it == runs_.end()) {
    return absl::NotFoundError(
        absl::StrCat("run '", run_id, "' is not known to this agent (never prepared, or expired)"));
  }
  const uint64_t lease = lease_ns > 0 ? lease_ns : config_.prepared_lease_ns;
  if (lease > 0) it->second->lease_end_ns = MonotonicNanos() + lease;
  return absl::OkStatus();
}

std::vector<std::string> Runner::ReapExpired(uint64_t now_monotonic_ns) {
  std::vector<std::pair<std::string, std::shared_ptr<PreparedRun>>> expired;
  {
    absl::MutexLock lock(&mu_);
    for (auto it = runs_.begin(); it != runs_.end();) {
      const PreparedRun& run = *it->second;
      if (!run.running && !run.preparing && run.lease_end_ns != 0 &&
          run.lease_end_ns < now_monotonic_ns) {
        expired.emplace_back(it->first, it->second);
        it = runs_.erase(it);
      } else {
        ++it;
      }
    }
  }
  std::vector<std::string> ids;
  for (auto& [id, run] : expired) {
    int removed = 0;
    run->RemoveFiles(&removed);
    spdlog::warn(
        "run {}: its lease expired before {} (the coordinator is gone?); forgot it and "
        "removed {} files",
        id, run->ran ? "Cleanup" : "Run", removed);
    ids.push_back(id);
  }
  return ids;
}

void Runner::ReapLoop() {
  const absl::Duration tick = absl::Nanoseconds(config_.reap_interval_ns);
  while (true) {
    {
      absl::MutexLock lock(&mu_);
      if (mu_.AwaitWithTimeout(absl::Condition(&stopping_), tick)) return;
    }
    ReapExpired(MonotonicNanos());
  }
}

void Runner::CancelAll() {
  absl::MutexLock lock(&mu_);
  for (auto& [id, run] : runs_) run->cancel.store(true);
}

void Runner::SetJobPolicy(JobPolicy policy) {
  absl::MutexLock lock(&mu_);
  config_.policy = std::move(policy);
}

void Runner::SetMaxConcurrentRuns(uint64_t max_concurrent_runs) {
  absl::MutexLock lock(&mu_);
  config_.max_concurrent_runs = max_concurrent_runs;
}

absl::StatusOr<int> Runner::Cleanup(const std::string& run_id, bool remove_files) {
  std::shared_ptr<PreparedRun> run;
  {
    absl::MutexLock lock(&mu_);
    auto it = runs_.find(run_id);
    if (it == runs_.end()) {
      return absl::NotFoundError(absl::StrCat("run '", run_id, "' is not known to this agent"));
    }
    if (it->second->running) {
      return absl::FailedPreconditionError(
          absl::StrCat("run '", run_id, "' is running; cancel it first"));
    }
    if (it->second->preparing) {
      return absl::FailedPreconditionError(absl::StrCat(
          "run '", run_id, "' is still being prepared; clean it up once Prepare answered"));
    }
    run = it->second;
    runs_.erase(it);
  }
  int removed = 0;
  if (remove_files) run->RemoveFiles(&removed);
  return removed;
}

}  // namespace azbench
