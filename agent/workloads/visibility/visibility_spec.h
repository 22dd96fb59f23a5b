// The `visibility` workload's settings, parsed from a campaign workload's options (key/value text,
// the same units as fio: 4k, 500ms, 5s), and the one entry point that runs the chosen probe against
// a target directory (the mount). Defaults follow study D per probe.
//
//   ASSIGN_OR_RETURN(VisibilitySpec spec, ParseVisibilityOptions({{"probe", "export"},
//                                                                 {"bucket", "my-bucket"}}));
//   ASSIGN_OR_RETURN(VisibilityResult r, RunVisibility(spec, "/mnt/s3files", nullptr, clock, {}));
//
// Options (all but `probe` optional; `bucket` required for every probe but client_to_client):
//   probe               client_to_client | export | import | append | conflict
//   trials, spacing, poll_interval, timeout     trial schedule (see trial_scheduler.h)
//   size                probe file/object size (default 1k; client_to_client 4k)
//   read_method         stat | open_read | readdir (client_to_client, import)
//   fsync, close, rename_into_place            writer options (client_to_client)
//   read_dir            the reader's view of the directory (client_to_client; default: the target)
//   nfs_url             client_to_client through libnfs: directory and read_dir lie beneath this
//                       export (common/nfs_url.h), reached with no kernel mount
//   role                client_to_client: local (writer and reader here, default) | writer | reader
//   bucket, key_prefix  where the mount's files appear in S3: <key_prefix><rel_dir>/<name>
//                       (key_prefix empty or ending in '/')
//   rel_dir, run_id     probe file sub-directory (default azbench-visibility) and name prefix
//   append_interval, append_duration           continuous append (default 5s for 115s)
//   put_delay, lost_found_pattern              conflict (default 10s, ".s3files-lost+found-*")
//   s3_region, s3_endpoint, s3_path_style, s3_profile, s3_credentials_file   S3 client settings
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_SPEC_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_SPEC_H_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "agent/s3/role_credentials.h"
#include "agent/s3/s3_client.h"
#include "agent/workloads/visibility/visibility.h"

namespace azbench {

enum class VisibilityProbe { kClientToClient, kExport, kImport, kAppend, kConflict };
// client_to_client across agents: one agent writes, the others read (see visibility.h).
enum class VisibilityRole { kLocal, kWriter, kReader };
const char* VisibilityProbeName(VisibilityProbe probe);

struct VisibilitySpec {
  VisibilityProbe probe = VisibilityProbe::kExport;
  TrialSchedule schedule;
  size_t size_bytes = 1024;
  VisibilityReadMethod read_method = VisibilityReadMethod::kOpenRead;
  ProbeWriteOptions write;
  std::string read_dir;
  VisibilityRole role = VisibilityRole::kLocal;
  S3ProbeTarget target;  // mount_dir is filled in by RunVisibility
  absl::Duration append_interval = absl::Seconds(5);
  absl::Duration append_duration = absl::Seconds(115);
  absl::Duration put_delay = absl::Seconds(10);
  std::string lost_found_pattern = ".s3files-lost+found-*";
  s3::S3ClientOptions s3;
  std::string s3_profile;
  std::string s3_credentials_file;
  // client_to_client on an NFS export through libnfs (no kernel mount): `directory` and read_dir
  // are paths beneath it. Empty: they are mounted directories.
  std::string nfs_url;
};

// Errors: InvalidArgument naming the option and what is allowed (unknown option, bad value,
// missing probe or bucket, an option the probe would ignore, put_delay >= timeout; the rules of
// ValidateVisibilityOptions in common/workload_spec.h).
absl::StatusOr<VisibilitySpec> ParseVisibilityOptions(
    const std::vector<std::pair<std::string, std::string>>& options);

// The probe's base directories, opened before the run (the agent opens them through its sandbox,
// agent/workloads/visibility/visibility_job.h); one that is not valid is opened from its path when
// the probe starts.
struct VisibilityBaseDirs {
  ProbeDir directory;  // the job's `directory` (the mount)
  ProbeDir read_dir;   // client_to_client: the `read_dir` option, when given
  // A client_to_client reader's directory (read_dir, else directory) that did not exist when they
  // were opened: the reader looks for it on each poll (PendingProbeDir).
  PendingProbeDir read_pending;
};

// Runs spec.probe on `directory` (through dirs.directory when it is open). S3 credentials come
// from the default chain (environment, profile file, then the instance role through `metadata`
// when it is not null). `start_at` is the run's start instant on this agent's clock
// (InfinitePast: now); the client_to_client writer and reader halves schedule trial i at
// start_at + i * spacing. `cancelled` is optional.
absl::StatusOr<VisibilityResult> RunVisibility(const VisibilitySpec& spec,
                                               const std::string& directory,
                                               s3::MetadataSource* metadata, ProbeClock& clock,
                                               std::function<bool()> cancelled,
                                               absl::Time start_at = absl::InfinitePast(),
                                               const VisibilityBaseDirs& dirs = {});

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_VISIBILITY_SPEC_H_
