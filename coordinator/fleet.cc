#include "coordinator/fleet.h"

#include <set>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "common/clock.h"
#include "common/status_macros.h"
#include "common/version.h"

namespace azbench {

FleetMember* Fleet::Find(const std::string& agent_id) {
  for (auto& m : members) {
    if (m.info.agent_id == agent_id) return &m;
  }
  return nullptr;
}

std::vector<AgentInfo> Fleet::Infos() const {
  std::vector<AgentInfo> out;
  for (const auto& m : members) out.push_back(m.info);
  return out;
}

std::vector<PlacementAgent> PlacementAgentsFromFleet(const Fleet& fleet) {
  std::vector<PlacementAgent> agents;
  for (const FleetMember& m : fleet.members) {
    agents.push_back(PlacementAgentFromDescribe(m.info.agent_id, m.description));
  }
  return agents;
}

namespace {

// How often a first contact that failed to connect is tried again, at the most.
constexpr absl::Duration kHelloRetryInterval = absl::Milliseconds(200);

// The first contact retries a refused or failed connection until `timeout` has passed: an agent
// that has just started, or one that a loaded machine makes slow to answer, can fail a connection
// attempt, and gRPC's fail-fast call reports that at once, and again at once until a new
// connection is up. Between calls the client waits for that connection (the wait is what drives
// gRPC's next attempts) until one retry interval before the end, left for the last call: its error
// is the one returned, naming the agent and why (refused, timed out, TLS), and the window. "Not
// reachable" is said of a connection that never came up (nothing listening, a handshake that never
// ended); a Hello that timed out on a connection that is up reached the agent (or a proxy in front
// of it), which did not answer: that is what is said then.
absl::Status WaitUntilReachable(AgentClient& client, const v1::HelloRequest& request,
                                absl::Duration timeout) {
  const absl::Time give_up = absl::Now() + timeout;
  absl::StatusOr<v1::HelloResponse> response = client.Hello(request, timeout);
  while (!response.ok() && absl::IsUnavailable(response.status()) &&
         absl::Now() + kHelloRetryInterval < give_up) {
    const absl::Time next_call = absl::Now() + kHelloRetryInterval;
    client.WaitForConnection(give_up - kHelloRetryInterval - absl::Now());
    absl::SleepFor(next_call - absl::Now());  // nothing when the wait took longer
    response = client.Hello(request, give_up - absl::Now());
  }
  const absl::Status& last = response.status();
  if (absl::IsDeadlineExceeded(last) && client.WaitForConnection(absl::ZeroDuration())) {
    return absl::Status(last.code(),
                        absl::StrCat(last.message(), " (connected, but no answer to Hello within ",
                                     absl::FormatDuration(timeout), ")"));
  }
  if (absl::IsUnavailable(last) || absl::IsDeadlineExceeded(last)) {
    return absl::Status(last.code(), absl::StrCat(last.message(), " (not reachable within ",
                                                  absl::FormatDuration(timeout), ")"));
  }
  return last;
}

}  // namespace

absl::Status MeasureClockOffset(AgentClient& client, int samples, absl::Duration timeout,
                                AgentInfo& info) {
  v1::HelloRequest request;
  request.set_protocol_version(kProtocolVersion);
  request.set_coordinator_version(kAzbenchVersion);
  RETURN_IF_ERROR(WaitUntilReachable(client, request, timeout));
  int64_t best_rtt = -1;
  for (int i = 0; i < std::max(1, samples); ++i) {
    const int64_t sent = RealtimeNanos();
    const uint64_t sent_mono = MonotonicNanos();
    ASSIGN_OR_RETURN(v1::HelloResponse response, client.Hello(request, timeout));
    const int64_t rtt = static_cast<int64_t>(MonotonicNanos() - sent_mono);
    if (best_rtt < 0 || rtt < best_rtt) {
      best_rtt = rtt;
      info.clock_offset_ns = response.agent_realtime_ns() - (sent + rtt / 2);
      info.clock_rtt_ns = rtt;
      info.clock_measured_at_ns = sent;
      info.version = response.agent_version();
      info.reattach_grace_ms = response.reattach_grace_ms();
      if (info.agent_id.empty()) info.agent_id = response.agent_id();
    }
  }
  return absl::OkStatus();
}

std::vector<std::string> RemeasureClockOffsets(Fleet& fleet,
                                               const std::vector<std::string>& agent_ids,
                                               int samples, absl::Duration timeout) {
  std::vector<FleetMember*> members;
  for (const std::string& id : agent_ids) {
    if (FleetMember* m = fleet.Find(id); m != nullptr) members.push_back(m);
  }
  std::vector<absl::Status> status(members.size());
  std::vector<AgentInfo> measured(members.size());
  std::vector<std::thread> threads;
  for (size_t i = 0; i < members.size(); ++i) {
    measured[i] = members[i]->info;
    threads.emplace_back([&, i] {
      status[i] = MeasureClockOffset(*members[i]->client, samples, timeout, measured[i]);
    });
  }
  for (std::thread& t : threads) t.join();
  std::vector<std::string> failures;
  for (size_t i = 0; i < members.size(); ++i) {
    if (status[i].ok()) {
      members[i]->info.clock_offset_ns = measured[i].clock_offset_ns;
      members[i]->info.clock_rtt_ns = measured[i].clock_rtt_ns;
      members[i]->info.clock_measured_at_ns = measured[i].clock_measured_at_ns;
    } else {
      failures.push_back(absl::StrCat(members[i]->info.agent_id, ": ", status[i].message()));
    }
  }
  return failures;
}

std::vector<AgentClockOffset> ClockOffsetsOf(const Fleet& fleet,
                                             const std::vector<std::string>& agent_ids) {
  std::vector<AgentClockOffset> offsets;
  for (const std::string& id : agent_ids) {
    for (const FleetMember& m : fleet.members) {
      if (m.info.agent_id != id) continue;
      offsets.push_back(
          {id, m.info.clock_offset_ns, m.info.clock_rtt_ns, m.info.clock_measured_at_ns});
      break;
    }
  }
  return offsets;
}

absl::StatusOr<Fleet> ConnectFleet(const std::vector<std::string>& addresses,
                                   const ConnectOptions& options) {
  if (addresses.empty()) return absl::InvalidArgumentError("the fleet has no agents");
  std::vector<std::unique_ptr<AgentClient>> clients;
  for (const std::string& address : addresses) {
    ASSIGN_OR_RETURN(std::unique_ptr<AgentClient> client,
                     MakeAgentClient(address, options.security));
    clients.push_back(std::move(client));
  }
  return ConnectClients(std::move(clients), options);
}

absl::StatusOr<Fleet> ConnectClients(std::vector<std::unique_ptr<AgentClient>> clients,
                                     const ConnectOptions& options) {
  if (clients.empty()) return absl::InvalidArgumentError("the fleet has no agents");
  struct Attempt {
    FleetMember member;
    absl::Status status;
  };
  const size_t agents = clients.size();
  std::vector<Attempt> attempts(agents);
  for (size_t i = 0; i < agents; ++i) attempts[i].member.client = std::move(clients[i]);
  std::vector<std::thread> threads;
  for (size_t i = 0; i < agents; ++i) {
    threads.emplace_back([&, i] {
      Attempt& a = attempts[i];
      a.member.info.address = a.member.client->address();
      a.status = MeasureClockOffset(*a.member.client, options.clock_samples, options.timeout,
                                    a.member.info);
      if (!a.status.ok()) return;
      v1::DescribeRequest request;
      for (const auto& p : options.target_paths) request.add_target_paths(p);
      absl::StatusOr<v1::DescribeResponse> description =
          a.member.client->Describe(request, options.timeout);
      if (!description.ok()) {
        a.status = description.status();
        return;
      }
      a.member.description = *description;
      const v1::Identity& id = description->identity();
      AgentInfo& info = a.member.info;
      if (!id.agent_id().empty()) info.agent_id = id.agent_id();
      info.hostname = id.hostname();
      info.region = id.region();
      info.availability_zone = id.availability_zone();
      info.availability_zone_id = id.availability_zone_id();
      info.instance_type = id.instance_type();
    });
  }
  for (auto& t : threads) t.join();

  Fleet fleet;
  std::vector<std::string> failures;
  for (auto& a : attempts) {
    if (a.status.code() == absl::StatusCode::kFailedPrecondition) return a.status;  // version
    if (a.status.code() == absl::StatusCode::kUnauthenticated) return a.status;     // token
    if (!a.status.ok()) {
      failures.push_back(std::string(a.status.message()));
      continue;
    }
    fleet.members.push_back(std::move(a.member));
  }
  if (!failures.empty() && (!options.allow_missing || fleet.members.empty())) {
    return absl::UnavailableError(absl::StrCat(
        failures.size(), " of ", agents, " agents unreachable: ", absl::StrJoin(failures, "; "),
        options.allow_missing ? "" : " (use --allow-missing to run without them)"));
  }
  fleet.missing = failures;
  std::set<std::string> ids;
  for (const auto& m : fleet.members) {
    if (!ids.insert(m.info.agent_id).second) {
      return absl::AlreadyExistsError(absl::StrCat("two agents call themselves '", m.info.agent_id,
                                                   "'; give each a distinct agent_id"));
    }
  }
  return fleet;
}

}  // namespace azbench
