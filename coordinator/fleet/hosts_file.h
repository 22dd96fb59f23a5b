// Agent addresses as users write them: one "host[:port]" entry (NormalizeAddress) and a hosts file
// of such entries (ReadHostsFile). The one parser behind `--hosts` and a campaign's fleet.hosts and
// fleet.hosts_file.
//
//   ASSIGN_OR_RETURN(std::vector<std::string> hosts, ReadHostsFile("hosts.txt"));
//   // "10.0.1.5\n[fd00::2]:9000  # v6\n" -> {"10.0.1.5:7480", "[fd00::2]:9000"}
#ifndef AZBENCH_COORDINATOR_FLEET_HOSTS_FILE_H_
#define AZBENCH_COORDINATOR_FLEET_HOSTS_FILE_H_

#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

// Adds the default port (kDefaultAgentPort, 7480) to "host" and "[v6]" entries (a bare IPv6
// address is a host without a port); validates "host:port". Surrounding whitespace is ignored.
// Errors: InvalidArgument quoting the entry and saying what is expected.
absl::StatusOr<std::string> NormalizeAddress(const std::string& entry);

// Reads a hosts file: one host[:port] per line (NormalizeAddress), '#' starting a comment that runs
// to the end of the line, blank lines and CR line ends ignored. Returns the addresses in file
// order. Errors: the code of the file's reading (NotFound for a missing file, InvalidArgument for
// one that is no regular file or no text), with its message naming the file; InvalidArgument
// "FILE:LINE: ..." for a bad entry or a host listed twice (after the default port is added: "a"
// and "a:7480" are one host); InvalidArgument naming the file when it lists no host.
absl::StatusOr<std::vector<std::string>> ReadHostsFile(const std::string& path);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_HOSTS_FILE_H_
