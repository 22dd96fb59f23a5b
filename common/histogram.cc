#include "common/histogram.h"

#include <algorithm>
#include <cassert>
#include <cmath>

#include "absl/strings/str_format.h"

namespace azbench {
namespace {

using u128 = unsigned __int128;

constexpr u128 Combine(uint64_t hi, uint64_t lo) { return (u128{hi} << 64) | lo; }
constexpr uint64_t High64(u128 v) { return static_cast<uint64_t>(v >> 64); }
constexpr uint64_t Low64(u128 v) { return static_cast<uint64_t>(v); }

// Unsigned 256-bit integer (little-endian 64-bit limbs): just enough arithmetic to compute and
// check the moments exactly (n * sum_sq and sum^2 need 256 bits). Not on the hot path.
struct U256 {
  std::array<uint64_t, 4> limb{};

  static U256 From128(u128 v) { return U256{{Low64(v), High64(v), 0, 0}}; }
  static U256 From192(u128 low, uint64_t top) { return U256{{Low64(low), High64(low), top, 0}}; }

  // Truncated to 256 bits; callers only multiply values whose product fits.
  friend U256 operator*(const U256& a, const U256& b) {
    U256 r;
    for (int i = 0; i < 4; ++i) {
      uint64_t carry = 0;
      for (int j = 0; i + j < 4; ++j) {
        const u128 t = u128{a.limb[i]} * b.limb[j] + r.limb[i + j] + carry;
        r.limb[i + j] = Low64(t);
        carry = High64(t);
      }
    }
    return r;
  }
  // Callers keep sums below 2^256.
  friend U256 operator+(const U256& a, const U256& b) {
    U256 r;
    uint64_t carry = 0;
    for (int i = 0; i < 4; ++i) {
      const u128 t = u128{a.limb[i]} + b.limb[i] + carry;
      r.limb[i] = Low64(t);
      carry = High64(t);
    }
    return r;
  }
  // Precondition: a >= b.
  friend U256 operator-(const U256& a, const U256& b) {
    U256 r;
    uint64_t borrow = 0;
    for (int i = 0; i < 4; ++i) {
      const u128 t = u128{a.limb[i]} - b.limb[i] - borrow;
      r.limb[i] = Low64(t);
      borrow = High64(t) != 0 ? 1 : 0;
    }
    return r;
  }
  friend bool operator<(const U256& a, const U256& b) {
    for (int i = 3; i >= 0; --i) {
      if (a.limb[i] != b.limb[i]) return a.limb[i] < b.limb[i];
    }
    return false;
  }
  long double ToLongDouble() const {
    long double r = 0;
    for (int i = 3; i >= 0; --i)
      r = r * 18446744073709551616.0L + static_cast<long double>(limb[i]);
    return r;
  }
};

// Percentile ranks use p rounded to this many parts per percent (9 decimal places).
constexpr uint64_t kPercentScale = 1'000'000'000;
constexpr u128 kFullScale = u128{100} * kPercentScale;

absl::Status ValidateSparse(const Histogram::Sparse& s) {
  if (s.buckets.empty()) {
    if (s.count != 0 || s.min_ns != 0 || s.max_ns != 0 || s.sum_ns != 0 || s.sum_ns_hi != 0 ||
        s.sum_sq_lo != 0 || s.sum_sq_hi != 0 || s.sum_sq_top != 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "sparse histogram has no buckets but non-zero moments (count %d, min_ns %d, "
          "max_ns %d, sum or sum of squares non-zero); an empty histogram has all 0",
          s.count, s.min_ns, s.max_ns));
    }
    return absl::OkStatus();
  }
  uint64_t total = 0;
  int prev_index = -1;
  for (size_t k = 0; k < s.buckets.size(); ++k) {
    const Histogram::Bucket& b = s.buckets[k];
    if (b.index < 0 || b.index >= Histogram::kBucketCount) {
      return absl::InvalidArgumentError(
          absl::StrFormat("sparse histogram bucket #%d: index %d is outside [0, %d)", k, b.index,
                          Histogram::kBucketCount));
    }
    if (b.index <= prev_index) {
      return absl::InvalidArgumentError(
          absl::StrFormat("sparse histogram bucket #%d: index %d is not greater than the previous "
                          "index %d; indices "
                          "must strictly increase",
                          k, b.index, prev_index));
    }
    if (b.count == 0) {
      return absl::InvalidArgumentError(absl::StrFormat(
          "sparse histogram bucket #%d (index %d): count is 0; only non-zero buckets are listed", k,
          b.index));
    }
    if (__builtin_add_overflow(total, b.count, &total)) {
      return absl::InvalidArgumentError(
          "sparse histogram bucket counts add up to more than 2^64 - 1 samples");
    }
    prev_index = b.index;
  }
  if (total != s.count) {
    return absl::InvalidArgumentError(
        absl::StrFormat("sparse histogram count %d does not equal the sum of its bucket counts %d",
                        s.count, total));
  }
  const int first = s.buckets.front().index;
  const int last = s.buckets.back().index;
  if (Histogram::BucketIndex(s.min_ns) != first) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "sparse histogram min_ns %d is not in its first non-empty bucket %d [%d, %d]", s.min_ns,
        first, Histogram::BucketLowerBound(first),
        Histogram::BucketLowerBound(first) + (Histogram::BucketWidth(first) - 1)));
  }
  if (Histogram::BucketIndex(s.max_ns) != last) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "sparse histogram max_ns %d is not in its last non-empty bucket %d [%d, %d]", s.max_ns,
        last, Histogram::BucketLowerBound(last),
        Histogram::BucketLowerBound(last) + (Histogram::BucketWidth(last) - 1)));
  }
  if (s.min_ns > s.max_ns) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "sparse histogram min_ns %d is greater than max_ns %d", s.min_ns, s.max_ns));
  }

  // Every sample lies in its bucket and in [min, max], which bounds the sum and the sum of squares.
  // Both bounds fit: sum <= count * max < 2^128, sum of squares <= count * max^2 < 2^192.
  u128 sum_low = 0, sum_high = 0;
  U256 sq_low, sq_high;
  for (const Histogram::Bucket& b : s.buckets) {
    const uint64_t lo = std::max(Histogram::BucketLowerBound(b.index), s.min_ns);
    const uint64_t hi = std::min(
        Histogram::BucketLowerBound(b.index) + (Histogram::BucketWidth(b.index) - 1), s.max_ns);
    sum_low += u128{b.count} * lo;
    sum_high += u128{b.count} * hi;
    sq_low = sq_low + U256::From128(b.count) * U256::From128(u128{lo} * lo);
    sq_high = sq_high + U256::From128(b.count) * U256::From128(u128{hi} * hi);
  }
  const u128 sum = Combine(s.sum_ns_hi, s.sum_ns);
  if (sum < sum_low || sum > sum_high) {
    return absl::InvalidArgumentError(
        "sparse histogram sum_ns is outside what its bucket counts between min_ns and max_ns can "
        "add up to");
  }
  const U256 sum_sq = U256::From192(Combine(s.sum_sq_hi, s.sum_sq_lo), s.sum_sq_top);
  if (sum_sq < sq_low || sq_high < sum_sq) {
    return absl::InvalidArgumentError(
        "sparse histogram sum of squares is outside what its bucket counts between min_ns and "
        "max_ns can add up to");
  }
  // Cauchy-Schwarz: count * sum_sq >= sum^2 for any real samples (the variance is not negative).
  const U256 sum256 = U256::From128(sum);
  if (U256::From128(s.count) * sum_sq < sum256 * sum256) {
    return absl::InvalidArgumentError(
        "sparse histogram sum of squares is smaller than sum^2 / count (a negative variance)");
  }
  return absl::OkStatus();
}

}  // namespace

