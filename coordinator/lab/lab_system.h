// The lab's contact with the operating system: running a command and collecting its output,
// starting a long-lived process that outlives `azbench lab up`, running code inside a network
// namespace, and emptying one. Namespaces are named as `ip netns` names them (/run/netns/NAME).
#ifndef AZBENCH_COORDINATOR_LAB_LAB_SYSTEM_H_
#define AZBENCH_COORDINATOR_LAB_LAB_SYSTEM_H_

#include <sys/types.h>

#include <functional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

inline constexpr char kLabIpBinary[] = "/usr/sbin/ip";
inline constexpr char kLabTcBinary[] = "/usr/sbin/tc";

// Runs argv (no shell) to completion. Internal with the command and its output when it fails.
absl::StatusOr<std::string> RunLabCommand(const std::vector<std::string>& argv);
// `ip ARGS...`, as RunLabCommand.
absl::Status Ip(std::vector<std::string> args);

// Starts argv in a session of its own with stdout and stderr appended to `log_path`, not waiting
// for it; it lives on after this process exits. Internal when fork fails.
absl::StatusOr<pid_t> SpawnDetached(const std::vector<std::string>& argv,
                                    const std::string& log_path);

// The network namespaces whose names start with `prefix`.
std::vector<std::string> ListNamespaces(const std::string& prefix);

// Kills (SIGKILL) every process of the namespace until none is left (5 s at most), then deletes
// the namespace. Missing namespaces are fine.
void RemoveNamespace(const std::string& name);

// Runs fn on a thread that has entered the namespace (sockets it makes stay there). Internal when
// the namespace cannot be entered.
absl::Status InNamespace(const std::string& name, const std::function<void()>& fn);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_LAB_SYSTEM_H_
