// Clocks. Latency uses CLOCK_MONOTONIC nanoseconds (vDSO, ~26 ns per read on a kvm-clock VM);
// cross-host alignment uses CLOCK_REALTIME nanoseconds corrected by a measured per-agent offset.
#ifndef AZBENCH_COMMON_CLOCK_H_
#define AZBENCH_COMMON_CLOCK_H_

#include <time.h>

#include <cstdint>

namespace azbench {

inline uint64_t MonotonicNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

inline int64_t RealtimeNanos() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

}  // namespace azbench

#endif  // AZBENCH_COMMON_CLOCK_H_
