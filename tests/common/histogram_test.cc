#include "common/histogram.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <ostream>
#include <random>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {

// Short failure output instead of gtest's byte dump of 58 KiB of counts.
void PrintTo(const Histogram& h, std::ostream* os) {
  *os << "Histogram{count=" << h.count() << " min=" << h.min_ns() << " max=" << h.max_ns()
      << " sum=" << h.sum_ns() << " nonzero_buckets=" << h.ToSparse().buckets.size() << "}";
}

namespace {

using ::testing::HasSubstr;
using u128 = unsigned __int128;

constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
constexpr uint64_t kOneHourNs = 3'600'000'000'000;

// The percentiles users read, in parts per 10,000, so the test ranks samples with integers only,
// independently of the double p handed to the histogram (p = parts / 100.0).
constexpr std::array<uint64_t, 14> kReportedPercentiles = {
    100, 500, 1000, 2500, 5000, 7500, 9000, 9500, 9900, 9950, 9990, 9995, 9999, 10000};

Histogram Build(const std::vector<uint64_t>& samples) {
  Histogram h;
  for (uint64_t v : samples) h.Record(v);
  return h;
}

// Nearest rank, exactly: the sample of rank ceil(parts / 10000 * n), at least 1, in sorted order.
uint64_t ExactNearestRank(const std::vector<uint64_t>& sorted, uint64_t parts_per_10000) {
  const u128 n = sorted.size();
  u128 rank = (u128{parts_per_10000} * n + 9999) / 10000;
  if (rank == 0) rank = 1;
  return sorted[static_cast<size_t>(rank - 1)];
}

// Checks every reported percentile against the exact value of the same rank from sorting.
void ExpectPercentilesWithinErrorBound(std::vector<uint64_t> samples) {
  ASSERT_FALSE(samples.empty());
  const Histogram h = Build(samples);
  std::sort(samples.begin(), samples.end());
  EXPECT_EQ(h.count(), samples.size());
  EXPECT_EQ(h.min_ns(), samples.front());
  EXPECT_EQ(h.max_ns(), samples.back());
  EXPECT_EQ(h.Percentile(0), samples.front());
  EXPECT_EQ(h.Percentile(100), samples.back());
  for (uint64_t parts : kReportedPercentiles) {
    const double p = static_cast<double>(parts) / 100.0;
    const uint64_t exact = ExactNearestRank(samples, parts);
    const uint64_t reported = h.Percentile(p);
    const uint64_t error = reported > exact ? reported - exact : exact - reported;
    // 1/256 is a power of two, so this comparison is exact in long double.
    EXPECT_LE(static_cast<long double>(error),
              static_cast<long double>(Histogram::kMaxRelativeError) * exact)
        << "p" << p << ": reported " << reported << ", exact " << exact << ", n " << samples.size();
    EXPECT_GE(reported, samples.front()) << "p" << p;
    EXPECT_LE(reported, samples.back()) << "p" << p;
    if (exact < Histogram::kExactLimit) {
      EXPECT_EQ(reported, exact) << "p" << p;
    }
  }
}

struct Moments {
  long double mean = 0;
  long double stddev = 0;  // sample (n - 1)
};

// Exact moments with 128-bit integers, after subtracting `shift` from every sample (variance does
// not change under a shift), for data whose shifted values keep n * sum of squares below 2^128.
Moments ExactMoments(const std::vector<uint64_t>& samples, uint64_t shift = 0) {
  Moments m;
  const u128 n = samples.size();
  if (n == 0) return m;
  u128 sum = 0, sum_sq = 0;
  for (uint64_t v : samples) {
    const u128 w = v - shift;
    const bool overflow = __builtin_add_overflow(sum, w, &sum) ||
                          __builtin_add_overflow(sum_sq, w * w, &sum_sq) || w > (u128{1} << 64) - 1;
    if (overflow) {
      ADD_FAILURE() << "test reference overflow; use a shift or the two-pass reference";
      return m;
    }
  }
  m.mean = static_cast<long double>(shift) +
           static_cast<long double>(sum) / static_cast<long double>(samples.size());
  if (n >= 2) {
    u128 n_sum_sq, sum_squared;
    if (__builtin_mul_overflow(n, sum_sq, &n_sum_sq) ||
        __builtin_mul_overflow(sum, sum, &sum_squared)) {
      ADD_FAILURE() << "test reference overflow in the variance numerator";
      return m;
    }
    const long double numerator = static_cast<long double>(n_sum_sq - sum_squared);
    m.stddev =
        std::sqrt(numerator / (static_cast<long double>(n) * static_cast<long double>(n - 1)));
  }
  return m;
}

// Two-pass long double reference for data spanning the whole uint64 range, where an exact integer
// reference needs more than 128 bits. Accurate to ~1e-17 relative.
Moments TwoPassMoments(const std::vector<uint64_t>& samples) {
  Moments m;
  long double sum = 0;
  for (uint64_t v : samples) sum += static_cast<long double>(v);
  m.mean = sum / samples.size();
  long double squares = 0;
  for (uint64_t v : samples) {
    const long double d = static_cast<long double>(v) - m.mean;
    squares += d * d;
  }
  if (samples.size() >= 2) m.stddev = std::sqrt(squares / (samples.size() - 1));
  return m;
}

uint64_t ClampToUint64(double v) {
  if (!(v > 0)) return 0;
  if (v >= 18446744073709551615.0) return kMax;
  return static_cast<uint64_t>(v);
}

std::vector<uint64_t> UniformSamples(uint64_t seed, size_t n, uint64_t lo, uint64_t hi) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<uint64_t> dist(lo, hi);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = dist(rng);
  return v;
}

