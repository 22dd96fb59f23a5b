// Test helper: a small multi-AZ network on this machine. One network namespace per simulated AZ,
// each joined by a veth pair to a bridge in the root namespace; the bridge holds the gateway
// address of every AZ's subnet, so the root namespace (the coordinator) routes to every AZ and
// each AZ has a default route through the bridge. Names carry the process id; the subnets are the
// test's own, so topologies are built one at a time (an exclusive flock); the destructor removes
// the namespaces, links and /etc/netns files even when the test failed. Needs root (CAP_NET_ADMIN
// and CAP_SYS_ADMIN): `error()` says why when it cannot.
//
//   NetnsTopology net({{"az-a", "198.18.1"}, {"az-b", "198.18.2"}});
//   if (!net.ok()) GTEST_SKIP() << net.error();
//   net.namespace_name(0);   // for `ip netns exec`
//   net.agent_address(0);    // "198.18.1.2"
#ifndef AZBENCH_TESTS_TESTING_NETNS_H_
#define AZBENCH_TESTS_TESTING_NETNS_H_

#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <vector>

#include "tests/testing/dependencies.h"

namespace azbench::testing {

// Runs a command (no shell); returns its exit code and its output in *output.
inline int RunCommand(const std::vector<std::string>& args, std::string* output = nullptr) {
  int pipe_fds[2];
  if (pipe(pipe_fds) != 0) return -1;
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(pipe_fds[1], STDOUT_FILENO);
    dup2(pipe_fds[1], STDERR_FILENO);
    close(pipe_fds[0]);
    close(pipe_fds[1]);
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(pipe_fds[1]);
  std::string text;
  char buf[4096];
  ssize_t n;
  while ((n = read(pipe_fds[0], buf, sizeof(buf))) > 0) text.append(buf, static_cast<size_t>(n));
  close(pipe_fds[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (output != nullptr) *output = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

struct SimulatedAz {
  std::string name;         // e.g. "az-a"
  std::string subnet_base;  // first three octets, e.g. "198.18.1": subnet <base>.0/24
  // /etc/hosts lines seen by processes started with `ip netns exec` in this AZ.
  std::vector<std::string> hosts;
};

class NetnsTopology {
 public:
  explicit NetnsTopology(std::vector<SimulatedAz> azs) : azs_(std::move(azs)) {
    // The subnets are fixed and the routes live in the root namespace: two topologies at once
    // (ctest -j) would route the same subnet to two bridges. One at a time, machine-wide.
    lock_fd_ = open("/var/tmp/azbench-netns-test.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (lock_fd_ >= 0) flock(lock_fd_, LOCK_EX);
    if (geteuid() != 0) {
      error_ = "network namespaces need root (CAP_NET_ADMIN); this test runs as uid " +
               std::to_string(geteuid());
      return;
    }
    if (std::string missing = MissingDependency("ip (iproute2)", kIpBinary); !missing.empty()) {
      error_ = std::move(missing);
      return;
    }
    const std::string tag = std::to_string(getpid() % 100000);
    bridge_ = "azb" + tag + "br";
    if (!Ip({"link", "add", bridge_, "type", "bridge"})) return;
    created_bridge_ = true;
    if (!Ip({"link", "set", bridge_, "up"})) return;
    for (size_t i = 0; i < azs_.size(); ++i) {
      const SimulatedAz& az = azs_[i];
      const std::string ns = "azbench-" + tag + "-" + std::to_string(i);
      const std::string host_end = "azb" + tag + "h" + std::to_string(i);
      const std::string ns_end = "azb" + tag + "n" + std::to_string(i);
      if (!Ip({"netns", "add", ns})) return;
      namespaces_.push_back(ns);
      if (!Ip({"link", "add", host_end, "type", "veth", "peer", "name", ns_end})) return;
      links_.push_back(host_end);
      if (!Ip({"link", "set", ns_end, "netns", ns}) ||
          !Ip({"link", "set", host_end, "master", bridge_}) ||
          !Ip({"link", "set", host_end, "up"}) ||
          !Ip({"addr", "add", az.subnet_base + ".1/24", "dev", bridge_}) ||
          !Ip({"-n", ns, "link", "set", "lo", "up"}) ||
          !Ip({"-n", ns, "addr", "add", az.subnet_base + ".2/24", "dev", ns_end}) ||
          !Ip({"-n", ns, "link", "set", ns_end, "up"}) ||
          !Ip({"-n", ns, "route", "add", "default", "via", az.subnet_base + ".1"})) {
        return;
      }
      // `ip netns exec` bind-mounts /etc/netns/<ns>/hosts over /etc/hosts.
      const std::filesystem::path etc = std::filesystem::path("/etc/netns") / ns;
      std::error_code ec;
      std::filesystem::create_directories(etc, ec);
      etc_dirs_.push_back(etc.string());
      std::ofstream hosts(etc / "hosts");
      hosts << "127.0.0.1 localhost\n";
      for (const std::string& line : az.hosts) hosts << line << "\n";
      if (!hosts) {
        error_ = "cannot write " + (etc / "hosts").string();
        return;
      }
    }
    ok_ = true;
  }

  ~NetnsTopology() {
    // Deleting a namespace deletes the veth end inside it and with it the pair; the host ends and
    // the bridge are removed explicitly in case setup stopped halfway.
    for (const std::string& ns : namespaces_) RunCommand({kIpBinary, "netns", "del", ns});
    for (const std::string& link : links_) RunCommand({kIpBinary, "link", "del", link});
    if (created_bridge_) RunCommand({kIpBinary, "link", "del", bridge_});
    std::error_code ec;
    for (const std::string& dir : etc_dirs_) std::filesystem::remove_all(dir, ec);
    std::filesystem::remove("/etc/netns", ec);  // only if empty
    if (lock_fd_ >= 0) close(lock_fd_);         // releases the lock
  }
  NetnsTopology(const NetnsTopology&) = delete;
  NetnsTopology& operator=(const NetnsTopology&) = delete;

  bool ok() const { return ok_; }
  // Setup failed before any namespace existed: no privilege for it here (skip, do not fail).
  bool unsupported() const { return !ok_ && namespaces_.empty(); }
  const std::string& error() const { return error_; }
  size_t size() const { return azs_.size(); }
  const std::string& namespace_name(size_t i) const { return namespaces_[i]; }
  std::string agent_address(size_t i) const { return azs_[i].subnet_base + ".2"; }
  std::string subnet(size_t i) const { return azs_[i].subnet_base + ".0/24"; }
  std::vector<std::string> namespaces() const { return namespaces_; }
  const std::string& bridge() const { return bridge_; }

  // Runs `fn` with the calling thread inside namespace i (sockets it creates stay there), then
  // returns the thread to its own namespace. False when setns fails.
  bool InNamespace(size_t i, const std::function<void()>& fn) const {
    const int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
    const int target = open(("/var/run/netns/" + namespaces_[i]).c_str(), O_RDONLY | O_CLOEXEC);
    bool entered = self >= 0 && target >= 0 && setns(target, CLONE_NEWNET) == 0;
    if (entered) {
      fn();
      entered = setns(self, CLONE_NEWNET) == 0;
    }
    if (self >= 0) close(self);
    if (target >= 0) close(target);
    return entered;
  }

 private:
  bool Ip(std::vector<std::string> args) {
    args.insert(args.begin(), kIpBinary);
    std::string output;
    if (RunCommand(args, &output) == 0) return true;
    std::string command;
    for (const std::string& a : args) command += (command.empty() ? "" : " ") + a;
    error_ = "cannot build the test network (`" + command + "`): " + output;
    return false;
  }

  std::vector<SimulatedAz> azs_;
  std::string bridge_;
  bool created_bridge_ = false;
  std::vector<std::string> namespaces_;
  std::vector<std::string> links_;
  std::vector<std::string> etc_dirs_;
  std::string error_;
  bool ok_ = false;
  int lock_fd_ = -1;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_NETNS_H_
