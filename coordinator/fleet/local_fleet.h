// The embedded default fleet: N real agent processes on loopback, each on a free port chosen by the
// kernel, labelled with simulated AZs (round-robin over `azs`), each in its own work directory.
// Relative target paths in a campaign mean "inside each agent's work directory". The agents die
// with the coordinator (PR_SET_PDEATHSIG) and are stopped (SIGTERM, then SIGKILL) when the
// LocalFleet goes away. They serve plaintext gRPC on 127.0.0.1 only (insecure_loopback_only: the
// port is reachable from this machine alone, and the agents run as the user who started them), and
// are confined to their work directory plus `allowed_roots`.
//
//   ASSIGN_OR_RETURN(auto fleet, LocalFleet::Start({.agents = 4, .azs = {"local-a", "local-b"}}));
//   ConnectFleet(fleet->addresses(), ...);
#ifndef AZBENCH_COORDINATOR_FLEET_LOCAL_FLEET_H_
#define AZBENCH_COORDINATOR_FLEET_LOCAL_FLEET_H_

#include <sys/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace azbench {

// The most agent processes one local fleet starts (each is a gRPC server with its own threads).
inline constexpr int kMaxLocalFleetAgents = 256;

struct LocalFleetOptions {
  int agents = 2;
  std::vector<std::string> azs = {"local-a"};
  std::string agent_binary;  // empty: FindAgentBinary()
  // Empty: a new directory under $TMPDIR (or /var/tmp), removed at the end, or by the next local
  // fleet if this coordinator is killed first.
  std::string work_root;
  std::vector<std::string> target_dirs;  // relative directories to create in every work directory
  // Besides its work directory, where each agent may do I/O (absolute; the campaign's targets).
  std::vector<std::string> allowed_roots;
  // NFS servers (addresses or CIDR blocks) each agent may use (the campaign's nfs_url servers);
  // empty: the agents refuse every NFS job.
  std::vector<std::string> allowed_nfs_servers;
  std::string log_level = "warn";
  // The agents' --reattach-grace-ms (how long a run whose stream broke waits for the coordinator to
  // reattach), whole milliseconds; nullopt: the agent's default.
  std::optional<absl::Duration> reattach_grace;
  // Test hook: extra "NAME=value" environment entries for the agent at index i (e.g. the fault
  // tests' AZBENCH_TEST_ONLY_REALTIME_OFFSET_NS for one agent); empty: the inherited environment.
  std::vector<std::vector<std::string>> agent_env;
};

class LocalFleet {
 public:
  // Errors: NotFound (agent binary), InvalidArgument (agents < 1, no AZs), Internal (fork/exec, an
  // agent that exited or did not listen within 15 s, with the tail of its log).
  static absl::StatusOr<std::unique_ptr<LocalFleet>> Start(const LocalFleetOptions& options);
  ~LocalFleet();

  std::vector<std::string> addresses() const;
  const std::string& work_dir(int index) const { return agents_[index].work_dir; }
  pid_t pid(int index) const { return agents_[index].pid; }
  int size() const { return static_cast<int>(agents_.size()); }
  // Stops every agent (SIGTERM, SIGKILL after 10 s) and removes the work root if this created it.
  void Stop();
  // The work roots of earlier local fleets whose coordinator was killed before removing them, which
  // Start removed (see coordinator/fleet/stale_work_roots.h).
  const std::vector<std::string>& stale_roots_removed() const { return stale_roots_removed_; }

 private:
  struct Agent {
    pid_t pid = -1;
    int port = 0;
    std::string work_dir;
  };
  LocalFleet() = default;
  std::vector<Agent> agents_;
  std::string work_root_;
  bool owns_work_root_ = false;
  std::vector<std::string> stale_roots_removed_;
};

// $AZBENCH_AGENT_BIN, else azbench-agent next to this executable, else ../agent/azbench-agent (the
// build tree), else /usr/bin/azbench-agent. NotFound lists the places tried.
absl::StatusOr<std::string> FindAgentBinary();

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_LOCAL_FLEET_H_
