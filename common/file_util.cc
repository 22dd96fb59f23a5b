#include "common/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdlib>
#include <filesystem>

#include "absl/strings/str_cat.h"

namespace azbench {

absl::StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below as not a file.
  const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    const int error = errno;
    return absl::ErrnoToStatus(error, absl::StrCat("cannot open ", what, " '", path, "'"));
  }
  struct stat st;
  if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    close(fd);
    return absl::InvalidArgumentError(
        absl::StrCat(what, " '", path, "' is not a regular file (a device, FIFO or directory)"));
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxWholeFileBytes) {
    close(fd);
    return absl::InvalidArgumentError(absl::StrCat(what, " '", path, "' is ", st.st_size,
                                                   " bytes; the limit is ", kMaxWholeFileBytes));
  }
  std::string contents;
  char buffer[8192];
  while (true) {
    const ssize_t n = read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      close(fd);
      return absl::ErrnoToStatus(error, absl::StrCat("cannot read ", what, " '", path, "'"));
    }
    if (n == 0) break;
    contents.append(buffer, static_cast<size_t>(n));
    if (contents.size() > kMaxWholeFileBytes) {  // grew while being read
      close(fd);
      return absl::InvalidArgumentError(
          absl::StrCat(what, " '", path, "' is larger than ", kMaxWholeFileBytes, " bytes"));
    }
  }
  close(fd);
  return contents;
}

namespace {

// Writes all of `contents` to `fd`; false with errno set on failure.
bool WriteAll(int fd, const std::string& contents) {
  size_t done = 0;
  while (done < contents.size()) {
    const ssize_t n = write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

absl::Status WriteError(int error, const std::string& what, const std::string& path) {
  return absl::ErrnoToStatus(error, absl::StrCat("cannot write ", what, " '", path, "'"));
}

}  // namespace

namespace {

// Writes `contents` to `path` opened with `flags` (no temporary file).
absl::Status WriteInPlace(const std::string& path, int flags, const std::string& contents,
                          const std::string& what) {
  const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY | flags, 0666);
  if (fd < 0 || !WriteAll(fd, contents)) {
    const int error = errno;
    if (fd >= 0) close(fd);
    return WriteError(error, what, path);
  }
  if (close(fd) != 0) return WriteError(errno, what, path);
  return absl::OkStatus();
}

// A path that names an open stream rather than a file to replace: one in /proc (/proc/self/fd/1,
// or /dev/fd/1, whose directory is /proc/self/fd), or a symbolic link into /proc (/dev/stdout ->
// /proc/self/fd/1, which may be the shell's `> out.txt`).
bool IsStreamPath(const std::string& path) {
  auto in_proc = [](const std::string& p) { return p.rfind("/proc/", 0) == 0; };
  if (in_proc(path)) return true;
  char buffer[PATH_MAX];
  const ssize_t n = readlink(path.c_str(), buffer, sizeof(buffer) - 1);
  if (n > 0 && in_proc(std::string(buffer, static_cast<size_t>(n)))) return true;
  const std::string parent = std::filesystem::path(path).parent_path().string();
  return !parent.empty() && realpath(parent.c_str(), buffer) != nullptr && in_proc(buffer);
}

}  // namespace

absl::Status WriteWholeFile(const std::string& path, const std::string& contents,
                            const std::string& what) {
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " '", path, "' is a directory; give a file name"));
  }
  // A device, a FIFO or a stream (appended to: what the process printed there before stays).
  if ((exists && !S_ISREG(st.st_mode)) || IsStreamPath(path)) {
    return WriteInPlace(path, O_APPEND, contents, what);
  }
  std::string target = path;
  char resolved[PATH_MAX];
  if (exists && realpath(path.c_str(), resolved) != nullptr) target = resolved;  // a link's target
  const std::filesystem::path target_path(target);
  // A hidden name beside the target, random (mkstemp), so a file left by a killed writer never
  // blocks the next one.
  std::string temp =
      (target_path.parent_path() / ("." + target_path.filename().string() + ".tmp-XXXXXX"))
          .string();
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    // No temporary file possible beside it (a directory we may not write to, a name at the
    // length limit): write the file itself.
    if (errno == EACCES || errno == EPERM || errno == ENAMETOOLONG) {
      return WriteInPlace(path, O_CREAT | O_TRUNC, contents, what);
    }
    return WriteError(errno, what, path);
  }
  // mkstemp makes the file 0600: give it the replaced file's mode, or what open(0666) would.
  mode_t mode = 0;
  if (exists) {
    mode = st.st_mode & 07777;
  } else {
    const mode_t mask = umask(0);
    umask(mask);
    mode = 0666 & ~mask;
  }
  if (fchmod(fd, mode) != 0 || !WriteAll(fd, contents)) {
    const int error = errno;
    close(fd);
    unlink(temp.c_str());
    return WriteError(error, what, path);
  }
  if (close(fd) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return WriteError(error, what, path);
  }
  if (rename(temp.c_str(), target.c_str()) != 0) {
    const int error = errno;
    unlink(temp.c_str());
    return WriteError(error, what, path);
  }
  return absl::OkStatus();
}

}  // namespace azbench
