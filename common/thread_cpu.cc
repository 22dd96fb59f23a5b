#include "common/thread_cpu.h"

#include <sys/resource.h>
#include <sys/time.h>

#include "common/clock.h"

namespace azbench {

namespace {

uint64_t TimevalNanos(const timeval& tv) {
  return static_cast<uint64_t>(tv.tv_sec) * 1'000'000'000ULL +
         static_cast<uint64_t>(tv.tv_usec) * 1'000ULL;
}

uint64_t Grown(uint64_t start, uint64_t end) { return end > start ? end - start : 0; }

}  // namespace

ThreadCpuSample SampleThreadCpu() {
  ThreadCpuSample sample;
  rusage usage{};
  // RUSAGE_THREAD cannot fail for the calling thread; if it ever did, the counters stay 0 and the
  // window reads as no CPU rather than garbage.
  if (getrusage(RUSAGE_THREAD, &usage) == 0) {
    sample.user_ns = TimevalNanos(usage.ru_utime);
    sample.system_ns = TimevalNanos(usage.ru_stime);
    sample.voluntary_switches = static_cast<uint64_t>(usage.ru_nvcsw);
    sample.involuntary_switches = static_cast<uint64_t>(usage.ru_nivcsw);
    sample.minor_faults = static_cast<uint64_t>(usage.ru_minflt);
    sample.major_faults = static_cast<uint64_t>(usage.ru_majflt);
  }
  sample.monotonic_ns = MonotonicNanos();
  return sample;
}

CpuUsage CpuUsageBetween(const ThreadCpuSample& start, const ThreadCpuSample& end) {
  CpuUsage usage;
  usage.threads = 1;
  usage.wall_ns = Grown(start.monotonic_ns, end.monotonic_ns);
  usage.user_ns = Grown(start.user_ns, end.user_ns);
  usage.system_ns = Grown(start.system_ns, end.system_ns);
  usage.voluntary_switches = Grown(start.voluntary_switches, end.voluntary_switches);
  usage.involuntary_switches = Grown(start.involuntary_switches, end.involuntary_switches);
  usage.minor_faults = Grown(start.minor_faults, end.minor_faults);
  usage.major_faults = Grown(start.major_faults, end.major_faults);
  return usage;
}

}  // namespace azbench
