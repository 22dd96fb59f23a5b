#include "common/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>

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

absl::Status WriteWholeFile(const std::string& path, const std::string& contents,
                            const std::string& what) {
  std::string target = path;
  struct stat st;
  const bool exists = stat(path.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    return absl::InvalidArgumentError(
        absl::StrCat(what, " '", path, "' is a directory; give a file name"));
  }
  if (exists && !S_ISREG(st.st_mode)) {
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC | O_NOCTTY);
    if (fd < 0 || !WriteAll(fd, contents)) {
      const int error = errno;
      if (fd >= 0) close(fd);
      return WriteError(error, what, path);
    }
    close(fd);
    return absl::OkStatus();
  }
  struct stat lst;
  if (exists && lstat(path.c_str(), &lst) == 0 && S_ISLNK(lst.st_mode)) {
    char resolved[PATH_MAX];
    if (realpath(path.c_str(), resolved) != nullptr) target = resolved;
  }
  static std::atomic<uint64_t> counter{0};
  const std::string temp = absl::StrCat(target, ".tmp-", getpid(), "-", counter.fetch_add(1));
  const int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
  if (fd < 0) return WriteError(errno, what, path);
  if (!WriteAll(fd, contents)) {
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
