#include "coordinator/lab/lab_system.h"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <thread>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"

namespace azbench {
namespace {

// argv as execv wants it; built before fork, since the child may only exec.
std::vector<char*> Argv(const std::vector<std::string>& argv) {
  std::vector<char*> out;
  for (const std::string& a : argv) out.push_back(const_cast<char*>(a.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace

absl::StatusOr<std::string> RunLabCommand(const std::vector<std::string>& argv) {
  int pipe_fds[2];
  if (pipe2(pipe_fds, O_CLOEXEC) != 0) return absl::InternalError("pipe failed");
  std::vector<char*> args = Argv(argv);
  const pid_t pid = fork();
  if (pid < 0) {
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  }
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    execv(args[0], args.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string output;
  char buf[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], buf, sizeof(buf))) > 0) output.append(buf, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return absl::InternalError(
        absl::StrCat("`", absl::StrJoin(argv, " "), "` failed: ", output.empty() ? "" : output,
                     WIFEXITED(status) ? absl::StrCat("exit status ", WEXITSTATUS(status))
                                       : absl::StrCat("signal ", WTERMSIG(status))));
  }
  return output;
}

absl::Status Ip(std::vector<std::string> args) {
  args.insert(args.begin(), kLabIpBinary);
  return RunLabCommand(args).status();
}

absl::StatusOr<pid_t> SpawnDetached(const std::vector<std::string>& argv,
                                    const std::string& log_path) {
  std::vector<char*> args = Argv(argv);
  const pid_t pid = fork();
  if (pid < 0) return absl::InternalError(absl::StrCat("fork: ", strerror(errno)));
  if (pid == 0) {
    setsid();
    const int log_fd = open(log_path.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    const int null_fd = open("/dev/null", O_RDONLY);
    if (log_fd >= 0) {
      dup2(log_fd, STDOUT_FILENO);
      dup2(log_fd, STDERR_FILENO);
    }
    if (null_fd >= 0) dup2(null_fd, STDIN_FILENO);
    // Nothing of this process's descriptors (the lab lock) may live on in the child.
    for (int fd = 3; fd < 1024; ++fd) close(fd);
    execv(args[0], args.data());
    _exit(127);
  }
  return pid;
}

std::vector<std::string> ListNamespaces(const std::string& prefix) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/run/netns", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(prefix, 0) == 0) names.push_back(name);
  }
  return names;
}

void RemoveNamespace(const std::string& name) {
  if (!std::filesystem::exists("/run/netns/" + name)) return;
  for (int i = 0; i < 100; ++i) {
    absl::StatusOr<std::string> pids = RunLabCommand({kLabIpBinary, "netns", "pids", name});
    bool any = false;
    if (pids.ok()) {
      for (absl::string_view line : absl::StrSplit(*pids, '\n', absl::SkipWhitespace())) {
        int pid = 0;
        if (absl::SimpleAtoi(line, &pid) && pid > 1) {
          kill(pid, SIGKILL);
          any = true;
        }
      }
    }
    if (!any) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  (void)RunLabCommand({kLabIpBinary, "netns", "del", name});
}

absl::Status InNamespace(const std::string& name, const std::function<void()>& fn) {
  absl::Status status;
  std::thread([&] {
    const int target = open(("/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC);
    if (target < 0 || setns(target, CLONE_NEWNET) != 0) {
      status = absl::InternalError(
          absl::StrCat("cannot enter network namespace ", name, ": ", strerror(errno)));
    } else {
      fn();
    }
    if (target >= 0) close(target);
  }).join();
  return status;
}

}  // namespace azbench
