// The agent config keys that belong to deployment and security: allowed roots, allowed NFS
// servers, minimum free space,
// resource limits, TLS files, a token file, the plaintext-on-loopback switch and per-component log
// levels. agent/server/serve.cc's LoadServeConfig hands every key named here to
// ApplyAgentSettingsKey; `azbench-agent check-config` reports them.
//
// Enforcement: the transport (tls, token_file, insecure_loopback_only) is chosen by
// agent/server/transport_security.h: serve refuses to start without one. allowed_roots,
// allowed_nfs_servers, min_free_space and limits are enforced on every job by
// agent/confinement/job_confinement.h (a job is refused before it starts).
//
//   allowed_roots: [/mnt/azbench]
//   allowed_nfs_servers: [10.0.12.7, 10.1.0.0/16]
//   min_free_space: 1g
//   limits: {max_jobs_per_run: 256, max_files_per_job: 65536, max_job_size: 1t,
//            max_message_size: 4m}
//   tls: {cert_file: /etc/azbench/agent.crt, key_file: /etc/azbench/agent.key,
//         ca_file: /etc/azbench/ca.crt}
//   token_file: /etc/azbench/token
//   insecure_loopback_only: false
//   log_levels: {grpc: warn, rpc: debug}
#ifndef AZBENCH_AGENT_SERVER_AGENT_SETTINGS_H_
#define AZBENCH_AGENT_SERVER_AGENT_SETTINGS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "agent/confinement/job_confinement.h"
#include "yaml-cpp/yaml.h"

namespace azbench {

struct TlsFiles {
  std::string cert_file;
  std::string key_file;
  std::string ca_file;  // when set, coordinators must present a certificate signed by it (mTLS)
  bool empty() const { return cert_file.empty() && key_file.empty() && ca_file.empty(); }
};

// Per-job and per-run limits; a job beyond one is refused at Prepare, naming the number.
struct AgentSettings {
  std::vector<std::string> allowed_roots;  // absolute, normalised; empty = not configured
  // Addresses and CIDR blocks (ParseNfsServerRule) ioengine=nfs may reach; empty = none.
  std::vector<std::string> allowed_nfs_servers;
  uint64_t min_free_space_bytes = 0;  // 0 = not configured
  JobLimits limits;
  TlsFiles tls;
  std::string token_file;
  // Plaintext gRPC, allowed only on loopback listen addresses (local fleets, tests).
  bool insecure_loopback_only = false;
  std::map<std::string, std::string> log_levels;  // component -> level (see agent/host/logging.h)
};

// The keys handled here, in the order the docs list them.
const std::vector<std::string>& AgentSettingsKeys();
bool IsAgentSettingsKey(const std::string& key);

// Parses one key. `path` and `mark` (the key's position) name the place in errors:
// InvalidArgument "FILE:LINE:COL: KEY ...: what is allowed".
absl::Status ApplyAgentSettingsKey(const std::string& path, const std::string& key,
                                   const YAML::Mark& mark, const YAML::Node& value,
                                   AgentSettings& settings);

// Checks that need the file system (TLS and token files readable, roots present). Returns
// problems that make the config unusable (errors) and ones worth knowing (warnings).
struct SettingsFindings {
  std::vector<std::string> errors;
  std::vector<std::string> warnings;
};
SettingsFindings CheckAgentSettingsFiles(const AgentSettings& settings);

// One line per configured key saying what it does, e.g.
// "allowed_roots: /mnt/azbench (jobs outside are refused)".
std::vector<std::string> AgentSettingsNotes(const AgentSettings& settings);

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_AGENT_SETTINGS_H_
