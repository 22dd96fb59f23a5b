// `azbench-agent serve`: the long-running gRPC agent.
//
//   azbench-agent serve --config /etc/azbench/agent.yaml
//   azbench-agent serve --listen 127.0.0.1:0 --port-file /tmp/a1.port --agent-id a1 --az local-a
//       --insecure-loopback-only --allowed-root /var/tmp/a1     (one command line)
//   azbench-agent serve --listen 0.0.0.0:7480 --tls-cert /etc/azbench/tls/agent.crt
//       --tls-key /etc/azbench/tls/agent.key --tls-ca /etc/azbench/tls/ca.crt
//       --allowed-root /mnt/azbench                              (one command line)
//
// Flags override the config file (the first --allowed-root replaces the config's list; more add
// to it). Every other flag is given at most once. The agent refuses to start without transport
// security (agent/server/transport_security.h). SIGTERM/SIGINT cancel running jobs, remove the
// files of every run the agent still holds, and stop the server.
#ifndef AZBENCH_AGENT_SERVER_SERVE_H_
#define AZBENCH_AGENT_SERVER_SERVE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/server/agent_settings.h"
#include "agent/server/service.h"

namespace azbench {

struct ServeConfig {
  std::string listen = "0.0.0.0:7480";
  std::string port_file;  // when set, the bound port is written there once listening
  AgentIdentity identity;
  std::string log_level = "info";
  int max_concurrent_runs = 4;
  // How long a run whose stream broke keeps going, waiting for the coordinator to reattach (and a
  // finished run's last events stay attachable): agent/server/run_journal.h. Zero = no grace (the
  // broken stream is the broken lease). Written in milliseconds (reattach_grace_ms,
  // --reattach-grace-ms), 0 .. 1 hour.
  absl::Duration reattach_grace = absl::Seconds(30);
  AgentSettings settings;  // allowed_roots, min_free_space, tls, token_file, log_levels
  // Instance metadata (agent/host/imds_client.h): endpoint override ("" = environment or default)
  // and an off switch (config `imds: disabled`, or AWS_EC2_METADATA_DISABLED=true).
  std::string imds_endpoint;
  bool imds_disabled = false;
  // The mount table Describe reads (a fixture file in tests).
  std::string mountinfo_path = "/proc/self/mountinfo";
};

// A listen address: HOST:PORT or [IPV6]:PORT with a port 0..65535 (0 = any free port), or gRPC's
// unix:PATH / unix-abstract:NAME. gRPC itself would wrap a larger port (99999 listened on 34463).
// InvalidArgument saying what is allowed; callers name the flag or key.
absl::Status CheckListenAddress(const std::string& address);

// Reads the YAML config (keys: listen, agent_id, region, availability_zone, availability_zone_id,
// instance_type, log_level, max_concurrent_runs, reattach_grace_ms, imds_endpoint, imds
// (enabled|disabled), mountinfo_path, and agent/server/agent_settings.h's keys). Errors:
// InvalidArgument naming file:line and the key.
absl::StatusOr<ServeConfig> LoadServeConfig(const std::string& path);

// Parses the serve arguments (after "serve"), loading --config first when given. InvalidArgument
// naming the flag for an unknown flag, a missing or bad value, and a flag other than --allowed-root
// given twice.
absl::StatusOr<ServeConfig> ParseServeArgs(const std::vector<std::string>& args);

// Runs the server until SIGTERM/SIGINT; SIGHUP reloads the config (agent/server/reload.h). Tells
// systemd READY=1 once listening and STOPPING=1 on the way out (Type=notify). Returns the process
// exit code.
int RunServeCommand(const std::vector<std::string>& args);

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_SERVE_H_
