// nfs: NFS from user space through libnfs, as fio's nfs engine: each engine (each job clone) mounts
// the job's `nfs_url` export on its own connection and opens the job's files beneath it itself
// (capabilities().opens_files), since they are no local paths.
//
// At iodepth 1, Queue() does the read or write with libnfs's synchronous call and answers
// kCompleted (issue_ns = start_ns). Deeper, Queue() keeps the request (kQueued; kBusy once queued +
// in flight + unreaped reach iodepth), Commit() hands up to `batch_submit` of them (0 = all) to
// nfs_pread_async / nfs_pwrite_async and flushes what the socket takes at once (issue_ns = one
// clock read after each call returned), and GetEvents() polls the connection and runs libnfs's
// nfs_service until `min_events` requests have completed; complete_ns is read in the callback
// that completes one. result = bytes or the -errno libnfs gives.
//
// Over NFSv4 a write of more than kNfsV4MaxWriteBytes (common/nfs_url.h), which libnfs 4.0 cannot
// encode as one WRITE, and a read of more than kNfsV4MaxReadBytes, whose reply libnfs 4.0 would
// refuse, go as several RPCs sent at once, as libnfs itself splits NFSv3 ones at the server's
// wtmax and rtmax; at iodepth 1 too. The request completes with the last of them: result = the
// first error, else the bytes up to the first short piece (a read that meets the end of file).
// fsync/fdatasync (both NFSv3 COMMIT through nfs_fsync) run inside Queue() once nothing is in
// flight (kBusy before), as libaio's do. A request libnfs refuses to queue completes with -EIO.
//
// Every call is bounded by a 30 s RPC timeout (nfs_set_timeout), so a server that stops answering
// fails the job instead of hanging it. Capabilities: async, max_iodepth kMaxIodepth, no O_DIRECT
// (libnfs has no page cache to bypass), opens_files.
//
//   NfsEngine engine;  RETURN_IF_ERROR(engine.Init({.iodepth = 16, .nfs_url = url}));
//   ASSIGN_OR_RETURN(int fh, engine.OpenFile("/job.0.0", true, false));  request.fd = fh;
#ifndef AZBENCH_AGENT_ENGINES_NFS_ENGINE_H_
#define AZBENCH_AGENT_ENGINES_NFS_ENGINE_H_

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "agent/engines/io_engine.h"

struct nfs_context;
struct nfsfh;

namespace azbench {

struct NfsContextDeleter {
  void operator()(nfs_context* nfs) const;
};
using NfsContextPtr = std::unique_ptr<nfs_context, NfsContextDeleter>;

// The RPC timeout of every libnfs call azbench makes.
inline constexpr int kNfsTimeoutMs = 30'000;

// Mounts the export of `nfs_url` (common/nfs_url.h) on a new connection. Errors: InvalidArgument
// (the URL), Unavailable (no answer, or the mount refused: libnfs's text, with the server).
absl::StatusOr<NfsContextPtr> MountNfsExport(std::string_view nfs_url);

// A job's file name as a path beneath the export: fio's nfs engine names files relative to the
// mount, so "a/b" and "/a/b" are the same file.
std::string NfsPathOf(std::string_view job_path);

// libnfs's last error text on `nfs`.
std::string NfsErrorText(nfs_context* nfs);

class NfsEngine final : public IoEngine {
 public:
  static constexpr int kMaxIodepth = 1024;

  NfsEngine();
  ~NfsEngine() override;

  std::string_view name() const override { return "nfs"; }
  EngineCapabilities capabilities() const override;
  // Errors: InvalidArgument (iodepth, no or a bad nfs_url), Unavailable (the mount).
  absl::Status Init(const EngineOptions& options) override;
  QueueResult Queue(IoRequest* request) override;
  absl::StatusOr<int> Commit() override;
  // Errors: Internal when polling the connection fails or libnfs finds it broken.
  absl::StatusOr<int> GetEvents(int min_events, std::span<IoRequest*> out) override;
  int inflight() const override {
    return static_cast<int>(pending_.size()) + submitted_ +
           static_cast<int>(done_.size() - done_head_);
  }
  absl::Status Quiesce() override;
  absl::StatusOr<int> OpenFile(const std::string& path, bool read, bool write) override;

 private:
  struct Op;
  // One RPC of a request: bytes [offset, offset + length) of its buffer.
  struct Piece {
    Op* op = nullptr;
    uint32_t offset_bytes = 0;
    uint32_t length_bytes = 0;
    int64_t result = 0;
  };
  struct Op {
    NfsEngine* engine = nullptr;
    IoRequest* request = nullptr;
    std::vector<Piece> pieces;  // kept between requests: no allocation per op once grown
    size_t pieces_left = 0;
  };
  static void PieceCompleted(int status, nfs_context* nfs, void* data, void* private_data);
  // The most bytes one RPC of `op` (kRead or kWrite) may carry; 0: no limit here.
  uint32_t MaxPieceBytes(OpKind op) const;
  // Hands `request` to libnfs's queue as one or more RPCs; completes it now (done_) when libnfs
  // refuses all of them.
  void Submit(IoRequest* request);
  void Finish(Op* op);
  int64_t RunSync(IoRequest& request);
  // One poll of the connection (timeout_ms: -1 never happens; 0 = do not wait) and nfs_service.
  absl::Status Service(int timeout_ms);

  NfsContextPtr nfs_;
  int version_ = 3;
  std::vector<nfsfh*> files_;
  int iodepth_ = 1;
  int batch_submit_ = 0;
  std::vector<IoRequest*> pending_;
  int submitted_ = 0;
  std::vector<IoRequest*> done_;
  size_t done_head_ = 0;
  std::vector<Op> ops_;
  std::vector<Op*> free_ops_;
  bool closing_ = false;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_NFS_ENGINE_H_