uint64_t Histogram::BucketLowerBound(int index) {
  assert(index >= 0 && index < kBucketCount);
  const uint64_t i = static_cast<uint64_t>(index);
  if (i < kExactLimit) return i;
  const uint64_t k = i - kExactLimit;
  const int octave = kFirstOctave + static_cast<int>(k >> kSubBucketBits);
  const uint64_t sub = k & (kSubBucketCount - 1);
  return (kSubBucketCount + sub) << (octave - kSubBucketBits);
}

uint64_t Histogram::BucketWidth(int index) {
  assert(index >= 0 && index < kBucketCount);
  const uint64_t i = static_cast<uint64_t>(index);
  if (i < kExactLimit) return 1;
  const int octave = kFirstOctave + static_cast<int>((i - kExactLimit) >> kSubBucketBits);
  return uint64_t{1} << (octave - kSubBucketBits);
}

uint64_t Histogram::BucketValue(int index) {
  return BucketLowerBound(index) + BucketWidth(index) / 2;
}

Histogram::Histogram(const Histogram& other) : sparse_(other.sparse_), moments_(other.moments_) {
  if (other.dense_ != nullptr) {
    dense_ = std::make_unique<uint64_t[]>(kBucketCount);
    std::copy(other.dense_.get(), other.dense_.get() + kBucketCount, dense_.get());
  }
}

