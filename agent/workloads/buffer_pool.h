// I/O buffers for one job clone: one per queue slot, aligned for O_DIRECT, filled with data that a
// compressing (LZ4 on FSx for OpenZFS) or deduplicating file system cannot shrink.
//
// Content: by default random bytes (incompressible). `buffer_compress_percentage` = P makes the
// first P% of every 4 KiB segment zeros, so LZ4-class compressors save about P%. Unless
// `scramble_buffers` is off, PrepareWrite() stamps a unique 8-byte value into every 512-byte sector
// (cost: bs/512 stores), so no two written blocks are equal (dedupe defeated) while the buffer
// stays otherwise unchanged (cheap). With `refill_buffers` the whole buffer is regenerated before
// every write (expensive, as fio).
#ifndef AZBENCH_AGENT_WORKLOADS_BUFFER_POOL_H_
#define AZBENCH_AGENT_WORKLOADS_BUFFER_POOL_H_

#include <sys/uio.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/status/statusor.h"
#include "agent/workloads/offset_generator.h"

namespace azbench {

struct BufferOptions {
  int count = 1;
  uint64_t size_bytes = 4096;
  uint64_t alignment_bytes = 4096;
  int compress_percentage = 0;
  bool scramble = true;
  bool refill = false;
  uint64_t seed = 1;
};

class BufferPool {
 public:
  // Errors: InvalidArgument (count < 1, size 0, alignment not a power of two, percentage outside
  // 0..100), ResourceExhausted (allocation failed, with the size).
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

 private:
  explicit BufferPool(const BufferOptions& options);
  BufferOptions options_;
  std::vector<void*> buffers_;
  Rng rng_;
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
