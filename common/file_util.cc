#include "common/file_util.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

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

}  // namespace azbench
