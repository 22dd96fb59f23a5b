// WaitPause: whether an async engine pauses briefly before it blocks for completions.
//
// When completions come from kernel worker threads within a few microseconds (io_uring on tmpfs,
// or on any file system whose reads io_uring cannot issue without blocking and hands to io-wq),
// blocking at once costs a sleep and a wake-up per completion, and on a small host the waiting
// thread's wake-ups take CPU from the workers themselves. Pausing `pause_ns` before entering the
// kernel lets one wait collect several completions. Measured on a 2-vCPU host (bench/README.md):
// io_uring qd16 4 KiB random reads on tmpfs gain ~1.2x the IOPS with a 2 us pause, and the mean
// latency falls by about as much.
//
// The pause only pays when completions are that close, so it is adaptive: the engine reports the
// duration of every blocking wait (pause included) and pauses only while the moving average of
// the recent waits (weight 1/8 per wait, an EWMA computed in integers) is below `short_wait_ns`.
// A disk (tens of microseconds) or a network file system (hundreds) turns it off after its first
// wait or two, and a target whose completions become close again turns it back on. pause_ns = 0
// never pauses.
//
//   WaitPause pause({.pause_ns = 2000, .short_wait_ns = 20000});
//   if (pause.ShouldPause()) { /* spin pause.pause_ns() with CpuRelax() */ }
//   ... block in the kernel ...;  pause.RecordWait(ns_since_before_the_pause);
#ifndef AZBENCH_AGENT_ENGINES_WAIT_PAUSE_H_
#define AZBENCH_AGENT_ENGINES_WAIT_PAUSE_H_

#include <cstdint>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

namespace azbench {

// One spin-wait hint to the CPU (x86 PAUSE, arm64 YIELD): lets a sibling hyperthread run and
// saves power while spinning.
inline void CpuRelax() {
#if defined(__x86_64__)
  _mm_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

struct WaitPauseOptions {
  uint64_t pause_ns = 2000;
  // Pause while the average blocking wait is below this.
  uint64_t short_wait_ns = 20000;
};

class WaitPause {
 public:
  explicit WaitPause(WaitPauseOptions options = {}) : options_(options) {}

  bool ShouldPause() const {
    return options_.pause_ns > 0 && average_wait_ns_ < options_.short_wait_ns;
  }
  uint64_t pause_ns() const { return options_.pause_ns; }
  // One blocking wait took `wait_ns` (from before the pause to the end of the wait).
  void RecordWait(uint64_t wait_ns) {
    average_wait_ns_ = average_wait_ns_ - average_wait_ns_ / 8 + wait_ns / 8;
  }
  uint64_t average_wait_ns() const { return average_wait_ns_; }

 private:
  WaitPauseOptions options_;
  uint64_t average_wait_ns_ = 0;  // no wait yet: pause on the first one
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_WAIT_PAUSE_H_
