// The `visibility` workload family behind the runner's Workload interface
// (agent/workloads/visibility/visibility_job.h does the work). Prepare adds what the runner knows
// about the run to the user's options:
//   - run_id: the coordinator's run id, the same on every agent of a scenario and new for every
//     run (so every repeat), so probe file and object names are unique per run and the
//     client_to_client halves agree; a user-given run_id becomes "<user run_id>-<run id>";
//   - role (client_to_client, when not given and the scenario has more than one agent): agent
//     index 0 is the writer, every other agent a reader of the same files, all starting trial i at
//     the run's start instant + i * spacing.
// No per-agent subdirectory is created (paths must map to S3 keys): the agent id goes into the
// probe's rel_dir instead (visibility_job.h). The probe's directories are opened here, once, and
// every file below them is reached through those descriptors without following a symlink
// (agent/workloads/visibility/probe_dir.h): a symlink at rel_dir or any component of it is refused
// here.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<Workload> w,
//                    MakeVisibilityWorkload(name, options, {"run-1", "agent-a", 0, 2, nullptr}));
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_WORKLOAD_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_WORKLOAD_H_

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/s3/role_credentials.h"
#include "agent/workloads/workload.h"

namespace azbench {

struct VisibilityRunContext {
  std::string run_id;        // default run_id option
  std::string agent_subdir;  // the agent id (rel_dir of the S3 probes); may be empty
  int agent_index = 0;
  int agent_count = 1;
  s3::MetadataSource* metadata = nullptr;  // instance-role credentials; may be null
};

// `allowed_roots`: the agent's roots when it enforces them; the probe's directory and read_dir are
// then opened through the sandbox beneath them (OpenVisibilityDirs), otherwise as given.
// Errors: InvalidArgument naming the job and the option (PrepareVisibilityJob); PermissionDenied
// naming the field and the path for a symlink on the probe's way (OpenVisibilityDirs).
absl::StatusOr<std::unique_ptr<Workload>> MakeVisibilityWorkload(
    const std::string& name, std::vector<std::pair<std::string, std::string>> options,
    const VisibilityRunContext& context, const std::vector<std::string>& allowed_roots = {});

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_WORKLOAD_H_
