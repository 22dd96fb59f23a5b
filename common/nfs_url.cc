#include "common/nfs_url.h"

#include <charconv>

#include "absl/strings/str_cat.h"

namespace azbench {

namespace {

constexpr char kForm[] = "nfs://<server>[:<port>]/<export path>[?<arg>=<value>&...]";
constexpr char kArgs[] = "version, nfsport, mountport";

absl::Status Bad(std::string_view url, std::string_view what) {
  return absl::InvalidArgumentError(absl::StrCat("nfs_url '", std::string(url),
                                                 "': ", std::string(what), " (form: ", kForm, ")"));
}

bool ParseInt(std::string_view text, int min_value, int max_value, int* out) {
  int value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value < min_value ||
      value > max_value) {
    return false;
  }
  *out = value;
  return true;
}

}  // namespace

std::string NfsUrl::LibnfsUrl() const {
  const bool v6 = server.find(':') != std::string::npos;
  std::string url = absl::StrCat("nfs://", v6 ? "[" : "", server, v6 ? "]" : "", export_path,
                                 "?version=", version);
  if (nfs_port > 0) absl::StrAppend(&url, "&nfsport=", nfs_port);
  if (mount_port > 0) absl::StrAppend(&url, "&mountport=", mount_port);
  return url;
}

absl::StatusOr<NfsUrl> ParseNfsUrl(std::string_view url) {
  constexpr std::string_view kScheme = "nfs://";
  if (url.substr(0, kScheme.size()) != kScheme) return Bad(url, "must start with nfs://");
  std::string_view rest = url.substr(kScheme.size());
  std::string_view query;
  if (const size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  const size_t slash = rest.find('/');
  if (slash == std::string_view::npos) return Bad(url, "the export path is missing");
  std::string_view authority = rest.substr(0, slash);
  std::string_view path = rest.substr(slash);
  NfsUrl parsed;
  std::string_view port;
  if (!authority.empty() && authority.front() == '[') {
    const size_t close = authority.find(']');
    if (close == std::string_view::npos) return Bad(url, "an IPv6 address lacks its ']'");
    parsed.server = std::string(authority.substr(1, close - 1));
    std::string_view after = authority.substr(close + 1);
    if (!after.empty()) {
      if (after.front() != ':') return Bad(url, "only ':<port>' may follow the server");
      port = after.substr(1);
      if (port.empty()) return Bad(url, "the port after ':' is empty");
    }
  } else {
    const size_t colon = authority.find(':');
    parsed.server = std::string(authority.substr(0, colon));
    if (colon != std::string_view::npos) {
      port = authority.substr(colon + 1);
      if (port.empty()) return Bad(url, "the port after ':' is empty");
    }
  }
  if (parsed.server.empty()) return Bad(url, "the server is missing");
  if (parsed.server.find_first_of("@/ ") != std::string::npos) {
    return Bad(url, "the server must be a host name or an address (no user@, no spaces)");
  }
  if (!port.empty() && !ParseInt(port, 1, 65535, &parsed.nfs_port)) {
    return Bad(url, absl::StrCat("port '", std::string(port), "' is not a number in 1..65535"));
  }
  if (path.find("/../") != std::string_view::npos || path.ends_with("/..") ||
      path.find("/./") != std::string_view::npos || path.ends_with("/.")) {
    return Bad(url, "the export path must not contain '.' or '..' components");
  }
  parsed.export_path = std::string(path);
  while (parsed.export_path.size() > 1 && parsed.export_path.back() == '/') {
    parsed.export_path.pop_back();
  }
  bool seen_version = false, seen_nfsport = false, seen_mountport = false;
  if (!query.empty()) {
    for (size_t start = 0; start <= query.size();) {
      size_t amp = query.find('&', start);
      if (amp == std::string_view::npos) amp = query.size();
      const std::string_view arg = query.substr(start, amp - start);
      start = amp + 1;
      const size_t eq = arg.find('=');
      if (eq == std::string_view::npos || eq == 0 || eq + 1 == arg.size()) {
        return Bad(url, absl::StrCat("argument '", std::string(arg), "' is not <arg>=<value>"));
      }
      const std::string_view key = arg.substr(0, eq), value = arg.substr(eq + 1);
      auto once = [&](bool& seen) -> absl::Status {
        if (seen) return Bad(url, absl::StrCat("argument '", std::string(key), "' is repeated"));
        seen = true;
        return absl::OkStatus();
      };
      if (key == "version") {
        if (absl::Status s = once(seen_version); !s.ok()) return s;
        if (value != "3" && value != "4") {
          return Bad(url, absl::StrCat("version=", std::string(value), " is not allowed: 3 or 4"));
        }
        parsed.version = value == "3" ? 3 : 4;
      } else if (key == "nfsport" || key == "mountport") {
        if (absl::Status s = once(key == "nfsport" ? seen_nfsport : seen_mountport); !s.ok()) {
          return s;
        }
        int number = 0;
        if (!ParseInt(value, 1, 65535, &number)) {
          return Bad(url, absl::StrCat(std::string(key), "=", std::string(value),
                                       " is not a port in 1..65535"));
        }
        if (key == "nfsport" && parsed.nfs_port > 0) {
          return Bad(url, "the NFS port is given twice (':<port>' and nfsport=)");
        }
        (key == "nfsport" ? parsed.nfs_port : parsed.mount_port) = number;
      } else {
        return Bad(url,
                   absl::StrCat("unknown argument '", std::string(key), "'; allowed: ", kArgs));
      }
    }
  }
  return parsed;
}

absl::Status CheckNfsJob(std::string_view ioengine, std::string_view nfs_url, bool direct) {
  const bool nfs = ioengine == "nfs";
  if (nfs && nfs_url.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("ioengine=nfs needs nfs_url (", kForm, ")"));
  }
  if (!nfs && !nfs_url.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("nfs_url applies only to ioengine=nfs (this job's ioengine is ",
                     std::string(ioengine), ")"));
  }
  if (!nfs) return absl::OkStatus();
  if (direct) {
    return absl::InvalidArgumentError(
        "direct=1 is not allowed with ioengine=nfs (libnfs keeps no page cache to bypass)");
  }
  return ParseNfsUrl(nfs_url).status();
}

absl::Status CheckNfsFileJob(std::string_view nfs_url, bool direct) {
  if (direct) {
    return absl::InvalidArgumentError(
        "direct=1 is not allowed with nfs_url (libnfs keeps no page cache to bypass)");
  }
  return ParseNfsUrl(nfs_url).status();
}

bool IsNfsUrl(std::string_view path) { return path.substr(0, 6) == "nfs://"; }

}  // namespace azbench
