#include "coordinator/lab/lab_rtt.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "absl/strings/str_cat.h"
#include "coordinator/lab/lab_system.h"

namespace azbench {
namespace {

// The connect time, or a negative duration when it failed.
absl::Duration ConnectOnce(const std::string& address, int port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return absl::Seconds(-1);
  // A lost SYN would otherwise be retried for minutes.
  const timeval timeout{.tv_sec = 2, .tv_usec = 0};
  setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof(timeout));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  inet_pton(AF_INET, address.c_str(), &addr.sin_addr);
  const auto start = std::chrono::steady_clock::now();
  const bool ok = connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0;
  const auto end = std::chrono::steady_clock::now();
  close(fd);
  return ok ? absl::FromChrono(end - start) : absl::Seconds(-1);
}

}  // namespace

absl::StatusOr<absl::Duration> MedianConnectRtt(const std::string& network_namespace,
                                                const std::string& address, int port, int samples) {
  std::vector<absl::Duration> times;
  absl::Status entered = InNamespace(network_namespace, [&] {
    for (int i = 0; i < samples; ++i) {
      const absl::Duration d = ConnectOnce(address, port);
      if (d < absl::ZeroDuration()) return;
      times.push_back(d);
    }
  });
  if (!entered.ok()) return entered;
  if (times.size() < static_cast<size_t>(samples)) {
    return absl::UnavailableError(absl::StrCat("cannot connect to ", address, ":", port,
                                               " from namespace ", network_namespace));
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

bool Connects(const std::string& address, int port) {
  return ConnectOnce(address, port) >= absl::ZeroDuration();
}

}  // namespace azbench
