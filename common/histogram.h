// Latency histogram: log-linear buckets over nanoseconds, mergeable by adding buckets.
//
// Executive summary (the numbers every report relies on):
//   - Unit: nanoseconds, uint64. Range: the whole uint64 range (0 ns .. ~584 years); nothing
//   saturates.
//   - Layout: values 0..255 each get an exact bucket (width 1 ns). Above that, every power-of-two
//   octave
//     [2^e, 2^(e+1)) for e = 8..63 is split into 128 equal sub-buckets of width 2^(e-7).
//     Bucket count: 256 + 56 * 128 = 7,424.
//   - Memory: a histogram that has only been built from sparse forms or merged (what the
//     coordinator does with every result) holds its non-zero buckets only, 16 bytes each; it
//     switches to the fixed dense array (7,424 x 8 bytes = 58 KiB) on its first Record() (the
//     agent's hot path) or once more than kDenseAbove buckets are non-zero. Either way the
//     values, percentiles and merges are the same; only the memory differs.
//   - Value reported for a bucket: its midpoint (lower + width/2), clamped to the exact [min, max]
//   seen.
//     For a sample v in a bucket [lo, lo + w): |reported - v| <= w/2 and v >= lo >= 2^e, w =
//     2^(e-7), so the relative error is at most 2^-8 = 0.390625% (exact, 0%, below 256 ns).
//     Clamping only moves the reported value towards every sample, so it never widens the error.
//   - Percentiles use the nearest-rank definition: percentile(p) is the value of the sample of rank
//     r = ceil(p/100 * count) (at least 1) in sorted order, with p first rounded to 9 decimal
//     places so that 99.9 means 99.9 and not the double just above it. Rank 1 reports the exact min
//     and rank count the exact max (so p=0 gives min, p=100 gives max); any other rank reports its
//     bucket's value, so it is within 0.39% of the exact sorted-sample value of the same rank.
//   - count, min, max, sum (128 bits) and sum of squares (192 bits) are exact for any number of
//   samples
//     of any uint64 value, so mean and standard deviation are exact up to the final rounding to
//     double, and merge exactly. A 64-bit sum would wrap after 2^64 ns = 584 years of summed
//     latency, which a large fleet (1,000 agents x 4,096 ops in flight x 1 hour) comes within a
//     factor of 1.3 of.
//   - Standard deviation is the sample (Bessel, n-1) standard deviation, as fio reports it.
//   - Record: one clz, one shift, adds; no division, no allocation after the first Record, no
//   branch on the common path but one (and a never-taken check that the dense array exists).
//
// Example:
//   Histogram h;  h.Record(1500);  h.Record(2100);
//   uint64_t p99_ns = h.Percentile(99.0);
#ifndef AZBENCH_COMMON_HISTOGRAM_H_
#define AZBENCH_COMMON_HISTOGRAM_H_

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "absl/numeric/int128.h"
#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace azbench {

class Histogram {
 public:
  static constexpr int kSubBucketBits = 7;
  static constexpr uint64_t kSubBucketCount = uint64_t{1} << kSubBucketBits;  // 128 per octave
  static constexpr uint64_t kExactLimit = kSubBucketCount * 2;                // 0..255 exact
  static constexpr int kFirstOctave = kSubBucketBits + 1;                     // 8
  static constexpr int kOctaves = 64 - kFirstOctave;                          // 56
  static constexpr int kBucketCount = static_cast<int>(kExactLimit + kOctaves * kSubBucketCount);
  static_assert(kBucketCount == 7424);
  // Worst-case relative error of any reported value (bucket midpoint vs. any sample in the bucket).
  static constexpr double kMaxRelativeError = 1.0 / 256.0;
  // Above this many non-zero buckets a sparse histogram turns dense (sparse: 16 bytes a bucket,
  // so 1,856 buckets are ~29 KiB, half the dense array).
  static constexpr size_t kDenseAbove = kBucketCount / 4;

  // One non-zero bucket, as carried on the wire and in the database.
  struct Bucket {
    int32_t index = 0;
    uint64_t count = 0;
    bool operator==(const Bucket&) const = default;
  };

  // A sparse, exact, serialisable form: only non-zero buckets, plus the exact moments.
  // The sum is 128 bits (sum_ns_hi:sum_ns), the sum of squares 192 bits
  // (sum_sq_top:sum_sq_hi:sum_sq_lo). sum_ns_hi and sum_sq_top are 0 unless the summed latency
  // passes 2^64 ns (584 years) or the summed squares pass 2^128 ns^2; they are last so that older
  // initialisers still compile.
  struct Sparse {
    std::vector<Bucket> buckets;  // strictly increasing index, count > 0
    uint64_t count = 0;
    uint64_t min_ns = 0;
    uint64_t max_ns = 0;
    uint64_t sum_ns = 0;      // sum of samples, low 64 bits
    uint64_t sum_sq_hi = 0;   // sum of squares, bits 64..127
    uint64_t sum_sq_lo = 0;   // sum of squares, bits 0..63
    uint64_t sum_ns_hi = 0;   // sum of samples, bits 64..127
    uint64_t sum_sq_top = 0;  // sum of squares, bits 128..191
    bool operator==(const Sparse&) const = default;
  };

  Histogram() { Reset(); }
  Histogram(const Histogram& other);
  Histogram& operator=(const Histogram& other);
  Histogram(Histogram&& other) noexcept;
  Histogram& operator=(Histogram&& other) noexcept;
  ~Histogram() = default;

