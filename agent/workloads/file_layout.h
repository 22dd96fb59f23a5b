// Laying out the files of a job before it runs (fio's "Laying out IO file"), and opening them for
// the run.
//
// A file that already exists with at least the needed size is reused as it is. Otherwise, as fio's
// layout: the file is preallocated as the request's fallocate mode says (JobSpec::fallocate), then
// a job that reads gets it filled with the job's buffer content (random data, so later reads are
// not of holes or zeros), while a write-only or trim job's file is left as the preallocation made
// it (fio without `overwrite`): full size with native, posix and truncate, empty blocks kept past
// its size with keep, as it was with none. Files this call created are removed again when it
// fails, so a failed layout leaves nothing behind.
#ifndef AZBENCH_AGENT_WORKLOADS_FILE_LAYOUT_H_
#define AZBENCH_AGENT_WORKLOADS_FILE_LAYOUT_H_

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/buffer_pool.h"
#include "common/job_spec.h"

namespace azbench {

struct LayoutRequest {
  std::string path;
  uint64_t required_bytes = 0;  // the file must be at least this long
  bool needs_data = false;      // fill with data (the job reads)
  // How the file is preallocated before anything else. Truncate (a sparse file of the size) for
  // the callers that are not fio jobs.
  FallocateMode fallocate = FallocateMode::kTruncate;
};

struct LaidOutFile {
  std::string path;
  bool created = false;   // this layout created the file (Cleanup removes it)
  bool extended = false;  // this layout grew an existing file
};

// Errors: FailedPrecondition when the parent directory is missing or not a directory; the errno's
// code (LayoutErrorCode) when fallocate=keep or truncate fails, naming the mode;
// PermissionDenied on EACCES/EROFS (read-only target); ResourceExhausted on ENOSPC/EDQUOT, naming
// the path and how far the layout got; Internal for other errno values, with the text. Cancelled
// when `cancel` (may be null) is set before a file (SIGTERM, SIGINT): checked between files.
absl::StatusOr<std::vector<LaidOutFile>> LayOutFiles(const std::vector<LayoutRequest>& requests,
                                                     BufferPool& filler,
                                                     const std::atomic<bool>* cancel = nullptr);

// The size fio reads for `path`: a regular file's st_size, a block device's size; 0 when the path
// does not exist. Errors: InvalidArgument for another kind of file (a directory, a FIFO);
// PermissionDenied or Internal, with the path and the errno text, when it cannot be read.
absl::StatusOr<uint64_t> ExistingFileBytes(const std::string& path);

// Opens a laid-out file for the run. Errors: InvalidArgument when O_DIRECT is refused (EINVAL, e.g.
// ramfs), naming the path; PermissionDenied; NotFound; Internal.
absl::StatusOr<int> OpenForRun(const std::string& path, bool read, bool write, bool direct);

// Drops the file's cached pages (fio's invalidate=1). Best effort: a file system that ignores the
// advice (tmpfs) is not an error.
void InvalidateCache(int fd);

// The status code of a layout step that failed with `errno_value` (local or, negated, from
// libnfs): PermissionDenied (EACCES, EPERM, EROFS), ResourceExhausted (ENOSPC, EDQUOT), NotFound
// (ENOENT), else Internal.
absl::StatusCode LayoutErrorCode(int errno_value);

// Removes the files that a layout created. Returns the first error (others are still attempted).
absl::Status RemoveCreatedFiles(const std::vector<LaidOutFile>& files);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_FILE_LAYOUT_H_
