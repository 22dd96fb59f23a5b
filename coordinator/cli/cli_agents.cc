// `azbench agents`: who is there (version, host, AZ, subnets, clock offset), and with --campaign
// each target's mount and placement.
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "common/units.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/cli/cli_args.h"
#include "coordinator/cli/cli_commands.h"
#include "coordinator/cli/cli_fleet.h"
#include "coordinator/cli/fio_job_run.h"
#include "coordinator/fleet/fleet.h"
#include "coordinator/plan/placement.h"

namespace azbench::cli_internal {

namespace {

// Under an agent's row: its AZ source and subnets, then each target's mount (server, addr=,
// clientaddr=, resolved addresses, options that change results) and placement with evidence.
void AppendAgentTopology(const FleetMember& m, const PlacementTable* placements, std::string& out) {
  const v1::Identity& id = m.description.identity();
  std::vector<std::string> subnets;
  for (const v1::Subnet& s : id.subnets()) {
    subnets.push_back(s.subnet_id().empty() ? s.cidr()
                                            : absl::StrCat(s.subnet_id(), " ", s.cidr()));
  }
  absl::StrAppend(&out, "    AZ source: ", id.az_source().empty() ? "none" : id.az_source(),
                  id.instance_id().empty() ? "" : absl::StrCat("; instance ", id.instance_id()),
                  id.local_ipv4().empty() ? "" : absl::StrCat("; ", id.local_ipv4()),
                  "; subnets: ", subnets.empty() ? "-" : absl::StrJoin(subnets, ", "), "\n");
  for (const auto& mount : m.description.mounts()) {
    if (mount.mount_point().empty()) {  // an nfs:// target: the URL is the source
      absl::StrAppend(&out, absl::StrFormat("    %s (%s)", mount.target_path(), mount.fstype()));
    } else {
      absl::StrAppend(&out, absl::StrFormat("    %s on %s (%s, %s)", mount.target_path(),
                                            mount.mount_point(), mount.fstype(), mount.source()));
    }
    if (!mount.addr().empty()) absl::StrAppend(&out, " addr=", mount.addr());
    if (!mount.client_addr().empty()) absl::StrAppend(&out, " clientaddr=", mount.client_addr());
    if (mount.server_addresses_size() > 0) {
      absl::StrAppend(&out, " resolves to ", absl::StrJoin(mount.server_addresses(), ","));
    } else if (!mount.resolve_error().empty()) {
      absl::StrAppend(&out, " (", mount.resolve_error(), ")");
    }
    std::vector<std::string> options;
    for (const char* name : {"vers", "proto", "rsize", "wsize", "hard", "soft", "timeo", "nconnect",
                             "actimeo", "noac", "lookupcache"}) {
      auto it = mount.options().find(name);
      if (it == mount.options().end()) continue;
      options.push_back(it->second.empty() ? name : absl::StrCat(name, "=", it->second));
    }
    if (!options.empty()) absl::StrAppend(&out, " [", absl::StrJoin(options, ","), "]");
    absl::StrAppend(&out, "\n");
  }
  if (placements == nullptr) return;
  for (const PlacementEvidence& e : placements->entries) {
    if (e.agent_id != m.info.agent_id) continue;
    absl::StrAppend(&out, "    target ", e.target, ": ", FormatPlacementEvidence(e), "\n");
  }
}

std::string AgentsTable(const Fleet& fleet, const PlacementTable* placements = nullptr) {
  std::string out =
      absl::StrFormat("%-14s %-22s %-8s %-16s %-12s %-10s %14s %10s\n", "AGENT", "ADDRESS",
                      "VERSION", "HOST", "AZ", "AZ-ID", "CLOCK-OFFSET", "RTT");
  for (const auto& m : fleet.members) {
    const AgentInfo& a = m.info;
    absl::StrAppend(&out,
                    absl::StrFormat("%-14s %-22s %-8s %-16s %-12s %-10s %14s %10s\n", a.agent_id,
                                    a.address, a.version, a.hostname,
                                    a.availability_zone.empty() ? "-" : a.availability_zone,
                                    a.availability_zone_id.empty() ? "-" : a.availability_zone_id,
                                    FormatNanos(static_cast<double>(a.clock_offset_ns)),
                                    FormatNanos(static_cast<double>(a.clock_rtt_ns))));
    AppendAgentTopology(m, placements, out);
  }
  for (const auto& missing : fleet.missing) absl::StrAppend(&out, "missing: ", missing, "\n");
  if (placements != nullptr) {
    for (const auto& w : placements->warnings) absl::StrAppend(&out, "warning: ", w, "\n");
  }
  return out;
}

}  // namespace

int AgentsCommand(const std::vector<std::string>& raw) {
  absl::StatusOr<Args> args = ParseArgs(
      raw, WithSecurityFlags({"--hosts", "--local", "--azs", "--campaign"}), {"--allow-missing"});
  if (!args.ok()) return Fail("agents", args.status(), 2);
  if (!args->positional.empty()) {
    return Fail("agents",
                absl::InvalidArgumentError(absl::StrCat(
                    "unexpected '", args->positional[0],
                    "': give --hosts FILE|LIST, --local N or --campaign FILE (a campaign file is "
                    "given with --campaign)")),
                2);
  }
  if (const std::string* file = args->Get("--campaign")) {
    for (const char* flag : {"--hosts", "--local", "--azs"}) {
      if (args->Has(flag)) {
        return Fail("agents",
                    absl::InvalidArgumentError(absl::StrCat(
                        flag, " and --campaign: the campaign names its fleet; give one of them")),
                    2);
      }
    }
    // The campaign's fleet, described with its target paths and placed with its topology.
    absl::StatusOr<Campaign> campaign = ParseCampaignFile(*file);
    if (!campaign.ok()) return Fail("agents", campaign.status(), 2);
    std::vector<std::string> target_paths;
    for (const auto& t : campaign->targets) target_paths.push_back(t.path);
    absl::StatusOr<FleetHandle> handle = OpenFleet(
        campaign->fleet, target_paths, args->Has("--allow-missing"), SecurityFromFlags(*args),
        LocalFleetRoots(*campaign), LocalFleetNfsServers(*campaign));
    if (!handle.ok()) return Fail("agents", handle.status());
    const PlacementTable placements =
        ClassifyCampaignPlacements(*campaign, PlacementAgentsFromFleet(handle->fleet));
    std::cout << AgentsTable(handle->fleet, &placements);
    return 0;
  }
  if (!args->Has("--hosts") && !args->Has("--local")) {
    return Fail("agents",
                absl::InvalidArgumentError("give --hosts FILE|LIST, --local N or --campaign FILE"),
                2);
  }
  // The same fleet flags as `azbench run --fio-job`, with the same checks.
  absl::StatusOr<FleetSpec> spec =
      FleetFromFlags(args->Get("--hosts"), args->Get("--local"), args->Get("--azs"));
  if (!spec.ok()) return Fail("agents", spec.status(), 2);
  absl::StatusOr<FleetHandle> handle =
      OpenFleet(*spec, {}, args->Has("--allow-missing"), SecurityFromFlags(*args));
  if (!handle.ok()) return Fail("agents", handle.status());
  std::cout << AgentsTable(handle->fleet);
  return 0;
}

}  // namespace azbench::cli_internal
