// Connecting to a fleet: for every address, a version handshake (Hello, refused on a protocol
// mismatch with both versions named), a clock-offset measurement (NTP-style: several Hello round
// trips, the sample with the lowest round trip kept: offset = agent_time - (send + receive) / 2,
// uncertainty rtt / 2), and Describe (identity, AZ, mounts of the target paths).
#ifndef AZBENCH_COORDINATOR_FLEET_FLEET_H_
#define AZBENCH_COORDINATOR_FLEET_FLEET_H_

#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "azbench/v1/agent.pb.h"
#include "coordinator/fleet/agent_client.h"
#include "coordinator/fleet/hosts_file.h"  // the addresses ConnectFleet takes
#include "coordinator/scenario.h"

namespace azbench {

struct FleetMember {
  AgentInfo info;
  v1::DescribeResponse description;
  std::unique_ptr<AgentClient> client;
};

struct Fleet {
  std::vector<FleetMember> members;
  std::vector<std::string> missing;  // addresses skipped with --allow-missing, with the reason
  FleetMember* Find(const std::string& agent_id);
  std::vector<AgentInfo> Infos() const;
};

struct ConnectOptions {
  std::vector<std::string> target_paths;  // for Describe's mount lookup
  bool allow_missing = false;
  int clock_samples = 8;
  // Per call, and the window in which a first contact that fails to connect is retried.
  absl::Duration timeout = absl::Seconds(10);
  ClientSecurity security;  // TLS / token (coordinator/fleet/client_security.h); empty = plaintext
};

// Errors: one naming every agent that could not be used and what happened to each: "N of M agents
// unreachable: ..." when every failure was an unreachable agent, else "N of M agents could not be
// used: agent A: unreachable (...); agent B: refused the token (...)". Its code is that of the
// first agent that answered and refused: FailedPrecondition (another protocol version),
// Unauthenticated (the bearer token), AlreadyExists (an agent_id another agent reported first);
// else Unavailable. With allow_missing, the agents that were not reached (or failed the TLS
// handshake, or answered with another error) are recorded in `missing` instead, unless no agent at
// all is left; those that refused stay an error. MakeAgentClient's errors (plaintext to a remote
// agent, unreadable certificate files) come before any connection is tried.
absl::StatusOr<Fleet> ConnectFleet(const std::vector<std::string>& addresses,
                                   const ConnectOptions& options);
// As ConnectFleet, with the clients already made (one per agent, each naming its address): what
// ConnectFleet does once MakeAgentClient made them, and how tests connect fake agents.
absl::StatusOr<Fleet> ConnectClients(std::vector<std::unique_ptr<AgentClient>> clients,
                                     const ConnectOptions& options);

// Measures one agent's clock offset. Errors: as Hello.
absl::Status MeasureClockOffset(AgentClient& client, int samples, absl::Duration timeout,
                                AgentInfo& info);

// Measures the clock offsets of the members named in `agent_ids` again, in parallel, into their
// info (clock_offset_ns, clock_rtt_ns): an offset measured at connect drifts over a campaign of
// hours, and a client_to_client join compares two agents' clocks. A member whose measurement fails
// keeps its earlier offset and is listed in the answer as "<agent>: <why>"; an unknown id is
// skipped.
std::vector<std::string> RemeasureClockOffsets(Fleet& fleet,
                                               const std::vector<std::string>& agent_ids,
                                               int samples, absl::Duration timeout);

// The clock offsets the members named in `agent_ids` hold now (in that order; unknown ids are
// skipped): what a scenario run now uses, to store with it (ScenarioResult::clock_offsets).
std::vector<AgentClockOffset> ClockOffsetsOf(const Fleet& fleet,
                                             const std::vector<std::string>& agent_ids);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_FLEET_H_