Histogram& Histogram::operator=(const Histogram& other) {
  if (this == &other) return *this;
  if (other.dense_ != nullptr) {
    if (dense_ == nullptr) dense_ = std::make_unique<uint64_t[]>(kBucketCount);
    std::copy(other.dense_.get(), other.dense_.get() + kBucketCount, dense_.get());
    sparse_.clear();
  } else {
    dense_.reset();
    sparse_ = other.sparse_;
  }
  moments_ = other.moments_;
  return *this;
}

Histogram::Histogram(Histogram&& other) noexcept
    : dense_(std::move(other.dense_)), sparse_(std::move(other.sparse_)), moments_(other.moments_) {
  other.sparse_.clear();
  other.Reset();  // a moved-from histogram is empty
}

Histogram& Histogram::operator=(Histogram&& other) noexcept {
  if (this == &other) return *this;
  dense_ = std::move(other.dense_);
  sparse_ = std::move(other.sparse_);
  moments_ = other.moments_;
  other.sparse_.clear();
  other.Reset();
  return *this;
}

void Histogram::Reset() {
  // A dense histogram stays dense (the agent resets its interval accumulators every interval).
  if (dense_ != nullptr) std::fill(dense_.get(), dense_.get() + kBucketCount, uint64_t{0});
  sparse_.clear();
  moments_ = Moments{};
}

Histogram::Moments Histogram::MomentsOf(const Sparse& sparse) {
  if (sparse.count == 0) return Moments{};
  return Moments{.count = sparse.count,
                 .min_ns = sparse.min_ns,
                 .max_ns = sparse.max_ns,
                 .sum_ns = Combine(sparse.sum_ns_hi, sparse.sum_ns),
                 .sum_sq_low = Combine(sparse.sum_sq_hi, sparse.sum_sq_lo),
                 .sum_sq_top = sparse.sum_sq_top};
}

void Histogram::SetMoments(const Moments& m, Sparse& sparse) {
  sparse.count = m.count;
  sparse.min_ns = m.count == 0 ? 0 : m.min_ns;
  sparse.max_ns = m.max_ns;
  sparse.sum_ns = Low64(m.sum_ns);
  sparse.sum_ns_hi = High64(m.sum_ns);
  sparse.sum_sq_lo = Low64(m.sum_sq_low);
  sparse.sum_sq_hi = High64(m.sum_sq_low);
  sparse.sum_sq_top = m.sum_sq_top;
}

void Histogram::Moments::Add(const Moments& other) {
  count += other.count;
  sum_ns += other.sum_ns;
  const u128 before = sum_sq_low;
  sum_sq_low += other.sum_sq_low;
  sum_sq_top += other.sum_sq_top + (sum_sq_low < before ? 1 : 0);
  min_ns = std::min(min_ns, other.min_ns);
  max_ns = std::max(max_ns, other.max_ns);
}

void Histogram::MakeDense() {
  if (dense_ != nullptr) return;
  dense_ = std::make_unique<uint64_t[]>(kBucketCount);  // value-initialised: zeros
  for (const Bucket& b : sparse_) dense_[b.index] = b.count;
  sparse_.clear();
  sparse_.shrink_to_fit();
}

void Histogram::DenseIfLarge() {
  if (dense_ == nullptr && sparse_.size() > kDenseAbove) MakeDense();
}

uint64_t Histogram::bucket_count_at(int index) const {
  if (dense_ != nullptr) return dense_[index];
  auto it = std::lower_bound(sparse_.begin(), sparse_.end(), index,
                             [](const Bucket& b, int wanted) { return b.index < wanted; });
  return it != sparse_.end() && it->index == index ? it->count : 0;
}

size_t Histogram::bucket_bytes() const {
  return dense_ != nullptr ? kBucketCount * sizeof(uint64_t) : sparse_.capacity() * sizeof(Bucket);
}

