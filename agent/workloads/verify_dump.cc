#include "agent/workloads/verify_dump.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

#include "absl/strings/str_cat.h"
#include "agent/workloads/file_layout.h"
#include "common/errno_text.h"

namespace azbench {

std::string VerifyDumpName(std::string_view data_path, uint64_t offset_bytes,
                           std::string_view kind) {
  const size_t slash = data_path.rfind('/');
  const std::string_view base =
      slash == std::string_view::npos ? data_path : data_path.substr(slash + 1);
  return absl::StrCat(std::string(base), ".", offset_bytes, ".", std::string(kind));
}

absl::StatusOr<std::string> WriteVerifyDump(std::string_view data_path, uint64_t offset_bytes,
                                            std::string_view kind, std::string_view bytes) {
  const std::string name = VerifyDumpName(data_path, offset_bytes, kind);
  auto failed = [&name](int err) {
    return absl::Status(LayoutErrorCode(err),
                        absl::StrCat("verify_dump: cannot write '", name, "': ", ErrnoText(err)));
  };
  const int fd = open(name.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC, 0644);
  if (fd < 0) return failed(errno);
  for (size_t done = 0; done < bytes.size();) {
    const ssize_t n = write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int err = n < 0 ? errno : EIO;
      close(fd);
      return failed(err);
    }
    done += static_cast<size_t>(n);
  }
  if (close(fd) != 0) return failed(errno);
  return name;
}

}  // namespace azbench
