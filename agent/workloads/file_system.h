// The file-system backend under the metadata, small_files and large_stream families: the calls
// they time, on a mounted directory (POSIX) or beneath an NFS export through libnfs with no kernel
// mount. Each call answers as the POSIX call of its name does (>= 0 on success, -errno on
// failure), so a family times and records an op the same way on either backend.
//
// One FileSystem serves one thread at a time: a libnfs connection is not shared between threads,
// so every clone opens its own (OpenFileSystem), untimed, before the run.
//
//   ASSIGN_OR_RETURN(std::unique_ptr<FileSystem> fs, OpenFileSystem(spec.nfs_url));
//   const int64_t file = fs->Open(path, O_CREAT | O_TRUNC | O_WRONLY);  // >= 0: a handle
#ifndef AZBENCH_AGENT_WORKLOADS_FILE_SYSTEM_H_
#define AZBENCH_AGENT_WORKLOADS_FILE_SYSTEM_H_

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace azbench {

struct FileStat {
  bool is_directory = false;
  bool is_regular = false;
  uint64_t size_bytes = 0;
};

class FileSystem {
 public:
  virtual ~FileSystem() = default;

  // open(2) with `flags` made of O_RDONLY, O_WRONLY, O_RDWR, O_CREAT, O_EXCL, O_TRUNC and O_DIRECT
  // (a file created gets mode 0644): a handle >= 0 for the calls below, or -errno. NFS: O_DIRECT
  // is -EINVAL (libnfs keeps no page cache to bypass).
  virtual int64_t Open(const std::string& path, int flags) = 0;
  // Bytes read or written (a short count is the caller's to judge), or -errno.
  virtual int64_t Pread(int64_t handle, void* buffer, size_t length, uint64_t offset) = 0;
  virtual int64_t Pwrite(int64_t handle, const void* buffer, size_t length, uint64_t offset) = 0;
  virtual int64_t Fsync(int64_t handle) = 0;
  // The handle is gone after this call, whatever it answers.
  virtual int64_t Close(int64_t handle) = 0;
  // stat(2), following a symlink as it does.
  virtual int64_t Stat(const std::string& path, FileStat* out) = 0;
  virtual int64_t Rename(const std::string& from, const std::string& to) = 0;
  virtual int64_t Unlink(const std::string& path) = 0;
  virtual int64_t Mkdir(const std::string& path) = 0;  // mode 0755
  virtual int64_t Rmdir(const std::string& path) = 0;

  // Writes back what is dirty of `path` and drops the pages this client caches of it, so the next
  // read reaches storage (untimed). NFS through libnfs: nothing to do, as nothing is cached.
  virtual void DropCache(const std::string& path) = 0;
  // `path` as a message shows it: the path itself, or "nfs://<server><path beneath the export>".
  virtual std::string Display(const std::string& path) const = 0;
};

// A FileSystem on the paths of this host.
std::unique_ptr<FileSystem> MakePosixFileSystem();
// A FileSystem beneath the export of `nfs_url` (common/nfs_url.h) on a libnfs connection of its
// own. Paths are beneath the export (agent/engines/nfs_engine.h NfsPathOf: "a/b" is "/a/b"); the
// export bounds what it reaches, and the agent checks the server against allowed_nfs_servers
// before (agent/confinement/job_confinement.h). Errors: MountNfsExport's (InvalidArgument,
// Unavailable).
absl::StatusOr<std::unique_ptr<FileSystem>> MakeNfsFileSystem(std::string_view nfs_url);
// `path` as the NFS backend names it beneath the export: absolute, with no empty component (a
// directory "/" with the agent subdirectory appended arrives as "//agent-1": "/agent-1").
std::string NfsExportPath(std::string_view path);
// MakeNfsFileSystem when `nfs_url` is set, else MakePosixFileSystem.
absl::StatusOr<std::unique_ptr<FileSystem>> OpenFileSystem(std::string_view nfs_url);

// The status of a failed call (`rc` = -errno) as the families' Prepare reports it, naming the
// call and the path: FailedPrecondition (ENOENT, ENOTDIR), PermissionDenied (EACCES, EPERM, EROFS),
// ResourceExhausted (ENOSPC, EDQUOT), Internal otherwise.
absl::Status FileSystemError(const FileSystem& fs, std::string_view call, const std::string& path,
                             int64_t rc);

// Creates `directory` and the directories missing on the way to it (mkdir -p), appending to
// `created` each one this call made, parents first. A component that exists and is no directory
// is FailedPrecondition; other errors as FileSystemError.
absl::Status MakeDirectories(FileSystem& fs, const std::string& directory,
                             std::vector<std::string>& created);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_FILE_SYSTEM_H_