namespace {

// How many distinct indices two sorted bucket lists have together.
size_t UnionSize(const std::vector<Histogram::Bucket>& a, const std::vector<Histogram::Bucket>& b) {
  size_t i = 0, j = 0, n = 0;
  while (i < a.size() && j < b.size()) {
    if (a[i].index < b[j].index) {
      ++i;
    } else if (b[j].index < a[i].index) {
      ++j;
    } else {
      ++i;
      ++j;
    }
    ++n;
  }
  return n + (a.size() - i) + (b.size() - j);
}

// The sorted union of two sparse bucket lists, counts added (sized exactly).
std::vector<Histogram::Bucket> AddBuckets(const std::vector<Histogram::Bucket>& a,
                                          const std::vector<Histogram::Bucket>& b) {
  std::vector<Histogram::Bucket> out;
  out.reserve(UnionSize(a, b));
  size_t i = 0, j = 0;
  while (i < a.size() || j < b.size()) {
    if (j == b.size() || (i < a.size() && a[i].index < b[j].index)) {
      out.push_back(a[i++]);
    } else if (i == a.size() || b[j].index < a[i].index) {
      out.push_back(b[j++]);
    } else {
      out.push_back({a[i].index, a[i].count + b[j].count});
      ++i;
      ++j;
    }
  }
  return out;
}

// The sorted union of a sparse list and a dense array, counts added.
std::vector<Histogram::Bucket> AddDense(const std::vector<Histogram::Bucket>& a,
                                        const uint64_t* dense) {
  std::vector<Histogram::Bucket> out;
  size_t i = 0;
  for (int index = 0; index < Histogram::kBucketCount; ++index) {
    uint64_t count = dense[index];
    if (i < a.size() && a[i].index == index) count += a[i++].count;
    if (count != 0) out.push_back({index, count});
  }
  out.shrink_to_fit();
  return out;
}

}  // namespace

void Histogram::Merge(const Histogram& other) {
  if (other.moments_.count == 0) return;
  if (dense_ != nullptr) {
    if (other.dense_ != nullptr) {
      for (int i = 0; i < kBucketCount; ++i) dense_[i] += other.dense_[i];
    } else {
      for (const Bucket& b : other.sparse_) dense_[b.index] += b.count;
    }
  } else if (other.dense_ != nullptr) {
    sparse_ = AddDense(sparse_, other.dense_.get());
    DenseIfLarge();
  } else {
    sparse_ = moments_.count == 0 ? other.sparse_ : AddBuckets(sparse_, other.sparse_);
    DenseIfLarge();
  }
  moments_.Add(other.moments_);
}

absl::Status Histogram::MergeSparse(const Sparse& other) {
  if (absl::Status status = ValidateSparse(other); !status.ok()) return status;
  uint64_t merged_count;
  if (__builtin_add_overflow(moments_.count, other.count, &merged_count)) {
    return absl::InvalidArgumentError(absl::StrFormat(
        "merging %d samples into %d would pass 2^64 - 1 samples", other.count, moments_.count));
  }
  if (other.count == 0) return absl::OkStatus();
  if (dense_ != nullptr) {
    for (const Bucket& b : other.buckets) dense_[b.index] += b.count;
  } else {
    sparse_ = moments_.count == 0 ? other.buckets : AddBuckets(sparse_, other.buckets);
    DenseIfLarge();
  }
  moments_.Add(MomentsOf(other));
  return absl::OkStatus();
}

double Histogram::mean_ns() const {
  const Moments& m = moments_;
  if (m.count == 0) return 0;
  // Split so the integer part (<= max < 2^64) is exact in a long double before the one rounding.
  const uint64_t whole = static_cast<uint64_t>(m.sum_ns / m.count);
  const uint64_t rest = static_cast<uint64_t>(m.sum_ns % m.count);
  return static_cast<double>(static_cast<long double>(whole) +
                             static_cast<long double>(rest) / static_cast<long double>(m.count));
}

double Histogram::stddev_ns() const {
  const Moments& m = moments_;
  if (m.count < 2) return 0;
  // variance = (n * sum_sq - sum^2) / (n * (n - 1)); the numerator is computed exactly, so there is
  // no cancellation however large the values and however small their spread.
  const U256 n = U256::From128(m.count);
  const U256 sum = U256::From128(m.sum_ns);
  const U256 numerator = n * U256::From192(m.sum_sq_low, m.sum_sq_top) - sum * sum;
  const long double denominator =
      static_cast<long double>(m.count) * static_cast<long double>(m.count - 1);
  return static_cast<double>(std::sqrt(numerator.ToLongDouble() / denominator));
}

