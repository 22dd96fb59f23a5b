#include "agent/host/identity.h"

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"

namespace azbench {
namespace {

// The value at `path`, trimmed; empty when the instance has no such entry (404).
absl::StatusOr<std::string> Optional(MetadataClient& imds, const std::string& path) {
  absl::StatusOr<std::string> value = imds.Get(absl::StrCat("meta-data/", path));
  if (absl::IsNotFound(value.status())) return std::string();
  if (!value.ok()) return value.status();
  return std::string(absl::StripAsciiWhitespace(*value));
}

}  // namespace

IdentityDiscovery DiscoverIdentity(MetadataClient* imds, AgentIdentity pinned) {
  IdentityDiscovery out;
  out.identity = std::move(pinned);
  AgentIdentity& id = out.identity;
  if (!id.availability_zone.empty() || !id.availability_zone_id.empty()) id.az_source = "config";
  if (imds == nullptr) {
    out.imds_status = absl::FailedPreconditionError("no instance metadata client");
    return out;
  }
  // The first request tells whether there is an IMDS at all: stop there when there is not.
  absl::StatusOr<std::string> az = Optional(*imds, "placement/availability-zone");
  if (!az.ok()) {
    out.imds_status = az.status();
    out.notes.push_back(
        absl::StrCat("instance metadata: ", az.status().message(), "; AZ source: ", id.az_source));
    return out;
  }
  auto fetch = [&](const std::string& path) -> std::string {
    absl::StatusOr<std::string> v = Optional(*imds, path);
    if (!v.ok()) {
      if (out.imds_status.ok()) out.imds_status = v.status();
      return "";
    }
    return *v;
  };
  const std::string az_id = fetch("placement/availability-zone-id");
  const std::string region = fetch("placement/region");
  if (id.az_source == "config") {
    if (!id.availability_zone.empty() && !az->empty() && *az != id.availability_zone) {
      out.notes.push_back(absl::StrCat("the configured AZ '", id.availability_zone,
                                       "' is kept although instance metadata says '", *az, "'"));
    }
    if (!id.availability_zone_id.empty() && !az_id.empty() && az_id != id.availability_zone_id) {
      out.notes.push_back(absl::StrCat("the configured AZ id '", id.availability_zone_id,
                                       "' is kept although instance metadata says '", az_id, "'"));
    }
    // Only fill the half that was not pinned when IMDS agrees on the other half (or it is empty).
    if (id.availability_zone.empty() && id.availability_zone_id == az_id) {
      id.availability_zone = *az;
    }
    if (id.availability_zone_id.empty() && id.availability_zone == *az) {
      id.availability_zone_id = az_id;
    }
  } else if (!az->empty()) {
    id.availability_zone = *az;
    id.availability_zone_id = az_id;
    id.az_source = "imds";
  }
  if (id.region.empty()) id.region = region;
  if (id.instance_id.empty()) id.instance_id = fetch("instance-id");
  if (id.instance_type.empty()) id.instance_type = fetch("instance-type");
  if (id.local_ipv4.empty()) id.local_ipv4 = fetch("local-ipv4");
  const std::string macs = fetch("network/interfaces/macs/");
  for (absl::string_view line : absl::StrSplit(macs, '\n', absl::SkipWhitespace())) {
    std::string mac(absl::StripAsciiWhitespace(line));
    while (!mac.empty() && mac.back() == '/') mac.pop_back();
    if (mac.empty()) continue;
    AgentSubnet subnet;
    subnet.mac = mac;
    const std::string base = absl::StrCat("network/interfaces/macs/", mac, "/");
    subnet.subnet_id = fetch(base + "subnet-id");
    subnet.cidr = fetch(base + "subnet-ipv4-cidr-block");
    if (!subnet.cidr.empty()) id.subnets.push_back(std::move(subnet));
  }
  out.notes.push_back(absl::StrCat("instance metadata: ", id.instance_id, " ", id.instance_type,
                                   " in ", id.availability_zone, " (", id.availability_zone_id,
                                   "), ", id.subnets.size(),
                                   " subnet(s); AZ source: ", id.az_source));
  return out;
}

}  // namespace azbench
