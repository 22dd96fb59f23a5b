// Figures derived from results: throughput and IOPS over a runtime, and the percentile list reports
// use. Every percentile comes from a Histogram (see common/histogram.h for the error bound).
#ifndef AZBENCH_COMMON_STATS_H_
#define AZBENCH_COMMON_STATS_H_

#include <array>
#include <cstdint>

namespace azbench {

// fio's default percentile list (clat percentiles), in percent.
inline constexpr std::array<double, 17> kReportPercentiles = {1.0,  5.0,  10.0, 20.0,  30.0, 40.0,
                                                              50.0, 60.0, 70.0, 80.0,  90.0, 95.0,
                                                              99.0, 99.5, 99.9, 99.95, 99.99};

// Ops (or bytes) per second over `runtime_ns`; 0 when the runtime is 0.
inline double PerSecond(uint64_t amount, uint64_t runtime_ns) {
  return runtime_ns == 0 ? 0.0
                         : static_cast<double>(amount) * 1e9 / static_cast<double>(runtime_ns);
}

inline constexpr double kMiB = 1024.0 * 1024.0;

}  // namespace azbench

#endif  // AZBENCH_COMMON_STATS_H_