std::vector<uint64_t> LognormalSamples(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> dist(std::log(200'000.0), 1.5);  // median 200 us, long tail
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = ClampToUint64(dist(rng));
  return v;
}

std::vector<uint64_t> BimodalSamples(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> cache_hit(80'000.0, 8'000.0);    // 80 us
  std::normal_distribution<double> cache_miss(9'000'000.0, 1.5e6);  // 9 ms
  std::bernoulli_distribution miss(0.07);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = ClampToUint64(miss(rng) ? cache_miss(rng) : cache_hit(rng));
  return v;
}

// Log-uniform over 1 ns .. 1 hour: every octave in the documented range equally represented.
std::vector<uint64_t> OneNanosecondToOneHourSamples(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(0.0, std::log(static_cast<double>(kOneHourNs)));
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = std::clamp<uint64_t>(ClampToUint64(std::exp(exponent(rng))), 1, kOneHourNs);
  return v;
}

// Every magnitude of uint64, 0 .. UINT64_MAX.
std::vector<uint64_t> FullRangeSamples(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = rng() >> (rng() % 64);
  v.push_back(0);
  v.push_back(kMax);
  return v;
}

// The first, last and middle values of every bucket, and their neighbours across each edge.
std::vector<uint64_t> BucketEdgeSamples() {
  std::vector<uint64_t> v;
  for (int i = 0; i < Histogram::kBucketCount; ++i) {
    const uint64_t lo = Histogram::BucketLowerBound(i);
    const uint64_t last = lo + (Histogram::BucketWidth(i) - 1);
    v.push_back(lo);
    v.push_back(last);
    v.push_back(Histogram::BucketValue(i));
    if (Histogram::BucketValue(i) > lo) v.push_back(Histogram::BucketValue(i) - 1);
  }
  return v;
}

std::vector<uint64_t> PowersOfTwoSamples() {
  std::vector<uint64_t> v;
  for (int k = 0; k < 64; ++k) {
    const uint64_t p = uint64_t{1} << k;
    v.push_back(p);
    v.push_back(p - 1);
    v.push_back(p + 1);
  }
  v.push_back(kMax);
  return v;
}

std::vector<uint64_t> NearUint64MaxSamples(uint64_t seed, size_t n) {
  std::mt19937_64 rng(seed);
  std::vector<uint64_t> v(n);
  for (auto& x : v) x = kMax - (rng() >> (4 + rng() % 60));
  v.push_back(kMax);
  return v;
}

Histogram::Sparse ValidSparse() { return Build({300, 1000, 1001, 5000, 70'000}).ToSparse(); }

absl::StatusCode FromSparseCode(const Histogram::Sparse& s) {
  return Histogram::FromSparse(s).status().code();
}

std::string FromSparseMessage(const Histogram::Sparse& s) {
  return std::string(Histogram::FromSparse(s).status().message());
}

// ---------------------------------------------------------------------------------------------------
// Bucket layout

TEST(HistogramLayoutTest, BucketCountAndIndexRangeMatchTheDocumentedLayout) {
  EXPECT_EQ(Histogram::kBucketCount, 7424);
  EXPECT_EQ(Histogram::BucketIndex(0), 0);
  EXPECT_EQ(Histogram::BucketIndex(255), 255);
  EXPECT_EQ(Histogram::BucketIndex(256), 256);
  EXPECT_EQ(Histogram::BucketIndex(257), 256);
  EXPECT_EQ(Histogram::BucketIndex(258), 257);
  EXPECT_EQ(Histogram::BucketIndex(511), 256 + 127);
  EXPECT_EQ(Histogram::BucketIndex(512), 256 + 128);
  EXPECT_EQ(Histogram::BucketIndex(kMax), Histogram::kBucketCount - 1);
  EXPECT_EQ(Histogram::BucketIndex(uint64_t{1} << 63), Histogram::kBucketCount - 128);
}

TEST(HistogramLayoutTest, EveryBucketsBoundsAndWidthAgreeWithBucketIndex) {
  for (int i = 0; i < Histogram::kBucketCount; ++i) {
    const uint64_t lo = Histogram::BucketLowerBound(i);
    const uint64_t width = Histogram::BucketWidth(i);
    ASSERT_GE(width, 1u) << "bucket " << i;
    ASSERT_EQ(Histogram::BucketIndex(lo), i) << "bucket " << i;
    ASSERT_EQ(Histogram::BucketIndex(lo + (width - 1)), i) << "bucket " << i;
    if (i + 1 < Histogram::kBucketCount) {
      ASSERT_EQ(Histogram::BucketIndex(lo + width), i + 1) << "bucket " << i;
      ASSERT_EQ(Histogram::BucketLowerBound(i + 1), lo + width) << "buckets must tile, at " << i;
    } else {
      ASSERT_EQ(lo + (width - 1), kMax) << "the last bucket must end at UINT64_MAX";
    }
  }
  EXPECT_EQ(Histogram::BucketLowerBound(0), 0u);
}

TEST(HistogramLayoutTest,
     BucketsBelowTheExactLimitHoldOneValueAndAboveItAreOneOver128OfTheirOctave) {
  for (int i = 0; i < Histogram::kBucketCount; ++i) {
    const uint64_t lo = Histogram::BucketLowerBound(i);
    const uint64_t width = Histogram::BucketWidth(i);
    if (lo < Histogram::kExactLimit) {
      EXPECT_EQ(width, 1u) << "bucket " << i;
      EXPECT_EQ(lo, static_cast<uint64_t>(i));
    } else {
      const int octave = std::bit_width(lo) - 1;
      EXPECT_EQ(width, uint64_t{1} << (octave - Histogram::kSubBucketBits)) << "bucket " << i;
    }
  }
}

TEST(HistogramLayoutTest, BucketValueIsTheMidpointAndWithinTheErrorBoundOfBothEnds) {
  for (int i = 0; i < Histogram::kBucketCount; ++i) {
    const uint64_t lo = Histogram::BucketLowerBound(i);
    const uint64_t last = lo + (Histogram::BucketWidth(i) - 1);
    const uint64_t value = Histogram::BucketValue(i);
    ASSERT_EQ(value, lo + Histogram::BucketWidth(i) / 2) << "bucket " << i;
    ASSERT_GE(value, lo);
    ASSERT_LE(value, last);
    const long double bound = Histogram::kMaxRelativeError;
    ASSERT_LE(static_cast<long double>(value - lo), bound * lo) << "bucket " << i;
    ASSERT_LE(static_cast<long double>(last - value), bound * last) << "bucket " << i;
  }
}

TEST(HistogramLayoutTest, ErrorBoundIsAttainedAtTheFirstApproximateBucketSoItIsTight) {
  const uint64_t reported = Histogram::BucketValue(Histogram::BucketIndex(256));
  EXPECT_EQ(reported, 257u);
  EXPECT_EQ(static_cast<double>(reported - 256) / 256.0, Histogram::kMaxRelativeError);
}

TEST(HistogramLayoutTest, BucketIndexMatchesAnIndependentDivisionBasedReference) {
  std::mt19937_64 rng(7);
  for (int k = 0; k < 200'000; ++k) {
    const uint64_t v = rng() >> (rng() % 64);
    int expected;
    if (v < 256) {
      expected = static_cast<int>(v);
    } else {
      const int octave = std::bit_width(v) - 1;
      const uint64_t octave_start = uint64_t{1} << octave;
      const uint64_t sub = (v - octave_start) / (octave_start / 128);
      expected = 256 + (octave - 8) * 128 + static_cast<int>(sub);
    }
    ASSERT_EQ(Histogram::BucketIndex(v), expected) << "value " << v;
  }
}

// ---------------------------------------------------------------------------------------------------
// Empty histogram

TEST(HistogramTest, EmptyHistogramReportsZeroForEveryStatistic) {
  const Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.min_ns(), 0u);
  EXPECT_EQ(h.max_ns(), 0u);
  EXPECT_EQ(h.sum_ns(), 0u);
  EXPECT_EQ(h.mean_ns(), 0.0);
  EXPECT_EQ(h.stddev_ns(), 0.0);
  for (double p : {0.0, 1.0, 50.0, 99.99, 100.0}) EXPECT_EQ(h.Percentile(p), 0u) << "p" << p;
  for (int i = 0; i < Histogram::kBucketCount; ++i) ASSERT_EQ(h.bucket_count_at(i), 0u);
}

TEST(HistogramTest, EmptyHistogramHasAnEmptySparseFormThatRoundTrips) {
  const Histogram::Sparse s = Histogram().ToSparse();
  EXPECT_EQ(s, Histogram::Sparse{});
  EXPECT_TRUE(s.buckets.empty());
  absl::StatusOr<Histogram> back = Histogram::FromSparse(s);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, Histogram());
}

TEST(HistogramTest, ResetReturnsTheHistogramToEmpty) {
  Histogram h = Build({0, 5, 300, 1'000'000, kMax});
  h.Reset();
  EXPECT_EQ(h, Histogram());
  EXPECT_EQ(h.min_ns(), 0u);
  h.Record(42);
  EXPECT_EQ(h, Build({42}));
}

// ---------------------------------------------------------------------------------------------------
// Recording

TEST(HistogramTest, RecordCountsEachSampleInTheBucketOfItsIndex) {
  const std::vector<uint64_t> samples = {0, 0, 1, 255, 256, 257, 258, 1'000'000, kMax, kMax};
  const Histogram h = Build(samples);
  EXPECT_EQ(h.bucket_count_at(0), 2u);
  EXPECT_EQ(h.bucket_count_at(1), 1u);
  EXPECT_EQ(h.bucket_count_at(255), 1u);
  EXPECT_EQ(h.bucket_count_at(256), 2u);  // 256 and 257
  EXPECT_EQ(h.bucket_count_at(257), 1u);
  EXPECT_EQ(h.bucket_count_at(Histogram::BucketIndex(1'000'000)), 1u);
  EXPECT_EQ(h.bucket_count_at(Histogram::kBucketCount - 1), 2u);
  uint64_t total = 0;
  for (int i = 0; i < Histogram::kBucketCount; ++i) total += h.bucket_count_at(i);
  EXPECT_EQ(total, samples.size());
}

TEST(HistogramTest, HistogramsOfTheSameSamplesInAnyOrderAreEqual) {
  std::vector<uint64_t> samples = LognormalSamples(11, 5000);
  const Histogram forward = Build(samples);
  std::shuffle(samples.begin(), samples.end(), std::mt19937_64(12));
  EXPECT_EQ(Build(samples), forward);
}

TEST(HistogramTest, HistogramsWithTheSameBucketsButDifferentSumsAreNotEqual) {
  // 512..515 and 516..519 are single buckets (width 4): same buckets, min and max; different sums.
  const Histogram a = Build({512, 513, 519});
  const Histogram b = Build({512, 515, 519});
  EXPECT_EQ(a.ToSparse().buckets, b.ToSparse().buckets);
  EXPECT_FALSE(a == b);
}

// ---------------------------------------------------------------------------------------------------
// Percentiles against the exact nearest-rank value of the sorted samples

TEST(HistogramPercentileTest, UniformSamplesAreWithinTheErrorBoundOfExactNearestRank) {
  ExpectPercentilesWithinErrorBound(UniformSamples(1, 100'000, 1'000, 10'000'000));
  ExpectPercentilesWithinErrorBound(UniformSamples(2, 100'000, 0, 1'000));
}

TEST(HistogramPercentileTest, LognormalSamplesAreWithinTheErrorBoundOfExactNearestRank) {
  ExpectPercentilesWithinErrorBound(LognormalSamples(3, 100'000));
}

TEST(HistogramPercentileTest, BimodalSamplesAreWithinTheErrorBoundOfExactNearestRank) {
  ExpectPercentilesWithinErrorBound(BimodalSamples(4, 100'000));
}

TEST(HistogramPercentileTest, SamplesFromOneNanosecondToOneHourAreWithinTheErrorBound) {
  ExpectPercentilesWithinErrorBound(OneNanosecondToOneHourSamples(5, 100'000));
}

TEST(HistogramPercentileTest, SamplesOverTheWholeUint64RangeAreWithinTheErrorBound) {
  ExpectPercentilesWithinErrorBound(FullRangeSamples(6, 100'000));
}

TEST(HistogramPercentileTest, AllEqualSamplesReportThatValueExactly) {
  for (uint64_t v : {uint64_t{0}, uint64_t{1}, uint64_t{255}, uint64_t{256}, uint64_t{257},
                     uint64_t{123'456'789}, kOneHourNs, kMax - 1, kMax}) {
    const Histogram h = Build(std::vector<uint64_t>(1000, v));
    for (uint64_t parts : kReportedPercentiles) {
      EXPECT_EQ(h.Percentile(static_cast<double>(parts) / 100.0), v) << "value " << v;
    }
    ExpectPercentilesWithinErrorBound(std::vector<uint64_t>(1000, v));
  }
}

TEST(HistogramPercentileTest, SamplesAtBucketEdgesAreWithinTheErrorBound) {
  ExpectPercentilesWithinErrorBound(BucketEdgeSamples());
  // Only the lower edges, and only the upper edges: the worst cases for a midpoint.
  std::vector<uint64_t> lower, upper;
  for (int i = 0; i < Histogram::kBucketCount; ++i) {
    lower.push_back(Histogram::BucketLowerBound(i));
    upper.push_back(Histogram::BucketLowerBound(i) + (Histogram::BucketWidth(i) - 1));
  }
  ExpectPercentilesWithinErrorBound(lower);
  ExpectPercentilesWithinErrorBound(upper);
}

TEST(HistogramPercentileTest, PowersOfTwoAndTheirNeighboursAreWithinTheErrorBound) {
  ExpectPercentilesWithinErrorBound(PowersOfTwoSamples());
}

TEST(HistogramPercentileTest, ZerosAloneAndMixedWithLargeValuesAreWithinTheErrorBound) {
  ExpectPercentilesWithinErrorBound(std::vector<uint64_t>(500, 0));
  std::vector<uint64_t> mixed(990, 0);
  for (uint64_t v : UniformSamples(8, 10, kOneHourNs / 2, kOneHourNs)) mixed.push_back(v);
  ExpectPercentilesWithinErrorBound(mixed);
}

TEST(HistogramPercentileTest, ValuesNearUint64MaxAreWithinTheErrorBound) {
  ExpectPercentilesWithinErrorBound(NearUint64MaxSamples(9, 50'000));
}

TEST(HistogramPercentileTest, SmallSampleCountsRankEveryPercentileCorrectly) {
  std::mt19937_64 rng(10);
  for (size_t n = 1; n <= 64; ++n) {
    std::vector<uint64_t> samples(n);
    for (auto& x : samples) x = rng() >> (rng() % 64);
    ExpectPercentilesWithinErrorBound(samples);
  }
}

TEST(HistogramPercentileTest, SingleSampleIsReportedExactlyAtEveryPercentile) {
  for (uint64_t v : {uint64_t{0}, uint64_t{7}, uint64_t{300}, uint64_t{1'000'000'007}, kMax}) {
    const Histogram h = Build({v});
    for (double p : {0.0, 1.0, 50.0, 99.9, 100.0}) EXPECT_EQ(h.Percentile(p), v);
  }
}

TEST(HistogramPercentileTest, ZeroAndHundredAreTheExactMinAndMax) {
  // 1001 and 70'001 are not bucket midpoints, so only exact tracking reports them.
  const Histogram h = Build({1001, 5000, 70'001});
  EXPECT_EQ(h.Percentile(0), 1001u);
  EXPECT_EQ(h.Percentile(100), 70'001u);
}

TEST(HistogramPercentileTest, FirstAndLastRanksReportTheExactMinAndMax) {
  // n = 3: p1 is rank 1 and p99 is rank 3. The buckets' midpoints are 1002 and 69'888.
  const Histogram h = Build({1001, 5000, 70'001});
  ASSERT_EQ(Histogram::BucketValue(Histogram::BucketIndex(1001)), 1002u);
  ASSERT_EQ(Histogram::BucketValue(Histogram::BucketIndex(70'001)), 69'888u);
  EXPECT_EQ(h.Percentile(1), 1001u);
  EXPECT_EQ(h.Percentile(99), 70'001u);
}

TEST(HistogramPercentileTest, OutOfRangePercentilesAreClampedToMinAndMax) {
  const Histogram h = Build({1001, 5000, 70'001});
  EXPECT_EQ(h.Percentile(-5), 1001u);
  EXPECT_EQ(h.Percentile(std::nan("")), 1001u);
  EXPECT_EQ(h.Percentile(150), 70'001u);
  EXPECT_EQ(h.Percentile(std::numeric_limits<double>::infinity()), 70'001u);
}

TEST(HistogramPercentileTest, NinetyNinePointNineOfAThousandSamplesIsTheNineHundredNinetyNinth) {
  // 99.9 as a double is slightly above 99.9; a naive ceil(p / 100 * n) would pick rank 1000.
  std::vector<uint64_t> samples(999, 100);
  samples.push_back(kOneHourNs);
  const Histogram h = Build(samples);
  EXPECT_EQ(h.Percentile(99.9), 100u);
  EXPECT_EQ(h.Percentile(99.95), kOneHourNs);
  std::vector<uint64_t> more(9999, 100);
  more.push_back(kOneHourNs);
  EXPECT_EQ(Build(more).Percentile(99.99), 100u);
  EXPECT_EQ(Build(more).Percentile(99.991), kOneHourNs);
}

TEST(HistogramPercentileTest, PercentileNeverDecreasesAsPGrows) {
  const Histogram h = Build(BimodalSamples(13, 20'000));
  uint64_t previous = 0;
  for (int k = 0; k <= 100'000; ++k) {
    const uint64_t v = h.Percentile(k / 1000.0);
    ASSERT_GE(v, previous) << "p" << k / 1000.0;
    previous = v;
  }
}

// ---------------------------------------------------------------------------------------------------
// Mean and standard deviation

void ExpectExactMoments(const std::vector<uint64_t>& samples, uint64_t shift = 0) {
  const Histogram h = Build(samples);
  const Moments exact = ExactMoments(samples, shift);
  EXPECT_DOUBLE_EQ(h.mean_ns(), static_cast<double>(exact.mean));
  EXPECT_DOUBLE_EQ(h.stddev_ns(), static_cast<double>(exact.stddev));
}

TEST(HistogramMomentsTest, MeanAndStddevEqualTheExactValuesForEveryDistribution) {
  {
    SCOPED_TRACE("uniform");
    ExpectExactMoments(UniformSamples(21, 100'000, 1'000, 10'000'000));
  }
  {
    SCOPED_TRACE("lognormal");
    ExpectExactMoments(LognormalSamples(22, 100'000));
  }
  {
    SCOPED_TRACE("bimodal");
    ExpectExactMoments(BimodalSamples(23, 100'000));
  }
  {
    SCOPED_TRACE("1 ns .. 1 hour");
    ExpectExactMoments(OneNanosecondToOneHourSamples(24, 100'000));
  }
  {
    SCOPED_TRACE("bucket edges");
    std::vector<uint64_t> edges;
    for (uint64_t v : BucketEdgeSamples()) {
      if (v <= kOneHourNs) edges.push_back(v);
    }
    ExpectExactMoments(edges);
  }
  {
    SCOPED_TRACE("zeros and hours");
    std::vector<uint64_t> mixed(990, 0);
    mixed.insert(mixed.end(), 10, kOneHourNs);
    ExpectExactMoments(mixed);
  }
}

TEST(HistogramMomentsTest, MeanAndStddevNearUint64MaxEqualTheExactValues) {
  // Within 2^40 of UINT64_MAX: shifted by the minimum, the reference stays in 128 bits, while the
  // histogram sees the raw values (sum past 2^64, sum of squares past 2^128).
  std::vector<uint64_t> samples = UniformSamples(25, 10'000, kMax - (uint64_t{1} << 40), kMax);
  samples.push_back(kMax);
  const uint64_t min = *std::min_element(samples.begin(), samples.end());
  ExpectExactMoments(samples, min);
  EXPECT_GT(Build(samples).ToSparse().sum_sq_top, 0u);
}

TEST(HistogramMomentsTest, MeanAndStddevOverTheWholeUint64RangeMatchATwoPassReference) {
  const std::vector<uint64_t> samples = FullRangeSamples(26, 10'000);
  const Histogram h = Build(samples);
  const Moments reference = TwoPassMoments(samples);
  EXPECT_NEAR(h.mean_ns(), static_cast<double>(reference.mean), 1e-13 * reference.mean);
  EXPECT_NEAR(h.stddev_ns(), static_cast<double>(reference.stddev), 1e-13 * reference.stddev);
}

TEST(HistogramMomentsTest, StddevIsTheSampleStandardDeviationAsFioReportsIt) {
  const Histogram h = Build({1, 2, 3, 4});
  EXPECT_DOUBLE_EQ(h.mean_ns(), 2.5);
  EXPECT_DOUBLE_EQ(h.stddev_ns(), std::sqrt(5.0 / 3.0));  // sum of squared deviations 5, n - 1 = 3
}

TEST(HistogramMomentsTest, StddevOfFewerThanTwoSamplesIsZero) {
  EXPECT_EQ(Build({}).stddev_ns(), 0.0);
  EXPECT_EQ(Build({kOneHourNs}).stddev_ns(), 0.0);
  EXPECT_EQ(Build({kOneHourNs}).mean_ns(), static_cast<double>(kOneHourNs));
}

TEST(HistogramMomentsTest, StddevOfEqualLargeValuesIsExactlyZero) {
  // A floating-point E[x^2] - E[x]^2 would leave cancellation noise here.
  for (uint64_t v : {kOneHourNs + 1, uint64_t{1} << 62, kMax}) {
    const Histogram h = Build(std::vector<uint64_t>(1000, v));
    EXPECT_EQ(h.stddev_ns(), 0.0) << "value " << v;
    EXPECT_EQ(h.mean_ns(), static_cast<double>(v)) << "value " << v;
  }
}

TEST(HistogramMomentsTest, SumAndSumOfSquaresDoNotWrapForValuesNearUint64Max) {
  const Histogram h = Build({kMax, kMax, kMax - 2});
  EXPECT_EQ(h.sum_ns(), absl::uint128(kMax) * 3 - 2);
  const Histogram::Sparse s = h.ToSparse();
  EXPECT_EQ(s.sum_ns_hi, 2u);  // 3 * (2^64 - 1) - 2 = 2 * 2^64 + (2^64 - 5)
  EXPECT_EQ(s.sum_ns, kMax - 4);
  EXPECT_EQ(s.sum_sq_top, 2u);  // about 3 * 2^128
  // Values M, M, M - 2: mean M - 2/3, squared deviations 4/9 + 4/9 + 16/9 = 24/9, over n - 1 = 2.
  EXPECT_DOUBLE_EQ(h.stddev_ns(), std::sqrt(24.0 / 9.0 / 2.0));
  EXPECT_DOUBLE_EQ(h.mean_ns(), static_cast<double>(kMax));
}

TEST(HistogramMomentsTest, SumIsExactPastTwoToTheSixtyFourNanoseconds) {
  // 2^64 ns is 584 years of summed latency, reachable by a large fleet over a long run.
  Histogram h;
  for (int i = 0; i < 6'000'000; ++i) h.Record(kOneHourNs);
  EXPECT_EQ(h.sum_ns(), absl::uint128(kOneHourNs) * 6'000'000);
  EXPECT_GT(h.sum_ns(), absl::uint128(kMax));
  EXPECT_DOUBLE_EQ(h.mean_ns(), static_cast<double>(kOneHourNs));
  EXPECT_EQ(h.stddev_ns(), 0.0);
}

// ---------------------------------------------------------------------------------------------------
// Merge

std::vector<uint64_t> MixedSamples(uint64_t seed) {
  std::vector<uint64_t> all = LognormalSamples(seed, 20'000);
  for (uint64_t v : BimodalSamples(seed + 1, 20'000)) all.push_back(v);
  for (uint64_t v : PowersOfTwoSamples()) all.push_back(v);
  all.push_back(0);
  all.push_back(kMax);
  std::shuffle(all.begin(), all.end(), std::mt19937_64(seed + 2));
  return all;
}

TEST(HistogramMergeTest, MergeOfTwoHistogramsEqualsHistogramOfUnion) {
  const std::vector<uint64_t> all = MixedSamples(31);
  const size_t split = all.size() / 3;
  Histogram a = Build({all.begin(), all.begin() + split});
  const Histogram b = Build({all.begin() + split, all.end()});
  a.Merge(b);
  EXPECT_EQ(a, Build(all));
  EXPECT_EQ(a.ToSparse(), Build(all).ToSparse());
}

TEST(HistogramMergeTest, MergeIsCommutative) {
  const std::vector<uint64_t> all = MixedSamples(32);
  const std::vector<uint64_t> first(all.begin(), all.begin() + 1000);
  const std::vector<uint64_t> second(all.begin() + 1000, all.end());
  Histogram ab = Build(first);
  ab.Merge(Build(second));
  Histogram ba = Build(second);
  ba.Merge(Build(first));
  EXPECT_EQ(ab, ba);
}

TEST(HistogramMergeTest, MergeOfManyShardsEqualsHistogramOfUnion) {
  const std::vector<uint64_t> all = MixedSamples(33);
  std::vector<Histogram> shards(16);
  for (size_t i = 0; i < all.size(); ++i) shards[i % shards.size()].Record(all[i]);
  Histogram merged;
  for (const Histogram& shard : shards) merged.Merge(shard);
  EXPECT_EQ(merged, Build(all));
}

TEST(HistogramMergeTest, MergeWithAnEmptyHistogramChangesNothingInEitherDirection) {
  const Histogram h = Build({300, 5000, 70'000});
  Histogram into_full = h;
  into_full.Merge(Histogram());
  EXPECT_EQ(into_full, h);
  Histogram into_empty;
  into_empty.Merge(h);
  EXPECT_EQ(into_empty, h);
  EXPECT_EQ(into_empty.min_ns(), 300u);
  Histogram both_empty;
  both_empty.Merge(Histogram());
  EXPECT_EQ(both_empty, Histogram());
}

TEST(HistogramMergeTest, MergeWithItselfEqualsEverySampleRecordedTwice) {
  const std::vector<uint64_t> samples = {0, 300, 5000, kMax};
  Histogram h = Build(samples);
  h.Merge(h);
  std::vector<uint64_t> twice = samples;
  twice.insert(twice.end(), samples.begin(), samples.end());
  EXPECT_EQ(h, Build(twice));
}

TEST(HistogramMergeTest, MergeCarriesSumOfSquaresAcrossTheLow128Bits) {
  Histogram a = Build({kMax});
  a.Merge(Build({kMax}));
  EXPECT_EQ(a, Build({kMax, kMax}));
  EXPECT_EQ(a.ToSparse().sum_sq_top, 1u);
}

TEST(HistogramMergeTest, MergeSparseOfTwoHistogramsEqualsHistogramOfUnion) {
  const std::vector<uint64_t> all = MixedSamples(34);
  const size_t split = all.size() / 2;
  Histogram a = Build({all.begin(), all.begin() + split});
  const Histogram b = Build({all.begin() + split, all.end()});
  ASSERT_TRUE(a.MergeSparse(b.ToSparse()).ok());
  EXPECT_EQ(a, Build(all));
}

TEST(HistogramMergeTest, AddSparseEqualsTheSparseFormOfTheMergedHistogram) {
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> dist(10.0, 2.0);
  Histogram a, b;
  for (int i = 0; i < 20000; ++i) a.Record(static_cast<uint64_t>(dist(rng)));
  for (int i = 0; i < 5000; ++i) b.Record(static_cast<uint64_t>(dist(rng)) + 1000);
  b.Record(~uint64_t{0} - 5);  // carries into the wide moments
  Histogram merged = a;
  merged.Merge(b);
  EXPECT_EQ(Histogram::AddSparse(a.ToSparse(), b.ToSparse()), merged.ToSparse());
  EXPECT_EQ(Histogram::AddSparse(Histogram().ToSparse(), b.ToSparse()), b.ToSparse());
}

TEST(HistogramMergeTest, MergeSparseIntoEmptyEqualsFromSparse) {
  const Histogram h = Build(MixedSamples(35));
  Histogram merged;
  ASSERT_TRUE(merged.MergeSparse(h.ToSparse()).ok());
  EXPECT_EQ(merged, h);
  ASSERT_TRUE(merged.MergeSparse(Histogram::Sparse{}).ok());
  EXPECT_EQ(merged, h);
}

TEST(HistogramMergeTest, RecordAfterMergeMatchesRecordingEverythingDirectly) {
  const std::vector<uint64_t> all = MixedSamples(36);
  const std::vector<uint64_t> later = {1, 299, 1'000'001, kOneHourNs, kMax - 1};
  Histogram merged = Build({all.begin(), all.begin() + 7000});
  merged.Merge(Build({all.begin() + 7000, all.end()}));
  Histogram merged_sparse = Build({all.begin(), all.begin() + 7000});
  ASSERT_TRUE(merged_sparse.MergeSparse(Build({all.begin() + 7000, all.end()}).ToSparse()).ok());
  for (uint64_t v : later) {
    merged.Record(v);
    merged_sparse.Record(v);
  }
  std::vector<uint64_t> everything = all;
  everything.insert(everything.end(), later.begin(), later.end());
  EXPECT_EQ(merged, Build(everything));
  EXPECT_EQ(merged_sparse, Build(everything));
}

TEST(HistogramMergeTest, MergeSparseRejectsAnInvalidSparseAndLeavesTheHistogramUnchanged) {
  const Histogram original = Build({300, 5000});
  Histogram h = original;
  Histogram::Sparse bad = ValidSparse();
  bad.count += 1;
  EXPECT_EQ(h.MergeSparse(bad).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(h, original);
}

TEST(HistogramMergeTest, MergeSparseRejectsACountPastUint64Max) {
  Histogram::Sparse full;
  full.buckets = {{.index = 0, .count = kMax}};
  full.count = kMax;
  absl::StatusOr<Histogram> h = Histogram::FromSparse(full);
  ASSERT_TRUE(h.ok()) << h.status();
  const Histogram before = *h;
  const absl::Status status = h->MergeSparse(Build({0}).ToSparse());
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(status.message(), HasSubstr("2^64 - 1"));
  EXPECT_EQ(*h, before);
}

// ---------------------------------------------------------------------------------------------------
// Sparse form

TEST(HistogramSparseTest, ToSparseAndFromSparseRoundTripExactly) {
  const std::vector<std::vector<uint64_t>> cases = {
      {0},
      {kMax},
      {kMax, kMax, 1},
      LognormalSamples(41, 10'000),
      BimodalSamples(42, 10'000),
      OneNanosecondToOneHourSamples(43, 10'000),
      FullRangeSamples(44, 10'000),
      BucketEdgeSamples(),
      PowersOfTwoSamples(),
      NearUint64MaxSamples(45, 1000),
  };
  for (size_t k = 0; k < cases.size(); ++k) {
    const Histogram h = Build(cases[k]);
    const Histogram::Sparse s = h.ToSparse();
    absl::StatusOr<Histogram> back = Histogram::FromSparse(s);
    ASSERT_TRUE(back.ok()) << "case " << k << ": " << back.status();
    EXPECT_EQ(*back, h) << "case " << k;
    EXPECT_EQ(back->ToSparse(), s) << "case " << k;
    EXPECT_EQ(back->mean_ns(), h.mean_ns()) << "case " << k;
    EXPECT_EQ(back->stddev_ns(), h.stddev_ns()) << "case " << k;
    for (uint64_t parts : kReportedPercentiles) {
      EXPECT_EQ(back->Percentile(parts / 100.0), h.Percentile(parts / 100.0)) << "case " << k;
    }
  }
}

TEST(HistogramSparseTest, ToSparseListsOnlyNonZeroBucketsInIncreasingIndexOrder) {
  const Histogram h = Build({70'000, 300, 300, 1000, 5000, 300});
  const Histogram::Sparse s = h.ToSparse();
  const std::vector<Histogram::Bucket> expected = {
      {.index = Histogram::BucketIndex(300), .count = 3},
      {.index = Histogram::BucketIndex(1000), .count = 1},
      {.index = Histogram::BucketIndex(5000), .count = 1},
      {.index = Histogram::BucketIndex(70'000), .count = 1},
  };
  EXPECT_EQ(s.buckets, expected);
  EXPECT_EQ(s.count, 6u);
  EXPECT_EQ(s.min_ns, 300u);
  EXPECT_EQ(s.max_ns, 70'000u);
  EXPECT_EQ(s.sum_ns, 300u * 3 + 1000 + 5000 + 70'000);
  EXPECT_EQ(s.sum_ns_hi, 0u);
  EXPECT_EQ(s.sum_sq_lo, 300u * 300 * 3 + 1000 * 1000 + 5000 * 5000 + 70'000ull * 70'000);
  EXPECT_EQ(s.sum_sq_hi, 0u);
  EXPECT_EQ(s.sum_sq_top, 0u);
}

TEST(HistogramSparseTest, FromSparseAcceptsTheLargestPossibleCount) {
  Histogram::Sparse s;
  s.buckets = {{.index = 0, .count = kMax}};
  s.count = kMax;
  absl::StatusOr<Histogram> h = Histogram::FromSparse(s);
  ASSERT_TRUE(h.ok()) << h.status();
  EXPECT_EQ(h->count(), kMax);
  EXPECT_EQ(h->Percentile(50), 0u);
  EXPECT_EQ(h->ToSparse(), s);
}

TEST(HistogramSparseTest, FromSparseRejectsAnIndexOutOfRange) {
  Histogram::Sparse high = ValidSparse();
  high.buckets.back().index = Histogram::kBucketCount;
  EXPECT_EQ(FromSparseCode(high), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(high), HasSubstr("outside [0, 7424)"));
  Histogram::Sparse negative = ValidSparse();
  negative.buckets.front().index = -1;
  EXPECT_EQ(FromSparseCode(negative), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(negative), HasSubstr("outside [0, 7424)"));
}

TEST(HistogramSparseTest, FromSparseRejectsRepeatedOrDecreasingIndices) {
  Histogram::Sparse repeated = ValidSparse();
  repeated.buckets[1].index = repeated.buckets[0].index;
  EXPECT_EQ(FromSparseCode(repeated), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(repeated), HasSubstr("strictly increase"));
  Histogram::Sparse decreasing = ValidSparse();
  std::swap(decreasing.buckets[1], decreasing.buckets[2]);
  EXPECT_EQ(FromSparseCode(decreasing), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(decreasing), HasSubstr("strictly increase"));
}

TEST(HistogramSparseTest, FromSparseRejectsAZeroCountBucket) {
  Histogram::Sparse s = ValidSparse();
  s.buckets.insert(s.buckets.begin() + 1, {.index = s.buckets[0].index + 1, .count = 0});
  EXPECT_EQ(FromSparseCode(s), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(s), HasSubstr("count is 0"));
}

TEST(HistogramSparseTest, FromSparseRejectsACountThatDiffersFromTheBucketTotal) {
  Histogram::Sparse more = ValidSparse();
  more.count += 1;
  EXPECT_EQ(FromSparseCode(more), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(more), HasSubstr("does not equal the sum of its bucket counts"));
  Histogram::Sparse fewer = ValidSparse();
  fewer.count -= 1;
  EXPECT_EQ(FromSparseCode(fewer), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(fewer), HasSubstr("does not equal the sum of its bucket counts"));
}

TEST(HistogramSparseTest, FromSparseRejectsBucketCountsThatOverflow) {
  Histogram::Sparse s;
  s.buckets = {{.index = 0, .count = uint64_t{1} << 63}, {.index = 1, .count = uint64_t{1} << 63}};
  s.count = 0;  // what a wrapped 64-bit total would be
  s.max_ns = 1;
  EXPECT_EQ(FromSparseCode(s), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(s), HasSubstr("more than 2^64 - 1"));
}

TEST(HistogramSparseTest, FromSparseRejectsAMinOutsideTheFirstBucket) {
  Histogram::Sparse below = ValidSparse();
  below.min_ns = Histogram::BucketLowerBound(below.buckets.front().index) - 1;
  EXPECT_EQ(FromSparseCode(below), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(below), HasSubstr("min_ns"));
  Histogram::Sparse above = ValidSparse();
  above.min_ns = 1000;  // a sample, but in the second bucket
  EXPECT_EQ(FromSparseCode(above), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(above), HasSubstr("min_ns"));
}

TEST(HistogramSparseTest, FromSparseRejectsAMaxOutsideTheLastBucket) {
  Histogram::Sparse above = ValidSparse();
  const int last = above.buckets.back().index;
  above.max_ns = Histogram::BucketLowerBound(last) + Histogram::BucketWidth(last);
  EXPECT_EQ(FromSparseCode(above), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(above), HasSubstr("max_ns"));
  Histogram::Sparse below = ValidSparse();
  below.max_ns = 5000;
  EXPECT_EQ(FromSparseCode(below), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(below), HasSubstr("max_ns"));
}

TEST(HistogramSparseTest, FromSparseRejectsAMinAboveTheMaxInTheSameBucket) {
  Histogram::Sparse s = Build({300, 301}).ToSparse();  // one bucket, [300, 302)
  ASSERT_EQ(s.buckets.size(), 1u);
  std::swap(s.min_ns, s.max_ns);
  EXPECT_EQ(FromSparseCode(s), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(s), HasSubstr("greater than max_ns"));
}

TEST(HistogramSparseTest, FromSparseRejectsASumTheBucketsCannotAddUpTo) {
  Histogram::Sparse high = ValidSparse();
  high.sum_ns += 1'000'000;
  EXPECT_EQ(FromSparseCode(high), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(high), HasSubstr("sum_ns"));
  Histogram::Sparse low = ValidSparse();
  low.sum_ns = 0;
  EXPECT_EQ(FromSparseCode(low), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(low), HasSubstr("sum_ns"));
  Histogram::Sparse wrapped = ValidSparse();
  wrapped.sum_ns_hi = 1;
  EXPECT_EQ(FromSparseCode(wrapped), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(wrapped), HasSubstr("sum_ns"));
}

TEST(HistogramSparseTest, FromSparseRejectsASumOfSquaresTheBucketsCannotAddUpTo) {
  Histogram::Sparse high = ValidSparse();
  high.sum_sq_hi += 1;
  EXPECT_EQ(FromSparseCode(high), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(high), HasSubstr("sum of squares"));
  Histogram::Sparse top = ValidSparse();
  top.sum_sq_top = 1;
  EXPECT_EQ(FromSparseCode(top), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(top), HasSubstr("sum of squares"));
  Histogram::Sparse low = ValidSparse();
  low.sum_sq_lo = 0;
  EXPECT_EQ(FromSparseCode(low), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(low), HasSubstr("sum of squares"));
}

TEST(HistogramSparseTest, FromSparseRejectsMomentsThatImplyANegativeVariance) {
  // Samples 256 and 257 share bucket [256, 258). Claim sum = 514 (as if both were 257) with the sum
  // of squares of two 256s: each is within the bucket bounds, together impossible.
  Histogram::Sparse s = Build({256, 257}).ToSparse();
  ASSERT_EQ(s.buckets.size(), 1u);
  s.sum_ns = 514;
  s.sum_sq_lo = 2 * 256 * 256;
  EXPECT_EQ(FromSparseCode(s), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(s), HasSubstr("negative variance"));
}

TEST(HistogramSparseTest, FromSparseRejectsNonZeroMomentsWithoutBuckets) {
  Histogram::Sparse count_only;
  count_only.count = 3;
  EXPECT_EQ(FromSparseCode(count_only), absl::StatusCode::kInvalidArgument);
  Histogram::Sparse min_only;
  min_only.min_ns = 5;
  EXPECT_EQ(FromSparseCode(min_only), absl::StatusCode::kInvalidArgument);
  Histogram::Sparse sum_sq_only;
  sum_sq_only.sum_sq_top = 1;
  EXPECT_EQ(FromSparseCode(sum_sq_only), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(FromSparseMessage(sum_sq_only), HasSubstr("no buckets"));
}

TEST(HistogramSparseTest, HistogramBuiltFromSparseKeepsRecording) {
  absl::StatusOr<Histogram> h = Histogram::FromSparse(Build({300, 5000}).ToSparse());
  ASSERT_TRUE(h.ok()) << h.status();
  h->Record(7);
  h->Record(kMax);
  EXPECT_EQ(*h, Build({300, 5000, 7, kMax}));
}

// Memory: a histogram built from sparse forms holds only its non-zero buckets; Record makes it
// dense. Both forms must give the same figures in every combination.
TEST(HistogramMemoryTest, MergedFromSparseFormsItStaysSparseAndSmall) {
  Histogram total;
  EXPECT_FALSE(total.is_dense());
  EXPECT_EQ(total.bucket_bytes(), 0u);
  for (int i = 0; i < 100; ++i) {
    ASSERT_TRUE(
        total.MergeSparse(Build({1000, 2000, 3000 + static_cast<uint64_t>(i)}).ToSparse()).ok());
  }
  EXPECT_FALSE(total.is_dense());
  const size_t buckets = total.ToSparse().buckets.size();
  EXPECT_LE(total.bucket_bytes(), 2 * buckets * sizeof(Histogram::Bucket));
  EXPECT_LT(total.bucket_bytes(), Histogram::kBucketCount * sizeof(uint64_t) / 8);
  Histogram copy = total;  // copies stay sparse too
  EXPECT_FALSE(copy.is_dense());
  copy.Merge(total);
  EXPECT_FALSE(copy.is_dense());
  EXPECT_EQ(copy.count(), 2 * total.count());
}

TEST(HistogramMemoryTest, SparseAndDenseFormsGiveTheSameFiguresInEveryCombination) {
  std::mt19937_64 rng(11);
  std::lognormal_distribution<double> dist(std::log(200'000.0), 1.0);
  std::vector<uint64_t> a, b;
  for (int i = 0; i < 3000; ++i) a.push_back(static_cast<uint64_t>(dist(rng)));
  for (int i = 0; i < 2000; ++i) b.push_back(static_cast<uint64_t>(dist(rng)) + 7);
  std::vector<uint64_t> both = a;
  both.insert(both.end(), b.begin(), b.end());
  const Histogram dense_a = Build(a), dense_b = Build(b), expected = Build(both);
  ASSERT_TRUE(dense_a.is_dense());
  absl::StatusOr<Histogram> sparse_a = Histogram::FromSparse(dense_a.ToSparse());
  absl::StatusOr<Histogram> sparse_b = Histogram::FromSparse(dense_b.ToSparse());
  ASSERT_TRUE(sparse_a.ok() && sparse_b.ok());
  ASSERT_FALSE(sparse_a->is_dense());
  EXPECT_EQ(*sparse_a, dense_a);
  for (int i = 0; i < Histogram::kBucketCount; i += 37) {
    ASSERT_EQ(sparse_a->bucket_count_at(i), dense_a.bucket_count_at(i)) << i;
  }
  const std::vector<const Histogram*> as = {&dense_a, &*sparse_a};
  const std::vector<const Histogram*> bs = {&dense_b, &*sparse_b};
  for (const Histogram* x : as) {
    for (const Histogram* y : bs) {
      Histogram merged = *x;
      merged.Merge(*y);
      EXPECT_EQ(merged, expected);
      for (double p : {0.0, 1.0, 50.0, 90.0, 99.0, 99.9, 100.0}) {
        EXPECT_EQ(merged.Percentile(p), expected.Percentile(p)) << p;
      }
      EXPECT_EQ(merged.ToSparse(), expected.ToSparse());
      EXPECT_DOUBLE_EQ(merged.stddev_ns(), expected.stddev_ns());
      Histogram via_sparse = *x;
      ASSERT_TRUE(via_sparse.MergeSparse(y->ToSparse()).ok());
      EXPECT_EQ(via_sparse, expected);
    }
  }
}

TEST(HistogramMemoryTest, ManyBucketsTurnDenseAndResetOrMoveLeaveItEmpty) {
  Histogram wide;
  for (int i = 0; i <= static_cast<int>(Histogram::kDenseAbove); ++i) {
    Histogram one;
    one.Record(Histogram::BucketLowerBound(i));
    ASSERT_TRUE(wide.MergeSparse(one.ToSparse()).ok());
  }
  EXPECT_TRUE(wide.is_dense()) << "past kDenseAbove buckets the dense array is smaller";
  EXPECT_EQ(wide.count(), Histogram::kDenseAbove + 1);
  Histogram moved = std::move(wide);
  EXPECT_EQ(moved.count(), Histogram::kDenseAbove + 1);
  EXPECT_EQ(wide.count(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  EXPECT_EQ(wide, Histogram());
  moved.Reset();
  EXPECT_EQ(moved, Histogram());
  EXPECT_TRUE(moved.is_dense()) << "Reset keeps the array for the next interval";
  moved.Record(42);
  EXPECT_EQ(moved.Percentile(50), 42u);
}

}  // namespace
}  // namespace azbench
