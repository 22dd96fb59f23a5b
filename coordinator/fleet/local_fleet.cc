#include "coordinator/fleet/local_fleet.h"

#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/errno_text.h"
#include "common/status_macros.h"
#include "coordinator/fleet/stale_work_roots.h"

namespace azbench {

namespace fs = std::filesystem;

absl::StatusOr<std::string> FindAgentBinary() {
  std::vector<std::string> tried;
  if (const char* env = getenv("AZBENCH_AGENT_BIN"); env != nullptr && *env != '\0') {
    // Asked for by name: another binary found elsewhere is not what the user wants to run.
    std::error_code ec;
    const int err = access(env, X_OK) != 0 ? errno : fs::is_directory(env, ec) ? EISDIR : 0;
    if (err != 0) {
      return absl::NotFoundError(
          absl::StrCat("$AZBENCH_AGENT_BIN is '", env, "', not an executable file (",
                       ErrnoText(err), "); unset it to use the azbench-agent beside azbench"));
    }
    return std::string(env);
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  std::vector<fs::path> candidates;
  if (!ec) {
    candidates.push_back(self.parent_path() / "azbench-agent");
    candidates.push_back(self.parent_path().parent_path() / "agent" / "azbench-agent");
  }
  candidates.push_back("/usr/bin/azbench-agent");
  for (const auto& c : candidates) {
    if (access(c.c_str(), X_OK) == 0) return c.string();
    tried.push_back(c.string());
  }
  return absl::NotFoundError(
      absl::StrCat("cannot find the azbench-agent binary; tried: ", absl::StrJoin(tried, ", ")));
}

namespace {

constexpr char kWorkRootPrefix[] = "azbench-local-fleet-";

std::string TailOfFile(const std::string& path, size_t max_bytes = 2000) {
  std::ifstream in(path);
  std::stringstream buf;
  buf << in.rdbuf();
  std::string s = buf.str();
  return s.size() > max_bytes ? s.substr(s.size() - max_bytes) : s;
}

}  // namespace

absl::StatusOr<std::unique_ptr<LocalFleet>> LocalFleet::Start(const LocalFleetOptions& options) {
  if (options.agents < 1 || options.agents > kMaxLocalFleetAgents) {
    return absl::InvalidArgumentError(absl::StrCat("local fleet: agents must be 1..",
                                                   kMaxLocalFleetAgents, ", got ", options.agents));
  }
  if (options.azs.empty()) return absl::InvalidArgumentError("local fleet: azs must not be empty");
  std::string binary = options.agent_binary;
  if (binary.empty()) {
    absl::StatusOr<std::string> found = FindAgentBinary();
    if (!found.ok()) return found.status();
    binary = *found;
  }
  std::unique_ptr<LocalFleet> fleet(new LocalFleet());
  if (options.work_root.empty()) {
    const char* tmp = getenv("TMPDIR");
    const std::string parent = tmp != nullptr && *tmp ? tmp : "/var/tmp";
    fleet->stale_roots_removed_ = RemoveStaleWorkRoots(parent, kWorkRootPrefix);
    std::string pattern = absl::StrCat(parent, "/", kWorkRootPrefix, "XXXXXX");
    if (mkdtemp(pattern.data()) == nullptr) {
      return ErrnoStatus(errno, absl::StrCat("cannot create '", pattern, "'"));
    }
    fleet->work_root_ = pattern;
    fleet->owns_work_root_ = true;
    RETURN_IF_ERROR(WriteOwnerFile(pattern));  // the fleet's destructor removes the root
  } else {
    fleet->work_root_ = options.work_root;
    std::error_code ec;
    fs::create_directories(options.work_root, ec);
  }

  for (int i = 0; i < options.agents; ++i) {
    Agent agent;
    agent.work_dir = absl::StrCat(fleet->work_root_, "/agent-", i + 1);
    std::error_code ec;
    fs::create_directories(agent.work_dir, ec);
    for (const auto& dir : options.target_dirs)
      fs::create_directories(fs::path(agent.work_dir) / dir, ec);
    const std::string port_file = agent.work_dir + "/port";
    const std::string log_file = agent.work_dir + "/agent.log";
    fs::remove(port_file, ec);
    std::vector<std::string> args = {
        binary, "serve", "--listen=127.0.0.1:0", "--port-file=" + port_file,
        absl::StrCat("--agent-id=local-", i + 1), "--az=" + options.azs[i % options.azs.size()],
        "--region=local", "--log-level=" + options.log_level,
        // Simulated AZs: this machine's instance metadata (if any)
        // describes none of them, so it is not asked.
        "--imds=disabled", "--insecure-loopback-only", "--allowed-root=" + agent.work_dir};
    for (const std::string& root : options.allowed_roots) {
      args.push_back("--allowed-root=" + root);
    }
    for (const std::string& server : options.allowed_nfs_servers) {
      args.push_back("--allowed-nfs-server=" + server);
    }
    if (options.reattach_grace.has_value()) {
      args.push_back(
          absl::StrCat("--reattach-grace-ms=", absl::ToInt64Milliseconds(*options.reattach_grace)));
    }
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    std::vector<std::string> env_entries;  // built before fork: the child may only exec
    if (static_cast<size_t>(i) < options.agent_env.size()) env_entries = options.agent_env[i];
    std::vector<char*> envp;
    for (auto& e : env_entries) envp.push_back(e.data());  // first: getenv takes the first match
    for (char** e = environ; *e != nullptr; ++e) envp.push_back(*e);
    envp.push_back(nullptr);
    const pid_t parent = getpid();
    const pid_t pid = fork();
    if (pid < 0) return ErrnoStatus(errno, "fork");
    if (pid == 0) {
      // Child: only async-signal-safe calls until exec.
      prctl(PR_SET_PDEATHSIG, SIGTERM);
      if (getppid() != parent) _exit(127);
      if (chdir(agent.work_dir.c_str()) != 0) _exit(127);
      const int log = open(log_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
      if (log >= 0) {
        dup2(log, STDOUT_FILENO);
        dup2(log, STDERR_FILENO);
      }
      execve(argv[0], argv.data(), envp.data());
      _exit(127);
    }
    agent.pid = pid;
    fleet->agents_.push_back(agent);
  }
  // Wait for every agent to write its port.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(15);
  for (Agent& agent : fleet->agents_) {
    const std::string port_file = agent.work_dir + "/port";
    while (agent.port == 0) {
      std::ifstream in(port_file);
      if (in >> agent.port && agent.port > 0) break;
      agent.port = 0;
      int status = 0;
      if (waitpid(agent.pid, &status, WNOHANG) == agent.pid) {
        agent.pid = -1;
        return absl::InternalError(absl::StrCat("local agent in ", agent.work_dir,
                                                " exited before listening; its log:\n",
                                                TailOfFile(agent.work_dir + "/agent.log")));
      }
      if (std::chrono::steady_clock::now() > deadline) {
        return absl::InternalError(absl::StrCat("local agent in ", agent.work_dir,
                                                " did not listen within 15 s; its log:\n",
                                                TailOfFile(agent.work_dir + "/agent.log")));
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  return fleet;
}

std::vector<std::string> LocalFleet::addresses() const {
  std::vector<std::string> out;
  for (const auto& a : agents_) out.push_back(absl::StrCat("127.0.0.1:", a.port));
  return out;
}

void LocalFleet::Stop() {
  for (Agent& a : agents_) {
    if (a.pid > 0) kill(a.pid, SIGTERM);
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (Agent& a : agents_) {
    while (a.pid > 0) {
      int status = 0;
      const pid_t r = waitpid(a.pid, &status, WNOHANG);
      if (r == a.pid || (r < 0 && errno == ECHILD)) {
        a.pid = -1;
        break;
      }
      if (std::chrono::steady_clock::now() > deadline) {
        kill(a.pid, SIGKILL);
        waitpid(a.pid, &status, 0);
        a.pid = -1;
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
  }
  if (owns_work_root_ && !work_root_.empty()) {
    std::error_code ec;
    fs::remove_all(work_root_, ec);
    work_root_.clear();
  }
}

LocalFleet::~LocalFleet() { Stop(); }

}  // namespace azbench
