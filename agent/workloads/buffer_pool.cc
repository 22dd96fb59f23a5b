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
constexpr uint64_t kSectorBytes = 512;

// fio's resolution of its buffer options (init.c and io_u.c): 100% compressible is zero_buffers;
// compression refills by default; dedupe always refills (each write draws whether it repeats);
// scrambling is off with compression or dedupe and, unless asked for, with zeros or a pattern.
BufferOptions Resolve(BufferOptions o) {
  if (o.compress_percentage == 100) {
    o.zero = true;
    o.compress_percentage = 0;
  }
  const bool shaped = o.compress_percentage > 0 || o.dedupe_percentage > 0;
  o.refill = o.refill.value_or(o.compress_percentage > 0) || o.dedupe_percentage > 0;
  o.scramble = !shaped && o.scramble.value_or(!o.zero && o.pattern.empty());
  o.pattern = "";  // the pool keeps its own copy
  return o;
}

void CopyPattern(std::string_view pattern, unsigned char* out, uint64_t bytes) {
  for (uint64_t pos = 0; pos < bytes; pos += pattern.size()) {
    std::memcpy(out + pos, pattern.data(), std::min<uint64_t>(pattern.size(), bytes - pos));
  }
}

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

BufferPool::BufferPool(const BufferOptions& options)
    : options_(Resolve(options)),
      pattern_(options.pattern),
      rng_(options.seed),
      dedupe_rng_(options.seed ^ 0xDEDEDEDEULL),
      working_set_index_rng_(options.seed ^ 0x5E75E75EULL) {}

BufferPool::BufferPool(BufferPool&& other) noexcept
    : options_(other.options_),
      pattern_(std::move(other.pattern_)),
      buffers_(std::move(other.buffers_)),
      rng_(other.rng_),
      dedupe_rng_(other.dedupe_rng_),
      working_set_index_rng_(other.working_set_index_rng_),
      working_set_(std::move(other.working_set_)),
      last_fill_seed_(other.last_fill_seed_),
      filled_once_(other.filled_once_),
      write_counter_(other.write_counter_) {
  other.buffers_.clear();
}

BufferPool& BufferPool::operator=(BufferPool&& other) noexcept {
  if (this != &other) {
    for (void* b : buffers_) std::free(b);
    options_ = other.options_;
    pattern_ = std::move(other.pattern_);
    buffers_ = std::move(other.buffers_);
    rng_ = other.rng_;
    dedupe_rng_ = other.dedupe_rng_;
    working_set_index_rng_ = other.working_set_index_rng_;
    working_set_ = std::move(other.working_set_);
    last_fill_seed_ = other.last_fill_seed_;
    filled_once_ = other.filled_once_;
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
  if (options.min_write_bytes == 0) {
    return absl::InvalidArgumentError("the smallest write size must be positive");
  }
  if (options.dedupe_percentage < 0 || options.dedupe_percentage > 100) {
    return absl::InvalidArgumentError(
        absl::StrCat("dedupe_percentage ", options.dedupe_percentage, " is outside 0..100"));
  }
  // At 100% every buffer repeats the first in either mode (fio), so no set is needed.
  const bool working_set = options.dedupe_working_set && options.dedupe_percentage > 0 &&
                           options.dedupe_percentage < 100;
  if (working_set && options.dedupe_working_set_blocks == 0) {
    return absl::InvalidArgumentError(
        "dedupe_mode=working_set: dedupe_working_set_percentage of size holds no whole block; "
        "raise it or size");
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
  if (working_set) {
    // The set is the first unique buffers the job writes: the seeds after the fills above.
    Rng stream = pool.rng_;
    pool.working_set_.resize(options.dedupe_working_set_blocks);
    for (uint64_t& seed : pool.working_set_) seed = stream.Next();
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
  const BufferOptions& o = options_;
  if (o.compress_percentage > 0 || o.dedupe_percentage > 0) {
    // A buffer repeats the previous one whole, or is new whole (fio: "entirely dedupe-able or
    // not"), compression shaping included.
    uint64_t seed;
    if (!working_set_.empty()) {
      seed = dedupe_rng_.Below(100) < static_cast<uint64_t>(o.dedupe_percentage)
                 ? working_set_[working_set_index_rng_.Below(working_set_.size())]
                 : rng_.Next();
    } else if (filled_once_ && o.dedupe_percentage > 0 &&
               dedupe_rng_.Below(100) < static_cast<uint64_t>(o.dedupe_percentage)) {
      seed = last_fill_seed_;
    } else {
      seed = rng_.Next();
    }
    last_fill_seed_ = seed;
    filled_once_ = true;
    FillFromSeed(out, bytes, seed);
  } else if (!pattern_.empty()) {
    CopyPattern(pattern_, out, bytes);
  } else if (o.zero) {
    std::memset(out, 0, bytes);
  } else {
    for (uint64_t pos = 0; pos < bytes; pos += 8) {
      const uint64_t word = rng_.Next();
      std::memcpy(out + pos, &word, std::min<uint64_t>(8, bytes - pos));
    }
  }
}

void BufferPool::FillFromSeed(void* data, uint64_t bytes, uint64_t seed) const {
  auto* out = static_cast<unsigned char*>(data);
  const BufferOptions& o = options_;
  Rng chunk_rng(seed);
  const uint64_t chunk_bytes = o.compress_chunk_bytes > 0
                                   ? std::min(o.compress_chunk_bytes, o.min_write_bytes)
                                   : o.min_write_bytes;
  for (uint64_t pos = 0; pos < bytes; pos += chunk_bytes) {
    FillChunk(out + pos, std::min(chunk_bytes, bytes - pos), chunk_rng);
  }
}

void BufferPool::FillChunk(unsigned char* out, uint64_t bytes, Rng& rng) const {
  const uint64_t random_bytes = bytes * (100 - options_.compress_percentage) / 100;
  for (uint64_t pos = 0; pos < random_bytes; pos += 8) {
    const uint64_t word = rng.Next();
    std::memcpy(out + pos, &word, std::min<uint64_t>(8, random_bytes - pos));
  }
  if (pattern_.empty()) {
    std::memset(out + random_bytes, 0, bytes - random_bytes);
  } else {
    CopyPattern(pattern_, out + random_bytes, bytes - random_bytes);
  }
}

void BufferPool::PrepareWrite(int index, uint64_t offset_bytes) {
  auto* data = static_cast<unsigned char*>(buffers_[index]);
  if (*options_.refill) {
    Fill(data, options_.size_bytes);
    return;
  }
  if (!*options_.scramble) return;
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
