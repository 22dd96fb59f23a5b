#include "agent/confinement/sandbox.h"

#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "common/errno_text.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;

absl::Status Refuse(const std::string& message) {
  spdlog::warn("sandbox: refused {}", message);
  return absl::PermissionDeniedError(message);
}

// A descriptor closed at scope exit unless released.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd) {
    if (fd_ >= 0) close(fd_);
    fd_ = fd;
  }

 private:
  int fd_;
};

// openat2 beneath `root_fd`; -1 with errno set on failure (ENOSYS where the kernel lacks it).
int OpenBeneath(int root_fd, const std::string& relative) {
  struct open_how how;
  std::memset(&how, 0, sizeof(how));
  how.flags = kDirFlags;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
  return static_cast<int>(syscall(SYS_openat2, root_fd, relative.c_str(), &how, sizeof(how)));
}

// Whether two open directories are on the same mount: the mount id where statx reports it (Linux
// 5.8), else the device (which misses a bind mount of the same file system).
bool SameMount(int a, int b) {
  struct statx sa, sb;
  if (statx(a, "", AT_EMPTY_PATH, STATX_MNT_ID, &sa) == 0 &&
      statx(b, "", AT_EMPTY_PATH, STATX_MNT_ID, &sb) == 0 && (sa.stx_mask & STATX_MNT_ID) &&
      (sb.stx_mask & STATX_MNT_ID)) {
    return sa.stx_mnt_id == sb.stx_mnt_id;
  }
  struct stat st_a, st_b;
  return fstat(a, &st_a) == 0 && fstat(b, &st_b) == 0 && st_a.st_dev == st_b.st_dev;
}

// The pre-openat2 walk: one component at a time, no symlinks, no mount crossing.
int OpenByWalk(int root_fd, const std::string& relative) {
  Fd current(dup(root_fd));
  if (current.get() < 0) return -1;
  for (absl::string_view part : absl::StrSplit(relative, '/', absl::SkipEmpty())) {
    if (part == "..") {
      errno = EXDEV;
      return -1;
    }
    if (part == ".") continue;
    const int next = openat(current.get(), std::string(part).c_str(), kDirFlags | O_NOFOLLOW);
    if (next < 0) {
      // O_NOFOLLOW | O_DIRECTORY on a symlink gives ENOTDIR: tell a refused symlink apart.
      const int error = errno;
      struct stat st;
      const bool is_link =
          fstatat(current.get(), std::string(part).c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 &&
          S_ISLNK(st.st_mode);
      errno = is_link ? ELOOP : error;
      return -1;
    }
    current.reset(next);
    if (!SameMount(root_fd, current.get())) {
      errno = EXDEV;
      return -1;
    }
  }
  return current.release();
}

absl::Status OpenError(int error, const std::string& path, const std::string& root) {
  switch (error) {
    case EXDEV:
      return Refuse(absl::StrCat("directory '", path, "': it leaves the allowed root '", root,
                                 "' (through a symlink or '..') or crosses into another mount; "
                                 "configure a mount point beneath a root as its own allowed root"));
    case ELOOP:
      return Refuse(absl::StrCat("directory '", path, "' beneath allowed root '", root,
                                 "': it goes through a symlink the resolver does not follow "
                                 "(a /proc magic link, or any symlink on kernels without "
                                 "openat2), or too many symlinks"));
    case ENOENT:
      return absl::NotFoundError(absl::StrCat("directory '", path, "' does not exist"));
    case ENOTDIR:
      return absl::FailedPreconditionError(
          absl::StrCat("'", path,
                       "' is not a directory (or goes through a symlink that the "
                       "resolver refuses)"));
    case EACCES:
    case EPERM:
      return absl::PermissionDeniedError(
          absl::StrCat("directory '", path, "': ", ErrnoText(error)));
    default:
      return absl::InternalError(
          absl::StrCat("opening directory '", path, "': ", ErrnoText(error)));
  }
}

}  // namespace

