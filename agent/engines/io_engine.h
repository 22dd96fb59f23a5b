// The I/O engine interface: one small table of operations, as fio's struct ioengine_ops.
//
// A synchronous engine does the I/O inside Queue() and answers kCompleted. An asynchronous engine
// answers kQueued (the request waits in its submission queue until Commit()) or kBusy (the queue is
// full: reap with GetEvents() first). So one job loop drives every engine:
//
//   switch (engine->Queue(req)) { case kCompleted: account(req); break; case kQueued: ...; }
//   engine->Commit();  engine->GetEvents(min, max, done);
//
// Timestamps the engine fills: `issue_ns` (monotonic, right after the submit syscall returned: the
// end of slat, the start of clat) and `complete_ns` (monotonic, when the completion was reaped).
// `start_ns` is the job loop's. Sync engines set issue_ns = start_ns (no slat) and complete_ns
// after the syscall. The engine never owns buffers, nor files, except where it reaches them itself
// (`opens_files`: nfs, whose files are on a server it talks to): then OpenFile gives the handle
// that goes into IoRequest::fd, and the engine closes it.
#ifndef AZBENCH_AGENT_ENGINES_IO_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_IO_ENGINE_H_

#include <sys/uio.h>

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "agent/engines/wait_pause.h"
#include "common/job_spec.h"
#include "common/op_kind.h"

namespace azbench {

struct IoRequest {
  OpKind op = OpKind::kRead;  // kRead, kWrite, kTrim, kFsync (fsync)
  bool datasync = false;      // with kFsync: fdatasync semantics
  int fd = -1;
  void* buffer = nullptr;
  uint32_t length_bytes = 0;
  uint64_t offset_bytes = 0;
  int buffer_index = -1;  // index into EngineOptions::buffers when the buffer is a registered one
  uint64_t start_ns = 0;  // set by the job loop before Queue()
  uint64_t issue_ns = 0;  // set by the engine
  uint64_t complete_ns = 0;  // set by the engine
  int64_t result = 0;        // bytes transferred (fsync: 0) or -errno
  uint32_t slot = 0;         // free for the job loop
};

struct EngineCapabilities {
  bool is_async = false;               // Queue() may answer kQueued
  bool does_io = true;                 // false for the null engine
  bool supports_direct = true;         // O_DIRECT files accepted
  bool needs_aligned_buffers = false;  // buffers must be aligned to the logical block size
  int max_iodepth = 1;
  // The engine opens the job's files itself, after Init (OpenFile); they are not local paths.
  bool opens_files = false;
};

struct EngineOptions {
  int iodepth = 1;
  // Requests submitted per Commit() at most (0 = all queued). Requests reaped per GetEvents() at
  // most.
  int batch_submit = 0;
  // Buffers the job loop will use; io_uring registers them with the kernel when register_buffers.
  std::vector<iovec> buffers;
  // Files the job loop will use; io_uring registers them (fixed files) when register_files.
  std::vector<int> fds;
  bool register_buffers = true;
  bool register_files = true;
  // The pause before blocking for completions (agent/engines/wait_pause.h); io_uring only.
  WaitPauseOptions wait_pause;
  // fio's nfs_url (common/nfs_url.h); nfs only.
  std::string nfs_url;
  // RWF_* flags for every read and write (fio's hipri: RWF_HIPRI); pvsync2 only.
  int rw_flags = 0;
  // fio's stat_type; filestat and dirstat only.
  StatType stat_type = StatType::kStat;
};

enum class QueueResult { kCompleted, kQueued, kBusy };

class IoEngine {
 public:
  virtual ~IoEngine() = default;
  virtual std::string_view name() const = 0;
  virtual EngineCapabilities capabilities() const = 0;

  // Sets up queues. Errors: InvalidArgument (iodepth beyond max_iodepth), Unavailable (the kernel
  // refuses io_uring_setup/io_setup, with the errno text), ResourceExhausted (memlock limit for
  // registration).
  virtual absl::Status Init(const EngineOptions& options) = 0;

  // Hot path. Never allocates. A sync engine performs the request and returns kCompleted with
  // `result` and timestamps set; an async engine enqueues it (kQueued) or refuses (kBusy).
  // A trim is done inside Queue() by every engine, as fio's (kCompleted; an async engine answers
  // kBusy while requests wait for Commit(), posixaio while any is in flight).
  virtual QueueResult Queue(IoRequest* request) = 0;

  // Submits queued requests to the kernel; returns how many were submitted. Sync engines return 0.
  // Errors: Internal with the errno text when the submit syscall fails for a reason other than
  // EAGAIN/EINTR.
  virtual absl::StatusOr<int> Commit() = 0;

  // Waits for at least `min_events` completions (0 = do not wait) and returns up to `out.size()` of
  // them, each with result and complete_ns set. Errors: Internal with the errno text.
  virtual absl::StatusOr<int> GetEvents(int min_events, std::span<IoRequest*> out) = 0;

  // Requests queued or submitted and not yet reaped.
  virtual int inflight() const = 0;

  // Whether Queue() would answer kBusy for a trim now (see Queue), so the job loop submits and
  // reaps first instead of drawing a trim's range it cannot issue yet.
  virtual bool TrimMustWait() const { return false; }

  // What Init could not set up as the options asked and fell back from, one message each (e.g.
  // buffer registration refused by the memlock limit: plain reads and writes instead). The job
  // reports them as warnings. Empty: everything as asked.
  virtual std::vector<std::string> InitFallbacks() const { return {}; }

  // Waits for every request the kernel holds and drops the queued ones (their results are not
  // returned, and no later Commit() submits them): afterwards inflight() is 0 and the buffers can
  // be freed. If the wait itself fails (the error GetEvents reported, most likely), requests
  // remain, counted in inflight(), and the error says how many and why: the job fails, the
  // engine's destructor tries again (libaio's io_destroy waits; io_uring's ring exit need not),
  // and the clone keeps its buffers allocated (KeepBuffersForTheKernel) rather than free them
  // under the kernel. The job loop calls it on the thread that submitted, because an io_uring ring
  // with DEFER_TASKRUN completes requests only for that thread. Sync engines hold nothing: the
  // default does nothing.
  // Errors: Internal (the wait failed, with the errno text and the requests left in the kernel).
  virtual absl::Status Quiesce() { return absl::OkStatus(); }

  // Engines with capabilities().opens_files: opens `path` (the engine's own namespace, e.g.
  // beneath the NFS export) after Init and returns the handle for IoRequest::fd; the engine closes
  // it when it goes. Errors: NotFound, PermissionDenied, Unavailable (the server), each naming the
  // path; Unimplemented for every other engine.
  virtual absl::StatusOr<int> OpenFile(const std::string& path, bool read, bool write) {
    (void)read;
    (void)write;
    return absl::UnimplementedError(
        absl::StrCat("engine ", std::string(name()), " does not open files itself: ", path));
  }
};

// The explicit registry (no static self-registration). Names: psync, sync (alias of psync), vsync,
// pvsync, pvsync2, posixaio, mmap, libaio, io_uring, null, nfs, and the file-operation engines
// (file_op_engine.h). Errors: NotFound naming the engine
// and the list of engines built in.
absl::StatusOr<std::unique_ptr<IoEngine>> CreateEngine(std::string_view name);
std::vector<std::string> EngineNames();

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_IO_ENGINE_H_
