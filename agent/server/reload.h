// What SIGHUP changes in a running agent. The config is read again (flags still override it);
// settings that apply live are taken, the others are kept and named so the log says a restart is
// needed for them.
//
// Live: log_level, log_levels, max_concurrent_runs, allowed_roots, allowed_nfs_servers,
// min_free_space, limits (but limits.max_message_size).
// Restart needed: listen, agent_id, region, availability_zone, availability_zone_id,
// instance_type, tls, token_file, insecure_loopback_only, limits.max_message_size (and any key
// another part of the agent adds until it says otherwise here).
#ifndef AZBENCH_AGENT_SERVER_RELOAD_H_
#define AZBENCH_AGENT_SERVER_RELOAD_H_

#include <string>
#include <vector>

#include "agent/server/serve.h"

namespace azbench {

struct ReloadOutcome {
  ServeConfig config;                      // current with the live settings of the new file
  std::vector<std::string> changed_live;   // keys applied now
  std::vector<std::string> needs_restart;  // keys whose new value waits for a restart
};

// Merges a freshly loaded config into the running one.
ReloadOutcome MergeReloadedConfig(const ServeConfig& current, const ServeConfig& loaded);

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_RELOAD_H_