uint64_t Histogram::Percentile(double p) const {
  const uint64_t count = moments_.count, min_ns = moments_.min_ns, max_ns = moments_.max_ns;
  if (count == 0) return 0;
  uint64_t p_scaled;
  if (!(p > 0)) {
    p_scaled = 0;
  } else if (p >= 100) {
    p_scaled = static_cast<uint64_t>(kFullScale);
  } else {
    p_scaled = static_cast<uint64_t>(std::llround(p * static_cast<double>(kPercentScale)));
  }
  // rank = ceil(p / 100 * count), exactly: p_scaled * count < 2^37 * 2^64.
  u128 rank = (u128{p_scaled} * count + (kFullScale - 1)) / kFullScale;
  if (rank <= 1) return min_ns;
  if (rank >= count) return max_ns;
  uint64_t seen = 0;
  if (dense_ != nullptr) {
    for (int i = 0; i < kBucketCount; ++i) {
      seen += dense_[i];
      if (seen >= rank) return std::clamp(BucketValue(i), min_ns, max_ns);
    }
  } else {
    for (const Bucket& b : sparse_) {
      seen += b.count;
      if (seen >= rank) return std::clamp(BucketValue(b.index), min_ns, max_ns);
    }
  }
  return max_ns;  // unreachable: the counts add up to count
}

Histogram::Sparse Histogram::ToSparse() const {
  Sparse s;
  if (dense_ != nullptr) {
    for (int i = 0; i < kBucketCount; ++i) {
      if (dense_[i] != 0) s.buckets.push_back(Bucket{.index = i, .count = dense_[i]});
    }
  } else {
    s.buckets = sparse_;
  }
  SetMoments(moments_, s);
  return s;
}

absl::StatusOr<Histogram> Histogram::FromSparse(const Sparse& sparse) {
  if (absl::Status status = ValidateSparse(sparse); !status.ok()) return status;
  Histogram h;
  if (sparse.count == 0) return h;
  h.sparse_ = sparse.buckets;
  h.DenseIfLarge();
  h.moments_ = MomentsOf(sparse);
  return h;
}

namespace {

// Same non-zero buckets, whichever form each side holds them in.
bool BucketsEqual(const Histogram& a, const Histogram& b) {
  if (a.is_dense() && b.is_dense()) {
    for (int i = 0; i < Histogram::kBucketCount; ++i) {
      if (a.bucket_count_at(i) != b.bucket_count_at(i)) return false;
    }
    return true;
  }
  return a.ToSparse().buckets == b.ToSparse().buckets;
}

}  // namespace

bool Histogram::operator==(const Histogram& other) const {
  const Moments& a = moments_;
  const Moments& b = other.moments_;
  return a.count == b.count && min_ns() == other.min_ns() && a.max_ns == b.max_ns &&
         a.sum_ns == b.sum_ns && a.sum_sq_low == b.sum_sq_low && a.sum_sq_top == b.sum_sq_top &&
         BucketsEqual(*this, other);
}

Histogram::Sparse Histogram::AddSparse(const Sparse& a, const Sparse& b) {
  if (b.count == 0) return a;
  if (a.count == 0) return b;
  Sparse out;
  out.buckets.reserve(UnionSize(a.buckets, b.buckets));  // exact: series hold many of these
  size_t i = 0, j = 0;
  while (i < a.buckets.size() || j < b.buckets.size()) {
    if (j == b.buckets.size() ||
        (i < a.buckets.size() && a.buckets[i].index < b.buckets[j].index)) {
      out.buckets.push_back(a.buckets[i++]);
    } else if (i == a.buckets.size() || b.buckets[j].index < a.buckets[i].index) {
      out.buckets.push_back(b.buckets[j++]);
    } else {
      out.buckets.push_back({a.buckets[i].index, a.buckets[i].count + b.buckets[j].count});
      ++i;
      ++j;
    }
  }
  // 128-bit sum and 192-bit sum of squares, with carries, as Histogram keeps them.
  Moments moments = MomentsOf(a);
  moments.Add(MomentsOf(b));
  SetMoments(moments, out);
  return out;
}

}  // namespace azbench
