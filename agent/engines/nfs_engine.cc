#include "agent/engines/nfs_engine.h"

#include <fcntl.h>
#include <nfsc/libnfs.h>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "agent/engines/op_clock.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"

namespace azbench {

void NfsContextDeleter::operator()(nfs_context* nfs) const { nfs_destroy_context(nfs); }

std::string NfsErrorText(nfs_context* nfs) {
  const char* text = nfs != nullptr ? nfs_get_error(nfs) : nullptr;
  return text != nullptr && *text != '\0' ? std::string(text) : "no reason given";
}

absl::StatusOr<NfsContextPtr> MountNfsExport(std::string_view nfs_url) {
  ASSIGN_OR_RETURN(const NfsUrl url, ParseNfsUrl(nfs_url));
  NfsContextPtr nfs(nfs_init_context());
  if (nfs == nullptr) return absl::ResourceExhaustedError("cannot create a libnfs context");
  nfs_set_timeout(nfs.get(), kNfsTimeoutMs);
  // An NFSv4 server keeps one lease per client name: two connections of this process under
  // libnfs's default name would expire each other's state (NFS4ERR_EXPIRED), so each has its own.
  static std::atomic<uint64_t> connections{0};
  char host[256] = {};
  gethostname(host, sizeof(host) - 1);
  const std::string client_name =
      absl::StrCat("azbench-", host, "-", getpid(), "-", connections.fetch_add(1));
  nfs4_set_client_name(nfs.get(), client_name.c_str());
  // The URL's arguments (version, ports) set up the context as it is parsed.
  struct nfs_url* parsed = nfs_parse_url_dir(nfs.get(), url.LibnfsUrl().c_str());
  if (parsed == nullptr) {
    return absl::InvalidArgumentError(absl::StrCat(
        "nfs_url '", std::string(nfs_url), "': libnfs refuses it: ", NfsErrorText(nfs.get())));
  }
  const int mounted = nfs_mount(nfs.get(), parsed->server, parsed->path);
  nfs_destroy_url(parsed);
  if (mounted != 0) {
    return absl::UnavailableError(absl::StrCat("cannot mount ", url.export_path,
                                               " from NFS server ", url.server, " (NFSv",
                                               url.version, "): ", NfsErrorText(nfs.get())));
  }
  return nfs;
}

std::string NfsPathOf(std::string_view job_path) {
  if (!job_path.empty() && job_path.front() == '/') return std::string(job_path);
  return absl::StrCat("/", std::string(job_path));
}

NfsEngine::NfsEngine() = default;

NfsEngine::~NfsEngine() {
  // Callbacks that libnfs runs while it tears the context down must not touch requests whose
  // owner may be gone.
  closing_ = true;
  if (nfs_ != nullptr) {
    for (nfsfh* fh : files_) nfs_close(nfs_.get(), fh);
  }
  nfs_.reset();
}

EngineCapabilities NfsEngine::capabilities() const {
  return {.is_async = true,
          .does_io = true,
          .supports_direct = false,
          .needs_aligned_buffers = false,
          .max_iodepth = kMaxIodepth,
          .opens_files = true};
}

absl::Status NfsEngine::Init(const EngineOptions& options) {
  if (options.iodepth < 1 || options.iodepth > kMaxIodepth) {
    return absl::InvalidArgumentError(
        absl::StrCat("iodepth ", options.iodepth,
                     " is out of range for the nfs engine: allowed 1..", kMaxIodepth));
  }
  if (options.batch_submit < 0) {
    return absl::InvalidArgumentError("batch_submit must not be negative");
  }
  if (options.nfs_url.empty()) {
    return absl::InvalidArgumentError("ioengine=nfs needs nfs_url");
  }
  ASSIGN_OR_RETURN(const NfsUrl url, ParseNfsUrl(options.nfs_url));
  ASSIGN_OR_RETURN(nfs_, MountNfsExport(options.nfs_url));
  version_ = url.version;
  iodepth_ = options.iodepth;
  batch_submit_ = options.batch_submit;
  pending_.reserve(iodepth_);
  done_.reserve(iodepth_ + 1);
  ops_.resize(iodepth_ + 1);
  free_ops_.reserve(ops_.size());
  for (Op& op : ops_) {
    op.engine = this;
    free_ops_.push_back(&op);
  }
  return absl::OkStatus();
}

absl::StatusOr<int> NfsEngine::OpenFile(const std::string& path, bool read, bool write) {
  if (nfs_ == nullptr) return absl::FailedPreconditionError("the nfs engine is not initialised");
  const int flags = write ? O_RDWR : O_RDONLY;
  (void)read;
  nfsfh* fh = nullptr;
  const std::string nfs_path = NfsPathOf(path);
  if (const int rc = nfs_open(nfs_.get(), nfs_path.c_str(), flags, &fh); rc != 0) {
    const std::string message =
        absl::StrCat("cannot open '", nfs_path, "' over NFS: ", NfsErrorText(nfs_.get()));
    if (rc == -ENOENT) return absl::NotFoundError(message);
    if (rc == -EACCES || rc == -EPERM || rc == -EROFS) return absl::PermissionDeniedError(message);
    return absl::UnavailableError(message);
  }
  files_.push_back(fh);
  return static_cast<int>(files_.size() - 1);
}

uint32_t NfsEngine::MaxPieceBytes(OpKind op) const {
  if (version_ != 4) return 0;  // libnfs splits NFSv3 reads and writes itself
  return static_cast<uint32_t>(op == OpKind::kWrite ? kNfsV4MaxWriteBytes : kNfsV4MaxReadBytes);
}

int64_t NfsEngine::RunSync(IoRequest& request) {
  if (request.fd < 0 || static_cast<size_t>(request.fd) >= files_.size()) return -EBADF;
  nfsfh* fh = files_[static_cast<size_t>(request.fd)];
  switch (request.op) {
    case OpKind::kRead:
      return nfs_pread(nfs_.get(), fh, request.offset_bytes, request.length_bytes, request.buffer);
    case OpKind::kWrite:
      return nfs_pwrite(nfs_.get(), fh, request.offset_bytes, request.length_bytes, request.buffer);
    case OpKind::kFsync:
      return nfs_fsync(nfs_.get(), fh);
    default:
      return -EOPNOTSUPP;
  }
}

QueueResult NfsEngine::Queue(IoRequest* request) {
  const bool data = request->op == OpKind::kRead || request->op == OpKind::kWrite;
  if (iodepth_ == 1 || !data) {
    // A sync op waits for the queue to empty: an fsync covers every write before it.
    if (inflight() > 0) return QueueResult::kBusy;
    const uint32_t max_piece = data ? MaxPieceBytes(request->op) : 0;
    if (max_piece == 0 || request->length_bytes <= max_piece) {
      request->issue_ns = request->start_ns;
      request->result = RunSync(*request);
      request->complete_ns = OpClockNanos();
      return QueueResult::kCompleted;
    }
    // Several RPCs at once, then wait for the last: the queue is empty, so done_ ends up holding
    // just this request.
    Submit(request);
    absl::Status status = absl::OkStatus();
    while (submitted_ > 0 && status.ok()) status = Service(100);
    if (!status.ok()) {
      request->result = -EIO;
      request->complete_ns = OpClockNanos();
    }
    request->issue_ns = request->start_ns;
    done_.clear();
    done_head_ = 0;
    return QueueResult::kCompleted;
  }
  if (inflight() >= iodepth_) return QueueResult::kBusy;
  pending_.push_back(request);
  return QueueResult::kQueued;
}

void NfsEngine::PieceCompleted(int status, nfs_context* /*nfs*/, void* data, void* private_data) {
  Piece* piece = static_cast<Piece*>(private_data);
  Op* op = piece->op;
  if (op->engine->closing_) return;
  if (status >= 0 && op->request->op == OpKind::kRead) {
    const size_t n = std::min<size_t>(static_cast<size_t>(status), piece->length_bytes);
    std::memcpy(static_cast<char*>(op->request->buffer) + piece->offset_bytes, data, n);
    status = static_cast<int>(n);
  }
  piece->result = status;
  if (--op->pieces_left == 0) op->engine->Finish(op);
}

void NfsEngine::Finish(Op* op) {
  IoRequest* request = op->request;
  request->complete_ns = OpClockNanos();
  // The first error; else the bytes before the first short piece, since what follows a hole is
  // not what the caller asked for at that offset.
  int64_t result = 0;
  bool short_piece = false;
  for (const Piece& piece : op->pieces) {
    if (piece.result < 0) {
      result = piece.result;
      break;
    }
    if (!short_piece) result += piece.result;
    short_piece = short_piece || piece.result < piece.length_bytes;
  }
  request->result = result;
  op->request = nullptr;
  free_ops_.push_back(op);
  --submitted_;
  done_.push_back(request);
}

void NfsEngine::Submit(IoRequest* request) {
  Op* op = free_ops_.back();
  free_ops_.pop_back();
  op->request = request;
  ++submitted_;
  const uint32_t max_piece = MaxPieceBytes(request->op);
  const uint32_t piece_bytes =
      max_piece == 0 ? std::max<uint32_t>(request->length_bytes, 1) : max_piece;
  const size_t count =
      std::max<uint64_t>(1, (uint64_t{request->length_bytes} + piece_bytes - 1) / piece_bytes);
  op->pieces.resize(count);
  op->pieces_left = count;
  nfsfh* fh = request->fd >= 0 && static_cast<size_t>(request->fd) < files_.size()
                  ? files_[static_cast<size_t>(request->fd)]
                  : nullptr;
  for (size_t i = 0; i < count; ++i) {
    Piece& piece = op->pieces[i];
    piece.op = op;
    piece.offset_bytes = static_cast<uint32_t>(i * piece_bytes);
    piece.length_bytes = std::min(piece_bytes, request->length_bytes - piece.offset_bytes);
    piece.result = 0;
    const uint64_t offset = request->offset_bytes + piece.offset_bytes;
    int rc = -EBADF;
    if (fh != nullptr) {
      rc = request->op == OpKind::kRead
               ? nfs_pread_async(nfs_.get(), fh, offset, piece.length_bytes,
                                 &NfsEngine::PieceCompleted, &piece)
               : nfs_pwrite_async(nfs_.get(), fh, offset, piece.length_bytes,
                                  static_cast<const char*>(request->buffer) + piece.offset_bytes,
                                  &NfsEngine::PieceCompleted, &piece);
    }
    if (rc != 0) {
      // libnfs did not queue it: it and the pieces after it fail now, with the error.
      for (size_t j = i; j < count; ++j) op->pieces[j].result = fh == nullptr ? -EBADF : -EIO;
      op->pieces_left -= count - i;
      break;
    }
  }
  request->issue_ns = OpClockNanos();
  if (op->pieces_left == 0) Finish(op);
}

absl::StatusOr<int> NfsEngine::Commit() {
  const size_t n =
      batch_submit_ > 0 ? std::min<size_t>(pending_.size(), batch_submit_) : pending_.size();
  for (size_t i = 0; i < n; ++i) Submit(pending_[i]);
  pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
  // Send what the socket takes now rather than at the next wait.
  if (n > 0) RETURN_IF_ERROR(Service(0));
  return static_cast<int>(n);
}

absl::Status NfsEngine::Service(int timeout_ms) {
  pollfd pfd{};
  pfd.fd = nfs_get_fd(nfs_.get());
  pfd.events = static_cast<short>(nfs_which_events(nfs_.get()));
  const int rc = poll(&pfd, 1, timeout_ms);
  if (rc < 0) {
    if (errno == EINTR) return absl::OkStatus();
    return absl::InternalError(absl::StrCat("poll on the NFS connection: ", strerror(errno)));
  }
  // With revents 0 libnfs still checks its timeouts.
  if (nfs_service(nfs_.get(), rc > 0 ? pfd.revents : 0) < 0) {
    return absl::InternalError(
        absl::StrCat("the NFS connection failed: ", NfsErrorText(nfs_.get())));
  }
  return absl::OkStatus();
}

absl::StatusOr<int> NfsEngine::GetEvents(int min_events, std::span<IoRequest*> out) {
  const auto ready = [&] { return static_cast<int>(done_.size() - done_head_); };
  if (ready() == 0 && submitted_ > 0 && min_events == 0) RETURN_IF_ERROR(Service(0));
  // Polls in short steps so that libnfs's timeouts are checked while the server is silent.
  while (ready() < min_events && submitted_ > 0) RETURN_IF_ERROR(Service(100));
  const int n = std::min(ready(), static_cast<int>(out.size()));
  for (int i = 0; i < n; ++i) out[i] = done_[done_head_++];
  if (done_head_ == done_.size()) {
    done_.clear();
    done_head_ = 0;
  }
  return n;
}

absl::Status NfsEngine::Quiesce() {
  pending_.clear();
  absl::Status status = absl::OkStatus();
  while (submitted_ > 0 && status.ok()) status = Service(100);
  if (!status.ok()) {
    return absl::InternalError(absl::StrCat(status.message(), "; ", submitted_,
                                            " requests are still with the NFS server"));
  }
  done_.clear();
  done_head_ = 0;
  return absl::OkStatus();
}

}  // namespace azbench
