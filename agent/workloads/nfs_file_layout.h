// Laying out a job's files over NFS (ioengine=nfs), by the rules of LayOutFiles
// (agent/workloads/file_layout.h: an existing file long enough is reused, a job that reads gets
// its files filled with data, a write-only job gets them extended sparsely, files this call
// created are removed again when it fails). Paths are beneath the job's nfs_url export
// (NfsPathOf), on a connection of the layout's own; directories missing on the way are created
// (the per-agent subdirectory).
//
//   ASSIGN_OR_RETURN(files, LayOutNfsFiles(spec.nfs_url, requests, filler, cancel));
#ifndef AZBENCH_AGENT_WORKLOADS_NFS_FILE_LAYOUT_H_
#define AZBENCH_AGENT_WORKLOADS_NFS_FILE_LAYOUT_H_

#include <atomic>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/buffer_pool.h"
#include "agent/workloads/file_layout.h"

namespace azbench {

// Errors: those of MountNfsExport (agent/engines/nfs_engine.h); FailedPrecondition when a path
// names something that is not a regular file or a directory on the way is not one;
// PermissionDenied, ResourceExhausted (ENOSPC, EDQUOT), Internal for other errors, each naming the
// path; Cancelled when `cancel` is set before a file.
absl::StatusOr<std::vector<LaidOutFile>> LayOutNfsFiles(std::string_view nfs_url,
                                                        const std::vector<LayoutRequest>& requests,
                                                        BufferPool& filler,
                                                        const std::atomic<bool>* cancel = nullptr);

// Removes, over NFS, the files that a layout created. Returns the first error.
absl::Status RemoveCreatedNfsFiles(std::string_view nfs_url, const std::vector<LaidOutFile>& files);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_NFS_FILE_LAYOUT_H_
