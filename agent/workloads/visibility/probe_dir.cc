#include "agent/workloads/visibility/probe_dir.h"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "agent/workloads/visibility/probe_file_io.h"

namespace azbench {

struct ProbeDir::Handle {
  Handle(int fd_in, std::string path_in) : fd(fd_in), path(std::move(path_in)) {}
  ~Handle() {
    if (fd >= 0) close(fd);
  }
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  int fd;
  std::string path;
};

namespace {

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// A file name the *at calls resolve as one entry of the directory: a '/' would walk (and follow
// symlinks in) the components before the last.
absl::Status CheckPlainName(const std::string& name, const std::string& field) {
  if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
    return absl::InvalidArgumentError(
        absl::StrCat(field, " '", name, "': a probe file name must be one plain path component"));
  }
  return absl::OkStatus();
}

bool IsSymlink(int dir_fd, const std::string& name) {
  struct stat st;
  return fstatat(dir_fd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode);
}

}  // namespace

absl::Status ProbeSymlinkRefused(const std::string& field, const std::string& value,
                                 const std::string& path, const std::string& base) {
  return absl::PermissionDeniedError(absl::StrCat(
      field, value.empty() ? "" : absl::StrCat(" '", value, "':"), " '", path,
      "' is a symlink; a visibility probe does not follow symlinks beneath its directory ('", base,
      "'): one could lead it outside the allowed roots"));
}

absl::StatusOr<ProbeDir> ProbeDir::Open(const std::string& path, const std::string& field,
                                        bool create) {
  if (create) {
    if (absl::Status s = MakeDirs(path); !s.ok()) {
      return absl::Status(s.code(), absl::StrCat(field, ": ", s.message()));
    }
  }
  const int fd = open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    if (errno == ENOENT) {
      return absl::NotFoundError(absl::StrCat(field, " '", path, "' does not exist"));
    }
    return ErrnoError(absl::StrCat("open ", field), path);
  }
  return Adopt(fd, path);
}

ProbeDir ProbeDir::Adopt(int fd, std::string path) {
  return ProbeDir(std::make_shared<const Handle>(fd, std::move(path)));
}

int ProbeDir::fd() const { return handle_ != nullptr ? handle_->fd : -1; }

const std::string& ProbeDir::path() const {
  static const std::string* const kNone = new std::string();
  return handle_ != nullptr ? handle_->path : *kNone;
}

std::string ProbeDir::PathOf(const std::string& relative) const {
  return relative.empty() ? path() : JoinPath(path(), relative);
}

absl::StatusOr<ProbeDir> ProbeDir::Subdir(const std::string& relative, const std::string& field,
                                          bool create) const {
  if (!valid()) return absl::FailedPreconditionError(absl::StrCat(field, ": no open directory"));
  ProbeDir current = *this;
  std::string walked;
  for (absl::string_view piece : absl::StrSplit(relative, '/', absl::SkipEmpty())) {
    const std::string name(piece);
    if (name == ".") continue;
    walked = walked.empty() ? name : absl::StrCat(walked, "/", name);
    const std::string shown = PathOf(walked);
    if (name == "..") {
      return absl::PermissionDeniedError(absl::StrCat(
          field, " '", relative, "': '..' would leave the probe's directory ('", path(), "')"));
    }
    int fd = openat(current.fd(), name.c_str(), kDirFlags);
    if (fd < 0 && errno == ENOENT && create) {
      if (mkdirat(current.fd(), name.c_str(), 0755) != 0 && errno != EEXIST) {
        return ErrnoError(absl::StrCat(field, ": mkdir"), shown);
      }
      fd = openat(current.fd(), name.c_str(), kDirFlags);  // EEXIST: whatever won the race
    }
    if (fd < 0) {
      const int error = errno;
      if (IsSymlink(current.fd(), name)) return ProbeSymlinkRefused(field, relative, shown, path());
      if (error == ENOENT) {
        return absl::NotFoundError(
            absl::StrCat(field, " '", relative, "': '", shown, "' does not exist"));
      }
      if (error == ENOTDIR) {
        return absl::FailedPreconditionError(
            absl::StrCat(field, " '", relative, "': '", shown, "' is not a directory"));
      }
      errno = error;
      return ErrnoError(absl::StrCat(field, ": open directory"), shown);
    }
    current = Adopt(fd, shown);
  }
  return current;
}

