// The fleet an `azbench` subcommand talks to (cli.h): a local fleet it starts, or remote hosts,
// connected with the campaign's and the flags' security. Internal to the command line.
#ifndef AZBENCH_COORDINATOR_CLI_CLI_FLEET_H_
#define AZBENCH_COORDINATOR_CLI_CLI_FLEET_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/fleet/client_security.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/fleet/local_fleet.h"

namespace azbench::cli_internal {

// The fleet a command talks to: a local fleet it started (stopped on destruction) or remote hosts.
struct FleetHandle {
  std::unique_ptr<LocalFleet> local;
  Fleet fleet;
};

// The directories a local fleet's agents may use besides their work directories: the campaign's
// absolute target paths (its jobs' files lie beneath them, campaign.h). Only for a fio job run
// without --directory (a target with an empty path: the jobs keep their own paths) also the
// absolute `directory` and `filename` parents its jobs name.
std::vector<std::string> LocalFleetRoots(const Campaign& campaign);

// The NFS servers a local fleet's agents may use: the server of every nfs:// target and every
// job's nfs_url that names it by address (agents accept no host names there), first-seen order.
std::vector<std::string> LocalFleetNfsServers(const Campaign& campaign);

// Starts the local fleet (agents may use `local_roots`, the relative `targets` and the NFS servers
// `local_nfs_servers`) or names the
// hosts, then connects, describing `targets`. Errors: InvalidArgument for TLS flags with a local
// fleet or an invalid security setting; the fleet's start or connect errors.
absl::StatusOr<FleetHandle> OpenFleet(const FleetSpec& spec,
                                      const std::vector<std::string>& targets, bool allow_missing,
                                      const ClientSecurity& flag_security = {},
                                      const std::vector<std::string>& local_roots = {},
                                      const std::vector<std::string>& local_nfs_servers = {});

}  // namespace azbench::cli_internal

#endif  // AZBENCH_COORDINATOR_CLI_CLI_FLEET_H_
