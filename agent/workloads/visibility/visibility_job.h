// The `visibility` workload as an agent job: what the runner calls for a JobRequest whose workload
// is "visibility" (the block_io path is untouched). Prepare parses and validates the options; Run
// runs the probe at the run's start instant and returns a JobResult (op kind `probe`, see
// agent/workloads/visibility/visibility_result.h) plus the per-trial raw records, with the mount
// that holds the target (device, type, options such as actimeo / noac / lookupcache) recorded as a
// warning so every result carries the mount-option set it was measured with.
//
//   ASSIGN_OR_RETURN(VisibilityJob job, PrepareVisibilityJob("export", request.options,
//   "local-1")); ASSIGN_OR_RETURN(VisibilityJobOutput out, RunVisibilityJob(job, nullptr, start_ns,
//   cancelled));
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_JOB_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_JOB_H_

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/s3/role_credentials.h"
#include "agent/workloads/visibility/visibility_spec.h"
#include "common/job_result.h"

namespace azbench {

struct VisibilityJob {
  std::string name;
  VisibilitySpec spec;
  // The target path (the mount root as the bucket sees it); probes are NOT moved into a per-agent
  // subdirectory, because file paths must map to S3 keys. The agent id goes into the probe's
  // rel_dir instead (except for client_to_client writer/reader roles, which share one directory).
  std::string directory;
  // `directory` and `read_dir` opened (OpenVisibilityDirs); not valid: opened by path at Run.
  VisibilityBaseDirs dirs;
  // Options accepted but ignored (kVisibilityIgnoredOptions); a client_to_client probe whose reader
  // is its writer (role local, no read_dir) says its figure is not cross-client visibility.
  std::vector<std::string> warnings;
};

// fio keys the coordinator (or a one-shot run's command line) may give a visibility job that do not
// apply to a probe: accepted, and ignored with a warning. The one list PrepareVisibilityJob and the
// one-shot command's up-front check (ValidateFamilyJobArgs) both follow.
inline constexpr std::array<std::string_view, 4> kVisibilityIgnoredOptions = {
    "runtime", "time_based", "stonewall", "name"};

inline bool VisibilityIgnoresOption(std::string_view key) {
  return std::find(kVisibilityIgnoredOptions.begin(), kVisibilityIgnoredOptions.end(), key) !=
         kVisibilityIgnoredOptions.end();
}

// Options: the visibility options (visibility_spec.h) plus `directory` (required; the campaign
// sets it from the target). kVisibilityIgnoredOptions are ignored with a warning. Errors:
// InvalidArgument naming the job and the option.
absl::StatusOr<VisibilityJob> PrepareVisibilityJob(
    const std::string& name, const std::vector<std::pair<std::string, std::string>>& options,
    const std::string& agent_subdir);

// Opens the directories the probe works in and keeps them open for the job (job.dirs): the
// job's `directory` and, for client_to_client, `read_dir` -- through the sandbox beneath
// `allowed_roots` when they are given (agent/confinement/sandbox.h; roots that do not exist are
// skipped), else as the paths are -- and walks the S3 probes' `rel_dir` (with the agent's
// subdirectory) as far as it exists, refusing a symlink or '..' at any component (probe_dir.h). A
// client_to_client reader's directory that does not exist yet is not an error: its deepest existing
// ancestor is opened the same way and the reader looks for the rest on each poll
// (job.dirs.read_pending). Errors name the job, the field and the path; nothing is created beyond
// the job's directory (made when a writing probe needs it and no roots are given).
absl::Status OpenVisibilityDirs(VisibilityJob& job, const std::vector<std::string>& allowed_roots);

struct VisibilityJobOutput {
  JobResult result;
  std::vector<OpRecord> records;  // one per trial, for the op_log stream
  VisibilityResult probe;         // the full outcome (timeline included)
};

// Runs the probe; start_at_realtime_ns is the instant on this agent's clock (0 = now). `metadata`
// may be null (no instance-role credentials). `mountinfo_path` is for tests.
absl::StatusOr<VisibilityJobOutput> RunVisibilityJob(
    const VisibilityJob& job, s3::MetadataSource* metadata, int64_t start_at_realtime_ns,
    std::function<bool()> cancelled, const std::string& mountinfo_path = "/proc/self/mountinfo");

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_JOB_H_
