#include "agent/engines/mmap_engine.h"

#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "agent/engines/engine_util.h"
#include "agent/engines/op_clock.h"
#include "common/status_macros.h"

namespace azbench {
namespace {

uint64_t PageBytes() {
  static const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  return page;
}

}  // namespace

MmapEngine::~MmapEngine() {
  for (Mapping& m : mappings_) Unmap(m);
  Unmap(scratch_);
}

EngineCapabilities MmapEngine::capabilities() const {
  return EngineCapabilities{.is_async = false,
                            .does_io = true,
                            .supports_direct = false,
                            .needs_aligned_buffers = false,
                            .max_iodepth = kMaxIodepth};
}

absl::Status MmapEngine::Init(const EngineOptions& options) {
  RETURN_IF_ERROR(CheckIodepth(name(), options, kMaxIodepth));
  for (Mapping& m : mappings_) Unmap(m);
  mappings_.clear();
  for (int fd : options.fds) mappings_.push_back(Mapping{.fd = fd});
  const uint64_t files = std::max<size_t>(1, options.fds.size());
  window_bytes_ = std::max(PageBytes(), (kTotalMapBytes / files) / PageBytes() * PageBytes());
  return absl::OkStatus();
}

void MmapEngine::Unmap(Mapping& m) {
  if (m.base != nullptr) munmap(m.base, m.length_bytes);
  m.base = nullptr;
  m.length_bytes = 0;
}

int64_t MmapEngine::Cover(Mapping& m, uint64_t offset_bytes, uint64_t length_bytes, bool write) {
  const uint64_t end = offset_bytes + length_bytes;
  if (m.base != nullptr && offset_bytes >= m.offset_bytes &&
      std::min(end, m.file_bytes) <= m.offset_bytes + m.length_bytes && end <= m.file_bytes) {
    return 0;
  }
  struct stat st;
  if (fstat(m.fd, &st) < 0) return -static_cast<int64_t>(errno);
  uint64_t file_bytes = static_cast<uint64_t>(st.st_size);
  if (write && end > file_bytes) {
    if (ftruncate(m.fd, static_cast<off_t>(end)) < 0) return -static_cast<int64_t>(errno);
    file_bytes = end;
  }
  Unmap(m);
  m.file_bytes = file_bytes;
  if (offset_bytes >= file_bytes) return 0;  // a read wholly past the end: nothing to map
  const uint64_t page = PageBytes();
  uint64_t start = 0;
  uint64_t length = file_bytes;
  if (file_bytes > window_bytes_ || length_bytes > window_bytes_) {
    start = offset_bytes / page * page;
    length = std::min(file_bytes - start, std::max(window_bytes_, end - start));
  }
  void* base =
      mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, m.fd, static_cast<off_t>(start));
  if (base == MAP_FAILED && errno == EACCES && !write) {
    // A read-only job's files are opened O_RDONLY, which a writable shared mapping refuses.
    base = mmap(nullptr, length, PROT_READ, MAP_SHARED, m.fd, static_cast<off_t>(start));
  }
  if (base == MAP_FAILED) return -static_cast<int64_t>(errno);
  m.base = static_cast<uint8_t*>(base);
  m.offset_bytes = start;
  m.length_bytes = length;
  return 0;
}

int64_t MmapEngine::Execute(const IoRequest& request) {
  // A trim goes to the file, as fio's mmap engine sends it.
  if (request.op == OpKind::kTrim) return ExecuteTrim(request);
  const bool transfer = request.op == OpKind::kRead || request.op == OpKind::kWrite;
  if (!transfer && request.op != OpKind::kFsync) return -EOPNOTSUPP;
  Mapping* m = nullptr;
  for (Mapping& candidate : mappings_) {
    if (candidate.fd == request.fd) m = &candidate;
  }
  if (m == nullptr) {
    Unmap(scratch_);
    scratch_.fd = request.fd;
    m = &scratch_;
  }
  if (request.fd < 0) return -EBADF;
  if (request.op == OpKind::kFsync) {
    if (m->base == nullptr) return ExecuteFsync(request);  // nothing mapped: nothing dirty here
    return msync(m->base, m->length_bytes, MS_SYNC) < 0 ? -static_cast<int64_t>(errno) : 0;
  }
  const bool write = request.op == OpKind::kWrite;
  const int64_t covered = Cover(*m, request.offset_bytes, request.length_bytes, write);
  if (covered < 0) return covered;
  if (request.offset_bytes >= m->file_bytes) return 0;
  const uint64_t bytes =
      std::min<uint64_t>(request.length_bytes, m->file_bytes - request.offset_bytes);
  uint8_t* at = m->base + (request.offset_bytes - m->offset_bytes);
  if (write) {
    std::memcpy(at, request.buffer, bytes);
  } else {
    std::memcpy(request.buffer, at, bytes);
  }
  return static_cast<int64_t>(bytes);
}

QueueResult MmapEngine::Queue(IoRequest* request) {
  request->issue_ns = request->start_ns;
  request->result = Execute(*request);
  request->complete_ns = OpClockNanos();
  return QueueResult::kCompleted;
}

}  // namespace azbench