ConfinedDir::ConfinedDir(ConfinedDir&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

ConfinedDir& ConfinedDir::operator=(ConfinedDir&& other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) close(fd_);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

ConfinedDir::~ConfinedDir() {
  if (fd_ >= 0) close(fd_);
}

std::string ConfinedDir::FdPath() const { return absl::StrCat("/proc/self/fd/", fd_); }

absl::StatusOr<std::string> NormalizeAbsolutePath(const std::string& path) {
  if (path.empty() || path[0] != '/') {
    return absl::InvalidArgumentError(
        absl::StrCat("path '", path, "' must be absolute (start with '/')"));
  }
  if (path.find('\0') != std::string::npos) {
    return absl::InvalidArgumentError("path contains a NUL byte");
  }
  std::vector<std::string> parts;
  for (absl::string_view part : absl::StrSplit(path, '/', absl::SkipEmpty())) {
    if (part == ".") continue;
    if (part == "..") {
      if (!parts.empty()) parts.pop_back();
      continue;
    }
    parts.emplace_back(part);
  }
  return absl::StrCat("/", absl::StrJoin(parts, "/"));
}

absl::Status CheckFileName(const std::string& name, const std::string& field) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos ||
      name.find('\0') != std::string::npos || name.size() > NAME_MAX) {
    return Refuse(absl::StrCat(field, " '", name,
                               "': a file name must be one plain path component (no '/', not "
                               "'.' or '..', at most ",
                               NAME_MAX, " bytes)"));
  }
  return absl::OkStatus();
}