  // Hot path. Records one sample in nanoseconds. The first Record of a sparse histogram makes it
  // dense (one allocation); after that the null check below is always false.
  inline void Record(uint64_t value_ns) {
    if (dense_ == nullptr) [[unlikely]]
      MakeDense();
    ++dense_[BucketIndex(value_ns)];
    Moments& m = moments_;  // a member, not a pointer: the same fixed offsets from `this`
    ++m.count;
    m.sum_ns += value_ns;
    const unsigned __int128 square = static_cast<unsigned __int128>(value_ns) * value_ns;
    m.sum_sq_low += square;
    m.sum_sq_top += m.sum_sq_low < square;                 // carry out of the low 128 bits
    m.min_ns = value_ns < m.min_ns ? value_ns : m.min_ns;  // unconditional stores: cmov, no branch
    m.max_ns = value_ns > m.max_ns ? value_ns : m.max_ns;
  }

  static inline int BucketIndex(uint64_t value_ns) {
    if (value_ns < kExactLimit) return static_cast<int>(value_ns);
    const int octave = 63 - __builtin_clzll(value_ns);  // >= kFirstOctave
    const uint64_t sub = (value_ns >> (octave - kSubBucketBits)) - kSubBucketCount;  // 0..127
    return static_cast<int>(kExactLimit + (octave - kFirstOctave) * kSubBucketCount + sub);
  }
  // Smallest value that falls in bucket `index`, and the bucket's width in ns.
  // Precondition: 0 <= index < kBucketCount. The last bucket ends at UINT64_MAX inclusive.
  static uint64_t BucketLowerBound(int index);
  static uint64_t BucketWidth(int index);
  // The value reported for a bucket: lower bound + width/2 (exact buckets report themselves).
  static uint64_t BucketValue(int index);

  void Reset();
  // Adds every bucket and moment of `other` into this one. The result equals the histogram of the
  // union.
  void Merge(const Histogram& other);
  // As Merge, from the wire form. InvalidArgument (and this histogram unchanged) when FromSparse
  // would reject `other`, or when the merged count would pass 2^64 - 1.
  absl::Status MergeSparse(const Sparse& other);

  uint64_t count() const { return moments_.count; }
  // min/max are 0 when empty.
  uint64_t min_ns() const { return moments_.count == 0 ? 0 : moments_.min_ns; }
  uint64_t max_ns() const { return moments_.max_ns; }
  absl::uint128 sum_ns() const { return moments_.sum_ns; }
  double mean_ns() const;    // 0 when empty
  double stddev_ns() const;  // sample (n-1) standard deviation, as fio; 0 when fewer than 2 samples
  // Nearest-rank percentile, p in [0, 100] (outside, and NaN, is clamped: below 0 and NaN act as 0,
  // above 100 as 100). 0 when empty. p=0 gives min, p=100 gives max.
  uint64_t Percentile(double p) const;
  uint64_t bucket_count_at(int index) const;
  // True when the counts are held in the 58 KiB dense array (see Memory above), for tests and
  // memory accounting.
  bool is_dense() const { return dense_ != nullptr; }
  // Heap bytes this histogram holds for its bucket counts (0 when empty and sparse).
  size_t bucket_bytes() const;

  Sparse ToSparse() const;
  // The sparse form of the union of two histograms, without building dense ones (interval series
  // are merged this way). Inputs must be valid sparse histograms.
  static Sparse AddSparse(const Sparse& a, const Sparse& b);
  // Rebuilds a histogram; fails with InvalidArgument on out-of-range or non-increasing indices,
  // zero counts, or moments inconsistent with the buckets: count mismatch (or bucket counts
  // overflowing), min/max outside the first/last non-zero bucket, sum or sum of squares outside
  // what samples in those buckets between min and max can add up to, or non-zero moments when there
  // are no buckets.
  static absl::StatusOr<Histogram> FromSparse(const Sparse& sparse);

  bool operator==(const Histogram& other) const;

 private:
  // Switches to the dense array, keeping every count.
  void MakeDense();
  // Turns dense when the sparse list passed kDenseAbove buckets.
  void DenseIfLarge();

  // The exact moments, copied and reset as one value (the buckets are what the special members
  // treat apart). Held by value so Record reaches every field at a fixed offset from `this`.
  struct Moments {
    uint64_t count = 0;
    uint64_t min_ns = UINT64_MAX;  // UINT64_MAX when empty
    uint64_t max_ns = 0;
    unsigned __int128 sum_ns = 0;
    unsigned __int128 sum_sq_low = 0;  // sum of squares, bits 0..127
    uint64_t sum_sq_top = 0;           // sum of squares, bits 128..191

    // Adds `other`'s samples' moments (the moments of the union), carrying into sum_sq_top.
    void Add(const Moments& other);
  };
  // The moments of a sparse form, and back (min_ns 0 when empty, as in Sparse).
  static Moments MomentsOf(const Sparse& sparse);
  static void SetMoments(const Moments& moments, Sparse& sparse);

  // Bucket counts: dense_ (kBucketCount entries) when set, else sparse_ (strictly increasing
  // index, count > 0).
  std::unique_ptr<uint64_t[]> dense_;
  std::vector<Bucket> sparse_;
  Moments moments_;
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_HISTOGRAM_H_
