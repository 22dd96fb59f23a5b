// A descriptor table of the calling thread's own, holding only the files it works on.
//
//   PrivateFdTable table;                       // on a thread that will exit when done
//   absl::Status s = table.Take({job_fd_a, job_fd_b});
//   ... pread(job_fd_a, ...) ...                // same numbers, same open files
//   table.Release();                            // closes the thread's copies (not the process's)
//
// Why: in a process with several threads the descriptor table is shared, and every syscall on a
// descriptor then takes and drops a reference on its open file (two atomic operations on a line
// all threads share, ~16 ns per pread here); a single-threaded process, a fio job for one, skips
// them. A sync-engine clone that does nothing but pread/pwrite on its job's files gets the same
// path by working from a table of its own.
//
// How, without flushing any other file: `close_range(3, ~0U, CLOSE_RANGE_UNSHARE)` gives the
// thread a new table and closes 3 and up in it. The kernel copies the first word of slots
// whatever the range (descriptors 0-63: its table is never smaller), so the copies of 3-63 are
// closed, and closing a copy runs the file system's flush even while other references remain (NFS
// writes back the file's dirty pages, FUSE sends FLUSH to its daemon, Lustre and SMB flush too).
// So Take first checks that every descriptor in 3-63 is one whose close flushes nothing (a socket,
// a pipe, /dev/null, an anonymous inode, a file on tmpfs, ext2/3/4 or XFS...) and otherwise leaves
// the thread on the shared table; and the agent holds /dev/null on every free slot of 3-63 from
// its start (ReserveLowDescriptors), so that no file it opens later (another job's NFS file) can
// land there between that check and the unshare. `pidfd_getfd` then copies each of the thread's
// files in from the process's table, at the number it has there: a descriptor number the thread
// holds means the same open file in both tables, and any other number the thread might use (a log
// sink's) fails with EBADF rather than reach a job's file. (Placing a copy at its number closes a
// temporary second copy of the job's own file, once, before the job's start instant.)
//
// Only a thread that exits when it is done may take a table: a thread cannot share the process's
// again; and never the process's main thread (Take refuses it: were it the only thread, its table
// would not be shared, and close_range would close the process's own descriptors). The descriptors
// passed must stay open in the process's table until Release(), so that their numbers are not
// reused there for other files.
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_IO_PRIVATE_FD_TABLE_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_IO_PRIVATE_FD_TABLE_H_

#include <vector>

#include "absl/status/status.h"
#include "absl/types/span.h"

namespace azbench {

// The slots a private table's unshare copies and then closes: 3 to kCopiedDescriptors - 1.
inline constexpr int kCopiedDescriptors = 64;

// Holds /dev/null on every free descriptor from 3 to kCopiedDescriptors - 1 for the rest of the
// process's life (as far as RLIMIT_NOFILE allows), so that every file opened later gets a number
// above them. The agent calls it first thing; the descriptors are close-on-exec.
void ReserveLowDescriptors();

class PrivateFdTable {
 public:
  PrivateFdTable() = default;
  PrivateFdTable(const PrivateFdTable&) = delete;
  PrivateFdTable& operator=(const PrivateFdTable&) = delete;
  ~PrivateFdTable() { Release(); }

  // Moves the calling thread to a table of its own holding descriptors 0-2 and `fds`.
  // Unavailable (nothing changed, the thread keeps the shared table) where a descriptor in 3-63
  // could flush when closed, or the kernel or a sandbox refuses close_range's unshare or
  // pidfd_getfd (kernels before 5.9, seccomp profiles that allow pidfd_getfd only with
  // CAP_SYS_PTRACE): the caller just runs on the shared table. FailedPrecondition on the
  // process's main thread.
  // Internal if a step failed after the thread left the shared table (then the thread holds
  // only what it got so far and must not go on with its job).
  absl::Status Take(absl::Span<const int> fds);

  // Whether the calling thread works from its own table (Take succeeded).
  bool taken() const { return taken_; }

  // Closes the thread's copies of the files Take copied in, on the calling thread (which must be
  // the one that took the table). The process's descriptors stay open. Idempotent.
  void Release();

 private:
  bool taken_ = false;
  std::vector<int> copied_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_IO_PRIVATE_FD_TABLE_H_
