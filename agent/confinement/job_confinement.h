// What the serving agent checks on every job before it lays out a single byte: the paths stay
// beneath the allowed roots (agent/confinement/sandbox.h), the files are plain files (no symlink,
// device or FIFO under a job's name), the resource limits hold (JobLimits below) and the layout
// leaves min_free_space free. A job that fails a check is refused with the number or the path and
// the roots; nothing is created.
//
// The confined job's paths are rewritten to go through the directory descriptors opened here
// ("/proc/self/fd/N/name"), so a directory swapped for a symlink after the check changes nothing;
// ConfinedJob keeps the descriptors open for the life of the run and maps the paths back for
// messages (DisplayPath / DisplayText).
//
//   ASSIGN_OR_RETURN(ConfinedJob confined, ConfineJob(spec, policy, "agent-1"));
//   // spec.directory / spec.filename now name the opened directories
#ifndef AZBENCH_AGENT_CONFINEMENT_JOB_CONFINEMENT_H_
#define AZBENCH_AGENT_CONFINEMENT_JOB_CONFINEMENT_H_

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/confinement/sandbox.h"
#include "common/job_spec.h"

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
};

struct ConfinedJob {
  std::vector<ConfinedDir> dirs;          // open for the life of the run
  std::vector<std::string> created_dirs;  // real paths this call created (the agent subdirectory)
  // "/proc/self/fd/N" -> the directory as the job named it.
  std::vector<std::pair<std::string, std::string>> aliases;

  std::string DisplayText(std::string text) const;
};

// Checks `spec` against `policy` and rewrites its paths (see above). `agent_subdir`, when set, is
// appended to a job's `directory` (no filename) and created beneath it if missing, as the runner
// does. Errors: PermissionDenied (outside the roots, a symlink or '..' escape, a crossing into
// another mount, a file name with '/', an existing symlink or non-regular file), FailedPrecondition
// (no allowed_roots configured, the directory missing or relative), ResourceExhausted (a limit or
// the free space; the message has the numbers). The null engine touches no file: only the limits
// apply to it.
absl::StatusOr<ConfinedJob> ConfineJob(JobSpec& spec, const JobPolicy& policy,
                                       const std::string& agent_subdir);

// The limit on numjobs clones over all jobs of one run. ResourceExhausted with both numbers.
absl::Status CheckRunJobCount(uint64_t clones, const JobLimits& limits);

}  // namespace azbench

#endif  // AZBENCH_AGENT_CONFINEMENT_JOB_CONFINEMENT_H_
