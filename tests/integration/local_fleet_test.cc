// The embedded local fleet's work root: a coordinator killed by SIGKILL cannot remove it, so the
// next local fleet does, and never one whose coordinator still runs. Real azbench and
// azbench-agent processes; the roots live under a TMPDIR that the test makes.
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "coordinator/fleet/stale_work_roots.h"
#include "gtest/gtest.h"
#include "tests/testing/scoped_env.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::Subprocess;
using testing::TempDir;

constexpr char kPrefix[] = "azbench-local-fleet-";

std::vector<std::string> Roots(const std::string& parent) {
  std::vector<std::string> roots;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(parent, ec)) {
    if (absl::StartsWith(e.path().filename().string(), kPrefix)) roots.push_back(e.path());
  }
  return roots;
}

// Sets an environment variable for the test's lifetime (children inherit it).
using testing::ScopedEnv;

// A pid and start time that belonged to a process that has exited.
std::pair<pid_t, unsigned long long> DeadProcess() {
  int pipe_fds[2];
  EXPECT_EQ(pipe(pipe_fds), 0);
  const pid_t child = fork();
  if (child == 0) {
    char byte;
    close(pipe_fds[1]);
    (void)!read(pipe_fds[0], &byte, 1);
    _exit(0);
  }
  close(pipe_fds[0]);
  const std::optional<unsigned long long> start = ProcessStartTime(child);
  close(pipe_fds[1]);
  waitpid(child, nullptr, 0);
  EXPECT_TRUE(start.has_value());
  EXPECT_FALSE(ProcessStartTime(child).has_value()) << "reaped";
  return {child, start.value_or(0)};
}

void MakeRoot(const std::string& path, const std::string& owner_line) {
  fs::create_directories(path + "/agent-1");
  std::ofstream(path + "/agent-1/job.0.0") << std::string(4096, 'x');
  if (!owner_line.empty()) std::ofstream(path + "/owner") << owner_line;
}

TEST(StaleWorkRootsTest, OnlyRootsWhoseOwnerIsGoneAreRemoved) {
  TempDir parent;
  ASSERT_TRUE(parent.ok());
  const auto [dead_pid, dead_start] = DeadProcess();
  const std::optional<unsigned long long> my_start = ProcessStartTime(getpid());
  ASSERT_TRUE(my_start.has_value());
  const std::string dead = parent.File(absl::StrCat(kPrefix, "dead"));
  const std::string reused = parent.File(absl::StrCat(kPrefix, "reused"));
  const std::string alive = parent.File(absl::StrCat(kPrefix, "alive"));
  const std::string unowned = parent.File(absl::StrCat(kPrefix, "unowned"));
  const std::string other = parent.File("someone-else");
  MakeRoot(dead, absl::StrCat(dead_pid, " ", dead_start, "\n"));
  // This process's pid with another start time: the pid was reused, the owner is gone.
  MakeRoot(reused, absl::StrCat(getpid(), " ", *my_start + 1, "\n"));
  MakeRoot(alive, absl::StrCat(getpid(), " ", *my_start, "\n"));
  MakeRoot(unowned, "");
  MakeRoot(other, absl::StrCat(dead_pid, " ", dead_start, "\n"));

  std::vector<std::string> removed = RemoveStaleWorkRoots(parent.path(), kPrefix);
  std::sort(removed.begin(), removed.end());
  EXPECT_EQ(removed, (std::vector<std::string>{dead, reused}));
  EXPECT_FALSE(fs::exists(dead));
  EXPECT_FALSE(fs::exists(reused));
  EXPECT_TRUE(fs::exists(alive + "/agent-1/job.0.0"));
  EXPECT_TRUE(fs::exists(unowned + "/agent-1/job.0.0")) << "no owner file: not ours to judge";
  EXPECT_TRUE(fs::exists(other + "/agent-1/job.0.0")) << "another prefix";
}

TEST(StaleWorkRootsTest, TheOwnerFileNamesThisProcess) {
  TempDir root;
  ASSERT_TRUE(root.ok());
  ASSERT_TRUE(WriteOwnerFile(root.path()).ok());
  std::ifstream in(root.File("owner"));
  long long pid = 0;
  unsigned long long start = 0;
  ASSERT_TRUE(in >> pid >> start);
  EXPECT_EQ(pid, getpid());
  EXPECT_EQ(start, ProcessStartTime(getpid()).value());
}

TEST(LocalFleetRootTest, ARootLeftByAKilledCoordinatorIsRemovedByTheNextRun) {
  TempDir tmp;
  TempDir data("/dev/shm");
  ASSERT_TRUE(tmp.ok());
  ASSERT_TRUE(data.ok());
  ScopedEnv tmpdir("TMPDIR", tmp.path());
  const std::vector<std::string> job = {"--name=j",  "--rw=randread", "--bs=4k",
                                        "--size=1m", "--time_based",  "--runtime=60s"};
  {
    std::vector<std::string> args = {AZBENCH_BIN, "run",  "--local",
                                     "1",         "--db", tmp.File("a.db"),
                                     "--quiet",   "--",   "--directory=" + data.path()};
    args.insert(args.end(), job.begin(), job.end());
    Subprocess killed(args, tmp.File("killed.txt"));
    // Wait until the agent is running the job (its file is laid out), then kill the coordinator.
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline &&
           (Roots(tmp.path()).empty() || fs::is_empty(data.path()))) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ASSERT_EQ(Roots(tmp.path()).size(), 1u);
    ASSERT_FALSE(fs::is_empty(data.path()));
    killed.Signal(SIGKILL);
    ASSERT_NE(killed.Wait(std::chrono::seconds(10)), -1);
  }
  const std::vector<std::string> left = Roots(tmp.path());
  ASSERT_EQ(left.size(), 1u) << "a SIGKILLed coordinator cannot remove its root";

  std::vector<std::string> args = {AZBENCH_BIN,    "run",
                                   "--local",      "1",
                                   "--db",         tmp.File("b.db"),
                                   "--",           "--directory=" + data.path(),
                                   "--name=j",     "--rw=randread",
                                   "--bs=4k",      "--size=1m",
                                   "--runtime=1s", "--time_based"};
  Subprocess next(args, tmp.File("next.txt"));
  ASSERT_EQ(next.Wait(std::chrono::seconds(120)), 0);
  std::ifstream out(tmp.File("next.txt"));
  const std::string output((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  EXPECT_NE(output.find(absl::StrCat("removed ", left[0])), std::string::npos) << output;
  EXPECT_FALSE(fs::exists(left[0]));
  EXPECT_TRUE(Roots(tmp.path()).empty()) << "the second run removed its own root too";
}

}  // namespace
}  // namespace azbench
