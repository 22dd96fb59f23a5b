#include "agent/workloads/buffer_pool.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <utility>

#include "absl/base/attributes.h"
#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"

namespace azbench {

namespace {
constexpr uint64_t kSegmentBytes = 4096;
constexpr uint64_t kSectorBytes = 512;

ABSL_CONST_INIT absl::Mutex kept_mu(absl::kConstInit);
// Never destroyed: what it holds stays allocated (and reachable) until the process exits.
std::vector<std::unique_ptr<BufferPool>>& KeptPools() {
  static auto* kept = new std::vector<std::unique_ptr<BufferPool>>();
  return *kept;
}
}  // namespace

void KeepBuffersForTheKernel(std::unique_ptr<BufferPool> pool) {
  if (pool == nullptr) return;
  absl::MutexLock lock(&kept_mu);
  KeptPools().push_back(std::move(pool));
}

size_t BufferPoolsKeptForTheKernel() {
  absl::MutexLock lock(&kept_mu);
  return KeptPools().size();
}

BufferPool::BufferPool(const BufferOptions& options) : options_(options), rng_(options.seed) {}

BufferPool::BufferPool(BufferPool&& other) noexcept
    : options_(other.options_),
      buffers_(std::move(other.buffers_)),
      rng_(other.rng_),
      write_counter_(other.write_counter_) {
  other.buffers_.clear();
}

BufferPool& BufferPool::operator=(BufferPool&& other) noexcept {
  if (this != &other) {
    for (void* b : buffers_) std::free(b);
    options_ = other.options_;
    buffers_ = std::move(other.buffers_);
    rng_ = other.rng_;
    write_counter_ = other.write_counter_;
    other.buffers_.clear();
  }
  return *this;
}

BufferPool::~BufferPool() {
  for (void* b : buffers_) std::free(b);
}

absl::StatusOr<BufferPool> BufferPool::Create(const BufferOptions& options) {
  if (options.count < 1) return absl::InvalidArgumentError("buffer count must be at least 1");
  if (options.size_bytes == 0) return absl::InvalidArgumentError("buffer size must be positive");
  if (options.alignment_bytes == 0 || (options.alignment_bytes & (options.alignment_bytes - 1))) {
    return absl::InvalidArgumentError(
        absl::StrCat("buffer alignment ", options.alignment_bytes, " is not a power of two"));
  }
  if (options.compress_percentage < 0 || options.compress_percentage > 100) {
    return absl::InvalidArgumentError(absl::StrCat(
        "buffer_compress_percentage ", options.compress_percentage, " is outside 0..100"));
  }
  BufferPool pool(options);
  const uint64_t rounded = (options.size_bytes + options.alignment_bytes - 1) /
                           options.alignment_bytes * options.alignment_bytes;
  for (int i = 0; i < options.count; ++i) {
    void* data = std::aligned_alloc(options.alignment_bytes, rounded);
    if (data == nullptr) {
      return absl::ResourceExhaustedError(
          absl::StrCat("cannot allocate ", options.count, " I/O buffers of ", rounded, " bytes"));
    }
    pool.buffers_.push_back(data);
    pool.Fill(data, rounded);
  }
  return pool;
}

std::vector<iovec> BufferPool::iovecs() const {
  std::vector<iovec> out;
  out.reserve(buffers_.size());
  for (void* b : buffers_) out.push_back({b, options_.size_bytes});
  return out;
}

void BufferPool::Fill(void* data, uint64_t bytes) {
  auto* out = static_cast<unsigned char*>(data);
  for (uint64_t pos = 0; pos < bytes; pos += 8) {
    const uint64_t word = rng_.Next();
    std::memcpy(out + pos, &word, std::min<uint64_t>(8, bytes - pos));
  }
  if (options_.compress_percentage > 0) {
    const uint64_t zeros = kSegmentBytes * options_.compress_percentage / 100;
    for (uint64_t seg = 0; seg < bytes; seg += kSegmentBytes) {
      std::memset(out + seg, 0, std::min(zeros, bytes - seg));
    }
  }
}

void BufferPool::PrepareWrite(int index, uint64_t offset_bytes) {
  auto* data = static_cast<unsigned char*>(buffers_[index]);
  if (options_.refill) {
    Fill(data, options_.size_bytes);
    return;
  }
  if (!options_.scramble) return;
  // A value unique per write and per sector: the offset mixed with a counter. Placed at the end of
  // each sector so that a compressible (zero) prefix stays compressible.
  const uint64_t stamp = (offset_bytes * 0x9E3779B97F4A7C15ULL) ^ (++write_counter_ << 1);
  for (uint64_t pos = 0; pos + kSectorBytes <= options_.size_bytes; pos += kSectorBytes) {
    const uint64_t value = stamp + pos;
    std::memcpy(data + pos + kSectorBytes - 8, &value, 8);
  }
  if (options_.size_bytes < kSectorBytes && options_.size_bytes >= 8) {
    std::memcpy(data + options_.size_bytes - 8, &stamp, 8);
  }
}

}  // namespace azbench
