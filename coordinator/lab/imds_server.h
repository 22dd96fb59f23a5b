// A minimal instance-metadata service (IMDSv2: a token from `PUT /latest/api/token`, then GETs
// under /latest/meta-data/ carrying it) for the lab's agents, so each learns its AZ and subnet the
// way it would on EC2. One request per connection, answered in order; run by the hidden
// `azbench lab imds` inside an AZ's network namespace until killed.
//
//   ImdsValues values = LabImdsValues(lab, az_index, agent_index);
//   return ServeImds("127.0.0.1", 9000, values);  // does not return unless it fails
#ifndef AZBENCH_COORDINATOR_LAB_IMDS_SERVER_H_
#define AZBENCH_COORDINATOR_LAB_IMDS_SERVER_H_

#include <map>
#include <string>

#include "absl/status/status.h"
#include "coordinator/lab/lab_topology.h"

namespace azbench {

// Path under /latest/meta-data/ -> body.
using ImdsValues = std::map<std::string, std::string>;

// What the agent at (az, agent) of the lab is told: region, AZ name and id, instance id and type,
// local address, and its subnet (id and CIDR) under its one MAC.
ImdsValues LabImdsValues(const LabTopology& lab, int az, int agent);

// The answer to one request: 200 with the value, a generated listing for a path ending in '/', 401
// without the token, 404 otherwise.
struct ImdsAnswer {
  int status = 404;
  std::string body;
};
ImdsAnswer AnswerImds(const ImdsValues& values, const std::string& method, const std::string& path,
                      const std::map<std::string, std::string>& headers);

// Listens on address:port and answers forever. Internal when it cannot listen.
// What ServeImds prints on stdout once it listens.
inline constexpr char kImdsReadyLine[] = "imds: listening";

absl::Status ServeImds(const std::string& address, int port, const ImdsValues& values);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_LAB_IMDS_SERVER_H_
