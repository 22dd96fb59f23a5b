#include "agent/workloads/random_distribution.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace azbench {

namespace {
constexpr uint64_t kHashMultiplier = 0x61C8864680B583EBULL;  // fio's GOLDEN_RATIO_64
// fio sums zeta(n) over at most this many ranks: beyond, the terms change the draw too little
// to pay for the start-up time.
constexpr uint64_t kMaxZetaTerms = 10'000'000;
constexpr int kNormalDraws = 12;
}  // namespace

RandomDistribution::RandomDistribution(const RandomDistributionSpec& spec, bool write,
                                       uint64_t blocks, uint64_t block_bytes, uint64_t seed)
    : kind_(spec.kind), blocks_(std::max<uint64_t>(blocks, 1)), rng_(seed) {
  const bool centred = spec.center.has_value();
  const uint64_t centre_offset =
      centred ? static_cast<uint64_t>(*spec.center * static_cast<double>(blocks_)) : 0;
  switch (kind_) {
    case RandomDistributionKind::kZipf: {
      offset_ = centred ? centre_offset : Draw32();
      theta_ = spec.value;
      zeta2_ = 1.0 + std::pow(0.5, theta_);
      const uint64_t terms = std::min(blocks_, kMaxZetaTerms);
      for (uint64_t i = 0; i < terms; ++i)
        zetan_ += std::pow(1.0 / static_cast<double>(i + 1), theta_);
      alpha_ = 1.0 / (1.0 - theta_);
      eta_ = (1.0 - std::pow(2.0 / static_cast<double>(blocks_), 1.0 - theta_)) /
             (1.0 - zeta2_ / zetan_);
      break;
    }
    case RandomDistributionKind::kPareto:
      offset_ = centred ? centre_offset : Draw32();
      pareto_power_ = std::log(spec.value) / std::log(1.0 - spec.value);
      break;
    case RandomDistributionKind::kNormal:
      if (spec.value != 0) {
        stddev_blocks_ =
            static_cast<uint64_t>(std::ceil(static_cast<double>(blocks_) * spec.value / 100.0));
        stddev_blocks_ = std::min(stddev_blocks_, blocks_ / 2);
      }
      // fio centres on the middle of the region by default: an offset of (center - 0.5).
      if (centred) {
        offset_ = static_cast<uint64_t>(static_cast<int64_t>(
            static_cast<double>(blocks_) * (*spec.center - 0.5) +
            static_cast<double>(blocks_)));  // kept positive; taken modulo blocks
      }
      break;
    case RandomDistributionKind::kZoned:
    case RandomDistributionKind::kZonedAbs: {
      uint64_t cumulative = 0;
      uint64_t first = 0;
      for (const RandomZone& zone : spec.zones[write ? 1 : 0]) {
        uint64_t zone_blocks = kind_ == RandomDistributionKind::kZoned
                                   ? static_cast<uint64_t>(static_cast<unsigned __int128>(blocks_) *
                                                           zone.size_percent / 100)
                                   : (block_bytes == 0 ? 0 : zone.size_bytes / block_bytes);
        if (first >= blocks_) break;
        zone_blocks = std::clamp<uint64_t>(zone_blocks, 1, blocks_ - first);
        cumulative += zone.access_percent;
        zones_.push_back({cumulative, first, zone_blocks});
        first += zone_blocks;
      }
      if (zones_.empty()) zones_.push_back({100, 0, blocks_});
      break;
    }
    case RandomDistributionKind::kSequence:
      sequence_ = spec.sequence;
      sequence_stride_ = spec.sequence_stride;
      if (sequence_.empty()) sequence_.push_back(0);
      break;
    case RandomDistributionKind::kUniform:
      break;
  }
}

uint64_t RandomDistribution::SequenceReachesBlock(const RandomDistributionSpec& spec,
                                                  uint64_t ios) {
  if (spec.sequence.empty() || ios == 0) return 0;
  const uint64_t n = spec.sequence.size();
  uint64_t highest = 0;
  // Without stride every element is reached once ios >= n; with it, element i is last reached in
  // the round (ios - 1 - i) / n, when i < ios.
  for (uint64_t i = 0; i < n && i < ios; ++i) {
    const uint64_t rounds = spec.sequence_stride ? (ios - 1 - i) / n : 0;
    const unsigned __int128 block = static_cast<unsigned __int128>(rounds) * n + spec.sequence[i];
    highest = block > std::numeric_limits<uint64_t>::max()
                  ? std::numeric_limits<uint64_t>::max()
                  : std::max(highest, static_cast<uint64_t>(block));
  }
  return highest;
}

uint64_t RandomDistribution::Next() {
  uint64_t rank = 0;
  switch (kind_) {
    case RandomDistributionKind::kZipf: {
      const double u = Unit();
      const double z = u * zetan_;
      if (z < 1.0) {
        rank = 0;
      } else if (z < 1.0 + std::pow(0.5, theta_)) {
        rank = 1;
      } else {
        rank = static_cast<uint64_t>(static_cast<double>(blocks_) *
                                     std::pow(eta_ * u - eta_ + 1.0, alpha_));
      }
      break;
    }
    case RandomDistributionKind::kPareto:
      rank =
          static_cast<uint64_t>(static_cast<double>(blocks_ - 1) * std::pow(Unit(), pareto_power_));
      break;
    case RandomDistributionKind::kNormal: {
      uint64_t sum = 0;
      for (int i = 0; i < kNormalDraws; ++i) sum += Draw32() % (blocks_ + 1);
      sum = (sum + kNormalDraws - 1) / kNormalDraws;
      if (stddev_blocks_ != 0) {
        int64_t dev = static_cast<int64_t>(static_cast<double>(stddev_blocks_) *
                                           (static_cast<double>(Draw32()) / 4294967296.0)) -
                      static_cast<int64_t>(stddev_blocks_ / 2);
        while (dev + static_cast<int64_t>(sum) >= static_cast<int64_t>(blocks_) ||
               dev + static_cast<int64_t>(sum) < 0) {
          dev /= 2;
        }
        sum = static_cast<uint64_t>(static_cast<int64_t>(sum) + dev);
      }
      // No hash here: the bell stays around its centre, which `center` places.
      return (sum + offset_) % blocks_;
    }
    case RandomDistributionKind::kZoned:
    case RandomDistributionKind::kZonedAbs: {
      // fio draws 1..100 and takes the first zone whose running share reaches it.
      const uint64_t pick = 1 + Draw32() % 100;
      const Zone* zone = &zones_.back();
      for (const Zone& z : zones_) {
        if (pick <= z.cumulative_access_percent) {
          zone = &z;
          break;
        }
      }
      return zone->first_block + rng_.Below(zone->blocks);
    }
    case RandomDistributionKind::kSequence: {
      const uint64_t n = sequence_.size();
      const uint64_t block =
          sequence_[issued_ % n] + (sequence_stride_ ? issued_ / n * n : uint64_t{0});
      ++issued_;
      // Checked before the job ran (SequenceReachesBlock); kept in the region regardless.
      return block % blocks_;
    }
    case RandomDistributionKind::kUniform:
      return rng_.Below(blocks_);
  }
  return (rank * kHashMultiplier + offset_) % blocks_;
}

}  // namespace azbench
