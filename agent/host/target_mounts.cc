#include "agent/host/target_mounts.h"

#include <arpa/inet.h>
#include <netdb.h>
#include <sys/socket.h>

#include <algorithm>
#include <chrono>
#include <future>
#include <memory>
#include <thread>

#include "absl/strings/str_cat.h"
#include "common/nfs_url.h"

namespace azbench {

namespace {

absl::StatusOr<std::vector<std::string>> ResolveNow(const std::string& host) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* result = nullptr;
  const int rc = getaddrinfo(host.c_str(), nullptr, &hints, &result);
  if (rc != 0) {
    const std::string message = absl::StrCat("cannot resolve '", host, "': ", gai_strerror(rc));
    if (rc == EAI_AGAIN) return absl::UnavailableError(message);
    return absl::NotFoundError(message);
  }
  std::vector<std::string> addresses;
  for (addrinfo* ai = result; ai != nullptr; ai = ai->ai_next) {
    char buf[INET6_ADDRSTRLEN] = {};
    const void* src = nullptr;
    if (ai->ai_family == AF_INET) {
      src = &reinterpret_cast<sockaddr_in*>(ai->ai_addr)->sin_addr;
    } else if (ai->ai_family == AF_INET6) {
      src = &reinterpret_cast<sockaddr_in6*>(ai->ai_addr)->sin6_addr;
    }
    if (src == nullptr || inet_ntop(ai->ai_family, src, buf, sizeof(buf)) == nullptr) continue;
    if (std::find(addresses.begin(), addresses.end(), buf) == addresses.end()) {
      addresses.emplace_back(buf);
    }
  }
  freeaddrinfo(result);
  return addresses;
}

}  // namespace

absl::StatusOr<std::vector<std::string>> SystemResolver::Resolve(const std::string& host) {
  using Result = absl::StatusOr<std::vector<std::string>>;
  auto promise = std::make_shared<std::promise<Result>>();
  std::future<Result> future = promise->get_future();
  std::thread([promise, host] { promise->set_value(ResolveNow(host)); }).detach();
  if (future.wait_for(absl::ToChronoNanoseconds(timeout_)) != std::future_status::ready) {
    return absl::DeadlineExceededError(absl::StrCat("resolving '", host, "' took longer than ",
                                                    absl::ToInt64Milliseconds(timeout_), " ms"));
  }
  return future.get();
}

absl::StatusOr<std::vector<std::string>> StaticResolver::Resolve(const std::string& host) {
  auto it = table_.find(host);
  if (it == table_.end()) {
    return absl::NotFoundError(absl::StrCat("cannot resolve '", host, "': unknown name"));
  }
  return it->second;
}

const std::vector<std::string>& ResultChangingMountOptions() {
  static const std::vector<std::string> kOptions = {
      "vers",    "proto",       "rsize",   "wsize",      "hard",     "soft",     "timeo",
      "retrans", "nconnect",    "actimeo", "acregmin",   "acregmax", "acdirmin", "acdirmax",
      "noac",    "lookupcache", "sync",    "noresvport", "fsc",      "flock",    "localflock"};
  return kOptions;
}

namespace {

// The server's addresses, or why there are none.
void ResolveServer(HostResolver& resolver, TargetMount& out) {
  if (out.mount.server.empty()) return;
  std::string host = out.mount.server;
  // "[fd00::1]" (NFS over IPv6) resolves as the bare literal.
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') {
    host = host.substr(1, host.size() - 2);
  }
  absl::StatusOr<std::vector<std::string>> addresses = resolver.Resolve(host);
  if (addresses.ok()) {
    out.server_addresses = *std::move(addresses);
  } else {
    out.resolve_error = std::string(addresses.status().message());
  }
}

}  // namespace

TargetMount DescribeTargetMount(const std::vector<MountEntry>& mounts,
                                const std::string& target_path, HostResolver& resolver) {
  TargetMount out;
  out.target_path = target_path;
  std::optional<MountEntry> entry = FindMountFor(mounts, target_path);
  if (!entry) return out;
  out.found = true;
  out.mount = *std::move(entry);
  const auto& options = out.mount.options;
  if (auto it = options.find("addr"); it != options.end()) out.addr = it->second;
  if (auto it = options.find("clientaddr"); it != options.end()) out.client_addr = it->second;
  for (const std::string& name : ResultChangingMountOptions()) {
    if (auto it = options.find(name); it != options.end()) out.result_options[name] = it->second;
  }
  ResolveServer(resolver, out);
  return out;
}

TargetMount DescribeNfsUrlTarget(const std::string& target_url, HostResolver& resolver) {
  TargetMount out;
  out.target_path = target_url;
  absl::StatusOr<NfsUrl> url = ParseNfsUrl(target_url);
  if (!url.ok()) {
    out.resolve_error = std::string(url.status().message());
    return out;
  }
  out.found = true;
  out.mount.fstype = std::string(kNfsUrlMountType);
  out.mount.source = target_url;
  out.mount.server = url->server;
  out.mount.export_path = url->export_path;
  out.mount.options["vers"] = absl::StrCat(url->version);
  if (url->nfs_port > 0) out.mount.options["nfsport"] = absl::StrCat(url->nfs_port);
  if (url->mount_port > 0) out.mount.options["mountport"] = absl::StrCat(url->mount_port);
  out.result_options["vers"] = out.mount.options["vers"];
  ResolveServer(resolver, out);
  return out;
}

}  // namespace azbench
