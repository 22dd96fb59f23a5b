// IP addresses and CIDR blocks (IPv4 and IPv6) for the subnet -> AZ map: parse, contain.
//
//   ASSIGN_OR_RETURN(Cidr subnet, ParseCidr("10.0.1.0/24"));
//   subnet.Contains("10.0.1.77");  // true
#ifndef AZBENCH_COORDINATOR_CAMPAIGN_CIDR_H_
#define AZBENCH_COORDINATOR_CAMPAIGN_CIDR_H_

#include <array>
#include <cstdint>
#include <optional>
#include <string>

#include "absl/status/statusor.h"

namespace azbench {

struct IpAddress {
  bool v6 = false;
  std::array<uint8_t, 16> bytes{};  // IPv4 uses the first 4
  int bits() const { return v6 ? 128 : 32; }
  bool IsLoopback() const;
};

// "10.0.1.5", "fd00::5", "[fd00::5]". nullopt for anything else.
std::optional<IpAddress> ParseIpAddress(const std::string& text);

struct Cidr {
  IpAddress network;  // host bits cleared
  int prefix_length = 0;
  std::string ToString() const;  // canonical "10.0.1.0/24"
  bool Contains(const IpAddress& address) const;
  bool Contains(const std::string& address) const;  // false for a non-address
};

// "10.0.1.0/24", "fd00:1::/64"; a bare address is a /32 (/128). Host bits may be set (they are
// cleared). Errors: InvalidArgument naming the text and the expected form.
absl::StatusOr<Cidr> ParseCidr(const std::string& text);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_CAMPAIGN_CIDR_H_
