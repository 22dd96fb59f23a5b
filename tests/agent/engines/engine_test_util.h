// Test helpers for the I/O engines: RAII temporary directories and aligned buffers, a byte pattern
// that names its own file offset, and a reference job loop that drives any engine through the
// IoEngine contract (queue, on kBusy commit and reap, commit, reap until nothing is in flight).
#ifndef AZBENCH_TESTS_AGENT_ENGINES_ENGINE_TEST_UTIL_H_
#define AZBENCH_TESTS_AGENT_ENGINES_ENGINE_TEST_UTIL_H_

#include <fcntl.h>
#include <stdlib.h>
#include <sys/uio.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <system_error>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "agent/engines/io_engine.h"
#include "common/clock.h"

namespace azbench::engine_test {

inline constexpr char kTmpfsBase[] = "/dev/shm";
inline constexpr char kLocalDiskBase[] = "/var/tmp";  // ext4 on the test machines
inline constexpr size_t kAlignment = 4096;

// A fresh directory under `base`, removed with everything inside when the object is destroyed (also
// when the test failed). path() is empty when the directory could not be created.
class TempDir {
 public:
  explicit TempDir(const std::string& base) {
    std::string templ = base + "/azbench-engine-test-XXXXXX";
    if (mkdtemp(templ.data()) != nullptr) path_ = templ;
  }
  ~TempDir() {
    if (path_.empty()) return;
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

// `count` buffers of `size_bytes` each, every one aligned to 4096 bytes (posix_memalign), for
// O_DIRECT.
class AlignedBuffers {
 public:
  AlignedBuffers(int count, size_t size_bytes) : size_bytes_(size_bytes) {
    for (int i = 0; i < count; ++i) {
      void* p = nullptr;
      if (posix_memalign(&p, kAlignment, size_bytes) != 0) p = nullptr;
      if (p != nullptr) std::memset(p, 0, size_bytes);
      buffers_.push_back(static_cast<uint8_t*>(p));
    }
  }
  ~AlignedBuffers() {
    for (uint8_t* p : buffers_) free(p);
  }
  AlignedBuffers(const AlignedBuffers&) = delete;
  AlignedBuffers& operator=(const AlignedBuffers&) = delete;

  bool ok() const {
    for (uint8_t* p : buffers_) {
      if (p == nullptr) return false;
    }
    return true;
  }
  uint8_t* at(int i) const { return buffers_[i]; }
  int count() const { return static_cast<int>(buffers_.size()); }
  size_t size_bytes() const { return size_bytes_; }
  std::vector<iovec> iovecs() const {
    std::vector<iovec> v;
    for (uint8_t* p : buffers_) v.push_back(iovec{p, size_bytes_});
    return v;
  }

 private:
  size_t size_bytes_;
  std::vector<uint8_t*> buffers_;
};

// The byte that belongs at `file_offset`: a hash of the offset, so a block written at the wrong
// place, or a torn or stale block, does not compare equal.
inline uint8_t PatternByte(uint64_t file_offset) {
  uint64_t x = file_offset / 8 + 0x9e3779b97f4a7c15ULL;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
  x ^= x >> 31;
  return static_cast<uint8_t>(x >> (8 * (file_offset % 8)));
}

inline void FillPattern(uint8_t* data, uint64_t file_offset, size_t length) {
  for (size_t i = 0; i < length; ++i) data[i] = PatternByte(file_offset + i);
}

// Index of the first byte that differs from the pattern, or -1.
inline int64_t FirstPatternMismatch(const uint8_t* data, uint64_t file_offset, size_t length) {
  for (size_t i = 0; i < length; ++i) {
    if (data[i] != PatternByte(file_offset + i)) return static_cast<int64_t>(i);
  }
  return -1;
}

// A reference job loop: queues every request in order (start_ns set just before), and on kBusy
// commits and reaps at least one completion before retrying; then commits the rest and reaps until
// nothing is in flight. Returns the requests in completion order. Errors: the engine's, or Internal
// when the engine stops making progress (so a broken engine fails the test instead of hanging it).
inline absl::StatusOr<std::vector<IoRequest*>> RunToCompletion(IoEngine& engine,
                                                               std::span<IoRequest> requests,
                                                               int reap_batch = 8) {
  std::vector<IoRequest*> done;
  std::vector<IoRequest*> out(reap_batch);
  int unsubmitted = 0;
  constexpr int kMaxStalls = 100000;
  int stalls = 0;

  auto commit_all = [&]() -> absl::Status {
    while (unsubmitted > 0) {
      absl::StatusOr<int> n = engine.Commit();
      if (!n.ok()) return n.status();
      unsubmitted -= *n;
      if (*n == 0) return absl::OkStatus();  // kernel out of resources: reap, then commit again
    }
    return absl::OkStatus();
  };
  auto reap = [&](int min_events) -> absl::Status {
    absl::StatusOr<int> n = engine.GetEvents(min_events, std::span<IoRequest*>(out));
    if (!n.ok()) return n.status();
    if (*n == 0 && ++stalls > kMaxStalls) return absl::InternalError("engine makes no progress");
    done.insert(done.end(), out.begin(), out.begin() + *n);
    return absl::OkStatus();
  };

  for (IoRequest& request : requests) {
    request.start_ns = MonotonicNanos();
    for (;;) {
      const QueueResult q = engine.Queue(&request);
      if (q == QueueResult::kCompleted) {
        done.push_back(&request);
        break;
      }
      if (q == QueueResult::kQueued) {
        ++unsubmitted;
        break;
      }
      if (engine.inflight() == 0) return absl::InternalError("kBusy with nothing in flight");
      if (absl::Status s = commit_all(); !s.ok()) return s;
      if (absl::Status s = reap(1); !s.ok()) return s;
    }
  }
  while (engine.inflight() > 0) {
    if (absl::Status s = commit_all(); !s.ok()) return s;
    if (absl::Status s = reap(1); !s.ok()) return s;
  }
  return done;
}

// Byte and op counts per kind over completed requests; a request counts when its result is >= 0.
struct IoCounts {
  int reads = 0;
  int writes = 0;
  int fsyncs = 0;
  int errors = 0;
  uint64_t read_bytes = 0;
  uint64_t write_bytes = 0;
};

inline IoCounts CountCompleted(std::span<IoRequest* const> completed) {
  IoCounts c;
  for (const IoRequest* r : completed) {
    if (r->result < 0) {
      ++c.errors;
      continue;
    }
    switch (r->op) {
      case OpKind::kRead:
        ++c.reads;
        c.read_bytes += static_cast<uint64_t>(r->result);
        break;
      case OpKind::kWrite:
        ++c.writes;
        c.write_bytes += static_cast<uint64_t>(r->result);
        break;
      case OpKind::kFsync:
        ++c.fsyncs;
        break;
      default:
        break;
    }
  }
  return c;
}

}  // namespace azbench::engine_test

#endif  // AZBENCH_TESTS_AGENT_ENGINES_ENGINE_TEST_UTIL_H_
