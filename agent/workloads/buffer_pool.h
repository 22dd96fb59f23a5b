// I/O buffers for one job clone: one per queue slot, aligned for O_DIRECT, filled with data that a
// compressing (LZ4 on FSx for OpenZFS) or deduplicating file system cannot shrink.
//
// Content as fio's fill_io_buffer: with buffer_compress_percentage P or dedupe_percentage, every
// chunk (the smaller of buffer_compress_chunk and the smallest write size) is (100-P)% random, then
// zeros (or buffer_pattern), and a dedupe_percentage share of the buffers repeats the previous
// buffer's content; else buffer_pattern repeated, else zeros (zero_buffers), else random bytes.
// Scrambling (fio's default, off by default for zero_buffers and buffer_pattern and always with
// compression or dedupe, as fio): PrepareWrite() stamps a unique 8-byte value into every 512-byte
// sector (cost: bs/512 stores), so no two written blocks are equal while the buffer stays otherwise
// unchanged (cheap); fio stamps offset and time, the effect is the same. With refill (explicit, or
// fio's default with compression or dedupe) the whole buffer is regenerated before every write.
//
// Each new buffer's content comes from the next seed of the pool's seed stream. dedupe_mode=
// working_set (fio's dedupe.c): a repeated buffer is, uniformly at random, one of a working set
// of seeds: the stream's first dedupe_working_set_blocks (the pool's first unique buffers), or,
// with dedupe_global, a set spread over the run's clones (SetDedupeWorkingSet).
#ifndef AZBENCH_AGENT_WORKLOADS_BUFFER_POOL_H_
#define AZBENCH_AGENT_WORKLOADS_BUFFER_POOL_H_

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/offset_generator.h"

namespace azbench {

struct BufferOptions {
  int count = 1;
  uint64_t size_bytes = 4096;
  uint64_t alignment_bytes = 4096;
  int compress_percentage = 0;
  // Unset: fio's default for the other options (see the file comment).
  std::optional<bool> scramble = std::nullopt;
  std::optional<bool> refill = std::nullopt;
  uint64_t seed = 1;
  bool zero = false;
  std::string_view pattern = "";        // buffer_pattern's bytes (Create copies them); empty = none
  uint64_t compress_chunk_bytes = 512;  // 0 = min_write_bytes
  uint64_t min_write_bytes = 4096;
  int dedupe_percentage = 0;
  // dedupe_mode=working_set with this many seeds (fio's num_unique_pages); false: repeat.
  bool dedupe_working_set = false;
  uint64_t dedupe_working_set_blocks = 0;
};

class BufferPool {
 public:
  // Errors: InvalidArgument (count < 1, size 0, alignment not a power of two, a percentage outside
  // 0..100, a dedupe working set of no block), ResourceExhausted (allocation failed, with the
  // size).
  static absl::StatusOr<BufferPool> Create(const BufferOptions& options);
  BufferPool(BufferPool&&) noexcept;
  BufferPool& operator=(BufferPool&&) noexcept;
  ~BufferPool();

  void* buffer(int index) const { return buffers_[index]; }
  int count() const { return static_cast<int>(buffers_.size()); }
  uint64_t size_bytes() const { return options_.size_bytes; }
  std::vector<iovec> iovecs() const;

  // Makes buffer `index` ready to be written at `offset_bytes` (scramble or refill as configured).
  void PrepareWrite(int index, uint64_t offset_bytes);
  // Fills `data` with the configured content (used for file layout as well).
  void Fill(void* data, uint64_t bytes);

  // Fills `data` with the content of a new buffer drawn from `seed` (no dedupe draw): the same
  // seed gives the same bytes, so that a verified block's data can be made again from its header.
  void FillFromSeed(void* data, uint64_t bytes, uint64_t seed) const;

  // The seeds that the next new buffers take, in order (a copy: drawing from it changes nothing).
  Rng SeedStream() const { return rng_; }
  // Replaces the working set of dedupe_mode=working_set by `seeds` (dedupe_global); not empty.
  void SetDedupeWorkingSet(std::vector<uint64_t> seeds) { working_set_ = std::move(seeds); }

 private:
  explicit BufferPool(const BufferOptions& options);
  // One chunk: (100 - compress_percentage)% random from `rng`, the rest zeros or the pattern.
  void FillChunk(unsigned char* out, uint64_t bytes, Rng& rng) const;
  BufferOptions options_;  // resolved: scramble and refill set; pattern unused (pattern_)
  std::string pattern_;
  std::vector<void*> buffers_;
  Rng rng_;
  Rng dedupe_rng_;
  Rng working_set_index_rng_;
  std::vector<uint64_t> working_set_;  // seeds; empty: dedupe_mode=repeat
  uint64_t last_fill_seed_ = 0;
  bool filled_once_ = false;
  uint64_t write_counter_ = 0;
};

// Keeps `pool` allocated until the process exits, deliberately: for the buffers of requests an
// engine could not get back from the kernel (its Quiesce failed), which the kernel may still write
// into after the engine is gone. Thread-safe. The pool stays reachable (no leak report).
void KeepBuffersForTheKernel(std::unique_ptr<BufferPool> pool);
// How many pools KeepBuffersForTheKernel has kept in this process.
size_t BufferPoolsKeptForTheKernel();

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BUFFER_POOL_H_
