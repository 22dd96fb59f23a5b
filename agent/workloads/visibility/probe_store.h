// Where a client_to_client probe's files live, behind one small interface so the writer and reader
// halves (visibility.cc) run the same on a mounted directory (POSIX, through ProbeDir) and on an
// NFS export reached through libnfs with no kernel mount (visibility_nfs.cc). Each method has the
// meaning of the free functions in visibility.h: Write as WriteProbeFile, Visible as
// CheckProbeVisible.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<ProbeStore> s, MakeNfsProbeStore(url, "/vis", true));
//   ASSIGN_OR_RETURN(absl::Time written, s->Write("run-c2c-1", 1, write_options, clock));
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_STORE_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_STORE_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/workloads/visibility/probe_clock.h"
#include "agent/workloads/visibility/probe_dir.h"
#include "agent/workloads/visibility/visibility.h"

namespace azbench {

class ProbeStore {
 public:
  virtual ~ProbeStore() = default;
  // Writes probe content with `sequence` to the file `name` (fsync, close and rename into place as
  // `options` ask) and returns the instant the write returned. With !options.close the file stays
  // open until CloseHeld(). Errors name the path and the failed call; a name held by a symlink, a
  // non-regular file or a file with another link is refused (PermissionDenied).
  virtual absl::StatusOr<absl::Time> Write(const std::string& name, uint64_t sequence,
                                           const ProbeWriteOptions& options, ProbeClock& clock) = 0;
  // Whether `name` is visible the way `method` sees it (CheckProbeVisible). A directory that does
  // not exist yet is "not visible yet", not an error.
  virtual absl::StatusOr<bool> Visible(const std::string& name, uint64_t sequence,
                                       size_t size_bytes, VisibilityReadMethod method) = 0;
  // Whether files written with !close are still open.
  virtual bool HoldsOpen() const = 0;
  virtual void CloseHeld() = 0;
  // Removes `name`; a missing name is OK.
  virtual absl::Status Unlink(const std::string& name) = 0;
};

// A mounted directory already opened.
std::unique_ptr<ProbeStore> MakePosixProbeStore(ProbeDir dir);
// A reader's directory that may not exist yet (looked for again on each Visible).
std::unique_ptr<ProbeStore> MakePendingPosixProbeStore(PendingProbeDir pending);

// `directory` beneath the export of `nfs_url` (common/nfs_url.h), on a libnfs connection of the
// store's own: no kernel client, so no attribute, lookup or page cache between the probe and the
// server (docs/visibility.md). With `create`, missing directories on the way are made. The export
// is the bound of what the store reaches: the agent checks the server against allowed_nfs_servers
// before (agent/confinement/job_confinement.h). Errors: MountNfsExport's (InvalidArgument,
// Unavailable); FailedPrecondition when a component of `directory` is not a directory.
absl::StatusOr<std::unique_ptr<ProbeStore>> MakeNfsProbeStore(std::string_view nfs_url,
                                                              const std::string& directory,
                                                              bool create);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_STORE_H_
