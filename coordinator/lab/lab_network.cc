#include "coordinator/lab/lab_network.h"

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "common/status_macros.h"
#include "coordinator/lab/lab_system.h"

namespace azbench {
namespace {

// Writes a sysctl inside a namespace (`ip netns exec` gives the shell the namespace's /proc/sys).
absl::Status Sysctl(const std::string& ns, const std::string& key, const std::string& value) {
  const std::string path = "/proc/sys/" + key;
  return RunLabCommand(
             {kLabIpBinary, "netns", "exec", ns, "/bin/sh", "-c", "echo " + value + " > " + path})
      .status();
}

absl::Status Tc(std::vector<std::string> args) {
  args.insert(args.begin(), kLabTcBinary);
  return RunLabCommand(args).status();
}

}  // namespace

absl::Status BuildLabNetwork(const LabTopology& lab) {
  const std::string& r = lab.router_namespace;
  RETURN_IF_ERROR(Ip({"netns", "add", r}));
  RETURN_IF_ERROR(Ip({"-n", r, "link", "set", "lo", "up"}));
  RETURN_IF_ERROR(Sysctl(r, "net/ipv4/ip_forward", "1"));
  // A packet the delay line writes to the destination AZ's TUN carries a source address routed
  // through another link: strict reverse-path filtering would drop it.
  RETURN_IF_ERROR(Sysctl(r, "net/ipv4/conf/all/rp_filter", "0"));
  RETURN_IF_ERROR(Sysctl(r, "net/ipv4/conf/default/rp_filter", "0"));

  RETURN_IF_ERROR(
      Ip({"link", "add", lab.host_link, "type", "veth", "peer", "name", lab.router_host_link}));
  RETURN_IF_ERROR(Ip({"link", "set", lab.router_host_link, "netns", r}));
  RETURN_IF_ERROR(Ip({"addr", "add", lab.host_address + "/30", "dev", lab.host_link}));
  RETURN_IF_ERROR(Ip({"link", "set", lab.host_link, "up"}));
  RETURN_IF_ERROR(
      Ip({"-n", r, "addr", "add", lab.router_host_address + "/30", "dev", lab.router_host_link}));
  RETURN_IF_ERROR(Ip({"-n", r, "link", "set", lab.router_host_link, "up"}));

  const std::string bandwidth = absl::StrCat(lab.options.cross_az_bandwidth_bits_per_s, "bit");
  for (size_t i = 0; i < lab.azs.size(); ++i) {
    const LabAz& az = lab.azs[i];
    const std::string& ns = az.namespace_name;
    RETURN_IF_ERROR(Ip({"netns", "add", ns}));
    RETURN_IF_ERROR(Ip({"-n", ns, "link", "set", "lo", "up"}));
    RETURN_IF_ERROR(
        Ip({"link", "add", az.router_link, "type", "veth", "peer", "name", az.az_link}));
    RETURN_IF_ERROR(Ip({"link", "set", az.az_link, "netns", ns}));
    RETURN_IF_ERROR(Ip({"link", "set", az.router_link, "netns", r}));
    RETURN_IF_ERROR(Ip({"-n", r, "addr", "add", az.gateway + "/24", "dev", az.router_link}));
    RETURN_IF_ERROR(Ip({"-n", r, "link", "set", az.router_link, "up"}));
    if (i == 0) {
      RETURN_IF_ERROR(
          Ip({"-n", ns, "addr", "add", lab.nfs_server_address + "/24", "dev", az.az_link}));
    }
    for (const LabAgent& agent : az.agents) {
      RETURN_IF_ERROR(Ip({"-n", ns, "addr", "add", agent.address + "/24", "dev", az.az_link}));
    }
    RETURN_IF_ERROR(Ip({"-n", ns, "link", "set", az.az_link, "up"}));
    RETURN_IF_ERROR(Ip({"-n", ns, "route", "add", "default", "via", az.gateway}));
    RETURN_IF_ERROR(Ip({"route", "add", az.subnet, "via", lab.router_host_address}));

    // What AZ i receives from the other AZs shares one HTB class at the cross-AZ rate; what it
    // receives from the host (the coordinator) is not shaped. The class may burst one 64 KiB
    // segment, as a fast link with a rate limit does: a lone 4 KiB reply passes at once instead
    // of waiting its serialization at the limit (170 us at 200 Mbit/s), and a stream still
    // averages to the rate.
    RETURN_IF_ERROR(Tc({"-n", r, "qdisc", "add", "dev", az.router_link, "root", "handle",
                        "1:", "htb", "default", "20"}));
    RETURN_IF_ERROR(
        Tc({"-n", r, "class", "add", "dev", az.router_link, "parent", "1:", "classid", "1:10",
            "htb", "rate", bandwidth, "ceil", bandwidth, "burst", "64k", "cburst", "64k"}));
    RETURN_IF_ERROR(Tc({"-n", r, "class", "add", "dev", az.router_link, "parent", "1:", "classid",
                        "1:20", "htb", "rate", "100gbit"}));
    for (size_t j = 0; j < lab.azs.size(); ++j) {
      if (j == i) continue;
      RETURN_IF_ERROR(
          Tc({"-n", r, "filter", "add", "dev", az.router_link, "parent", "1:", "protocol", "ip",
              "prio", "1", "u32", "match", "ip", "src", lab.azs[j].subnet, "flowid", "1:10"}));
    }

    // Packets leaving AZ i for another AZ go to AZ i's TUN (table 100+i); the delay line writes
    // them to the destination AZ's TUN, from where the main table delivers them.
    RETURN_IF_ERROR(Ip({"-n", r, "tuntap", "add", "dev", az.tun, "mode", "tun"}));
    RETURN_IF_ERROR(Ip({"-n", r, "link", "set", az.tun, "up"}));
    const std::string table = std::to_string(100 + i);
    RETURN_IF_ERROR(
        Ip({"-n", r, "rule", "add", "iif", az.router_link, "lookup", table, "pref", table}));
    for (size_t j = 0; j < lab.azs.size(); ++j) {
      if (j == i) continue;
      RETURN_IF_ERROR(
          Ip({"-n", r, "route", "add", lab.azs[j].subnet, "dev", az.tun, "table", table}));
    }
  }
  return absl::OkStatus();
}

void RemoveLabNetwork() {
  // The router first: its processes (the delay line) hold the TUN devices.
  const std::string router = std::string(kLabPrefix) + "router";
  RemoveNamespace(router);
  for (const std::string& ns : ListNamespaces(kLabPrefix)) RemoveNamespace(ns);
  // A host end whose peer went with its namespace is gone; one left by a half-built lab is not.
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator("/sys/class/net", ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(kLabPrefix, 0) == 0) (void)Ip({"link", "del", name});
  }
}

}  // namespace azbench
