// The clock that timestamps block-I/O ops (fio's `clocksource`).
//
// Two sources, both giving nanoseconds on the CLOCK_MONOTONIC timeline:
// - `cpu`: the time-stamp counter (rdtsc, ~11 ns per read on a kvm VM). Used when the CPU declares
//   an invariant TSC (CPUID 0x80000007 EDX bit 8) and the kernel lists `tsc` among its usable
//   clocksources (it has checked that the counters of all CPUs are in step). The rate is
//   calibrated once per process against CLOCK_MONOTONIC_RAW over 10 ms (error about 5 ppm, far
//   below the histogram's 0.39%); each job thread anchors the counter to CLOCK_MONOTONIC when it
//   starts, so durations are in unslewed nanoseconds and timestamps drift from CLOCK_MONOTONIC
//   only by NTP's slewing since the anchor (ntpd slews at most 500 ppm; chrony, while correcting a
//   large offset, up to 83,333 ppm by default, when the unslewed durations are the right ones).
// - `clock_gettime`: clock_gettime(CLOCK_MONOTONIC) through the vDSO (~26 ns per read here).
// The default (kAuto) is `cpu` where it is usable, as fio does. A thread that has not anchored the
// clock (OpClockScope) reads clock_gettime, so engines used outside a job stay correct.
//
// Example (one job thread):
//   ASSIGN_OR_RETURN(OpClockSource clock, ResolveOpClock(spec.clocksource));  // once per job
//   OpClockScope scope(clock);  // on the thread that times ops
//   const uint64_t start_ns = OpClockNanos();
#ifndef AZBENCH_AGENT_ENGINES_OP_CLOCK_H_
#define AZBENCH_AGENT_ENGINES_OP_CLOCK_H_

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include <cstdint>
#include <string>

#include "absl/functional/function_ref.h"
#include "absl/status/statusor.h"
#include "common/clock.h"
#include "common/job_spec.h"

namespace azbench {

// What the machine says about its TSC.
struct TscSupport {
  bool invariant = false;           // CPUID 0x80000007 EDX bit 8
  bool kernel_clocksource = false;  // "tsc" in available_clocksource
};
// Reads CPUID and /sys/devices/system/clocksource/clocksource0/available_clocksource.
TscSupport ProbeTscSupport();

// Whether the TSC is used for `requested` on a machine with `support`. FailedPrecondition when
// `cpu` is asked for and the TSC is not usable, naming what is missing.
absl::StatusOr<bool> ChooseTsc(ClockSource requested, const TscSupport& support);

// One simultaneous reading of the counter and a nanosecond clock.
struct ClockPair {
  uint64_t ticks = 0;
  uint64_t ns = 0;
};

// Nanoseconds per tick, as a 32.32 fixed-point number, from two pairs read `wait` apart: the first
// pair, then `wait()`, then the second. FailedPrecondition when the counter did not advance.
absl::StatusOr<uint64_t> CalibrateNanosPerTickQ32(absl::FunctionRef<ClockPair()> read_pair,
                                                  absl::FunctionRef<void()> wait);

// The clock a job uses: clock_gettime, or the TSC with its rate.
struct OpClockSource {
  bool tsc = false;
  uint64_t ns_per_tick_q32 = 0;
  // For reports: "cpu (TSC at 2.595 GHz)" or "clock_gettime (CLOCK_MONOTONIC)".
  std::string Describe() const;
};

// Probes the machine and, for the TSC, calibrates it (10 ms, the first time in a process).
absl::StatusOr<OpClockSource> ResolveOpClock(ClockSource requested);

// The per-thread anchor. Public only so that OpClockNanos can be inlined.
struct OpClockAnchor {
  bool tsc = false;
  uint64_t ticks0 = 0;
  uint64_t ns0 = 0;
  uint64_t ns_per_tick_q32 = 0;
  uint64_t last_ns = 0;  // readings never go back on one thread, even across CPUs
};
extern thread_local constinit OpClockAnchor tls_op_clock_anchor;

// Converts a counter reading with an anchor (exposed for tests; OpClockNanos uses it).
inline uint64_t TicksToNanos(const OpClockAnchor& anchor, uint64_t ticks) {
  const uint64_t delta = ticks > anchor.ticks0 ? ticks - anchor.ticks0 : 0;
  return anchor.ns0 + static_cast<uint64_t>(
                          (static_cast<unsigned __int128>(delta) * anchor.ns_per_tick_q32) >> 32);
}

inline uint64_t ReadTicks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return 0;
#endif
}

// Now, on the CLOCK_MONOTONIC timeline, from this thread's op clock.
inline uint64_t OpClockNanos() {
  OpClockAnchor& anchor = tls_op_clock_anchor;
  if (!anchor.tsc) return MonotonicNanos();
  uint64_t ns = TicksToNanos(anchor, ReadTicks());
  if (ns < anchor.last_ns) ns = anchor.last_ns;
  anchor.last_ns = ns;
  return ns;
}

// Anchors this thread's op clock to `source` for the scope's lifetime (then clock_gettime again).
class OpClockScope {
 public:
  explicit OpClockScope(const OpClockSource& source);
  ~OpClockScope();
  OpClockScope(const OpClockScope&) = delete;
  OpClockScope& operator=(const OpClockScope&) = delete;

 private:
  OpClockAnchor saved_;
};

}  // namespace azbench

#endif  // AZBENCH_AGENT_ENGINES_OP_CLOCK_H_
