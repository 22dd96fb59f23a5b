// The agent config keys that belong to deployment and security: allowed roots, minimum free space,
// TLS files, a token file and per-component log levels. agent/serve.cc's LoadServeConfig hands
// every key named here to ApplyAgentSettingsKey; `azbench-agent check-config` reports them.
//
// Enforcement: these keys are parsed and validated now. The agent does NOT yet confine I/O to
// allowed_roots, keep min_free_space, or speak TLS / check a token: that is the security issue's
// work. Until then AgentSettingsNotes() says "not enforced yet" for every key that is set, and the
// systemd unit's ProtectSystem=strict + ReadWritePaths= is what confines writes.
//
//   allowed_roots: [/mnt/azbench]
//   min_free_space: 1g
//   tls: {cert_file: /etc/azbench/agent.crt, key_file: /etc/azbench/agent.key,
//         ca_file: /etc/azbench/ca.crt}
//   token_file: /etc/azbench/token
//   log_levels: {grpc: warn, rpc: debug}
#ifndef AZBENCH_AGENT_AGENT_SETTINGS_H_
#define AZBENCH_AGENT_AGENT_SETTINGS_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "yaml-cpp/yaml.h"

namespace azbench {

struct TlsFiles {
  std::string cert_file;
  std::string key_file;
  std::string ca_file;  // when set, coordinators must present a certificate signed by it (mTLS)
  bool empty() const { return cert_file.empty() && key_file.empty() && ca_file.empty(); }
};

struct AgentSettings {
  std::vector<std::string> allowed_roots;  // absolute, normalised; empty = not configured
  uint64_t min_free_space_bytes = 0;       // 0 = not configured
  TlsFiles tls;
  std::string token_file;
  std::map<std::string, std::string> log_levels;  // component -> level (see agent/logging.h)
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

// One line per configured key saying what it does today, e.g.
// "allowed_roots /mnt/azbench: not enforced yet (...)".
std::vector<std::string> AgentSettingsNotes(const AgentSettings& settings);

}  // namespace azbench

#endif  // AZBENCH_AGENT_AGENT_SETTINGS_H_
