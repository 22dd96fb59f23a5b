#include "agent/server/agent_proto.h"

#include "absl/strings/str_cat.h"
#include "agent/engines/io_engine.h"
#include "agent/runner/family_registry.h"

namespace azbench {

void IdentityToProto(const AgentIdentity& identity, v1::Identity* out) {
  out->set_agent_id(identity.agent_id);
  out->set_hostname(identity.hostname);
  out->set_region(identity.region);
  out->set_availability_zone(identity.availability_zone);
  out->set_availability_zone_id(identity.availability_zone_id);
  out->set_instance_type(identity.instance_type);
  out->set_az_source(identity.az_source);
  out->set_instance_id(identity.instance_id);
  out->set_local_ipv4(identity.local_ipv4);
  for (const AgentSubnet& s : identity.subnets) {
    v1::Subnet* subnet = out->add_subnets();
    subnet->set_subnet_id(s.subnet_id);
    subnet->set_cidr(s.cidr);
  }
}

void TargetMountToProto(const TargetMount& mount, v1::MountInfo* out) {
  out->set_target_path(mount.target_path);
  out->set_mount_point(mount.mount.mount_point);
  out->set_fstype(mount.mount.fstype);
  out->set_source(mount.mount.source);
  out->set_server(mount.mount.server);
  out->set_export_path(mount.mount.export_path);
  for (const auto& [k, v] : mount.mount.options) (*out->mutable_options())[k] = v;
  for (const std::string& a : mount.server_addresses) out->add_server_addresses(a);
  out->set_addr(mount.addr);
  out->set_client_addr(mount.client_addr);
  out->set_resolve_error(mount.resolve_error);
}

void PreparedFileToProto(const LaidOutFile& file, v1::PreparedFile* out) {
  out->set_path(file.path);
  out->set_created(file.created);
}

std::vector<std::string> AgentCapabilities() {
  std::vector<std::string> capabilities;
  for (const std::string& engine : EngineNames()) {
    capabilities.push_back(absl::StrCat("engine:", engine));
  }
  for (const Family* family : Families()) {
    capabilities.push_back(absl::StrCat("workload:", std::string(family->name())));
  }
  capabilities.push_back("phase_barrier");
  return capabilities;
}

}  // namespace azbench
