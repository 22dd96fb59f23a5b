// Runner's half of Prepare that knows the workload families: parses each job request by its family
// (errors name the job and the option) and lays out its files, through the job policy when the
// agent enforces one. The id reservation around it is in runner.cc (PrepareAll).
#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <type_traits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/runner/runner.h"
#include "agent/runner/runner_internal.h"
#include "agent/workloads/block_io/block_io_workload.h"
#include "agent/workloads/large_stream/large_stream.h"
#include "agent/workloads/metadata/metadata.h"
#include "agent/workloads/small_files/small_files.h"
#include "agent/workloads/visibility/visibility_workload.h"
#include "common/job_spec.h"
#include "common/status_macros.h"
#include "common/workload_spec.h"

namespace azbench {

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
      job = st.ok() ? AsWorkload(BlockIoJob::Prepare(spec, group_id, CreateEngine, &run->cancel))
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

}  // namespace azbench
