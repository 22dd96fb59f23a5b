#include "coordinator/fleet/fleet.h"

#include <algorithm>
#include <map>
#include <thread>

#include "absl/status/status.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
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

// An agent that could not be joined to the fleet, and what happened, as ConnectFleet's error says
// it: "agent ADDRESS: WHAT (DETAIL)".
struct ConnectFailure {
  std::string address;
  absl::StatusCode code = absl::StatusCode::kUnknown;
  std::string what;     // "unreachable", "refused the token", ...
  std::string message;  // the whole error ("agent ADDRESS Hello: ..."), as `missing` keeps it

  // An agent that did not answer (or not usefully) may be left out with --allow-missing; one that
  // answered and refused this coordinator (another protocol version, the token) or clashes with
  // another agent (its agent_id) is a setup to correct, never run without.
  bool may_go_missing() const {
    return code != absl::StatusCode::kFailedPrecondition &&
           code != absl::StatusCode::kUnauthenticated && code != absl::StatusCode::kAlreadyExists;
  }
  bool unreachable() const { return what == kUnreachable; }

  // The message without the "agent ADDRESS " that the entry already starts with.
  absl::string_view detail() const {
    absl::string_view d = message;
    absl::ConsumePrefix(&d, absl::StrCat("agent ", address, " "));
    return d;
  }

  static ConnectFailure Of(const std::string& address, const absl::Status& status,
                           const ClientSecurity& security) {
    ConnectFailure f{address, status.code(), "", std::string(status.message())};
    const std::string lower = absl::AsciiStrToLower(status.message());
    switch (status.code()) {
      case absl::StatusCode::kUnavailable:
        // gRPC says "Handshake failed" / "Security handshake failed" when one side refused the
        // other's TLS (a CA that did not sign it, a missing client certificate, plaintext).
        f.what = absl::StrContains(lower, "handshake") ? "failed the TLS handshake" : kUnreachable;
        break;
      case absl::StatusCode::kDeadlineExceeded:
        f.what = kUnreachable;
        break;
      case absl::StatusCode::kFailedPrecondition:
        f.what = absl::StrContains(lower, "protocol version") ? "speaks another protocol version"
                                                              : "refused the coordinator";
        break;
      case absl::StatusCode::kUnauthenticated:
        f.what = security.token_file.empty() ? "requires a bearer token" : "refused the token";
        break;
      default:
        f.what = "answered with an error";
        break;
    }
    return f;
  }

  static ConnectFailure SameAgentId(const std::string& address, const std::string& agent_id,
                                    const std::string& first_address) {
    return {address, absl::StatusCode::kAlreadyExists,
            absl::StrCat("calls itself '", agent_id, "', as agent ", first_address, " does"),
            absl::StrCat("agent ", address, " calls itself '", agent_id, "', as agent ",
                         first_address, " does: give each a distinct agent_id")};
  }

  static constexpr const char* kUnreachable = "unreachable";
};

// "N of M agents unreachable: ..." when none could be reached (each as its error says it), else
// "N of M agents could not be used: agent A: unreachable (...); agent B: refused the token (...)".
// The code is that of the first agent that may not go missing (FailedPrecondition,
// Unauthenticated, AlreadyExists), else Unavailable.
absl::Status ConnectError(const std::vector<ConnectFailure>& failures, size_t agents,
                          bool suggest_allow_missing) {
  absl::StatusCode code = absl::StatusCode::kUnavailable;
  for (const ConnectFailure& f : failures) {
    if (!f.may_go_missing()) {
      code = f.code;
      break;
    }
  }
  const bool all_unreachable = std::all_of(failures.begin(), failures.end(),
                                           [](const ConnectFailure& f) { return f.unreachable(); });
  std::string message = absl::StrCat(failures.size(), " of ", agents, " agents ",
                                     all_unreachable ? "unreachable: " : "could not be used: ");
  for (size_t i = 0; i < failures.size(); ++i) {
    const ConnectFailure& f = failures[i];
    if (i > 0) absl::StrAppend(&message, "; ");
    if (all_unreachable || f.code == absl::StatusCode::kAlreadyExists) {
      absl::StrAppend(&message, f.message);  // says what happened already
    } else {
      absl::StrAppend(&message, "agent ", f.address, ": ", f.what, " (", f.detail(), ")");
    }
  }
  if (suggest_allow_missing) {
    absl::StrAppend(&message, " (use --allow-missing to run without them)");
  }
  return absl::Status(code, message);
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
      info.reattach_grace = absl::Milliseconds(response.reattach_grace_ms());
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
  std::vector<ConnectFailure> failures;
  std::map<std::string, std::string> address_of;  // agent_id -> the first agent to report it
  for (Attempt& a : attempts) {
    const std::string& address = a.member.info.address;
    if (!a.status.ok()) {
      failures.push_back(ConnectFailure::Of(address, a.status, options.security));
      continue;
    }
    const std::string& id = a.member.info.agent_id;
    if (const auto [first, added] = address_of.emplace(id, address); !added) {
      failures.push_back(ConnectFailure::SameAgentId(address, id, first->second));
      continue;
    }
    fleet.members.push_back(std::move(a.member));
  }
  if (failures.empty()) return fleet;
  const bool all_may_go_missing = std::all_of(
      failures.begin(), failures.end(), [](const ConnectFailure& f) { return f.may_go_missing(); });
  if (!all_may_go_missing || !options.allow_missing || fleet.members.empty()) {
    return ConnectError(failures, attempts.size(), all_may_go_missing && !options.allow_missing);
  }
  for (const ConnectFailure& f : failures) fleet.missing.push_back(f.message);
  return fleet;
}

}  // namespace azbench
