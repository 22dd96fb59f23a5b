// Clocks. Latency uses CLOCK_MONOTONIC nanoseconds (vDSO, ~26 ns per read on a kvm-clock VM);
// cross-host alignment uses CLOCK_REALTIME nanoseconds corrected by a measured per-agent offset.
#ifndef AZBENCH_COMMON_CLOCK_H_
#define AZBENCH_COMMON_CLOCK_H_

#include <time.h>

#include <cstdint>
#include <cstdlib>

namespace azbench {

inline uint64_t MonotonicNanos() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

// Test hook for the fault tests: AZBENCH_TEST_ONLY_REALTIME_OFFSET_NS shifts every realtime reading
// of this process, which simulates a host whose clock is off (nothing else can move one process's
// CLOCK_REALTIME without moving the whole machine's). Read once; 0 when unset or malformed.
inline int64_t TestOnlyRealtimeOffsetNanos() {
  static const int64_t offset_ns = [] {
    const char* text = std::getenv("AZBENCH_TEST_ONLY_REALTIME_OFFSET_NS");
    if (text == nullptr) return int64_t{0};
    char* end = nullptr;
    const long long value = std::strtoll(text, &end, 10);
    return (end != text && *end == '\0') ? static_cast<int64_t>(value) : int64_t{0};
  }();
  return offset_ns;
}

inline int64_t RealtimeNanos() {
  timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<int64_t>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec +
         TestOnlyRealtimeOffsetNanos();
}

}  // namespace azbench

#endif  // AZBENCH_COMMON_CLOCK_H_
