#include "agent/server/reload.h"

namespace azbench {

ReloadOutcome MergeReloadedConfig(const ServeConfig& current, const ServeConfig& loaded) {
  ReloadOutcome out{current, {}, {}};
  auto live = [&](const char* key, auto& target, const auto& value) {
    if (target == value) return;
    target = value;
    out.changed_live.push_back(key);
  };
  live("log_level", out.config.log_level, loaded.log_level);
  live("log_levels", out.config.settings.log_levels, loaded.settings.log_levels);
  live("max_concurrent_runs", out.config.max_concurrent_runs, loaded.max_concurrent_runs);
  live("allowed_roots", out.config.settings.allowed_roots, loaded.settings.allowed_roots);
  live("allowed_nfs_servers", out.config.settings.allowed_nfs_servers,
       loaded.settings.allowed_nfs_servers);
  live("min_free_space", out.config.settings.min_free_space_bytes,
       loaded.settings.min_free_space_bytes);
  // max_message_size is fixed when the server starts: the rest of limits applies live.
  JobLimits limits = loaded.settings.limits;
  limits.max_message_size_bytes = current.settings.limits.max_message_size_bytes;
  live("limits", out.config.settings.limits, limits);

  auto restart = [&](const char* key, bool differs) {
    if (differs) out.needs_restart.push_back(key);
  };
  const AgentIdentity& a = current.identity;
  const AgentIdentity& b = loaded.identity;
  restart("listen", current.listen != loaded.listen);
  restart("reattach_grace_ms", current.reattach_grace != loaded.reattach_grace);
  restart("agent_id", a.agent_id != b.agent_id);
  restart("region", a.region != b.region);
  restart("availability_zone", a.availability_zone != b.availability_zone);
  restart("availability_zone_id", a.availability_zone_id != b.availability_zone_id);
  restart("instance_type", a.instance_type != b.instance_type);
  const TlsFiles& ta = current.settings.tls;
  const TlsFiles& tb = loaded.settings.tls;
  restart("tls",
          ta.cert_file != tb.cert_file || ta.key_file != tb.key_file || ta.ca_file != tb.ca_file);
  restart("token_file", current.settings.token_file != loaded.settings.token_file);
  restart("insecure_loopback_only",
          current.settings.insecure_loopback_only != loaded.settings.insecure_loopback_only);
  restart("limits.max_message_size", current.settings.limits.max_message_size_bytes !=
                                         loaded.settings.limits.max_message_size_bytes);
  return out;
}

}  // namespace azbench
