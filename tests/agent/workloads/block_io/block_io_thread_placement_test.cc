// fio's cpus_allowed, cpus_allowed_policy, nice, prio and prioclass through the job loop: while a
// job runs, the test finds its clone threads in /proc/self/task and reads back what the kernel
// holds for them (sched_getaffinity, getpriority, ioprio_get).
#include <sched.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <future>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

struct ThreadState {
  int nice = 0;
  std::set<int> cpus;
  int ioprio = 0;
};

ThreadState ReadThread(pid_t tid) {
  ThreadState state;
  errno = 0;
  state.nice = getpriority(PRIO_PROCESS, static_cast<id_t>(tid));
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(tid, sizeof(set), &set) == 0) {
    for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
      if (CPU_ISSET(cpu, &set)) state.cpus.insert(cpu);
    }
  }
  state.ioprio = static_cast<int>(syscall(SYS_ioprio_get, 1 /*IOPRIO_WHO_PROCESS*/, tid));
  return state;
}

// The threads of this process whose nice value is `nice` (the clones: the test runs at 0).
std::vector<ThreadState> ThreadsWithNice(int nice) {
  std::vector<ThreadState> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/task")) {
    const pid_t tid = static_cast<pid_t>(std::stoi(entry.path().filename().string()));
    ThreadState state = ReadThread(tid);
    if (state.nice == nice) found.push_back(state);
  }
  return found;
}

JobSpec NullJob(int numjobs) {
  JobSpec spec;
  spec.name = "t";
  spec.filename = "/nonexistent/t";  // the null engine opens nothing
  spec.ioengine = "null";
  spec.size_bytes = 1 << 20;
  spec.numjobs = numjobs;
  spec.time_based = true;
  spec.runtime = absl::Seconds(2);
  spec.rate_iops = {1000, 0};  // keep the clones from taking the CPUs the test needs
  return spec;
}

// Runs `spec` and returns the clone threads (marked by nice=7) seen half-way through.
std::vector<ThreadState> ClonesWhileRunning(JobSpec spec) {
  spec.placement.nice = 7;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return {};
  std::future<absl::StatusOr<JobResult>> run =
      std::async(std::launch::async, [&] { return (*job)->Run(RunControl{}); });
  std::this_thread::sleep_for(std::chrono::seconds(1));
  std::vector<ThreadState> clones = ThreadsWithNice(7);
  absl::StatusOr<JobResult> result = run.get();
  EXPECT_TRUE(result.ok()) << result.status();
  if (result.ok()) {
    EXPECT_TRUE(result->error_message.empty()) << result->error_message;
  }
  return clones;
}

TEST(BlockIoThreadPlacementTest, ClonesRunWithTheJobsNiceAffinityAndIoPriority) {
  JobSpec spec = NullJob(2);
  spec.placement.cpus = {0};
  spec.placement.ioprio_level = 6;
  spec.placement.ioprio_class = 3;  // idle: allowed without privileges
  std::vector<ThreadState> clones = ClonesWhileRunning(spec);
  ASSERT_EQ(clones.size(), 2u);
  for (const ThreadState& clone : clones) {
    EXPECT_EQ(clone.cpus, std::set<int>{0});
    EXPECT_EQ(clone.ioprio, (3 << 13) | 6);
  }
  // The test's own thread is untouched.
  EXPECT_EQ(getpriority(PRIO_PROCESS, 0), 0);
}

TEST(BlockIoThreadPlacementTest, PrioAloneMeansBestEffortAsFio) {
  JobSpec spec = NullJob(1);
  spec.placement.ioprio_level = 5;
  std::vector<ThreadState> clones = ClonesWhileRunning(spec);
  ASSERT_EQ(clones.size(), 1u);
  EXPECT_EQ(clones[0].ioprio, (2 << 13) | 5);
}

TEST(BlockIoThreadPlacementTest, SplitPolicyGivesEachCloneOneCpuInTurn) {
  if (sysconf(_SC_NPROCESSORS_ONLN) < 2) GTEST_SKIP() << "needs 2 CPUs";
  JobSpec spec = NullJob(3);
  spec.placement.cpus = {0, 1};
  spec.placement.split = true;
  std::vector<ThreadState> clones = ClonesWhileRunning(spec);
  ASSERT_EQ(clones.size(), 3u);
  std::multiset<int> cpus;
  for (const ThreadState& clone : clones) {
    ASSERT_EQ(clone.cpus.size(), 1u);
    cpus.insert(*clone.cpus.begin());
  }
  EXPECT_EQ(cpus, (std::multiset<int>{0, 0, 1}));
}

TEST(BlockIoThreadPlacementTest, OptionsParseAsFio) {
  JobSpec spec;
  ASSERT_TRUE(ApplyJobOption(spec, "cpus_allowed", "1,0").ok());
  EXPECT_EQ(spec.placement.cpus, (std::vector<int>{0, 1}));
  ASSERT_TRUE(ApplyJobOption(spec, "cpumask", "0x1").ok());
  EXPECT_EQ(spec.placement.cpus, (std::vector<int>{0}));
  ASSERT_TRUE(ApplyJobOption(spec, "cpus_allowed_policy", "split").ok());
  EXPECT_TRUE(spec.placement.split);
  ASSERT_TRUE(ApplyJobOption(spec, "nice", "-3").ok());
  EXPECT_EQ(spec.placement.nice, -3);
  ASSERT_TRUE(ApplyJobOption(spec, "prioclass", "1").ok());
  EXPECT_EQ(spec.placement.ioprio_class, 1);
  // fio's limits (fio 3.33 refuses the same values).
  EXPECT_FALSE(ApplyJobOption(spec, "prio", "8").ok());
  EXPECT_FALSE(ApplyJobOption(spec, "nice", "20").ok());
  EXPECT_FALSE(ApplyJobOption(spec, "prioclass", "4").ok());
  const absl::Status too_large = ApplyJobOption(spec, "cpus_allowed", "4096");
  EXPECT_EQ(too_large.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(too_large.message().find("CPU 4096 is not on this host"), std::string::npos)
      << too_large.message();
  EXPECT_FALSE(ApplyJobOption(spec, "cpus_allowed", "3-1").ok());
  EXPECT_FALSE(ApplyJobOption(spec, "cpumask", "0").ok());
}

}  // namespace
}  // namespace azbench
