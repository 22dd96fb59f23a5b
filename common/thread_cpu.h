// CPU accounting of one thread, as fio's `cpu : usr=..., sys=..., ctx=..., majf=..., minf=...`.
//
// A job thread samples itself when its measured phase begins and when it ends; the difference is
// a one-thread CpuUsage (common/job_result.h), and a job's usage is the sum over its threads.
//
//   ThreadCpuWindow window;                    // on the job's thread, at the measured start
//   ... the measured ops ...
//   result.cpu.Merge(window.Close());          // on the same thread, at the end
//
// getrusage(RUSAGE_THREAD) costs ~0.3 us, twice per thread per job: nothing on the op path.
// Resolution: user + system is the thread's runtime as the scheduler last accounted it (a reading
// may lag by up to one tick, 1-10 ms), split between the two modes in proportion to the ticks
// spent in each, in microseconds. Over a job's seconds that is well under 1%; a window of a few
// milliseconds is good to about one tick.
#ifndef AZBENCH_COMMON_THREAD_CPU_H_
#define AZBENCH_COMMON_THREAD_CPU_H_

#include <cstdint>

#include "common/job_result.h"

namespace azbench {

// The calling thread's counters at one instant.
struct ThreadCpuSample {
  uint64_t monotonic_ns = 0;
  uint64_t user_ns = 0;
  uint64_t system_ns = 0;
  uint64_t voluntary_switches = 0;
  uint64_t involuntary_switches = 0;
  uint64_t minor_faults = 0;
  uint64_t major_faults = 0;
};

// getrusage(RUSAGE_THREAD) and CLOCK_MONOTONIC of the calling thread.
ThreadCpuSample SampleThreadCpu();

// What one thread used between two of its samples (`end` taken after `start`): threads = 1, each
// counter the difference (0 where a counter did not grow).
CpuUsage CpuUsageBetween(const ThreadCpuSample& start, const ThreadCpuSample& end);

// A window opened on one thread and closed on the same thread.
class ThreadCpuWindow {
 public:
  ThreadCpuWindow() : start_(SampleThreadCpu()) {}
  // Moves the start to now (a ramp that ended: its CPU does not count).
  void Restart() { start_ = SampleThreadCpu(); }
  CpuUsage Close() const { return CpuUsageBetween(start_, SampleThreadCpu()); }

 private:
  ThreadCpuSample start_;
};

}  // namespace azbench

#endif  // AZBENCH_COMMON_THREAD_CPU_H_
