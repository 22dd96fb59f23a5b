#include "agent/workloads/private_fd_table.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "absl/strings/str_cat.h"

namespace azbench {

namespace {

int PidfdOpenSelf() { return static_cast<int>(syscall(SYS_pidfd_open, getpid(), 0)); }

int PidfdGetfd(int pidfd, int fd) {
  return static_cast<int>(syscall(SYS_pidfd_getfd, pidfd, fd, 0));
}

std::string ErrnoText(int err) { return absl::StrCat(strerror(err), " (errno ", err, ")"); }

}  // namespace

absl::Status PrivateFdTable::Take(absl::Span<const int> fds) {
  if (taken_) return absl::FailedPreconditionError("this thread already has a table of its own");
  // Everything that can be refused is tried first on the shared table, where a refusal changes
  // nothing: pidfd_open, and pidfd_getfd on the pidfd itself (closing that copy flushes nothing).
  const int probe = PidfdOpenSelf();
  if (probe < 0) {
    return absl::UnavailableError(absl::StrCat("pidfd_open: ", ErrnoText(errno)));
  }
  const int probe_copy = PidfdGetfd(probe, probe);
  const int probe_errno = errno;
  if (probe_copy >= 0) close(probe_copy);
  close(probe);
  if (probe_copy < 0) {
    return absl::UnavailableError(absl::StrCat("pidfd_getfd: ", ErrnoText(probe_errno)));
  }
  // Copies descriptors 0-2 only: nothing of the process's is closed.
  if (syscall(SYS_close_range, 3U, ~0U, CLOSE_RANGE_UNSHARE) != 0) {
    return absl::UnavailableError(
        absl::StrCat("close_range(CLOSE_RANGE_UNSHARE): ", ErrnoText(errno)));
  }
  taken_ = true;
  // The new table holds 0-2 only, so the pidfd takes the lowest number above them, which may be
  // one of `fds`: that one is filled last, replacing the pidfd (dup3 closes it).
  int pidfd = PidfdOpenSelf();
  if (pidfd < 0) {
    return absl::InternalError(
        absl::StrCat("pidfd_open after leaving the shared descriptor table: ", ErrnoText(errno)));
  }
  std::vector<int> order;
  order.reserve(fds.size());
  bool fills_pidfd = false;
  for (int fd : fds) {
    if (fd <= 2 || std::find(order.begin(), order.end(), fd) != order.end()) continue;
    if (fd == pidfd) {
      fills_pidfd = true;
    } else {
      order.push_back(fd);
    }
  }
  if (fills_pidfd) order.push_back(pidfd);
  absl::Status status;
  for (int fd : order) {
    int copy = PidfdGetfd(pidfd, fd);
    if (copy >= 0 && copy != fd) {
      const int placed = dup3(copy, fd, O_CLOEXEC);
      const int err = errno;
      close(copy);
      copy = placed;
      errno = err;
    }
    if (copy < 0) {
      status = absl::InternalError(
          absl::StrCat("copying descriptor ", fd, " into the thread's table: ", ErrnoText(errno)));
      break;
    }
    copied_.push_back(fd);
    if (fd == pidfd) pidfd = -1;  // replaced by the copy
  }
  if (pidfd >= 0) close(pidfd);
  return status;
}

void PrivateFdTable::Release() {
  for (int fd : copied_) close(fd);
  copied_.clear();
}

}  // namespace azbench
