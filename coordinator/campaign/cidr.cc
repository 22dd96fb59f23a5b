#include "coordinator/campaign/cidr.h"

#include <arpa/inet.h>

#include <cstring>

#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace azbench {

bool IpAddress::IsLoopback() const {
  if (!v6) return bytes[0] == 127;
  static const std::array<uint8_t, 16> kLoopback6 = {0, 0, 0, 0, 0, 0, 0, 0,
                                                     0, 0, 0, 0, 0, 0, 0, 1};
  return bytes == kLoopback6;
}

std::optional<IpAddress> ParseIpAddress(const std::string& raw) {
  std::string text = raw;
  if (text.size() > 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  }
  IpAddress address;
  in_addr v4{};
  in6_addr v6{};
  if (inet_pton(AF_INET, text.c_str(), &v4) == 1) {
    std::memcpy(address.bytes.data(), &v4, 4);
    return address;
  }
  if (inet_pton(AF_INET6, text.c_str(), &v6) == 1) {
    address.v6 = true;
    std::memcpy(address.bytes.data(), &v6, 16);
    return address;
  }
  return std::nullopt;
}

std::string Cidr::ToString() const {
  char buf[INET6_ADDRSTRLEN] = {};
  inet_ntop(network.v6 ? AF_INET6 : AF_INET, network.bytes.data(), buf, sizeof(buf));
  return absl::StrCat(buf, "/", prefix_length);
}

bool Cidr::Contains(const IpAddress& address) const {
  if (address.v6 != network.v6) return false;
  for (int bit = 0; bit < prefix_length; ++bit) {
    const uint8_t mask = static_cast<uint8_t>(0x80 >> (bit % 8));
    if ((address.bytes[bit / 8] & mask) != (network.bytes[bit / 8] & mask)) return false;
  }
  return true;
}

bool Cidr::Contains(const std::string& address) const {
  const std::optional<IpAddress> parsed = ParseIpAddress(address);
  return parsed.has_value() && Contains(*parsed);
}

absl::StatusOr<Cidr> ParseCidr(const std::string& text) {
  const size_t slash = text.find('/');
  const std::optional<IpAddress> address = ParseIpAddress(text.substr(0, slash));
  if (!address) {
    return absl::InvalidArgumentError(absl::StrCat(
        "'", text, "' is not a CIDR block (expected e.g. 10.0.1.0/24 or fd00:1::/64)"));
  }
  Cidr cidr;
  cidr.network = *address;
  cidr.prefix_length = address->bits();
  if (slash != std::string::npos) {
    int length = -1;
    if (!absl::SimpleAtoi(text.substr(slash + 1), &length) || length < 0 ||
        length > address->bits()) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", text, "': the prefix length must be 0..", address->bits()));
    }
    cidr.prefix_length = length;
  }
  for (int bit = cidr.prefix_length; bit < address->bits(); ++bit) {
    cidr.network.bytes[bit / 8] &= static_cast<uint8_t>(~(0x80 >> (bit % 8)));
  }
  return cidr;
}

}  // namespace azbench
