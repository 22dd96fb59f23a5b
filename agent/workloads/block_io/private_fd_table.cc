#include "agent/workloads/block_io/private_fd_table.h"

#include <fcntl.h>
#include <linux/close_range.h>
#include <linux/magic.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
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

constexpr int64_t kPidFsMagic = 0x50494446;  // PID_FS_MAGIC (pidfds since 6.9)

// Whether closing a copy of `fd` runs no flush: not open; a socket or pipe; /dev/null; or an inode
// of a file system whose files have no flush operation. Anything else (NFS, FUSE, Lustre, SMB,
// overlayfs, any other device, a file system not listed) counts as one that may flush.
bool CopyClosesWithoutFlush(int fd) {
  struct stat st;
  if (fstat(fd, &st) != 0) return errno == EBADF;
  if (S_ISSOCK(st.st_mode) || S_ISFIFO(st.st_mode)) return true;
  if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode)) {
    return S_ISCHR(st.st_mode) && st.st_rdev == makedev(1, 3);  // /dev/null
  }
  struct statfs fs;
  if (fstatfs(fd, &fs) != 0) return false;
  switch (static_cast<int64_t>(fs.f_type)) {
    case TMPFS_MAGIC:
    case EXT4_SUPER_MAGIC:  // ext2, ext3 and ext4
    case XFS_SUPER_MAGIC:
    case ANON_INODE_FS_MAGIC:  // eventfd, epoll, timerfd, io_uring, older pidfds
    case kPidFsMagic:
    case PROC_SUPER_MAGIC:
    case SYSFS_MAGIC:
    case NSFS_MAGIC:
    case CGROUP2_SUPER_MAGIC:
      return true;
    default:
      return false;
  }
}

}  // namespace

void ReserveLowDescriptors() {
  const int null_fd = open("/dev/null", O_RDWR | O_CLOEXEC);
  if (null_fd < 0) return;
  bool null_kept = false;
  for (int fd = 3; fd < kCopiedDescriptors; ++fd) {
    if (fd == null_fd) {
      null_kept = true;
      continue;
    }
    if (fcntl(fd, F_GETFD) >= 0) continue;        // open already
    if (dup3(null_fd, fd, O_CLOEXEC) < 0) break;  // RLIMIT_NOFILE below 64
  }
  if (!null_kept) close(null_fd);
}

absl::Status PrivateFdTable::Take(absl::Span<const int> fds) {
  if (taken_) return absl::FailedPreconditionError("this thread already has a table of its own");
  if (static_cast<pid_t>(syscall(SYS_gettid)) == getpid()) {
    return absl::FailedPreconditionError(
        "the process's main thread cannot take a table of its own (close_range would close the "
        "process's descriptors)");
  }
  for (int fd = 3; fd < kCopiedDescriptors; ++fd) {
    if (!CopyClosesWithoutFlush(fd)) {
      return absl::UnavailableError(
          absl::StrCat("descriptor ", fd,
                       " may flush its file when a copy of it is closed (not a socket, pipe, "
                       "/dev/null or a file on tmpfs, ext2/3/4 or XFS)"));
    }
  }
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
