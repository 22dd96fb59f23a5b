#include "agent/workloads/offset_generator.h"

#include <utility>

#include "agent/workloads/random_distribution.h"

namespace azbench {

namespace {
uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
}  // namespace

Rng::Rng(uint64_t seed) {
  uint64_t state = seed;
  for (auto& word : s_) word = SplitMix64(state);
}

OffsetGenerator::OffsetGenerator(uint64_t region_offset_bytes, uint64_t region_bytes,
                                 uint64_t block_bytes, bool random, bool with_replacement,
                                 uint64_t seed, uint64_t first_block)
    : region_offset_bytes_(region_offset_bytes),
      region_bytes_(region_bytes),
      block_bytes_(block_bytes),
      blocks_(block_bytes == 0 ? 0 : region_bytes / block_bytes),
      random_(random),
      with_replacement_(with_replacement),
      rng_(seed) {
  if (blocks_ == 0) blocks_ = 1;  // a region smaller than a block still gets one (short) block
  first_block_ = first_block % blocks_;
  byte_position_ = first_block_ * block_bytes_;
  while ((uint64_t{1} << domain_bits_) < blocks_) ++domain_bits_;
  domain_mask_ = domain_bits_ >= 64 ? ~uint64_t{0} : (uint64_t{1} << domain_bits_) - 1;
  shift_ = domain_bits_ / 2 + 1;
  NewKeys();
}

OffsetGenerator::~OffsetGenerator() = default;

void OffsetGenerator::UseDistribution(std::unique_ptr<RandomDistribution> distribution) {
  distribution_ = std::move(distribution);
  if (distribution_) with_replacement_ = true;
}

uint64_t OffsetGenerator::DistributionNext() { return distribution_->Next(); }

void OffsetGenerator::NewKeys() {
  for (int round = 0; round < kRounds; ++round) {
    const uint64_t key = rng_.Next();
    masked_keys_[round] = key & domain_mask_;
    multipliers_[round] = (key | 1) * 0x9E3779B97F4A7C15ULL | 1;
  }
}

void OffsetGenerator::NextPass() {
  position_ = 0;
  ++passes_;
  if (random_ && !with_replacement_) {
    NewKeys();  // a new order for the next pass
  }
}

}  // namespace azbench
