#include "common/thread_cpu.h"

#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <thread>

#include "gtest/gtest.h"

namespace azbench {
namespace {

uint64_t ThreadCpuNanos() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1'000'000'000ULL + static_cast<uint64_t>(ts.tv_nsec);
}

// A getrusage reading of the running thread may lag its exact runtime by up to one scheduler tick
// (10 ms at HZ=100, the coarsest Linux has), so a difference of two readings is good to one tick.
constexpr uint64_t kTickNs = 10'000'000;

TEST(CpuUsageBetweenTest, IsTheDifferenceOfEachCounterForOneThread) {
  ThreadCpuSample start{.monotonic_ns = 1'000,
                        .user_ns = 10,
                        .system_ns = 20,
                        .voluntary_switches = 3,
                        .involuntary_switches = 4,
                        .minor_faults = 5,
                        .major_faults = 6};
  ThreadCpuSample end{.monotonic_ns = 11'000,
                      .user_ns = 4'010,
                      .system_ns = 1'020,
                      .voluntary_switches = 13,
                      .involuntary_switches = 5,
                      .minor_faults = 105,
                      .major_faults = 6};
  const CpuUsage usage = CpuUsageBetween(start, end);
  EXPECT_EQ(usage.threads, 1u);
  EXPECT_EQ(usage.wall_ns, 10'000u);
  EXPECT_EQ(usage.user_ns, 4'000u);
  EXPECT_EQ(usage.system_ns, 1'000u);
  EXPECT_EQ(usage.voluntary_switches, 10u);
  EXPECT_EQ(usage.involuntary_switches, 1u);
  EXPECT_EQ(usage.minor_faults, 100u);
  EXPECT_EQ(usage.major_faults, 0u);
  EXPECT_DOUBLE_EQ(usage.UserPercent(), 40.0);
  EXPECT_DOUBLE_EQ(usage.SystemPercent(), 10.0);
  EXPECT_EQ(usage.ContextSwitches(), 11u);
}

TEST(CpuUsageBetweenTest, ACounterThatWentBackwardsCountsZeroNotAWrappedHugeValue) {
  ThreadCpuSample start{.monotonic_ns = 100, .user_ns = 50};
  ThreadCpuSample end{.monotonic_ns = 90, .user_ns = 40};
  const CpuUsage usage = CpuUsageBetween(start, end);
  EXPECT_EQ(usage.wall_ns, 0u);
  EXPECT_EQ(usage.user_ns, 0u);
  EXPECT_DOUBLE_EQ(usage.UserPercent(), 0.0) << "no division by a zero wall time";
}

TEST(CpuUsageTest, MergeSumsEveryFieldAndPercentIsTheAverageOverThreads) {
  CpuUsage a{.threads = 1, .wall_ns = 1'000, .user_ns = 1'000, .system_ns = 0};  // one busy thread
  CpuUsage b{.threads = 1, .wall_ns = 1'000, .user_ns = 0, .system_ns = 500};
  a.Merge(b);
  EXPECT_EQ(a.threads, 2u);
  EXPECT_EQ(a.wall_ns, 2'000u);
  EXPECT_DOUBLE_EQ(a.UserPercent(), 50.0);
  EXPECT_DOUBLE_EQ(a.SystemPercent(), 25.0);
  EXPECT_FALSE(CpuUsage{}.measured());
  EXPECT_TRUE(a.measured());
}

TEST(ThreadCpuWindowTest, ABusyThreadsCpuIsItsOwnRuntimeAndNoMoreThanTheWindow) {
  CpuUsage usage;
  uint64_t spun_ns = 0;
  std::thread worker([&] {
    ThreadCpuWindow window;
    const uint64_t cpu_start = ThreadCpuNanos();
    volatile uint64_t sink = 0;
    // 50 ms of this thread's own CPU, nearly all in user mode: reading the thread's clock is a
    // system call, so it is read only every 100000 additions (every 1000, under ASan the ticks
    // that split runtime into user and system could all land in the kernel: user 0).
    while (ThreadCpuNanos() - cpu_start < 50'000'000) {
      for (int i = 0; i < 100'000; ++i) sink = sink + static_cast<uint64_t>(i);
    }
    spun_ns = ThreadCpuNanos() - cpu_start;
    usage = window.Close();
  });
  worker.join();
  EXPECT_EQ(usage.threads, 1u);
  const uint64_t cpu_ns = usage.user_ns + usage.system_ns;
  // The kernel's user + system of a thread is its runtime (split by ticks): what the thread
  // measured of itself inside the window, and never more than the window's wall time (one thread
  // runs on one CPU at a time), both to one tick.
  EXPECT_GE(cpu_ns + kTickNs, spun_ns);
  EXPECT_LE(cpu_ns, usage.wall_ns + kTickNs);
  EXPECT_GT(usage.user_ns, 0u) << "a spin loop runs in user mode";
}

TEST(ThreadCpuWindowTest, CountsOnlyTheCallingThread) {
  CpuUsage usage;
  std::thread idle([&] {
    ThreadCpuWindow window;
    std::thread busy([] {
      const uint64_t start = ThreadCpuNanos();
      volatile uint64_t sink = 0;
      while (ThreadCpuNanos() - start < 60'000'000) sink = sink + 1;
    });
    busy.join();  // sleeps in the kernel until the busy thread ends
    usage = window.Close();
  });
  idle.join();
  EXPECT_LT(usage.user_ns + usage.system_ns, 2 * kTickNs)
      << "60 ms of another thread's CPU must not be counted";
  EXPECT_GE(usage.voluntary_switches, 1u) << "the join slept";
}

TEST(ThreadCpuWindowTest, CountsThePageFaultsOfMemoryTouchedInTheWindow) {
  constexpr size_t kPages = 256;
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  void* memory =
      mmap(nullptr, kPages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  ASSERT_NE(memory, MAP_FAILED);
  ThreadCpuWindow window;
  for (size_t i = 0; i < kPages; ++i) static_cast<volatile char*>(memory)[i * page] = 1;
  const CpuUsage usage = window.Close();
  munmap(memory, kPages * page);
  // Fresh anonymous pages fault in one by one (1 MiB cannot hold a transparent huge page).
  EXPECT_GE(usage.minor_faults, kPages);
  EXPECT_EQ(usage.major_faults, 0u);
}

TEST(ThreadCpuWindowTest, RestartDropsWhatCameBefore) {
  CpuUsage usage;
  std::thread worker([&] {
    ThreadCpuWindow window;
    const uint64_t start = ThreadCpuNanos();
    volatile uint64_t sink = 0;
    while (ThreadCpuNanos() - start < 60'000'000) sink = sink + 1;  // the "ramp"
    window.Restart();
    usage = window.Close();
  });
  worker.join();
  EXPECT_LT(usage.user_ns + usage.system_ns, 2 * kTickNs);
}

}  // namespace
}  // namespace azbench
