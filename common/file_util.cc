#include "common/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
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

absl::StatusOr<absl::string_view> TextLines(absl::string_view contents, const std::string& path,
                                            const std::string& what) {
  constexpr absl::string_view kUtf8Bom = "\xEF\xBB\xBF";
  if (absl::StartsWith(contents, kUtf8Bom)) contents.remove_prefix(kUtf8Bom.size());
  int line = 1;
  for (const char c : contents) {
    const unsigned char byte = static_cast<unsigned char>(c);
    if (byte == '\n') ++line;
    // Tab, LF, VT, FF (an editor's page break) and CR are whitespace to the line parsers.
    if ((byte < 0x20 && (byte < '\t' || byte > '\r')) || byte == 0x7f) {
      return absl::InvalidArgumentError(
          absl::StrCat(what, " '", path, "' line ", line, ": not a text file (a byte 0x",
                       absl::Hex(byte, absl::kZeroPad2), ", a control character)"));
    }
  }
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

// The descriptor a path names in this process, or -1: /dev/stdout, /dev/stderr, /dev/fd/N,
// /proc/self/fd/N, /proc/thread-self/fd/N, /proc/<this pid>/fd/N. Writing to the descriptor
// itself (not a new open of the path) keeps its position: output printed after the file still
// follows it (`{ azbench report r.db -o /dev/stdout; echo done; } > out.txt`).
int OwnDescriptor(const std::string& path) {
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string& prefix :
       {std::string("/dev/fd/"), std::string("/proc/self/fd/"),
        std::string("/proc/thread-self/fd/"), absl::StrCat("/proc/", getpid(), "/fd/")}) {
    int fd = -1;
    if (path.rfind(prefix, 0) == 0 && absl::SimpleAtoi(path.substr(prefix.size()), &fd) &&
        fd >= 0) {
      return fd;
    }
  }
  return -1;
}

// The process's umask, read without changing it (umask(2) can only set it, for every thread).
mode_t CurrentUmask() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line)) {
    if (line.rfind("Umask:", 0) == 0)
      return static_cast<mode_t>(std::strtoul(line.c_str() + 6, nullptr, 8));
  }
  return 022;
}

}  // namespace

absl::Status WriteWholeFile(const std::string& path, const std::string& contents,
                            const std::string& what) {
  if (const int fd = OwnDescriptor(path); fd >= 0) {
    std::fflush(nullptr);  // what stdio holds goes first
    if (!WriteAll(fd, contents)) return WriteError(errno, what, path);
    return absl::OkStatus();
  }
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " '", path, "' is a directory; give a file name"));
  }
  // A device or a FIFO: written, never replaced.
  if (exists && !S_ISREG(st.st_mode)) return WriteInPlace(path, 0, contents, what);
  struct stat lst;
  if (!exists && lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    // A link to a file not there yet: created through the link, which stays.
    return WriteInPlace(path, O_CREAT | O_TRUNC, contents, what);
  }
  std::string target = path;
  char resolved[PATH_MAX];
  if (exists && realpath(path.c_str(), resolved) != nullptr) target = resolved;  // a link's target
  const std::filesystem::path target_path(target);
  // A short hidden random name beside the target (mkstemp): a file left by a killed writer never
  // blocks the next one.
  std::string temp = (target_path.parent_path() / ".azbench-XXXXXX").string();
  if (target_path.parent_path().empty()) temp = ".azbench-XXXXXX";
  const int fd = mkostemp(temp.data(), O_CLOEXEC);
  if (fd < 0) {
    if (errno != EACCES && errno != EPERM) return WriteError(errno, what, path);
    // No temporary file may be made beside it: the file itself is written, its space reserved
    // first and truncated only after the write, so a full disk leaves the old contents whole.
    const int in_place = open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC | O_NOCTTY, 0666);
    if (in_place < 0) return WriteError(errno, what, path);
    const int reserved =
        contents.empty() ? 0 : posix_fallocate(in_place, 0, static_cast<off_t>(contents.size()));
    if (reserved != 0 && reserved != EOPNOTSUPP && reserved != EINVAL) {
      close(in_place);
      return WriteError(reserved, what, path);
    }
    if (!WriteAll(in_place, contents) ||
        ftruncate(in_place, static_cast<off_t>(contents.size())) != 0) {
      const int error = errno;
      close(in_place);
      return WriteError(error, what, path);
    }
    if (close(in_place) != 0) return WriteError(errno, what, path);
    return absl::OkStatus();
  }
  // mkstemp makes the file 0600: give it the replaced file's mode, or what open(0666) would.
  const mode_t mode = exists ? (st.st_mode & 07777) : (0666 & ~CurrentUmask());
  // fsync before the rename: after a crash the name holds the old file or the whole new one.
  if (fchmod(fd, mode) != 0 || !WriteAll(fd, contents) || fsync(fd) != 0) {
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
