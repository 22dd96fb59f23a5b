// Test fixture: a real NFS server (nfs-ganesha with its VFS back end, and the rpcbind it registers
// with) exporting a temporary directory, inside network, mount and pid namespaces of its own. The
// namespace is joined to this one by a veth pair on a /24 picked free at run time in
// 10.200.0.0-10.255.0.0 (host end .1, server .2). Its own mount namespace gives rpcbind and ganesha
// a private /run; its own pid namespace means killing its first process kills them all. Everything
// (processes, namespace, veth, temporary directory) goes when the object does; what a crashed run
// left (names carry the prefix and the dead process's id) is removed when the next one starts.
// Needs root; `error()` says why when it cannot start.
//
//   NfsServerFixture nfs;
//   if (nfs.unsupported()) GTEST_SKIP() << nfs.error();  // not root
//   ASSERT_TRUE(nfs.ok()) << nfs.error();
//   nfs.Url("/dir/file");  //
//   "nfs://10.200.0.2<export>/dir/file?version=3&nfsport=...&mountport=..."
#ifndef AZBENCH_TESTS_TESTING_NFS_SERVER_FIXTURE_H_
#define AZBENCH_TESTS_TESTING_NFS_SERVER_FIXTURE_H_

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "coordinator/lab/lab_system.h"
#include "coordinator/lab/nfs_server.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/netns.h"
#include "tests/testing/subprocess.h"

namespace azbench::testing {

class NfsServerFixture {
 public:
  // Every name this fixture makes starts with one of these, followed by the owner's process id.
  static constexpr char kNamespacePrefix[] = "azbench-nfs-";  // + pid
  static constexpr char kLinkPrefix[] = "anfs";               // + pid + "h" (15 characters at most)
  static constexpr char kDirPrefix[] = "/var/tmp/azbench-nfs-";  // + pid + "-XXXXXX"

  NfsServerFixture() { ok_ = Start(); }

  ~NfsServerFixture() {
    // SIGKILL to the namespace's unshare: its --kill-child takes the namespace's init with it, and
    // with the init every process of the pid namespace.
    server_.reset();
    if (!namespace_.empty()) {
      RemoveNamespace(namespace_);
    }
    if (!host_link_.empty()) RunCommand({kIpBinary, "link", "del", host_link_});
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
    if (lock_fd_ >= 0) close(lock_fd_);
  }
  NfsServerFixture(const NfsServerFixture&) = delete;
  NfsServerFixture& operator=(const NfsServerFixture&) = delete;

  bool ok() const { return ok_; }
  // Not root: namespaces cannot be made here (skip, do not fail). A missing tool is a failure.
  bool unsupported() const { return unsupported_; }
  const std::string& error() const { return error_; }
  // The exported directory as this (host) side sees it; the export's path on the server is the
  // same string.
  const std::string& export_dir() const { return export_dir_; }
  const std::string& server_address() const { return server_address_; }  // "10.X.0.2"
  const std::string& host_address() const { return host_address_; }      // "10.X.0.1"
  int nfs_port() const { return nfs_port_; }
  int mount_port() const { return mount_port_; }
  const std::string& log_path() const { return log_path_; }

  // A libnfs URL for `path` beneath the export ("" = the export itself), NFSv3 (or v4) on the
  // server's ports, without the portmapper.
  std::string Url(const std::string& path = "", int version = 3) const {
    return "nfs://" + server_address_ + export_dir_ + path + "?version=" + std::to_string(version) +
           "&nfsport=" + std::to_string(nfs_port_) +
           (version == 3 ? "&mountport=" + std::to_string(mount_port_) : "");
  }

  // The server's log, for a failure message.
  std::string Log() const {
    std::ifstream in(log_path_);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text.size() > 4000 ? text.substr(text.size() - 4000) : text;
  }

 private:
  bool Fail(std::string message) {
    error_ = std::move(message);
    return false;
  }

