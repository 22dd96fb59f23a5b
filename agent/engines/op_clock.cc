#include "agent/engines/op_clock.h"

#if defined(__x86_64__)
#include <cpuid.h>
#endif
#include <time.h>

#include <fstream>
#include <mutex>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace azbench {

thread_local constinit OpClockAnchor tls_op_clock_anchor;

namespace {

constexpr char kClocksourceList[] =
    "/sys/devices/system/clocksource/clocksource0/available_clocksource";
constexpr int64_t kCalibrationNs = 10'000'000;

uint64_t ReadNanos(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

// The clock reading taken between two counter reads, paired with their midpoint; the narrowest of
// a few tries, so an interrupt between the reads does not skew the pair.
ClockPair ReadPair(clockid_t clock) {
  ClockPair best;
  uint64_t best_gap = UINT64_MAX;
  for (int i = 0; i < 7; ++i) {
    const uint64_t before = ReadTicks();
    const uint64_t ns = ReadNanos(clock);
    const uint64_t after = ReadTicks();
    if (after - before < best_gap) {
      best_gap = after - before;
      best = {before + (after - before) / 2, ns};
    }
  }
  return best;
}

}  // namespace

TscSupport ProbeTscSupport() {
  TscSupport support;
#if defined(__x86_64__)
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (__get_cpuid(0x80000007, &a, &b, &c, &d) != 0) support.invariant = (d & (1u << 8)) != 0;
#endif
  std::ifstream list(kClocksourceList);
  std::string word;
  while (list >> word) {
    if (word == "tsc") support.kernel_clocksource = true;
  }
  return support;
}

absl::StatusOr<bool> ChooseTsc(ClockSource requested, const TscSupport& support) {
  const bool usable = support.invariant && support.kernel_clocksource;
  switch (requested) {
    case ClockSource::kClockGettime:
      return false;
    case ClockSource::kAuto:
      return usable;
    case ClockSource::kCpu:
      if (usable) return true;
      return absl::FailedPreconditionError(absl::StrCat(
          "clocksource=cpu: this machine's time-stamp counter cannot time ops (",
          !support.invariant ? "the CPU does not declare an invariant TSC"
                             : "the kernel does not list tsc as a usable clocksource",
          "); use clocksource=clock_gettime, or leave clocksource unset to choose automatically"));
  }
  return false;
}

absl::StatusOr<uint64_t> CalibrateNanosPerTickQ32(absl::FunctionRef<ClockPair()> read_pair,
                                                  absl::FunctionRef<void()> wait) {
  const ClockPair first = read_pair();
  wait();
  const ClockPair second = read_pair();
  if (second.ticks <= first.ticks || second.ns <= first.ns) {
    return absl::FailedPreconditionError(
        absl::StrCat("TSC calibration: the counter or the clock did not advance (ticks ",
                     first.ticks, " -> ", second.ticks, ", ns ", first.ns, " -> ", second.ns, ")"));
  }
  const unsigned __int128 ns = second.ns - first.ns;
  const uint64_t q32 = static_cast<uint64_t>((ns << 32) / (second.ticks - first.ticks));
  if (q32 == 0)
    return absl::FailedPreconditionError("TSC calibration: the counter runs above 4 THz");
  return q32;
}

std::string OpClockSource::Describe() const {
  if (!tsc) return "clock_gettime (CLOCK_MONOTONIC)";
  const double ghz = 4294967296.0 / static_cast<double>(ns_per_tick_q32);
  return absl::StrFormat("cpu (TSC at %.3f GHz)", ghz);
}

absl::StatusOr<OpClockSource> ResolveOpClock(ClockSource requested) {
  static const TscSupport support = ProbeTscSupport();
  absl::StatusOr<bool> use_tsc = ChooseTsc(requested, support);
  if (!use_tsc.ok()) return use_tsc.status();
  OpClockSource source;
  if (!*use_tsc) return source;
  static std::once_flag once;
  static absl::StatusOr<uint64_t> rate = absl::UnknownError("not calibrated");
  std::call_once(once, [] {
    rate = CalibrateNanosPerTickQ32([] { return ReadPair(CLOCK_MONOTONIC_RAW); },
                                    [] {
                                      const timespec ts{0, kCalibrationNs};
                                      nanosleep(&ts, nullptr);
                                    });
  });
  if (!rate.ok()) {
    if (requested == ClockSource::kCpu) return rate.status();
    return source;  // auto: fall back to clock_gettime
  }
  source.tsc = true;
  source.ns_per_tick_q32 = *rate;
  return source;
}

OpClockScope::OpClockScope(const OpClockSource& source) : saved_(tls_op_clock_anchor) {
  OpClockAnchor anchor;
  if (source.tsc) {
    const ClockPair pair = ReadPair(CLOCK_MONOTONIC);
    anchor = {.tsc = true,
              .ticks0 = pair.ticks,
              .ns0 = pair.ns,
              .ns_per_tick_q32 = source.ns_per_tick_q32,
              .last_ns = pair.ns};
  }
  tls_op_clock_anchor = anchor;
}

OpClockScope::~OpClockScope() { tls_op_clock_anchor = saved_; }

}  // namespace azbench
