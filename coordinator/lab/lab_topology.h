// `azbench lab`'s plan: what a lab of N simulated AZs is called and numbered, derived from its
// options alone, and the state file that records those options. Pure: no system calls, so `up`,
// `down`, `status` and the delay line all derive the same names and addresses from the state file.
//
// AZ i (0-based, letter a, b, ...) is the network namespace azlab-<letter> with the subnet
// 10.(100+i).0.0/24: gateway .1 (the router), the NFS server .2 (first AZ only), agent j at
// .(10+j). The router namespace azlab-router joins them; the host reaches it over azlab-host
// (10.199.0.1/30).
//
//   ASSIGN_OR_RETURN(LabOptions options, ParseLabState(text));
//   LabTopology lab = PlanLab(options);  // lab.azs[1].agents[0].address == "10.101.0.10"
#ifndef AZBENCH_COORDINATOR_LAB_LAB_TOPOLOGY_H_
#define AZBENCH_COORDINATOR_LAB_LAB_TOPOLOGY_H_

#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"

namespace azbench {

// Every namespace and link of a lab starts with this, so `down` finds what a crashed `up` left.
inline constexpr char kLabPrefix[] = "azlab-";
inline constexpr char kLabDefaultDir[] = "/var/tmp/azbench-lab";
inline constexpr int kLabMaxAzs = 26;
inline constexpr int kLabMaxAgentsPerAz = 100;
inline constexpr int kLabAgentPort = 7480;
inline constexpr int kLabNfsPort = 2049;
inline constexpr int kLabMountPort = 20048;
inline constexpr int kLabImdsBasePort = 9000;  // + agent index within its AZ, on the AZ's loopback

struct LabOptions {
  int azs = 3;
  int agents_per_az = 1;
  int64_t cross_az_bandwidth_bits_per_s = 1'000'000'000;
  // The round trip added between two AZs; each direction gets half.
  absl::Duration cross_az_delay = absl::Microseconds(800);
  std::string dir = kLabDefaultDir;  // state file, TLS files, hosts file, export, logs
};

struct LabAgent {
  std::string name;     // "agent-b0"
  std::string address;  // "10.101.0.10"
  int imds_port = 0;    // on the AZ namespace's 127.0.0.1
};

struct LabAz {
  std::string name;            // "lab-1a", what its agents' instance metadata reports
  std::string id;              // "lab1-az1"
  std::string namespace_name;  // "azlab-a"
  std::string subnet;          // "10.100.0.0/24"
  std::string subnet_base;     // "10.100.0"
  std::string gateway;         // "10.100.0.1", the router's address in this AZ
  std::string router_link;     // "azlab-rt-a", the router's end of the AZ's veth pair
  std::string az_link;         // "azlab-az-a", the AZ's end
  std::string tun;             // "azlab-tun-a", where the delay line reads packets leaving this AZ
  std::vector<LabAgent> agents;
};

struct LabTopology {
  LabOptions options;
  std::vector<LabAz> azs;
  std::string router_namespace = std::string(kLabPrefix) + "router";
  std::string host_link = std::string(kLabPrefix) + "host";
  std::string router_host_link = std::string(kLabPrefix) + "rt-host";
  std::string host_address = "10.199.0.1";
  std::string router_host_address = "10.199.0.2";
  std::string nfs_server_address;  // in the first AZ
  std::string export_dir;          // options.dir + "/export"
};

// InvalidArgument naming the option (--azs, --agents-per-az, --cross-az-bandwidth,
// --cross-az-delay, --dir) and what is allowed.
absl::Status ValidateLabOptions(const LabOptions& options);

// The names and addresses of a lab with valid options.
LabTopology PlanLab(const LabOptions& options);

// The AZ whose subnet holds an IPv4 address (host byte order), or -1.
int LabAzOfAddress(const LabTopology& lab, uint32_t address);

// "1g", "500m", "100k", "2000000" (bits per second, decimal multiples), 1 kbit/s .. 100 Gbit/s.
// InvalidArgument naming --cross-az-bandwidth.
absl::StatusOr<int64_t> ParseLabBandwidth(const std::string& text);

// The state file: "key=value" lines (azs, agents_per_az, cross_az_bandwidth_bits_per_s,
// cross_az_delay_ns, dir); '#' lines are comments. Parse errors: InvalidArgument naming the line.
std::string FormatLabState(const LabOptions& options);
absl::StatusOr<LabOptions> ParseLabState(const std::string& text);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_LAB_TOPOLOGY_H_