absl::StatusOr<std::optional<ProbeDir>> ProbeDir::SubdirIfExists(const std::string& relative,
                                                                 const std::string& field) const {
  absl::StatusOr<ProbeDir> dir = Subdir(relative, field, /*create=*/false);
  if (absl::IsNotFound(dir.status())) return std::optional<ProbeDir>();
  if (!dir.ok()) return dir.status();
  return std::optional<ProbeDir>(*std::move(dir));
}

absl::Status CheckProbeFile(const struct stat& st, const std::string& field,
                            const std::string& path) {
  if (!S_ISREG(st.st_mode)) {
    return absl::PermissionDeniedError(absl::StrCat(
        field, ": '", path,
        "' is not a regular file (a FIFO, socket or device could block the probe for ever); a "
        "visibility probe only uses regular files"));
  }
  if (st.st_nlink != 1) {
    return absl::PermissionDeniedError(absl::StrCat(
        field, ": '", path, "' has ", st.st_nlink,
        " hard links; a visibility probe only uses a file with one (another link could be a file "
        "outside the allowed roots)"));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> ProbeDir::OpenFile(const std::string& name, int flags, mode_t mode,
                                       const std::string& field) const {
  if (absl::Status s = CheckPlainName(name, field); !s.ok()) return s;
  // O_NONBLOCK: a FIFO must not block the open (the check below refuses it); O_TRUNC only once the
  // file is known to be the probe's own.
  const int fd = openat(this->fd(), name.c_str(),
                        (flags & ~O_TRUNC) | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode);
  if (fd < 0) {
    const int error = errno;
    if (error == ELOOP || IsSymlink(this->fd(), name)) {
      return ProbeSymlinkRefused(field, "", PathOf(name), path());
    }
    if (error == EEXIST) {
      return absl::AlreadyExistsError(absl::StrCat("open ", PathOf(name), ": exists already"));
    }
    struct stat st;  // e.g. ENXIO: a FIFO no one reads
    if (fstatat(this->fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && !S_ISREG(st.st_mode)) {
      return CheckProbeFile(st, field, PathOf(name));
    }
    errno = error;
    return ErrnoError("open", PathOf(name));
  }
  struct stat st;
  absl::Status checked = fstat(fd, &st) == 0 ? CheckProbeFile(st, field, PathOf(name))
                                             : ErrnoError("fstat", PathOf(name));
  if (checked.ok() && (flags & O_NONBLOCK) == 0 &&
      fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
    checked = ErrnoError("fcntl", PathOf(name));
  }
  if (checked.ok() && (flags & O_TRUNC) != 0 && ftruncate(fd, 0) != 0) {
    checked = ErrnoError("truncate", PathOf(name));
  }
  if (!checked.ok()) {
    close(fd);
    return checked;
  }
  return fd;
}

absl::StatusOr<int> ProbeDir::CreateFile(const std::string& name, int extra_flags, mode_t mode,
                                         const std::string& field) const {
  absl::StatusOr<int> fd = OpenFile(name, O_WRONLY | O_CREAT | O_EXCL | extra_flags, mode, field);
  if (!absl::IsAlreadyExists(fd.status())) return fd;
  return OpenFile(name, O_WRONLY | O_TRUNC | extra_flags, 0, field);  // emptied once checked
}

absl::StatusOr<std::optional<std::string>> ProbeDir::ReadIfExists(const std::string& name,
                                                                  const std::string& field) const {
  if (absl::Status s = CheckPlainName(name, field); !s.ok()) return s;
  if (TypeOf(name) == EntryType::kMissing) return std::optional<std::string>();
  absl::StatusOr<int> fd = OpenFile(name, O_RDONLY, 0, field);
  if (!fd.ok()) {
    // Gone between the two calls (a reader polls files that come and go): absent.
    if (TypeOf(name) == EntryType::kMissing) return std::optional<std::string>();
    return fd.status();
  }
  std::string content;
  char buffer[65536];
  while (true) {
    const ssize_t n = read(*fd, buffer, sizeof(buffer));
    if (n < 0) {
      if (errno == EINTR) continue;
      absl::Status s = ErrnoError("read", PathOf(name));
      close(*fd);
      return s;
    }
    if (n == 0) break;
    content.append(buffer, static_cast<size_t>(n));
  }
  close(*fd);
  return std::optional<std::string>(std::move(content));
}

absl::StatusOr<std::optional<struct stat>> ProbeDir::Stat(const std::string& name,
                                                          const std::string& field) const {
  if (absl::Status s = CheckPlainName(name, field); !s.ok()) return s;
  struct stat st;
  if (fstatat(fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) return std::optional<struct stat>();
    return ErrnoError("stat", PathOf(name));
  }
  if (S_ISLNK(st.st_mode)) return ProbeSymlinkRefused(field, "", PathOf(name), path());
  return std::optional<struct stat>(st);
}

absl::StatusOr<std::vector<std::string>> ProbeDir::Names() const {
  // A descriptor of its own ("." beneath this one), so every listing starts at the beginning.
  const int fd = openat(this->fd(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return ErrnoError("opendir", path());
  DIR* d = fdopendir(fd);
  if (d == nullptr) {
    absl::Status s = ErrnoError("opendir", path());
    close(fd);
    return s;
  }
  std::vector<std::string> names;
  while (dirent* e = readdir(d)) {
    const std::string name = e->d_name;
    if (name != "." && name != "..") names.push_back(name);
  }
  closedir(d);
  return names;
}

absl::StatusOr<bool> ProbeDir::Lists(const std::string& name) const {
  absl::StatusOr<std::vector<std::string>> names = Names();
  if (!names.ok()) return names.status();
  for (const std::string& n : *names) {
    if (n == name) return true;
  }
  return false;
}

ProbeDir::EntryType ProbeDir::TypeOf(const std::string& name) const {
  struct stat st;
  if (fstatat(fd(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) return EntryType::kMissing;
  if (S_ISLNK(st.st_mode)) return EntryType::kSymlink;
  if (S_ISDIR(st.st_mode)) return EntryType::kDirectory;
  if (S_ISREG(st.st_mode)) return EntryType::kRegular;
  return EntryType::kOther;
}

absl::Status ProbeDir::Rename(const std::string& from, const std::string& to) const {
  if (absl::Status s = CheckPlainName(from, "rename"); !s.ok()) return s;
  if (absl::Status s = CheckPlainName(to, "rename"); !s.ok()) return s;
  if (renameat(fd(), from.c_str(), fd(), to.c_str()) != 0) {
    return ErrnoError(absl::StrCat("rename onto ", PathOf(to), " from"), PathOf(from));
  }
  return absl::OkStatus();
}

absl::Status ProbeDir::Unlink(const std::string& name) const {
  if (absl::Status s = CheckPlainName(name, "unlink"); !s.ok()) return s;
  if (unlinkat(fd(), name.c_str(), 0) != 0 && errno != ENOENT) {
    return ErrnoError("unlink", PathOf(name));
  }
  return absl::OkStatus();
}

absl::StatusOr<PendingProbeDir> OpenOrAncestor(
    const std::string& path, const std::string& field,
    const std::function<absl::StatusOr<ProbeDir>(const std::string&)>& open) {
  absl::StatusOr<ProbeDir> dir = open(path);
  if (dir.ok()) return PendingProbeDir{*std::move(dir), "", field};
  if (!absl::IsNotFound(dir.status())) return dir.status();
  // Up to the deepest component that exists (lstat: a symlink there counts as existing, and
  // `open` judges it as it judged `path`).
  std::filesystem::path existing = std::filesystem::path(path).lexically_normal();
  std::filesystem::path rest;
  while (existing.filename().empty() && existing.has_relative_path()) {
    existing = existing.parent_path();  // "a/b/": "a/b"
  }
  while (existing.has_relative_path()) {
    struct stat st;
    if (lstat(existing.c_str(), &st) == 0) break;
    if (errno != ENOENT) return dir.status();
    rest = rest.empty() ? existing.filename() : existing.filename() / rest;
    existing = existing.parent_path();
  }
  if (rest.empty()) {
    // It exists after all: made (by the writer, on another client) since `open` looked.
    absl::StatusOr<ProbeDir> now = open(path);
    if (!now.ok()) return now.status();
    return PendingProbeDir{*std::move(now), "", field};
  }
  absl::StatusOr<ProbeDir> ancestor = open(existing.string());
  if (!ancestor.ok()) return dir.status();
  return PendingProbeDir{*std::move(ancestor), rest.string(), field};
}

bool ProbeDir::RemoveDirIfEmpty(const std::string& name) const {
  return CheckPlainName(name, "rmdir").ok() && unlinkat(fd(), name.c_str(), AT_REMOVEDIR) == 0;
}

}  // namespace azbench
