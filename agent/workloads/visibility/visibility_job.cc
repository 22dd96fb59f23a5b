#include "agent/workloads/visibility/visibility_job.h"

#include <fcntl.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <filesystem>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "agent/confinement/sandbox.h"
#include "agent/host/mounts.h"
#include "agent/workloads/visibility/probe_clock.h"
#include "agent/workloads/visibility/visibility_result.h"
#include "common/clock.h"
#include "common/status_macros.h"

namespace azbench {

absl::StatusOr<VisibilityJob> PrepareVisibilityJob(
    const std::string& name, const std::vector<std::pair<std::string, std::string>>& options,
    const std::string& agent_subdir) {
  VisibilityJob job;
  job.name = name;
  std::vector<std::pair<std::string, std::string>> probe_options;
  for (const auto& [key, value] : options) {
    if (key == "directory") {
      job.directory = value;
    } else if (VisibilityIgnoresOption(key)) {
      job.warnings.push_back(
          absl::StrCat("job '", name, "': option ", key, " does not apply to visibility probes"));
    } else {
      probe_options.emplace_back(key, value);
    }
  }
  if (job.directory.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("job '", name, "': visibility needs a directory (the target's mount path)"));
  }
  absl::StatusOr<VisibilitySpec> spec = ParseVisibilityOptions(probe_options);
  if (!spec.ok()) {
    return absl::Status(spec.status().code(),
                        absl::StrCat("job '", name, "': ", spec.status().message()));
  }
  job.spec = *std::move(spec);
  // The probe's files are <directory>/<rel_dir>/<run_id>-<probe>-<n>: neither piece may lead out
  // of the directory the policy checked.
  absl::Status piece = CheckRelativePath(job.spec.target.rel_dir, "rel_dir");
  if (piece.ok() && !job.spec.target.run_id.empty()) {
    piece = CheckFileName(job.spec.target.run_id, "run_id");
  }
  if (!piece.ok()) {
    return absl::Status(piece.code(), absl::StrCat("job '", name, "': ", piece.message()));
  }
  if (job.spec.probe == VisibilityProbe::kClientToClient &&
      job.spec.role == VisibilityRole::kLocal && job.spec.read_dir.empty()) {
    // Starts with "client_to_client: " so the HTML report puts it under the probe's table.
    job.warnings.push_back(
        "client_to_client: NOT cross-client visibility: the writer and the reader are one client "
        "(role local, no read_dir: one agent, or role: local) and the reader polls the writer's "
        "own directory through the writer's own dentry, attribute and page cache, so the latency "
        "is how fast a client sees its own write; run two or more agents, or set read_dir to a "
        "second mount of the same data");
  }
  const bool shared_dir =
      job.spec.probe == VisibilityProbe::kClientToClient && job.spec.role != VisibilityRole::kLocal;
  if (!agent_subdir.empty() && !shared_dir) {
    job.spec.target.rel_dir = job.spec.target.rel_dir.empty()
                                  ? agent_subdir
                                  : absl::StrCat(job.spec.target.rel_dir, "/", agent_subdir);
  }
  return job;
}

namespace {

absl::StatusOr<ProbeDir> OpenBase(const std::string& path, const std::string& field, bool create,
                                  const std::vector<std::string>& allowed_roots) {
  if (allowed_roots.empty()) return ProbeDir::Open(path, field, create);
  std::vector<std::string> existing;
  for (const std::string& root : allowed_roots) {
    std::error_code ec;
    if (std::filesystem::is_directory(root, ec)) existing.push_back(root);
  }
  ASSIGN_OR_RETURN(const Sandbox sandbox, Sandbox::Create(existing));
  absl::StatusOr<ConfinedDir> dir = sandbox.OpenDirectory(path, /*create_missing=*/false);
  if (!dir.ok()) {
    return absl::Status(dir.status().code(), absl::StrCat(field, ": ", dir.status().message()));
  }
  const int fd = fcntl(dir->fd(), F_DUPFD_CLOEXEC, 0);
  if (fd < 0) return absl::InternalError(absl::StrCat(field, " '", path, "': dup failed"));
  return ProbeDir::Adopt(fd, path);
}

}  // namespace

