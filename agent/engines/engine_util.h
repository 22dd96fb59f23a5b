// Helpers shared by the engines in this folder (not part of the engine interface).
#ifndef AZBENCH_AGENT_ENGINES_ENGINE_UTIL_H_
#define AZBENCH_AGENT_ENGINES_ENGINE_UTIL_H_

#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "agent/engines/io_engine.h"
#include "common/errno_text.h"  // ErrnoText, which the engines' messages use

namespace azbench {

// OK when 1 <= options.iodepth <= max_iodepth, else InvalidArgument naming the engine and the
// range.
absl::Status CheckIodepth(std::string_view engine, const EngineOptions& options, int max_iodepth);

// pread64 / pwrite64 as the bare system call: the result, or -errno. Not glibc's pread, which is a
// cancellation point and pays for enabling and disabling asynchronous cancellation on every call
// (~2.4% of a tmpfs 4k read), nor syscall(), which is variadic and goes through errno: the psync
// loop issues one per op.
inline int64_t RawTransferSyscall(long number, int fd, void* buffer, uint64_t length_bytes,
                                  uint64_t offset_bytes) {
#if defined(__x86_64__)
  long ret;
  register long r10 asm("r10") = static_cast<long>(offset_bytes);
  asm volatile("syscall"
               : "=a"(ret)
               : "a"(number), "D"(static_cast<long>(fd)), "S"(buffer), "d"(length_bytes), "r"(r10)
               : "rcx", "r11", "memory");
  return ret;
#else
  const long ret = syscall(number, fd, buffer, length_bytes, static_cast<off_t>(offset_bytes));
  return ret < 0 ? -static_cast<int64_t>(errno) : ret;
#endif
}

// fsync or fdatasync of `request.fd`: 0 or -errno; retries on EINTR.
int64_t ExecuteFsync(const IoRequest& request);

// A trim as fio's engines other than falloc and null issue it: the BLKDISCARD ioctl over
// [offset, offset + length) of the descriptor. A block device discards the range; a regular file
// refuses the ioctl with ENOTTY, so the job fails as fio's does. Returns the length or -errno.
int64_t ExecuteTrim(const IoRequest& request);

// Performs `request` synchronously with pread/pwrite/fsync/fdatasync/BLKDISCARD and returns bytes
// transferred (fsync: 0) or -errno; retries on EINTR; a short transfer is returned as is. Other
// ops give -EOPNOTSUPP. Does not touch the request's timestamps. Inline: it is the
// psync engine's whole op.
inline int64_t ExecuteSync(const IoRequest& request) {
  long number;
  switch (request.op) {
    case OpKind::kRead:
      number = SYS_pread64;
      break;
    case OpKind::kWrite:
      number = SYS_pwrite64;
      break;
    case OpKind::kFsync:
      return ExecuteFsync(request);
    case OpKind::kTrim:
      return ExecuteTrim(request);
    default:
      return -EOPNOTSUPP;
  }
  int64_t ret;
  do {
    ret = RawTransferSyscall(number, request.fd, request.buffer, request.length_bytes,
                             request.offset_bytes);
  } while (ret == -EINTR);
  return ret;
}

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_ENGINE_UTIL_H_
