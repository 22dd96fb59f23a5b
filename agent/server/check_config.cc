#include "agent/server/check_config.h"

#include <iostream>

#include "absl/strings/str_join.h"
#include "agent/host/imds_client.h"
#include "agent/server/agent_settings.h"
#include "agent/server/serve.h"
#include "agent/server/transport_security.h"
#include "common/units.h"

namespace azbench {

int RunCheckConfigCommand(const std::vector<std::string>& args) {
  if (args.size() > 1 || (!args.empty() && !args[0].empty() && args[0][0] == '-')) {
    std::cerr << "usage: azbench-agent check-config [FILE]   (default " << kDefaultAgentConfigPath
              << ")\n";
    return 2;
  }
  const std::string path = args.empty() ? kDefaultAgentConfigPath : args[0];
  // The same path `serve --config FILE` takes, so check-config accepts exactly what serve accepts.
  absl::StatusOr<ServeConfig> config = ParseServeArgs({"--config", path});
  if (!config.ok()) {
    std::cerr << "azbench-agent check-config: " << config.status().message() << "\n";
    return 1;
  }
  const SettingsFindings findings = CheckAgentSettingsFiles(config->settings);
  for (const std::string& error : findings.errors) {
    std::cerr << "azbench-agent check-config: " << path << ": " << error << "\n";
  }
  if (!findings.errors.empty()) return 1;
  // The transport serve would use: a config that serve would refuse fails here too.
  absl::StatusOr<ServerSecurity> security = MakeServerSecurity(config->settings, config->listen);
  if (security.ok()) {
    if (absl::Status files = CheckTlsFiles(config->settings.tls); !files.ok()) security = files;
  }
  if (!security.ok()) {
    std::cerr << "azbench-agent check-config: " << path << ": " << security.status().message()
              << "\n";
    return 1;
  }
  // The instance metadata variables serve reads from this environment (agent/host/imds_client.h).
  if (absl::StatusOr<ImdsSettings> imds =
          LoadImdsSettings(config->imds_endpoint, config->imds_disabled);
      !imds.ok()) {
    std::cerr << "azbench-agent check-config: " << imds.status().message() << "\n";
    return 1;
  }
  for (const std::string& warning : findings.warnings) {
    std::cout << "warning: " << warning << "\n";
  }
  const AgentIdentity& id = config->identity;
  std::cout << path << ": valid\n"
            << "  listen: " << config->listen << "\n"
            << "  agent_id: " << id.agent_id << "\n"
            << "  availability_zone: "
            << (id.availability_zone.empty() ? "(not pinned: discovered at start)"
                                             : id.availability_zone + " (pinned)")
            << "\n"
            << "  transport: " << security->description << "\n"
            << "  log_level: " << config->log_level << "\n"
            << "  max_concurrent_runs: " << config->max_concurrent_runs << "\n";
  for (const std::string& note : AgentSettingsNotes(config->settings)) {
    std::cout << "  " << note << "\n";
  }
  std::cout << "SIGHUP (systemctl reload azbench-agent) applies: log_level, log_levels, "
               "max_concurrent_runs, allowed_roots, allowed_nfs_servers, min_free_space, limits\n"
               "a restart is needed for: listen, agent_id, region, availability_zone, "
               "availability_zone_id, instance_type, tls, token_file, insecure_loopback_only, "
               "limits.max_message_size\n";
  return 0;
}

}  // namespace azbench
