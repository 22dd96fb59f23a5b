// Where the next block goes: sequential with wrap-around, or random over a region.
//
// Random offsets, by default, visit every block of the region exactly once per pass in a
// pseudo-random order (fio's random map, here without memory: a keyed bijection on [0, 2^k) with
// cycle-walking down to [0, blocks)). With `norandommap` they are drawn uniformly with replacement.
// Both are deterministic for a given seed (fio's randrepeat).
//
// Example:
//   OffsetGenerator gen(/*region_offset_bytes=*/0, /*region_bytes=*/1 << 30,
//                       /*block_bytes=*/4096, /*random=*/true, /*with_replacement=*/false,
//                       /*seed=*/1);
//   uint64_t off = gen.Next();
#ifndef AZBENCH_AGENT_WORKLOADS_OFFSET_GENERATOR_H_
#define AZBENCH_AGENT_WORKLOADS_OFFSET_GENERATOR_H_

#include <cstdint>
#include <memory>

namespace azbench {

class RandomDistribution;  // agent/workloads/random_distribution.h

// xoshiro256** seeded through splitmix64: fast, good quality, deterministic.
class Rng {
 public:
  explicit Rng(uint64_t seed);
  inline uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, bound) without division bias worth noting (Lemire's multiply-shift).
  inline uint64_t Below(uint64_t bound) {
    return static_cast<uint64_t>((static_cast<unsigned __int128>(Next()) * bound) >> 64);
  }

 private:
  static inline uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  uint64_t s_[4];
};

class OffsetGenerator {
 public:
  // `first_block` (sequential only): a pass starts at this block (mod blocks()) and wraps around
  // to it, so several generators can cover the same region in step without reading the same
  // block at the same time (sharing=shared-file).
  OffsetGenerator(uint64_t region_offset_bytes, uint64_t region_bytes, uint64_t block_bytes,
                  bool random, bool with_replacement, uint64_t seed, uint64_t first_block = 0);

  ~OffsetGenerator();

  // Random offsets follow `distribution` (over blocks()) instead of the uniform draw or the random
  // map: fio keeps no random map for a non-uniform distribution either.
  void UseDistribution(std::unique_ptr<RandomDistribution> distribution);

  // The next block's byte offset. Never fails; wraps to a new pass when a pass is complete.
  // Inline: one call per op on the job loop's hot path.
  inline uint64_t Next() {
    uint64_t block;
    if (!random_) {
      block = position_ + first_block_;
      if (block >= blocks_) block -= blocks_;
    } else if (with_replacement_) {
      block = distribution_ ? DistributionNext() : rng_.Below(blocks_);
    } else {
      // Cycle-walking keeps the map a bijection of [0, blocks): blocks_ > domain/2, so < 2 steps
      // on average.
      block = Permute(position_);
      while (block >= blocks_) block = Permute(block);
    }
    if (++position_ == blocks_) [[unlikely]]
      NextPass();
    return region_offset_bytes_ + block * block_bytes_;
  }
  // Sequential, for I/Os of varying size (bsrange, bssplit): where the next I/O starts. The caller
  // draws its length to fit before region_end_bytes() and reports it with Advance(). A pass ends
  // when fewer than `min_bytes` are left.
  inline uint64_t NextSequential(uint64_t min_bytes) {
    if (byte_position_ + min_bytes > region_bytes_) [[unlikely]] {
      byte_position_ = 0;
      ++passes_;
    }
    return region_offset_bytes_ + byte_position_;
  }
  inline void Advance(uint64_t bytes) { byte_position_ += bytes; }
  uint64_t region_end_bytes() const { return region_offset_bytes_ + region_bytes_; }
  uint64_t blocks() const { return blocks_; }
  // Starts a new pass at the region's start (fio's next loop); nothing when one just began.
  void Rewind() {
    if (position_ == 0 && byte_position_ == 0) return;
    NextPass();
    byte_position_ = 0;
  }
  // Completed passes over the region (sequential or random-map); 0 during the first pass.
  uint64_t passes() const { return passes_; }

 private:
  // A keyed bijection on [0, 2^domain_bits): per round, xor with a key, multiply by an odd
  // constant (invertible mod 2^k), xor-shift right (invertible); three rounds. `x` < 2^domain_bits.
  inline uint64_t Permute(uint64_t x) const {
    static_assert(kRounds == 3, "the rounds are written out");
    x = Round(x, 0);
    x = Round(x, 1);
    return Round(x, 2);
  }
  inline uint64_t Round(uint64_t x, int round) const {
    x = ((x ^ masked_keys_[round]) * multipliers_[round]) & domain_mask_;
    return x ^ (x >> shift_);
  }
  uint64_t DistributionNext();
  // Starts the next pass (a new random order for the random map).
  void NextPass();
  // Draws a key per round from rng_ and derives the round's constants from it: a new order.
  void NewKeys();

  static constexpr int kRounds = 3;

  uint64_t region_offset_bytes_;
  uint64_t region_bytes_;
  uint64_t block_bytes_;
  uint64_t blocks_;
  bool random_;
  bool with_replacement_;
  Rng rng_;
  uint64_t first_block_ = 0;  // sequential: where every pass starts
  uint64_t position_ = 0;     // index within the current pass
  uint64_t passes_ = 0;
  uint64_t byte_position_ = 0;  // NextSequential's position inside the region
  std::unique_ptr<RandomDistribution> distribution_;
  // Permutation parameters (power-of-two domain). The round constants are functions of each
  // round's key, derived once per pass rather than once per op.
  int domain_bits_ = 0;
  int shift_ = 1;
  uint64_t domain_mask_ = 0;
  uint64_t masked_keys_[kRounds] = {0, 0, 0};  // key & domain_mask_
  uint64_t multipliers_[kRounds] = {1, 1, 1};  // (key | 1) * golden ratio | 1: odd
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_OFFSET_GENERATOR_H_
