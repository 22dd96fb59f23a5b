#include "agent/engines/engine_util.h"

#include <linux/fs.h>
#include <sys/ioctl.h>

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

int64_t ExecuteFsync(const IoRequest& request) {
  int ret;
  do {
    ret = request.datasync ? fdatasync(request.fd) : fsync(request.fd);
  } while (ret < 0 && errno == EINTR);
  return ret < 0 ? -static_cast<int64_t>(errno) : 0;
}

int64_t ExecuteTrim(const IoRequest& request) {
  uint64_t range[2] = {request.offset_bytes, request.length_bytes};
  int ret;
  do {
    ret = ioctl(request.fd, BLKDISCARD, range);
  } while (ret < 0 && errno == EINTR);
  return ret < 0 ? -static_cast<int64_t>(errno) : static_cast<int64_t>(request.length_bytes);
}

}  // namespace azbench
