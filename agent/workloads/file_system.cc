#include "agent/workloads/file_system.h"

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "common/errno_text.h"

namespace azbench {

absl::StatusOr<std::unique_ptr<FileSystem>> OpenFileSystem(std::string_view nfs_url) {
  if (nfs_url.empty()) return MakePosixFileSystem();
  return MakeNfsFileSystem(nfs_url);
}

absl::Status FileSystemError(const FileSystem& fs, std::string_view call, const std::string& path,
                             int64_t rc) {
  const int err = static_cast<int>(-rc);
  const std::string message =
      absl::StrCat(std::string(call), " '", fs.Display(path), "' failed: ", ErrnoText(err));
  if (err == ENOENT || err == ENOTDIR) return absl::FailedPreconditionError(message);
  if (err == EACCES || err == EPERM || err == EROFS) return absl::PermissionDeniedError(message);
  if (err == ENOSPC || err == EDQUOT) return absl::ResourceExhaustedError(message);
  return absl::InternalError(message);
}

absl::Status MakeDirectories(FileSystem& fs, const std::string& directory,
                             std::vector<std::string>& created) {
  for (size_t slash = directory.find('/', 1);; slash = directory.find('/', slash + 1)) {
    const std::string dir = slash == std::string::npos ? directory : directory.substr(0, slash);
    if (!dir.empty() && dir != "/" && dir.back() != '/') {
      FileStat st;
      const int64_t found = fs.Stat(dir, &st);
      if (found == 0 && !st.is_directory) {
        return absl::FailedPreconditionError(absl::StrCat(
            "'", fs.Display(dir), "' (on the way to '", directory, "') is not a directory"));
      }
      if (found != 0) {
        const int64_t made = fs.Mkdir(dir);
        if (made == 0) {
          created.push_back(dir);
        } else if (made != -EEXIST) {
          return FileSystemError(fs, "mkdir", dir, made);
        }
      }
    }
    if (slash == std::string::npos) return absl::OkStatus();
  }
}

}  // namespace azbench
