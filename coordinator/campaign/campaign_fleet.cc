#include "coordinator/campaign/campaign_fleet.h"

#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "common/units.h"
#include "coordinator/fleet/client_security.h"
#include "coordinator/fleet/hosts_file.h"

namespace azbench::campaign_internal {
namespace {

constexpr absl::string_view kFleetKeys[] = {"local", "hosts", "hosts_file", "tls", "token_file"};
constexpr absl::string_view kFleetTlsKeys[] = {"ca_file", "cert_file", "key_file", "server_name"};
constexpr absl::string_view kLocalFleetKeys[] = {"agents", "azs"};

class FleetParser : public CampaignYaml {
 public:
  explicit FleetParser(const CampaignYaml& yaml) : CampaignYaml(yaml) {}

  // fleet.tls {ca_file, cert_file, key_file, server_name} and fleet.token_file (files relative to
  // the campaign), then the agents (local, hosts or hosts_file).
  absl::StatusOr<FleetSpec> ParseFleet(const YAML::Node& node) const {
    ASSIGN_OR_RETURN(MapFields all, ReadMap(node, "fleet", kFleetKeys));
    MapFields source;
    source.node = all.node;
    ClientSecurity security;
    for (const Field& f : all.fields) {
      if (f.key == "token_file") {
        ASSIGN_OR_RETURN(std::string file, Scalar(f.value, "fleet.token_file", "a file path"));
        security.token_file = ResolveRelativeTo(file_, file);
      } else if (f.key == "tls") {
        ASSIGN_OR_RETURN(MapFields tls, ReadMap(f.value, "fleet.tls", kFleetTlsKeys));
        for (const Field& t : tls.fields) {
          const std::string field = absl::StrCat("fleet.tls.", t.key);
          ASSIGN_OR_RETURN(std::string value, Scalar(t.value, field, "a file path"));
          if (t.key == "server_name") {
            security.server_name = value;
          } else {
            (t.key == "ca_file"     ? security.ca_file
             : t.key == "cert_file" ? security.cert_file
                                    : security.key_file) = ResolveRelativeTo(file_, value);
          }
        }
      } else {
        source.fields.push_back(f);
      }
    }
    if (absl::Status s = ValidateClientSecurity(security, "fleet.tls"); !s.ok()) {
      return Error(node, "fleet", s.message());
    }
    ASSIGN_OR_RETURN(FleetSpec fleet, ParseFleetSource(source, node));
    if (fleet.kind == FleetSpec::Kind::kLocal && !security.empty()) {
      return Error(node, "fleet",
                   "tls and token_file are for remote agents (hosts, hosts_file); the local fleet "
                   "talks plaintext over loopback");
    }
    fleet.security = security;
    return fleet;
  }

  absl::StatusOr<FleetSpec> ParseFleetSource(const MapFields& map, const YAML::Node& node) const {
    if (map.fields.size() != 1) {
      return Error(node, "fleet",
                   absl::StrCat("give exactly one of local, hosts, hosts_file; got ",
                                map.fields.empty() ? "none" : "several"));
    }
    const Field& f = map.fields.front();
    FleetSpec fleet;
    if (f.key == "local") {
      fleet.kind = FleetSpec::Kind::kLocal;
      ASSIGN_OR_RETURN(MapFields local, ReadMap(f.value, "fleet.local", kLocalFleetKeys));
      ASSIGN_OR_RETURN(const Field* agents, Require(local, "agents", "fleet.local"));
      ASSIGN_OR_RETURN(std::string count,
                       Scalar(agents->value, "fleet.local.agents", "a count of agents"));
      absl::StatusOr<int64_t> n = ParseInt(count, 1, kMaxLocalAgents);
      if (!n.ok()) {
        return Error(agents->value, "fleet.local.agents",
                     absl::StrCat(n.status().message(), " (at least 1 agent)"));
      }
      fleet.local_agents = static_cast<int>(*n);
      if (const Field* azs = local.Find("azs")) {
        ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                         List(azs->value, "fleet.local.azs", "[local-a, local-b]"));
        for (const YAML::Node& item : items) {
          ASSIGN_OR_RETURN(std::string az, Name(item, "fleet.local.azs"));
          for (const std::string& seen : fleet.local_azs) {
            if (seen == az) {
              return Error(item, "fleet.local.azs", absl::StrCat("'", az, "' is listed twice"));
            }
          }
          fleet.local_azs.push_back(az);
        }
      } else {
        fleet.local_azs = {"local"};
      }
      return fleet;
    }
    fleet.kind = FleetSpec::Kind::kHosts;
    if (f.key == "hosts") {
      ASSIGN_OR_RETURN(std::vector<YAML::Node> items,
                       List(f.value, "fleet.hosts", "[10.0.1.5:7480, 10.0.2.7]"));
      for (const YAML::Node& item : items) {
        ASSIGN_OR_RETURN(std::string text, Scalar(item, "fleet.hosts", "host[:port]"));
        absl::StatusOr<std::string> host = NormalizeAddress(std::string(text));
        if (!host.ok()) return Error(item, "fleet.hosts", host.status().message());
        RETURN_IF_ERROR(AddHost(fleet, *host, [&](absl::string_view message) {
          return Error(item, "fleet.hosts", message);
        }));
      }
      return fleet;
    }
    // hosts_file
    ASSIGN_OR_RETURN(std::string name, Scalar(f.value, "fleet.hosts_file", "a file path"));
    fleet.hosts_file = ResolveRelativeTo(file_, name);
    // The hosts file's own errors name it and the line; the campaign's line that named it is added.
    absl::StatusOr<std::vector<std::string>> hosts = ReadHostsFile(fleet.hosts_file);
    if (!hosts.ok()) {
      return absl::Status(
          hosts.status().code(),
          absl::StrCat(Where(f.value), ": fleet.hosts_file: ", hosts.status().message()));
    }
    fleet.hosts = *std::move(hosts);
    return fleet;
  }

  template <typename MakeError>
  static absl::Status AddHost(FleetSpec& fleet, const std::string& host, MakeError make_error) {
    for (const std::string& seen : fleet.hosts) {
      if (seen == host) return make_error(absl::StrCat("host '", host, "' is listed twice"));
    }
    fleet.hosts.push_back(host);
    return absl::OkStatus();
  }
};

}  // namespace

absl::StatusOr<FleetSpec> ParseFleetSection(const CampaignYaml& yaml, const YAML::Node& node) {
  return FleetParser(yaml).ParseFleet(node);
}

}  // namespace azbench::campaign_internal
