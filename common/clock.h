// Clocks. Latency uses CLOCK_MONOTONIC nanoseconds (vDSO, ~26 ns per read on a kvm-clock VM);
// cross-host alignment uses CLOCK_REALTIME nanoseconds corrected by a measured per-agent offset.
#ifndef AZBENCH_COMMON_CLOCK_H_
#define AZBENCH_COMMON_CLOCK_H_

#include <time.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
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

// How often a wait for a start instant looks at its cancel flag.
inline constexpr uint64_t kCancellableSleepSliceNs = 10'000'000;  // 10 ms

// Sleeps until CLOCK_MONOTONIC reaches `monotonic_ns`, or until `*cancel` (may be null) is true,
// looked at every kCancellableSleepSliceNs. The final slice is one absolute clock_nanosleep to the
// instant itself, so waking is as precise as a plain absolute sleep. Returns false when cancelled
// before the instant.
inline bool SleepUntilMonotonicOrCancelled(uint64_t monotonic_ns, const std::atomic<bool>* cancel) {
  while (true) {
    if (cancel != nullptr && cancel->load()) return false;
    const uint64_t now_ns = MonotonicNanos();
    if (now_ns >= monotonic_ns) return true;
    const uint64_t until_ns = cancel == nullptr
                                  ? monotonic_ns
                                  : std::min(monotonic_ns, now_ns + kCancellableSleepSliceNs);
    timespec ts;
    ts.tv_sec = static_cast<time_t>(until_ns / 1'000'000'000ULL);
    ts.tv_nsec = static_cast<long>(until_ns % 1'000'000'000ULL);
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
    }
  }
}

}  // namespace azbench

#endif  // AZBENCH_COMMON_CLOCK_H_