  bool Start() {
    if (geteuid() != 0) {
      unsupported_ = true;
      return Fail("the NFS server fixture needs root (network namespaces); this test runs as uid " +
                  std::to_string(geteuid()));
    }
    for (const auto& [name, path] :
         {std::pair<const char*, const char*>{"ip (iproute2)", kIpBinary},
          {"ganesha.nfsd (nfs-ganesha)", kGaneshaBinary},
          {"rpcbind", kRpcbindBinary},
          {"unshare (util-linux)", kUnshareBinary}}) {
      if (std::string missing = MissingDependency(name, path); !missing.empty()) {
        return Fail(missing);
      }
    }
    RemoveStale();
    if (!PickSubnet()) return false;
    const std::string tag = std::to_string(getpid());
    namespace_ = kNamespacePrefix + tag;
    if (!Ip({"netns", "add", namespace_})) {
      namespace_.clear();
      return false;
    }
    host_link_ = kLinkPrefix + tag + "h";
    const std::string ns_link = std::string(kLinkPrefix) + tag + "n";
    if (!Ip({"link", "add", host_link_, "type", "veth", "peer", "name", ns_link})) {
      host_link_.clear();
      return false;
    }
    if (!Ip({"link", "set", ns_link, "netns", namespace_}) ||
        !Ip({"addr", "add", host_address_ + "/24", "dev", host_link_}) ||
        !Ip({"link", "set", host_link_, "up"}) ||
        !Ip({"-n", namespace_, "link", "set", "lo", "up"}) ||
        !Ip({"-n", namespace_, "addr", "add", server_address_ + "/24", "dev", ns_link}) ||
        !Ip({"-n", namespace_, "link", "set", ns_link, "up"})) {
      return false;
    }
    if (!PickPorts()) return false;

    // /var/tmp, not /dev/shm: ganesha's VFS back end needs file handles (name_to_handle_at).
    std::string templ = std::string(kDirPrefix) + tag + "-XXXXXX";
    if (mkdtemp(templ.data()) == nullptr) {
      return Fail("cannot create a temporary directory under /var/tmp: " +
                  std::string(strerror(errno)));
    }
    dir_ = templ;
    export_dir_ = dir_ + "/export";
    log_path_ = Files().log_path();
    std::error_code ec;
    std::filesystem::create_directories(export_dir_, ec);
    std::filesystem::create_directories(dir_ + "/recovery", ec);
    if (ec) return Fail("cannot create " + export_dir_ + ": " + ec.message());
    if (absl::Status written = WriteNfsServerFiles(Files()); !written.ok()) {
      return Fail(std::string(written.message()));
    }
    // `ip netns exec` execs unshare in place, so the Subprocess (killed with SIGKILL, and killed
    // by the kernel when this process dies) is unshare itself.
    server_ = std::make_unique<Subprocess>(
        std::vector<std::string>{kIpBinary, "netns", "exec", namespace_, kUnshareBinary, "--mount",
                                 "--pid", "--kill-child", "--mount-proc", "--", "/bin/sh",
                                 dir_ + "/start.sh"},
        dir_ + "/start.log");
    return WaitReady();
  }

  // The config and start script are the lab's (coordinator/lab/nfs_server.h): written once.
  NfsServerFiles Files() const {
    return {
        .dir = dir_, .export_dir = export_dir_, .nfs_port = nfs_port_, .mount_port = mount_port_};
  }

