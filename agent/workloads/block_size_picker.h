// The size of each I/O of one direction, as fio draws it (bs, bsrange, bssplit, bs_unaligned).
//
// A fixed bs costs one branch. A range draws low + high * u (u uniform in [0, 1)), rounds down to
// a multiple of low (unless bs_unaligned) and caps at high, so the top size comes up a little
// more often than the others, as in fio. A split walks its entries in order of share, adding
// shares up, and takes the first whose running total covers the draw; shares that add up to less
// than 100 leave the rest to the last (largest) entry, as in fio. A size that would run past the
// region's end is drawn again.
//
// Example:
//   BlockSizePicker sizes(job.BlockSizes(/*write=*/false), seed);
//   uint64_t len = sizes.Next(region_end - offset);
#ifndef AZBENCH_AGENT_WORKLOADS_BLOCK_SIZE_PICKER_H_
#define AZBENCH_AGENT_WORKLOADS_BLOCK_SIZE_PICKER_H_

#include <cstdint>
#include <vector>

#include "agent/workloads/offset_generator.h"
#include "common/job_spec.h"

namespace azbench {

class BlockSizePicker {
 public:
  BlockSizePicker(const BlockSizeChoice& choice, uint64_t seed);

  // The next I/O's size, given `room_bytes` left before the end of the region: a size that fits
  // when the smallest does, else `room_bytes` (a short I/O at the end, as azbench always did).
  inline uint64_t Next(uint64_t room_bytes) {
    if (fixed_) [[likely]]
      return min_bytes_ <= room_bytes ? min_bytes_ : room_bytes;
    return Draw(room_bytes);
  }
  bool fixed() const { return fixed_; }
  uint64_t min_bytes() const { return min_bytes_; }
  uint64_t max_bytes() const { return max_bytes_; }

 private:
  uint64_t Draw(uint64_t room_bytes);

  uint64_t min_bytes_;
  uint64_t max_bytes_;
  bool unaligned_;
  bool fixed_;
  std::vector<BlockSizeShare> split_;  // in order of share
  Rng rng_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_BLOCK_SIZE_PICKER_H_