absl::Status CheckRelativePath(const std::string& path, const std::string& field) {
  bool dot_dot = false;
  for (absl::string_view part : absl::StrSplit(path, '/', absl::SkipEmpty())) {
    dot_dot = dot_dot || part == "..";
  }
  if ((!path.empty() && path.front() == '/') || dot_dot || path.find('\0') != std::string::npos) {
    return Refuse(absl::StrCat(field, " '", path,
                               "': must be a path relative to the job's directory without '..' "
                               "components (it may not leave that directory)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<Sandbox> Sandbox::Create(const std::vector<std::string>& allowed_roots,
                                        Resolver resolver) {
  if (allowed_roots.empty()) {
    return absl::InvalidArgumentError(
        "allowed_roots is empty: list the directories the agent may write under");
  }
  Sandbox sandbox;
  sandbox.resolver_ = resolver;
  for (const std::string& root : allowed_roots) {
    absl::StatusOr<std::string> normal = NormalizeAbsolutePath(root);
    if (!normal.ok()) {
      return absl::InvalidArgumentError(absl::StrCat("allowed root: ", normal.status().message()));
    }
    char resolved[PATH_MAX];
    if (realpath(normal->c_str(), resolved) == nullptr) {
      return absl::InvalidArgumentError(
          absl::StrCat("allowed root '", root, "': ", ErrnoText(errno)));
    }
    struct stat st;
    if (stat(resolved, &st) != 0 || !S_ISDIR(st.st_mode)) {
      return absl::InvalidArgumentError(
          absl::StrCat("allowed root '", root, "' is not a directory"));
    }
    sandbox.root_entries_.push_back(Root{*normal, resolved});
    sandbox.roots_.push_back(*normal);
  }
  return sandbox;
}

Sandbox Sandbox::Unrestricted() {
  Sandbox sandbox;
  sandbox.unrestricted_ = true;
  sandbox.root_entries_.push_back(Root{"/", "/"});
  sandbox.roots_.push_back("/");
  return sandbox;
}

absl::StatusOr<ConfinedDir> Sandbox::OpenDirectory(const std::string& directory,
                                                   bool create_missing) const {
  ASSIGN_OR_RETURN(const std::string path, NormalizeAbsolutePath(directory));
  // The longest root (as configured or canonical) that contains the path.
  const Root* best = nullptr;
  std::string relative;
  size_t best_length = 0;
  for (const Root& root : root_entries_) {
    for (const std::string* prefix : {&root.configured, &root.canonical}) {
      const bool contains =
          path == *prefix || *prefix == "/" || absl::StartsWith(path, absl::StrCat(*prefix, "/"));
      if (contains && (best == nullptr || prefix->size() > best_length)) {
        best = &root;
        best_length = prefix->size();
        relative = path.size() > prefix->size() ? path.substr(prefix->size()) : "";
      }
    }
  }
  if (best == nullptr) {
    return Refuse(absl::StrCat("directory '", path, "': not beneath any allowed root (",
                               absl::StrJoin(roots_, ", "), ")"));
  }
  while (!relative.empty() && relative[0] == '/') relative.erase(0, 1);

  Fd root_fd(open(best->canonical.c_str(), kDirFlags));
  if (root_fd.get() < 0) {
    return absl::FailedPreconditionError(
        absl::StrCat("allowed root '", best->configured, "': ", ErrnoText(errno)));
  }
  if (relative.empty()) return ConfinedDir(root_fd.release(), path);
  if (unrestricted_) {
    // No confinement: the kernel resolves the path as any program would.
    Fd fd(openat(root_fd.get(), relative.c_str(), kDirFlags));
    if (fd.get() < 0 && errno == ENOENT && create_missing) {
      std::string partial = best->canonical;
      for (absl::string_view part : absl::StrSplit(relative, '/', absl::SkipEmpty())) {
        partial = absl::StrCat(partial == "/" ? "" : partial, "/", std::string(part));
        if (mkdir(partial.c_str(), 0755) != 0 && errno != EEXIST) {
          return OpenError(errno, path, best->configured);
        }
      }
      fd.reset(openat(root_fd.get(), relative.c_str(), kDirFlags));
    }
    if (fd.get() < 0) return OpenError(errno, path, best->configured);
    return ConfinedDir(fd.release(), path);
  }

  bool use_walk = resolver_ == Resolver::kWalk;
  auto open_relative = [&](const std::string& rel) {
    if (!use_walk) {
      const int fd = OpenBeneath(root_fd.get(), rel);
      if (fd >= 0 || errno != ENOSYS) return fd;
      use_walk = true;  // kernel before 5.6
    }
    return OpenByWalk(root_fd.get(), rel);
  };

  Fd fd(open_relative(relative));
  if (fd.get() < 0 && errno == ENOENT && create_missing) {
    // Create one component at a time, each opened beneath the root before the next is made in it.
    std::string prefix;
    Fd parent(dup(root_fd.get()));
    for (absl::string_view part : absl::StrSplit(relative, '/', absl::SkipEmpty())) {
      const std::string name(part);
      prefix = prefix.empty() ? name : absl::StrCat(prefix, "/", name);
      Fd next(open_relative(prefix));
      if (next.get() < 0 && errno == ENOENT) {
        if (name == "..") return OpenError(EXDEV, path, best->configured);
        if (mkdirat(parent.get(), name.c_str(), 0755) != 0 && errno != EEXIST) {
          return OpenError(errno, path, best->configured);
        }
        next.reset(open_relative(prefix));
      }
      if (next.get() < 0) return OpenError(errno, path, best->configured);
      parent.reset(next.release());
    }
    fd.reset(parent.release());
  }
  if (fd.get() < 0) return OpenError(errno, path, best->configured);
  return ConfinedDir(fd.release(), path);
}

absl::Status CheckFreeSpace(const ConfinedDir& dir, uint64_t bytes_to_write,
                            uint64_t min_free_bytes) {
  struct statvfs fs;
  if (fstatvfs(dir.fd(), &fs) != 0) {
    return absl::InternalError(absl::StrCat("statvfs on '", dir.path(), "': ", ErrnoText(errno)));
  }
  const unsigned __int128 available =
      static_cast<unsigned __int128>(fs.f_bavail) * static_cast<unsigned __int128>(fs.f_frsize);
  const unsigned __int128 needed = static_cast<unsigned __int128>(bytes_to_write) +
                                   static_cast<unsigned __int128>(min_free_bytes);
  if (available < needed) {
    return absl::ResourceExhaustedError(absl::StrCat(
        "the job would write ", bytes_to_write, " bytes into '", dir.path(), "', which has ",
        static_cast<uint64_t>(available), " bytes available; the agent keeps at least ",
        min_free_bytes, " bytes free (min_free_space)"));
  }
  return absl::OkStatus();
}

}  // namespace azbench
