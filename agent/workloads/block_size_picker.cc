#include "agent/workloads/block_size_picker.h"

#include <algorithm>

namespace azbench {

namespace {
// fio draws sizes from a 32-bit generator; the draw is compared with shares of its maximum.
constexpr uint64_t kDrawMax = 0xffffffffULL;
// Redraws before giving up on a size that fits and taking the smallest: a split whose small
// sizes have tiny shares near the region's end could otherwise spin for long.
constexpr int kMaxDraws = 64;
}  // namespace

BlockSizePicker::BlockSizePicker(const BlockSizeChoice& choice, uint64_t seed)
    : min_bytes_(choice.min_bytes),
      max_bytes_(choice.max_bytes),
      unaligned_(choice.unaligned),
      fixed_(choice.min_bytes == choice.max_bytes),
      split_(choice.split),
      rng_(seed) {}

uint64_t BlockSizePicker::Draw(uint64_t room_bytes) {
  if (min_bytes_ > room_bytes) return room_bytes;
  for (int attempt = 0; attempt < kMaxDraws; ++attempt) {
    const uint64_t r = rng_.Next() >> 32;
    uint64_t len = 0;
    if (split_.empty()) {
      len = min_bytes_ + static_cast<uint64_t>(static_cast<double>(max_bytes_) *
                                               (static_cast<double>(r) / (kDrawMax + 1.0)));
    } else {
      uint64_t total = 0;
      for (const BlockSizeShare& share : split_) {
        if (share.percent == 0) continue;
        len = share.bytes;
        total += share.percent;
        if (r / total <= kDrawMax / 100 && len <= room_bytes) break;
      }
    }
    if (!unaligned_) len -= len % min_bytes_;
    len = std::min(len, max_bytes_);
    if (len != 0 && len <= room_bytes) return len;
  }
  return min_bytes_;
}

}  // namespace azbench