  // Ready when the log says the server is up and both ports accept connections from this side.
  bool WaitReady() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
    while (std::chrono::steady_clock::now() < deadline) {
      if (ServerExited()) break;
      if (Log().find("NFS SERVER INITIALIZED") != std::string::npos && Connects(nfs_port_) &&
          Connects(mount_port_)) {
        return true;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    std::ifstream start(dir_ + "/start.log");
    std::string start_log((std::istreambuf_iterator<char>(start)),
                          std::istreambuf_iterator<char>());
    return Fail("the NFS server did not come up at " + server_address_ + ":" +
                std::to_string(nfs_port_) + "; start output:\n" + start_log + "\nganesha log:\n" +
                Log());
  }

  // The namespace's unshare has exited (a zombie until the Subprocess reaps it).
  bool ServerExited() const {
    std::ifstream stat("/proc/" + std::to_string(server_->pid()) + "/stat");
    std::string text((std::istreambuf_iterator<char>(stat)), std::istreambuf_iterator<char>());
    const size_t paren = text.rfind(')');
    return paren == std::string::npos || text.compare(paren, 3, ") Z") == 0;
  }

  bool Connects(int port) const {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return false;
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_port = htons(static_cast<uint16_t>(port));
    inet_pton(AF_INET, server_address_.c_str(), &addr.sin_addr);
    const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
    close(fd);
    return ok;
  }

  // Two ports the kernel gives out as free inside the server's namespace (bound there, then
  // released for ganesha).
  bool PickPorts() {
    bool picked = false;
    std::thread([&] {
      const int self = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
      const int target = open(("/var/run/netns/" + namespace_).c_str(), O_RDONLY | O_CLOEXEC);
      if (self >= 0 && target >= 0 && setns(target, CLONE_NEWNET) == 0) {
        int fds[2] = {-1, -1};
        int ports[2] = {0, 0};
        for (int i = 0; i < 2; ++i) {
          fds[i] = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
          sockaddr_in addr{};
          addr.sin_family = AF_INET;
          socklen_t len = sizeof(addr);
          if (fds[i] >= 0 && bind(fds[i], reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0 &&
              getsockname(fds[i], reinterpret_cast<sockaddr*>(&addr), &len) == 0) {
            ports[i] = ntohs(addr.sin_port);
          }
        }
        for (int fd : fds) {
          if (fd >= 0) close(fd);
        }
        nfs_port_ = ports[0];
        mount_port_ = ports[1];
        picked = ports[0] > 0 && ports[1] > 0;
      }
      if (self >= 0) close(self);
      if (target >= 0) close(target);
    }).join();
    if (!picked) return Fail("cannot pick free ports inside namespace " + namespace_);
    return true;
  }

  // The first 10.X.0.0/24 (X in 200..255) that no address or route of this namespace touches and
  // that no other fixture holds (a lock file per subnet, released with the descriptor).
  bool PickSubnet() {
    std::string addresses, routes;
    RunCommand({kIpBinary, "-4", "-o", "addr", "show"}, &addresses);
    RunCommand({kIpBinary, "-4", "route", "show", "table", "all"}, &routes);
    for (int x = 200; x <= 255; ++x) {
      const std::string base = "10." + std::to_string(x) + ".0.";
      if (addresses.find(" " + base) != std::string::npos ||
          routes.find(base) != std::string::npos) {
        continue;
      }
      const std::string lock = "/var/tmp/azbench-nfs-subnet-" + std::to_string(x) + ".lock";
      const int fd = open(lock.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
      if (fd < 0) continue;
      if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        close(fd);
        continue;
      }
      lock_fd_ = fd;
      host_address_ = base + "1";
      server_address_ = base + "2";
      return true;
    }
    return Fail("no free /24 in 10.200.0.0-10.255.0.0 for the NFS server's network");
  }

  // What fixtures of processes that no longer exist left behind.
  static void RemoveStale() {
    auto owner_alive = [](const std::string& rest) {
      const pid_t pid = static_cast<pid_t>(std::atoi(rest.c_str()));
      return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
    };
    for (const std::string& ns : ListNamespaces(kNamespacePrefix)) {
      if (!owner_alive(ns.substr(sizeof(kNamespacePrefix) - 1))) RemoveNamespace(ns);
    }
    std::string links;
    RunCommand({kIpBinary, "-o", "link", "show"}, &links);
    for (size_t at = links.find(std::string(": ") + kLinkPrefix); at != std::string::npos;
         at = links.find(std::string(": ") + kLinkPrefix, at + 1)) {
      const size_t name_start = at + 2;
      const size_t name_end = links.find_first_of("@:", name_start);
      const std::string name = links.substr(name_start, name_end - name_start);
      const std::string rest = name.substr(sizeof(kLinkPrefix) - 1);
      if (!rest.empty() && isdigit(static_cast<unsigned char>(rest[0])) && !owner_alive(rest)) {
        RunCommand({kIpBinary, "link", "del", name});
      }
    }
    std::error_code ec;
    const std::string dir_name_prefix =
        std::filesystem::path(kDirPrefix).filename().string();  // "azbench-nfs-"
    for (const auto& e : std::filesystem::directory_iterator("/var/tmp", ec)) {
      const std::string name = e.path().filename().string();
      if (name.rfind(dir_name_prefix, 0) != 0 || !e.is_directory()) continue;
      const std::string rest = name.substr(dir_name_prefix.size());
      if (!rest.empty() && isdigit(static_cast<unsigned char>(rest[0])) && !owner_alive(rest)) {
        std::error_code rm_ec;
        std::filesystem::remove_all(e.path(), rm_ec);
      }
    }
  }

  bool Ip(std::vector<std::string> args) {
    args.insert(args.begin(), kIpBinary);
    std::string output;
    if (RunCommand(args, &output) == 0) return true;
    std::string command;
    for (const std::string& a : args) command += (command.empty() ? "" : " ") + a;
    return Fail("cannot build the NFS server's network (`" + command + "`): " + output);
  }

  bool ok_ = false;
  bool unsupported_ = false;
  std::string error_;
  int lock_fd_ = -1;
  std::string namespace_;
  std::string host_link_;
  std::string host_address_;
  std::string server_address_;
  int nfs_port_ = 0;
  int mount_port_ = 0;
  std::string dir_;
  std::string export_dir_;
  std::string log_path_;
  std::unique_ptr<Subprocess> server_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_NFS_SERVER_FIXTURE_H_
