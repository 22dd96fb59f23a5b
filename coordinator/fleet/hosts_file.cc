#include "coordinator/fleet/hosts_file.h"

#include <map>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "common/file_util.h"
#include "common/status_macros.h"
#include "common/version.h"

namespace azbench {

absl::StatusOr<std::string> NormalizeAddress(const std::string& entry) {
  const absl::string_view t = absl::StripAsciiWhitespace(entry);
  std::string host;
  absl::string_view port;
  if (!t.empty() && t.front() == '[') {
    const size_t close = t.find(']');
    if (close == absl::string_view::npos) {
      return absl::InvalidArgumentError(absl::StrCat("'", t, "': missing ']'"));
    }
    host = std::string(t.substr(0, close + 1));
    absl::string_view rest = t.substr(close + 1);
    if (!rest.empty()) {
      if (rest.front() != ':') {
        return absl::InvalidArgumentError(absl::StrCat("'", t, "': expected ':port' after ']'"));
      }
      port = rest.substr(1);
    }
  } else {
    const size_t colon = t.rfind(':');
    if (colon != absl::string_view::npos && t.find(':') != colon) {
      host = absl::StrCat("[", t, "]");  // a bare IPv6 address: no port
    } else if (colon != absl::string_view::npos) {
      host = std::string(t.substr(0, colon));
      port = t.substr(colon + 1);
    } else {
      host = std::string(t);
    }
  }
  if (host.empty() || host == "[]") {
    return absl::InvalidArgumentError(
        absl::StrCat("'", t, "': missing host; expected host[:port]"));
  }
  for (char c : host) {
    if (absl::ascii_isspace(static_cast<unsigned char>(c)) || c == '/') {
      return absl::InvalidArgumentError(
          absl::StrCat("'", t, "' is not a host name; expected host[:port]"));
    }
  }
  int port_number = kDefaultAgentPort;
  if (!port.empty() || (!t.empty() && t.back() == ':')) {
    if (!absl::SimpleAtoi(port, &port_number) || port_number < 1 || port_number > 65535) {
      return absl::InvalidArgumentError(
          absl::StrCat("'", t, "': port must be a number from 1 to 65535"));
    }
  }
  return absl::StrCat(host, ":", port_number);
}

absl::StatusOr<std::vector<std::string>> ReadHostsFile(const std::string& path) {
  ASSIGN_OR_RETURN(const std::string text, ReadWholeFile(path, "hosts file"));
  ASSIGN_OR_RETURN(const absl::string_view lines, TextLines(text, path, "hosts file"));
  std::vector<std::string> hosts;
  std::map<std::string, int> line_of;  // each host's first line, to name it in a repeat's error
  int line_number = 0;
  for (absl::string_view line : absl::StrSplit(lines, '\n')) {
    ++line_number;
    line = absl::StripAsciiWhitespace(line.substr(0, line.find('#')));
    if (line.empty()) continue;
    absl::StatusOr<std::string> address = NormalizeAddress(std::string(line));
    if (!address.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(path, ":", line_number, ": ", address.status().message()));
    }
    // The same agent twice would be two connections to one agent_id, refused only later by
    // ConnectFleet and less clearly; a campaign always refused it here.
    if (const auto [first, added] = line_of.emplace(*address, line_number); !added) {
      return absl::InvalidArgumentError(absl::StrCat(path, ":", line_number, ": host '", *address,
                                                     "' is listed twice (also on line ",
                                                     first->second, ")"));
    }
    hosts.push_back(*std::move(address));
  }
  if (hosts.empty()) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", path, "' lists no hosts; write one host[:port] per line"));
  }
  return hosts;
}

}  // namespace azbench
