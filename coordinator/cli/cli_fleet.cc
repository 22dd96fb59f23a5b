#include "coordinator/cli/cli_fleet.h"

#include <arpa/inet.h>

#include <algorithm>
#include <iostream>
#include <utility>

#include "absl/strings/str_split.h"
#include "common/nfs_url.h"
#include "common/status_macros.h"

namespace azbench::cli_internal {

std::vector<std::string> LocalFleetRoots(const Campaign& campaign) {
  std::vector<std::string> roots;
  auto add = [&](const std::string& path) {
    if (path.empty() || path.front() != '/') return;
    if (std::find(roots.begin(), roots.end(), path) == roots.end()) roots.push_back(path);
  };
  // A campaign's jobs stay beneath its targets (campaign.h "Where jobs run"): the absolute target
  // paths are all its agents need. Only a fio job run without --directory (its target has no path)
  // runs the jobs' own directories and files, as fio would.
  bool jobs_keep_own_paths = false;
  for (const auto& t : campaign.targets) {
    add(t.path);
    jobs_keep_own_paths = jobs_keep_own_paths || t.path.empty();
  }
  if (!jobs_keep_own_paths) return roots;
  for (const auto& w : campaign.workloads) {
    for (const auto& job : w.jobs) {
      for (const auto& [key, value] : job.options) {
        if (key == "directory") add(value);
        if (key == "filename") {
          for (absl::string_view name : absl::StrSplit(value, ':', absl::SkipEmpty())) {
            const std::string n(name);
            if (!n.empty() && n.front() == '/') add(n.substr(0, std::max<size_t>(1, n.rfind('/'))));
          }
        }
      }
    }
  }
  return roots;
}

namespace {

bool IsIpAddress(const std::string& text) {
  in6_addr address;
  return inet_pton(AF_INET, text.c_str(), &address) == 1 ||
         inet_pton(AF_INET6, text.c_str(), &address) == 1;
}

}  // namespace

std::vector<std::string> LocalFleetNfsServers(const Campaign& campaign) {
  std::vector<std::string> servers;
  auto add = [&](const std::string& text) {
    absl::StatusOr<NfsUrl> url = ParseNfsUrl(text);
    if (!url.ok() || !IsIpAddress(url->server)) return;
    if (std::find(servers.begin(), servers.end(), url->server) == servers.end()) {
      servers.push_back(url->server);
    }
  };
  for (const auto& t : campaign.targets) {
    if (IsNfsUrl(t.path)) add(t.path);
  }
  for (const auto& w : campaign.workloads) {
    for (const auto& job : w.jobs) {
      for (const auto& [key, value] : job.options) {
        if (key == "nfs_url") add(value);
      }
    }
  }
  return servers;
}

absl::StatusOr<FleetHandle> OpenFleet(const FleetSpec& spec,
                                      const std::vector<std::string>& targets, bool allow_missing,
                                      const ClientSecurity& flag_security,
                                      const std::vector<std::string>& local_roots,
                                      const std::vector<std::string>& local_nfs_servers) {
  FleetHandle handle;
  std::vector<std::string> addresses;
  if (spec.kind == FleetSpec::Kind::kLocal && !flag_security.empty()) {
    return absl::InvalidArgumentError(
        "--tls-* and --token-file are for remote agents (--hosts or a campaign's fleet.hosts); "
        "the local fleet talks plaintext over loopback");
  }
  if (spec.kind == FleetSpec::Kind::kLocal) {
    LocalFleetOptions options;
    options.agents = spec.local_agents;
    options.azs = spec.local_azs;
    options.allowed_roots = local_roots;
    options.allowed_nfs_servers = local_nfs_servers;
    for (const auto& t : targets) {
      if (!t.empty() && t.front() != '/') options.target_dirs.push_back(t);
    }
    absl::StatusOr<std::unique_ptr<LocalFleet>> local = LocalFleet::Start(options);
    if (!local.ok()) return local.status();
    for (const std::string& root : (*local)->stale_roots_removed()) {
      std::cerr << "azbench: removed " << root
                << ", left by a local fleet whose coordinator is no longer running\n";
    }
    handle.local = std::move(*local);
    addresses = handle.local->addresses();
  } else {
    addresses = spec.hosts;
  }
  ConnectOptions connect;
  connect.security = MergeClientSecurity(spec.security, flag_security);
  RETURN_IF_ERROR(ValidateClientSecurity(connect.security, "--tls-* / fleet.tls"));
  connect.allow_missing = allow_missing;
  connect.target_paths = targets;
  absl::StatusOr<Fleet> fleet = ConnectFleet(addresses, connect);
  if (!fleet.ok()) return fleet.status();
  handle.fleet = std::move(*fleet);
  return handle;
}

}  // namespace azbench::cli_internal