absl::Status OpenVisibilityDirs(VisibilityJob& job, const std::vector<std::string>& allowed_roots) {
  const VisibilitySpec& spec = job.spec;
  // Beneath an NFS export there is no local directory to open: the probe's libnfs connection
  // reaches the paths, bounded by the export (the server was checked against allowed_nfs_servers).
  if (!spec.nfs_url.empty()) return absl::OkStatus();
  const bool c2c = spec.probe == VisibilityProbe::kClientToClient;
  // Which directories the probe uses, and whether it writes into `directory` (then it may create
  // it, as the probes always did).
  const bool reads_elsewhere = c2c && !spec.read_dir.empty();
  const bool uses_directory = !(c2c && spec.role == VisibilityRole::kReader && reads_elsewhere);
  const bool writes =
      c2c ? spec.role != VisibilityRole::kReader : spec.probe != VisibilityProbe::kImport;
  auto named = [&](const absl::Status& s) {
    if (absl::IsPermissionDenied(s))
      spdlog::warn("sandbox: refused job '{}': {}", job.name, std::string(s.message()));
    return absl::Status(s.code(), absl::StrCat("job '", job.name, "': ", s.message()));
  };
  // A client_to_client reader's directory may not exist yet (the writer, on another client,
  // creates it; over NFS this client may see it late): its deepest existing ancestor is opened
  // the same way and the reader looks for the rest on each poll.
  const bool reader = c2c && spec.role == VisibilityRole::kReader;
  auto open_reader_dir = [&](const std::string& path, const std::string& field,
                             ProbeDir& opened) -> absl::Status {
    absl::StatusOr<PendingProbeDir> dir = OpenOrAncestor(path, field, [&](const std::string& p) {
      return OpenBase(p, field, /*create=*/false, allowed_roots);
    });
    if (!dir.ok()) return named(dir.status());
    if (dir->rest.empty()) {
      opened = std::move(dir->ancestor);
    } else {
      job.dirs.read_pending = *std::move(dir);
    }
    return absl::OkStatus();
  };
  if (uses_directory && reader) {
    RETURN_IF_ERROR(open_reader_dir(job.directory, "directory", job.dirs.directory));
  } else if (uses_directory) {
    absl::StatusOr<ProbeDir> dir = OpenBase(job.directory, "directory", writes, allowed_roots);
    if (!dir.ok()) return named(dir.status());
    job.dirs.directory = *std::move(dir);
  }
  if (reads_elsewhere && reader) {
    RETURN_IF_ERROR(open_reader_dir(spec.read_dir, "read_dir", job.dirs.read_dir));
  } else if (reads_elsewhere && spec.role != VisibilityRole::kWriter) {
    absl::StatusOr<ProbeDir> dir = OpenBase(spec.read_dir, "read_dir", false, allowed_roots);
    if (!dir.ok()) return named(dir.status());
    job.dirs.read_dir = *std::move(dir);
  }
  if (!c2c) {
    // Refused now, before anything is created; the probe walks it again (creating what is
    // missing) when it runs, so a symlink planted in between is refused then.
    absl::Status walked =
        job.dirs.directory.SubdirIfExists(spec.target.rel_dir, "rel_dir").status();
    if (!walked.ok()) return named(walked);
  }
  return absl::OkStatus();
}

absl::StatusOr<VisibilityJobOutput> RunVisibilityJob(const VisibilityJob& job,
                                                     s3::MetadataSource* metadata,
                                                     int64_t start_at_realtime_ns,
                                                     std::function<bool()> cancelled,
                                                     const std::string& mountinfo_path) {
  VisibilityJobOutput out;
  out.result.name = job.name;
  out.result.warnings = job.warnings;
  // Mount options beside the results: they decide the S3 -> FS latency (study D: acdirmin=30).
  absl::StatusOr<std::vector<MountEntry>> mounts = ReadMounts(mountinfo_path);
  std::optional<MountEntry> mount;
  if (mounts.ok() && job.spec.nfs_url.empty()) mount = FindMountFor(*mounts, job.directory);
  if (!job.spec.nfs_url.empty()) {
    out.result.warnings.push_back(absl::StrCat(
        "nfs_url ", job.spec.nfs_url,
        " through libnfs, no kernel mount: no attribute, lookup or page cache on this client, so "
        "every poll reaches the server and the latency shows the server and the network"));
  } else if (mount.has_value()) {
    std::vector<std::string> opts;
    for (const auto& [key, value] : mount->options) {
      opts.push_back(value.empty() ? key : absl::StrCat(key, "=", value));
    }
    out.result.warnings.push_back(absl::StrCat("mount ", mount->mount_point, " ", mount->fstype,
                                               " ", mount->source, " ", absl::StrJoin(opts, ",")));
  } else {
    out.result.warnings.push_back(
        absl::StrCat("mount of ", job.directory,
                     " unknown: ", mounts.ok() ? "no entry" : mounts.status().message()));
  }
  RealProbeClock clock;
  const absl::Time start_at =
      start_at_realtime_ns > 0 ? absl::FromUnixNanos(start_at_realtime_ns) : absl::InfinitePast();
  // In slices, so a run cancelled before its start instant does not wait for it (the probes look
  // at `cancelled` before each trial).
  while (start_at != absl::InfinitePast() && !(cancelled && cancelled()) &&
         clock.Now() < start_at) {
    clock.SleepUntil(std::min(start_at, clock.Now() + absl::Nanoseconds(kCancellableSleepSliceNs)));
  }
  // The job's start is its scheduled start when it has one (the common instant every agent's trial
  // i counts from), so start_realtime_ns + a record's start_ns is the trial's start on this clock.
  const absl::Time job_start = start_at != absl::InfinitePast() ? start_at : clock.Now();
  out.result.start_realtime_ns = absl::ToUnixNanos(job_start);
  const uint64_t start_ns = MonotonicNanos();
  absl::StatusOr<VisibilityResult> probe = RunVisibility(job.spec, job.directory, metadata, clock,
                                                         std::move(cancelled), start_at, job.dirs);
  out.result.runtime_ns = MonotonicNanos() - start_ns;
  out.result.end_realtime_ns = RealtimeNanos();
  if (!probe.ok()) {
    return absl::Status(probe.status().code(),
                        absl::StrCat("job '", job.name, "': ", probe.status().message()));
  }
  out.records = AddVisibilityToJobResult(*probe, job_start, &out.result);
  out.probe = *std::move(probe);
  return out;
}

}  // namespace azbench
