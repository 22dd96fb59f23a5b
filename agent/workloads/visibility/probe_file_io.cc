#include "agent/workloads/visibility/probe_file_io.h"

#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "common/errno_text.h"

namespace azbench {

absl::Status ErrnoError(const std::string& call, const std::string& path) {
  const int err = errno;
  return absl::Status(err == EACCES || err == EPERM ? absl::StatusCode::kPermissionDenied
                                                    : absl::StatusCode::kInternal,
                      absl::StrCat(call, " ", path, ": ", ErrnoText(err)));
}

absl::Status WriteAll(int fd, std::string_view data, const std::string& path) {
  while (!data.empty()) {
    const ssize_t n = write(fd, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return ErrnoError("write", path);
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

absl::Status MakeDirs(const std::string& dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("create directory ", dir, ": ", ec.message()));
  return absl::OkStatus();
}

std::string JoinPath(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  return a.back() == '/' ? absl::StrCat(a, b) : absl::StrCat(a, "/", b);
}

}  // namespace azbench
