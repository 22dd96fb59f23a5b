#include "agent/engines/engine_util.h"

#include <sys/syscall.h>
#include <unistd.h>

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <string>

#include "absl/strings/str_cat.h"

namespace azbench {

absl::Status CheckIodepth(std::string_view engine, const EngineOptions& options, int max_iodepth) {
  if (options.iodepth < 1 || options.iodepth > max_iodepth) {
    return absl::InvalidArgumentError(absl::StrCat("engine ", std::string(engine), ": iodepth ",
                                                   options.iodepth, " is outside 1..",
                                                   max_iodepth));
  }
  if (options.batch_submit < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "engine ", std::string(engine), ": batch_submit ", options.batch_submit, " is negative"));
  }
  return absl::OkStatus();
}

int64_t ExecuteSync(const IoRequest& request) {
  const off_t offset = static_cast<off_t>(request.offset_bytes);
  ssize_t ret = 0;
  switch (request.op) {
    case OpKind::kRead:
      do {
        // The raw syscall: glibc's pread is a cancellation point and pays for
        // enabling/disabling async cancellation on every call (~2.4% of a tmpfs 4k read).
        ret = syscall(SYS_pread64, request.fd, request.buffer, request.length_bytes, offset);
      } while (ret < 0 && errno == EINTR);
      break;
    case OpKind::kWrite:
      do {
        ret = syscall(SYS_pwrite64, request.fd, request.buffer, request.length_bytes, offset);
      } while (ret < 0 && errno == EINTR);
      break;
    case OpKind::kFsync:
      do {
        ret = request.datasync ? fdatasync(request.fd) : fsync(request.fd);
      } while (ret < 0 && errno == EINTR);
      break;
    default:
      return -EOPNOTSUPP;
  }
  return ret < 0 ? -static_cast<int64_t>(errno) : static_cast<int64_t>(ret);
}

}  // namespace azbench
