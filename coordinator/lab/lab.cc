#include "coordinator/lab/lab.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/status_macros.h"
#include "coordinator/fleet/certs.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/lab/imds_server.h"
#include "coordinator/lab/lab_network.h"
#include "coordinator/lab/lab_rtt.h"
#include "coordinator/lab/lab_system.h"
#include "coordinator/lab/nfs_server.h"

namespace azbench {
namespace {

constexpr char kLockPath[] = "/var/tmp/azbench-lab.lock";
constexpr absl::Duration kStartTimeout = absl::Seconds(60);

// Held for the whole of an `up` or `down`; released when the descriptor closes.
class LabLock {
 public:
  LabLock() : fd_(open(kLockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0644)) {
    if (fd_ >= 0) flock(fd_, LOCK_EX);
  }
  ~LabLock() {
    if (fd_ >= 0) close(fd_);
  }
  LabLock(const LabLock&) = delete;
  LabLock& operator=(const LabLock&) = delete;

 private:
  int fd_;
};

std::string StatePath(const std::string& dir) { return dir + "/state"; }

std::string ReadText(const std::string& path) {
  std::ifstream in(path);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

absl::Status WriteText(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  out.close();
  if (!out) return absl::InternalError(absl::StrCat("cannot write ", path));
  return absl::OkStatus();
}

std::string Tail(const std::string& path) {
  const std::string text = ReadText(path);
  return text.size() > 3000 ? text.substr(text.size() - 3000) : text;
}

absl::Status CheckCanBuild() {
  if (geteuid() != 0) {
    return absl::FailedPreconditionError(
        "azbench lab needs root (network namespaces, veth, TUN, tc); run it with sudo");
  }
  for (const auto& [path, package] : {std::pair<const char*, const char*>{kLabIpBinary, "iproute2"},
                                      {kLabTcBinary, "iproute2"},
                                      {kGaneshaBinary, "nfs-ganesha and nfs-ganesha-vfs"},
                                      {kRpcbindBinary, "rpcbind"},
                                      {kUnshareBinary, "util-linux"},
                                      {"/dev/net/tun", "the kernel's tun module"}}) {
    if (access(path, F_OK) != 0) {
      return absl::FailedPreconditionError(absl::StrCat("azbench lab needs ", path, " (", package,
                                                        "); scripts/setup.sh installs it"));
    }
  }
  return absl::OkStatus();
}

NfsServerFiles NfsFiles(const LabTopology& lab) {
  return {.dir = lab.options.dir + "/nfs",
          .export_dir = lab.export_dir,
          .nfs_port = kLabNfsPort,
          .mount_port = kLabMountPort};
}

std::string AgentDir(const LabTopology& lab, const LabAgent& agent) {
  return lab.options.dir + "/agents/" + agent.name;
}

std::string NfsUrl(const LabTopology& lab) {
  return absl::StrCat("nfs://", lab.nfs_server_address, lab.export_dir,
                      "?version=3&nfsport=", kLabNfsPort, "&mountport=", kLabMountPort);
}

// Everything answers: every namespace exists, every agent and the NFS server accept connections,
// and a connection from the second AZ to the server crosses the delay line.
bool Healthy(const LabTopology& lab) {
  if (!std::filesystem::exists("/run/netns/" + lab.router_namespace)) return false;
  for (const LabAz& az : lab.azs) {
    if (!std::filesystem::exists("/run/netns/" + az.namespace_name)) return false;
    for (const LabAgent& agent : az.agents) {
      if (!Connects(agent.address, kLabAgentPort)) return false;
    }
  }
  if (!Connects(lab.nfs_server_address, kLabNfsPort)) return false;
  return lab.azs.size() < 2 ||
         MedianConnectRtt(lab.azs[1].namespace_name, lab.nfs_server_address, kLabNfsPort, 1).ok();
}

std::string Summary(const LabTopology& lab) {
  const std::string& dir = lab.options.dir;
  std::string out =
      absl::StrCat("lab: ", lab.azs.size(), " AZs x ", lab.options.agents_per_az,
                   " agents; across AZs: +", absl::FormatDuration(lab.options.cross_az_delay),
                   " round trip, ", lab.options.cross_az_bandwidth_bits_per_s / 1000000,
                   " Mbit/s\n", "NFS server: ", lab.nfs_server_address, " in ", lab.azs[0].name,
                   ", export ", lab.export_dir, "\n  ", NfsUrl(lab), "\n");
  for (const LabAz& az : lab.azs) {
    std::vector<std::string> agents;
    for (const LabAgent& a : az.agents) agents.push_back(a.name + " " + a.address);
    absl::StrAppend(&out, "AZ ", az.name, " (", az.id, "): ", az.subnet, ", namespace ",
                    az.namespace_name, "; agents: ", absl::StrJoin(agents, ", "), "\n");
  }
  absl::StrAppend(&out, "campaign fleet:\n  hosts_file: ", dir, "/hosts\n  tls: {ca_file: ", dir,
                  "/tls/ca.crt, cert_file: ", dir, "/tls/coordinator.crt, key_file: ", dir,
                  "/tls/coordinator.key}\n");
  return out;
}

absl::Status DownLocked(const std::string& dir) {
  RemoveLabNetwork();
  std::error_code ec;
  if (std::filesystem::exists(StatePath(dir)) || dir == kLabDefaultDir) {
    std::filesystem::remove_all(dir, ec);
    if (ec) return absl::InternalError(absl::StrCat("cannot remove ", dir, ": ", ec.message()));
  }
  return absl::OkStatus();
}

std::string AgentConfig(const LabTopology& lab, const LabAgent& agent) {
  const std::string tls = lab.options.dir + "/tls";
  return absl::StrCat("listen: ", agent.address, ":", kLabAgentPort, "\nagent_id: ", agent.name,
                      "\nimds_endpoint: http://127.0.0.1:", agent.imds_port,
                      "\nlog_level: info\ntls: {cert_file: ", tls, "/agents/", agent.address,
                      ".crt, key_file: ", tls, "/agents/", agent.address, ".key, ca_file: ", tls,
                      "/ca.crt}\nallowed_roots: [", AgentDir(lab, agent), "/work, ", lab.export_dir,
                      "]\nallowed_nfs_servers: [", lab.nfs_server_address, "]\n");
}

absl::Status StartProcesses(const LabTopology& lab) {
  const std::string& dir = lab.options.dir;
  std::error_code ec;
  std::filesystem::create_directories(dir + "/logs", ec);
  const std::string self = std::filesystem::read_symlink("/proc/self/exe", ec).string();
  if (ec) return absl::InternalError("cannot find this executable (/proc/self/exe)");
  ASSIGN_OR_RETURN(const std::string agent_binary, FindAgentBinary());

  RETURN_IF_ERROR(SpawnDetached({kLabIpBinary, "netns", "exec", lab.router_namespace, self, "lab",
                                 "delay-line", "--dir", dir},
                                dir + "/logs/delay-line.log")
                      .status());

  const NfsServerFiles nfs = NfsFiles(lab);
  RETURN_IF_ERROR(WriteNfsServerFiles(nfs));
  RETURN_IF_ERROR(
      SpawnDetached(NfsServerCommand(nfs, lab.azs[0].namespace_name), nfs.dir + "/start.log")
          .status());

  std::vector<std::string> names;
  for (const LabAz& az : lab.azs) {
    for (const LabAgent& agent : az.agents) names.push_back(agent.address);
  }
  RETURN_IF_ERROR(InitCertificates({.dir = dir + "/tls", .agents = names, .force = true}).status());

  for (size_t i = 0; i < lab.azs.size(); ++i) {
    const LabAz& az = lab.azs[i];
    for (size_t j = 0; j < az.agents.size(); ++j) {
      const LabAgent& agent = az.agents[j];
      const std::string agent_dir = AgentDir(lab, agent);
      std::filesystem::create_directories(agent_dir + "/work", ec);
      RETURN_IF_ERROR(WriteText(agent_dir + "/agent.yaml", AgentConfig(lab, agent)));
      RETURN_IF_ERROR(
          SpawnDetached({kLabIpBinary, "netns", "exec", az.namespace_name, self, "lab", "imds",
                         "--dir", dir, "--az", std::to_string(i), "--agent", std::to_string(j)},
                        agent_dir + "/imds.log")
              .status());
      // An agent asks its IMDS once, at start: one that finds nothing listening yet would run
      // with no AZ, and every placement of it would be "unknown".
      const absl::Time imds_deadline = absl::Now() + kStartTimeout;
      while (ReadText(agent_dir + "/imds.log").find(kImdsReadyLine) == std::string::npos) {
        if (absl::Now() > imds_deadline) {
          return absl::InternalError(absl::StrCat(
              "the IMDS of ", agent.name, " did not start within ",
              absl::FormatDuration(kStartTimeout), "; its log:\n", Tail(agent_dir + "/imds.log")));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
      }
      // Every agent asks its IMDS at start, all at once on a busy machine: a generous timeout.
      RETURN_IF_ERROR(SpawnDetached({kLabIpBinary, "netns", "exec", az.namespace_name,
                                     "/usr/bin/env", "AWS_METADATA_SERVICE_TIMEOUT=10",
                                     agent_binary, "serve", "--config", agent_dir + "/agent.yaml"},
                                    agent_dir + "/agent.log")
                          .status());
    }
  }
  return absl::OkStatus();
}

absl::Status WaitReady(const LabTopology& lab) {
  const absl::Time deadline = absl::Now() + kStartTimeout;
  const NfsServerFiles nfs = NfsFiles(lab);
  auto nfs_ready = [&] {
    return ReadText(nfs.log_path()).find("NFS SERVER INITIALIZED") != std::string::npos &&
           Connects(lab.nfs_server_address, kLabNfsPort) &&
           Connects(lab.nfs_server_address, kLabMountPort);
  };
  while (!nfs_ready()) {
    if (absl::Now() > deadline) {
      return absl::InternalError(
          absl::StrCat("the NFS server did not come up at ", lab.nfs_server_address, " within ",
                       absl::FormatDuration(kStartTimeout), "; start output:\n",
                       Tail(nfs.dir + "/start.log"), "\nganesha log:\n", Tail(nfs.log_path())));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  for (const LabAz& az : lab.azs) {
    for (const LabAgent& agent : az.agents) {
      while (!Connects(agent.address, kLabAgentPort)) {
        if (absl::Now() > deadline) {
          return absl::InternalError(
              absl::StrCat("agent ", agent.name, " did not listen at ", agent.address, ":",
                           kLabAgentPort, "; its log:\n", Tail(AgentDir(lab, agent) + "/agent.log"),
                           "\nits IMDS log:\n", Tail(AgentDir(lab, agent) + "/imds.log")));
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
      }
    }
  }
  return absl::OkStatus();
}

absl::Status BuildLab(const LabTopology& lab) {
  const std::string& dir = lab.options.dir;
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return absl::InternalError(absl::StrCat("cannot create ", dir, ": ", ec.message()));
  // The state file first: a crash from here on leaves something `down` recognises.
  RETURN_IF_ERROR(WriteText(StatePath(dir), FormatLabState(lab.options)));
  RETURN_IF_ERROR(BuildLabNetwork(lab));
  RETURN_IF_ERROR(StartProcesses(lab));
  RETURN_IF_ERROR(WaitReady(lab));
  std::string hosts = "# azbench lab agents (azbench lab up)\n";
  for (const LabAz& az : lab.azs) {
    for (const LabAgent& agent : az.agents) {
      absl::StrAppend(&hosts, agent.address, ":", kLabAgentPort, "  # ", agent.name, " in ",
                      az.name, "\n");
    }
  }
  return WriteText(dir + "/hosts", hosts);
}

}  // namespace

absl::StatusOr<std::string> LabUp(const LabOptions& options) {
  RETURN_IF_ERROR(ValidateLabOptions(options));
  RETURN_IF_ERROR(CheckCanBuild());
  const LabTopology lab = PlanLab(options);
  LabLock lock;
  if (std::filesystem::exists(StatePath(options.dir))) {
    absl::StatusOr<LabOptions> current = ParseLabState(ReadText(StatePath(options.dir)));
    if (current.ok() && FormatLabState(*current) == FormatLabState(options) && Healthy(lab)) {
      return "already up\n" + Summary(lab);
    }
  }
  // `down` removes DIR whole: never take over a directory that holds something else.
  std::error_code ec;
  if (options.dir != kLabDefaultDir && !std::filesystem::exists(StatePath(options.dir)) &&
      std::filesystem::exists(options.dir) && !std::filesystem::is_empty(options.dir, ec)) {
    return absl::FailedPreconditionError(
        absl::StrCat("--dir: ", options.dir,
                     " holds files and no lab state; give a new or empty directory (down "
                     "removes it whole)"));
  }
  RETURN_IF_ERROR(DownLocked(options.dir));
  if (absl::Status built = BuildLab(lab); !built.ok()) {
    (void)DownLocked(options.dir);
    return built;
  }
  return Summary(lab);
}

absl::Status LabDown(const std::string& dir) {
  if (geteuid() != 0) {
    return absl::FailedPreconditionError("azbench lab needs root; run it with sudo");
  }
  LabLock lock;
  return DownLocked(dir);
}

absl::StatusOr<std::string> LabStatus(const std::string& dir) {
  const std::string text = ReadText(StatePath(dir));
  if (text.empty()) return absl::NotFoundError(absl::StrCat("no lab is up (no ", dir, "/state)"));
  ASSIGN_OR_RETURN(const LabOptions options, ParseLabState(text));
  const LabTopology lab = PlanLab(options);
  std::string out = Summary(lab);
  auto line = [&](const std::string& from, const std::string& to, const std::string& ns,
                  const std::string& address, int port) {
    absl::StatusOr<absl::Duration> rtt = MedianConnectRtt(ns, address, port);
    absl::StrAppend(&out, "  ", from, " -> ", to, ": ",
                    rtt.ok() ? absl::StrFormat("%.0f us", absl::ToDoubleMicroseconds(*rtt))
                             : std::string(rtt.status().message()),
                    "\n");
  };
  absl::StrAppend(&out, "round trip (median TCP connect to the first agent of the second AZ):\n");
  for (size_t i = 0; i < lab.azs.size(); ++i) {
    for (size_t j = i; j < lab.azs.size(); ++j) {
      line(lab.azs[i].name, lab.azs[j].name, lab.azs[i].namespace_name,
           lab.azs[j].agents[0].address, kLabAgentPort);
    }
  }
  absl::StrAppend(&out, "round trip to the NFS server (port ", kLabNfsPort, "):\n");
  for (const LabAz& az : lab.azs) {
    line(az.name, "nfs", az.namespace_name, lab.nfs_server_address, kLabNfsPort);
  }
  return out;
}

}  // namespace azbench
