// What the serving agent checks on every job before it lays out a single byte: the paths stay
// beneath the allowed roots (agent/confinement/sandbox.h), the files are plain files (no symlink,
// device or FIFO under a job's name), the resource limits hold (JobLimits below) and the layout
// leaves min_free_space free. A job that fails a check is refused with the number or the path and
// the roots; nothing is created.
//
// The confined job's paths are rewritten to go through the directory descriptors opened here
// ("/proc/self/fd/N/name"), so a directory swapped for a symlink after the check changes nothing;
// ConfinedJob keeps the descriptors open for the life of the run and maps the paths back for
// messages (DisplayPath / DisplayText). A job is described by what it lays out (JobFootprint) and
// the paths it names (JobPaths), so every workload family is checked the same way.
//
//   JobPaths paths{.directory = "/mnt/fs"};
//   ASSIGN_OR_RETURN(ConfinedJob confined, ConfineJob("j", {.files = 1, .bytes = 1 << 20}, paths,
//                                                     policy, "agent-1"));
//   // paths.directory now names the opened directory
#ifndef AZBENCH_AGENT_CONFINEMENT_JOB_CONFINEMENT_H_
#define AZBENCH_AGENT_CONFINEMENT_JOB_CONFINEMENT_H_

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/confinement/sandbox.h"

namespace azbench {

struct JobLimits {
  uint64_t max_jobs_per_run = 256;     // numjobs clones over all jobs of a run (one thread each)
  uint64_t max_files_per_job = 65536;  // distinct files of one job (all clones)
  uint64_t max_job_size_bytes = 0;     // bytes laid out by one job (all files); 0 = no limit
  uint64_t max_message_size_bytes = 4 << 20;  // largest gRPC request the agent accepts
  bool operator==(const JobLimits&) const = default;
};

struct JobPolicy {
  std::vector<std::string> allowed_roots;  // empty: every job that uses files is refused
  uint64_t min_free_space_bytes = 0;
  JobLimits limits;
  // NFS servers jobs may reach (ioengine=nfs): IPv4/IPv6 addresses and CIDR blocks, as
  // ParseNfsServerRule reads them. Empty: every NFS job is refused.
  std::vector<std::string> allowed_nfs_servers;
};

// What a job lays out, as the limits and the free-space check count it.
struct JobFootprint {
  uint64_t clones = 1;  // threads (numjobs)
  uint64_t files = 1;   // distinct files over all clones
  uint64_t bytes = 0;   // bytes laid out over all files
  // How `files` is made up, for a refusal ("nrfiles 4 x numjobs 2"); empty: not said.
  std::string files_formula;
};

// The paths a job names. ConfineJob rewrites `directory` and `filename` to go through the
// directories it opened.
struct JobPaths {
  // Relative to the agent's working directory when not absolute (as fio); empty: that directory.
  std::string directory;
  // fio's ':'-separated file list, each name absolute or in `directory`; empty: the job's files
  // are in `directory`.
  std::string filename;
  // Every path of the job's files, given `directory` as confined so far (the agent subdirectory
  // appended), asked for once the counts passed; a path may repeat. Each must be absent or a plain
  // file, and only what it lacks counts against the free space. With `filename`, the paths are its
  // entries, in order. Unset: the family makes its own names beneath `directory`; only the
  // directory is opened and all of JobFootprint::bytes counts.
  std::function<std::vector<std::string>(const std::string& directory)> file_paths;
  bool opens_files = true;  // false (the null engine): only the limits apply
  // The NFS server the job's files are on (ioengine=nfs: the nfs_url's server); empty: local
  // files. Then `directory` and `filename` are paths beneath the export: none of the local checks
  // applies, the server must be in allowed_nfs_servers, and the agent subdirectory is only
  // appended (the NFS layout creates it).
  std::string nfs_server;
};

struct ConfinedJob {
  std::vector<ConfinedDir> dirs;          // open for the life of the run
  std::vector<std::string> created_dirs;  // real paths this call created (the agent subdirectory)
  // "/proc/self/fd/N" -> the directory as the job named it.
  std::vector<std::pair<std::string, std::string>> aliases;
  bool disk_util = true;  // the run reports the disks beneath dirs (fio's disk_util)

  std::string DisplayText(std::string text) const;
};

// Checks job `job_name`'s footprint and paths against `policy` and rewrites the paths (see above).
// `agent_subdir`, when set, is appended to a `directory` without `filename` and created beneath it
// if missing, as the runner does. Errors: PermissionDenied (outside the roots, a symlink or '..'
// escape, a crossing into another mount, a file name with '/', an existing symlink or non-regular
// file, an NFS server not in allowed_nfs_servers), FailedPrecondition (no allowed_roots configured,
// or no allowed_nfs_servers for an NFS job, the directory missing or relative),
// ResourceExhausted (a limit or the free space; the message has the numbers).
absl::StatusOr<ConfinedJob> ConfineJob(const std::string& job_name, const JobFootprint& footprint,
                                       JobPaths& paths, const JobPolicy& policy,
                                       const std::string& agent_subdir);

// Whether an allowed_nfs_servers entry is well formed: an IPv4 or IPv6 address, or one with a
// prefix length ("10.0.0.0/16", "fd00::/8"). InvalidArgument saying what is allowed.
absl::Status ParseNfsServerRule(const std::string& rule);

// Whether job `job_name` may reach NFS server `server` (the nfs_url's server: an address; a name
// is refused, since the check cannot know what it resolves to when the engine connects).
// PermissionDenied naming the server and the allowed list; FailedPrecondition when the list is
// empty.
absl::Status CheckNfsServerAllowed(const std::string& job_name, const std::string& server,
                                   const std::vector<std::string>& allowed_nfs_servers);

// The limits of one job: its clones and its files. ResourceExhausted with the numbers. ConfineJob
// checks them first; a family whose file names are costly to make may check them before.
absl::Status CheckJobLimits(const std::string& job_name, const JobFootprint& footprint,
                            const JobLimits& limits);

// The limit on numjobs clones over all jobs of one run. ResourceExhausted with both numbers.
absl::Status CheckRunJobCount(uint64_t clones, const JobLimits& limits);

}  // namespace azbench

#endif  // AZBENCH_AGENT_CONFINEMENT_JOB_CONFINEMENT_H_
