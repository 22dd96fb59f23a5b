#include "common/loopback.h"

#include <arpa/inet.h>

#include <cstring>

namespace azbench {

std::string HostOfAddress(const std::string& address) {
  std::string a = address;
  for (const char* scheme : {"ipv4:", "ipv6:", "dns:///", "dns:"}) {
    if (a.rfind(scheme, 0) == 0) {
      a = a.substr(std::strlen(scheme));
      break;
    }
  }
  if (!a.empty() && a.front() == '[') {
    const size_t close = a.find(']');
    return close == std::string::npos ? a.substr(1) : a.substr(1, close - 1);
  }
  const size_t first = a.find(':');
  if (first != std::string::npos && a.find(':', first + 1) != std::string::npos) {
    return a;  // a bare IPv6 address without a port
  }
  return first == std::string::npos ? a : a.substr(0, first);
}

bool IsLoopbackAddress(const std::string& address) {
  const std::string host = HostOfAddress(address);
  if (host == "localhost") return true;
  in_addr v4{};
  if (inet_pton(AF_INET, host.c_str(), &v4) == 1) {
    return (ntohl(v4.s_addr) >> 24) == 127;
  }
  in6_addr v6{};
  if (inet_pton(AF_INET6, host.c_str(), &v6) == 1) {
    if (IN6_IS_ADDR_LOOPBACK(&v6)) return true;
    // ::ffff:127.x.y.z
    if (IN6_IS_ADDR_V4MAPPED(&v6)) return v6.s6_addr[12] == 127;
    return false;
  }
  return false;
}

}  // namespace azbench
