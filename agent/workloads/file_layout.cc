#include "agent/workloads/file_layout.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <memory>

#include "absl/strings/str_cat.h"
#include "common/errno_text.h"
#include "spdlog/spdlog.h"

namespace azbench {

// A path through a directory descriptor the serving agent opened beneath its allowed roots
// (agent/confinement/job_confinement.h rewrites job paths to "/proc/self/fd/N/name") is opened with
// O_NOFOLLOW: a symlink put under the file's name after the agent checked it makes the open fail
// (ELOOP) instead of leading outside the roots. Other paths (the one-shot command run by the user
// on their own files, e.g. /dev/disk/by-id/... links) follow symlinks as fio does.
static int NoFollowFlag(const std::string& path) {
  return path.rfind("/proc/self/fd/", 0) == 0 ? O_NOFOLLOW : 0;
}

namespace {

constexpr uint64_t kLayoutChunkBytes = 1 << 20;

absl::Status LayoutStatus(int err, const std::string& what) {
  return absl::Status(LayoutErrorCode(err), absl::StrCat(what, ": ", ErrnoText(err)));
}

absl::Status CheckParent(const std::string& path) {
  std::filesystem::path parent = std::filesystem::path(path).parent_path();
  if (parent.empty()) parent = ".";
  struct stat st;
  if (stat(parent.c_str(), &st) != 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("directory '", parent.string(), "' for '", path, "' does not exist"));
  }
  if (!S_ISDIR(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", parent.string(), "' (parent of '", path, "') is not a directory"));
  }
  return absl::OkStatus();
}

// fio's fallocate modes over the whole file, [0, required_bytes). native's failure is ignored
// (a file system without fallocate) and posix's only logged, as fio does; keep's and truncate's
// fail the layout.
absl::Status Preallocate(int fd, const LayoutRequest& request) {
  const auto bytes = static_cast<off_t>(request.required_bytes);
  if (bytes == 0) return absl::OkStatus();
  switch (request.fallocate) {
    case FallocateMode::kNone:
      break;
    case FallocateMode::kNative:
      (void)fallocate(fd, 0, 0, bytes);
      break;
    case FallocateMode::kPosix:
      if (const int err = posix_fallocate(fd, 0, bytes); err != 0) {
        spdlog::warn("fallocate=posix: posix_fallocate of '{}' failed: {}", request.path,
                     ErrnoText(err));
      }
      break;
    case FallocateMode::kKeep:
      if (fallocate(fd, FALLOC_FL_KEEP_SIZE, 0, bytes) != 0) {
        return LayoutStatus(
            errno, absl::StrCat("fallocate=keep: cannot preallocate ", request.required_bytes,
                                " bytes of '", request.path, "'"));
      }
      break;
    case FallocateMode::kTruncate:
      if (ftruncate(fd, bytes) != 0) {
        return LayoutStatus(errno, absl::StrCat("cannot extend '", request.path, "' to ",
                                                request.required_bytes, " bytes"));
      }
      break;
  }
  return absl::OkStatus();
}

absl::Status LayOutOne(const LayoutRequest& request, BufferPool& filler, LaidOutFile& out) {
  if (absl::Status s = CheckParent(request.path); !s.ok()) return s;
  struct stat st;
  const bool exists = stat(request.path.c_str(), &st) == 0;
  if (exists && S_ISBLK(st.st_mode)) {
    // A device is never laid out: it must hold the region as it is.
    absl::StatusOr<uint64_t> device_bytes = ExistingFileBytes(request.path);
    if (!device_bytes.ok()) return device_bytes.status();
    if (*device_bytes < request.required_bytes) {
      return absl::FailedPreconditionError(
          absl::StrCat("block device '", request.path, "' holds ", *device_bytes,
                       " bytes, less than the job's region (", request.required_bytes, " bytes)"));
    }
    return absl::OkStatus();
  }
  if (exists && !S_ISREG(st.st_mode)) {
    return absl::FailedPreconditionError(
        absl::StrCat("'", request.path, "' is neither a regular file nor a block device"));
  }
  const uint64_t current = exists ? static_cast<uint64_t>(st.st_size) : 0;
  if (exists && current >= request.required_bytes) return absl::OkStatus();

  const int fd =
      open(request.path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | NoFollowFlag(request.path), 0644);
  if (fd < 0) return LayoutStatus(errno, absl::StrCat("cannot create '", request.path, "'"));
  out.created = !exists;
  out.extended = exists;
  auto closer = std::unique_ptr<int, void (*)(int*)>(new int(fd), [](int* p) {
    close(*p);
    delete p;
  });
  if (absl::Status s = Preallocate(fd, request); !s.ok()) return s;
  if (!request.needs_data) return absl::OkStatus();
  std::unique_ptr<unsigned char[]> chunk(new unsigned char[kLayoutChunkBytes]);
  uint64_t offset = current;
  while (offset < request.required_bytes) {
    const uint64_t len = std::min(kLayoutChunkBytes, request.required_bytes - offset);
    filler.Fill(chunk.get(), len);
    uint64_t done = 0;
    while (done < len) {
      const ssize_t n =
          pwrite(fd, chunk.get() + done, len - done, static_cast<off_t>(offset + done));
      if (n < 0) {
        if (errno == EINTR) continue;
        return LayoutStatus(errno, absl::StrCat("laying out '", request.path, "' failed at byte ",
                                                offset + done, " of ", request.required_bytes));
      }
      done += static_cast<uint64_t>(n);
    }
    offset += len;
  }
  if (fsync(fd) != 0) {
    return LayoutStatus(errno, absl::StrCat("fsync after laying out '", request.path, "'"));
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<LaidOutFile>> LayOutFiles(const std::vector<LayoutRequest>& requests,
                                                     BufferPool& filler,
                                                     const std::atomic<bool>* cancel) {
  std::vector<LaidOutFile> files;
  files.reserve(requests.size());
  for (const LayoutRequest& request : requests) {
    if (cancel != nullptr && cancel->load()) {
      const size_t done = files.size();
      (void)RemoveCreatedFiles(files);
      return absl::CancelledError(absl::StrCat("cancelled during the layout, after ", done, " of ",
                                               requests.size(), " files (removed)"));
    }
    LaidOutFile file{request.path};
    absl::Status status = LayOutOne(request, filler, file);
    files.push_back(file);
    if (!status.ok()) {
      (void)RemoveCreatedFiles(files);
      return status;
    }
  }
  return files;
}

absl::StatusOr<uint64_t> ExistingFileBytes(const std::string& path) {
  struct stat st {};
  if (stat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return uint64_t{0};
    return ErrnoStatus(errno, absl::StrCat("cannot stat '", path, "'"));
  }
  if (S_ISREG(st.st_mode)) return static_cast<uint64_t>(st.st_size);
  if (!S_ISBLK(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", path, "' is neither a regular file nor a block device"));
  }
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return ErrnoStatus(errno, absl::StrCat("cannot open block device '", path, "'"));
  uint64_t bytes = 0;
  const int rc = ioctl(fd, BLKGETSIZE64, &bytes);
  const int err = errno;
  close(fd);
  if (rc != 0) return ErrnoStatus(err, absl::StrCat("cannot read the size of '", path, "'"));
  return bytes;
}

absl::StatusOr<int> OpenForRun(const std::string& path, bool read, bool write, bool direct) {
  int flags = O_CLOEXEC | NoFollowFlag(path);
  flags |= (read && write) ? O_RDWR : (write ? O_WRONLY : O_RDONLY);
  if (direct) flags |= O_DIRECT;
  const int fd = open(path.c_str(), flags);
  if (fd >= 0) return fd;
  const int err = errno;
  if (direct && err == EINVAL) {
    return absl::InvalidArgumentError(absl::StrCat(
        "direct=1: the file system holding '", path,
        "' refuses O_DIRECT (EINVAL); ramfs, tmpfs before Linux 6.6 and some FUSE file "
        "systems do not support it"));
  }
  return LayoutStatus(err, absl::StrCat("cannot open '", path, "'"));
}

void InvalidateCache(int fd) { (void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED); }

absl::StatusCode LayoutErrorCode(int errno_value) {
  switch (errno_value) {
    case EACCES:
    case EPERM:
    case EROFS:
      return absl::StatusCode::kPermissionDenied;
    case ENOSPC:
    case EDQUOT:
      return absl::StatusCode::kResourceExhausted;
    case ENOENT:
      return absl::StatusCode::kNotFound;
    default:
      return absl::StatusCode::kInternal;
  }
}

absl::Status RemoveCreatedFiles(const std::vector<LaidOutFile>& files) {
  absl::Status first;
  for (const LaidOutFile& file : files) {
    if (!file.created) continue;
    if (unlink(file.path.c_str()) != 0 && errno != ENOENT && first.ok()) {
      first = LayoutStatus(errno, absl::StrCat("cannot remove '", file.path, "'"));
    }
  }
  return first;
}

}  // namespace azbench
