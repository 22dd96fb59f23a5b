// The coordinator's view of one agent: the same interface for agents of the embedded local fleet
// and remote ones (elbencho's Worker / RemoteWorker idea), so coordinator/run does not know the
// difference. GrpcAgentClient is the real implementation; tests may substitute their own.
#ifndef AZBENCH_COORDINATOR_FLEET_AGENT_CLIENT_H_
#define AZBENCH_COORDINATOR_FLEET_AGENT_CLIENT_H_

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "azbench/v1/agent.grpc.pb.h"
#include "coordinator/fleet/client_security.h"

namespace azbench {

// An agent call's error, worded "agent ADDRESS CALL: MESSAGE" with `code` kept: a gRPC status
// (GrpcAgentClient) and a run's outcome as RunFinished carried it (RunResumable) read the same.
inline absl::Status AgentCallError(absl::StatusCode code, absl::string_view address,
                                   absl::string_view call, absl::string_view message) {
  return absl::Status(code, absl::StrCat("agent ", address, " ", call, ": ", message));
}

class AgentClient {
 public:
  virtual ~AgentClient() = default;
  virtual const std::string& address() const = 0;
  // Waits up to `timeout` for a connection to the agent, trying to connect (again, on the channel's
  // reconnect backoff) meanwhile: true once connected, false when none came up in time. A fail-fast
  // call is no substitute: once a connection attempt failed, it fails at once until a new
  // connection is up, and gRPC (1.51) advances connection attempts only while some thread waits on
  // the channel (else on a background poll every 5 s). Default (a client without a channel of its
  // own): true at once.
  virtual bool WaitForConnection(absl::Duration /*timeout*/) { return true; }
  // Each call returns the agent's error with its canonical code; Unavailable / DeadlineExceeded
  // when the agent cannot be reached in `timeout`.
  virtual absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest& request,
                                                  absl::Duration timeout) = 0;
  virtual absl::StatusOr<v1::DescribeResponse> Describe(const v1::DescribeRequest& request,
                                                        absl::Duration timeout) = 0;
  virtual absl::StatusOr<v1::PrepareResponse> Prepare(const v1::PrepareRequest& request,
                                                      absl::Duration timeout) = 0;
  // Streams events to `on_event` until the agent ends the stream (its status is returned) or
  // `on_event` returns false (the stream is cancelled: the agent sees its lease broken). Blocks.
  virtual absl::Status Run(const v1::RunRequest& request,
                           const std::function<bool(const v1::RunEvent&)>& on_event) = 0;
  // Resumes a run's stream after a break (agent.proto Attach): as Run, from the event after
  // request.after_seq(). Waits at most `connect_timeout` for a connection (Unavailable after it).
  // Default: Unimplemented (the run is not resumed).
  virtual absl::Status Attach(const v1::AttachRequest& /*request*/,
                              absl::Duration /*connect_timeout*/,
                              const std::function<bool(const v1::RunEvent&)>& /*on_event*/) {
    return absl::UnimplementedError("this agent client does not resume run streams");
  }
  virtual absl::Status Cancel(const std::string& run_id, absl::Duration timeout) = 0;
  virtual absl::StatusOr<v1::CleanupResponse> Cleanup(const v1::CleanupRequest& request,
                                                      absl::Duration timeout) = 0;
  // Releases the next phase of a phased run (metadata's barrier). Default: Unimplemented.
  virtual absl::Status Proceed(const v1::ProceedRequest& /*request*/, absl::Duration /*timeout*/) {
    return absl::UnimplementedError("this agent client does not support phase barriers");
  }
  // Extends a prepared run's lease (see PrepareRequest.lease_ms).
  virtual absl::Status Renew(const v1::RenewRequest& request, absl::Duration timeout) = 0;
};

// Tells an agent to start the next phase (Proceed), again while the call fails on the way
// (Unavailable, DeadlineExceeded: a timeout, a connection that dropped for a moment) and
// `keep_trying()` holds, `retry_pause` apart, until `give_up_after` has passed. Proceed is
// idempotent, and an agent never told stays at its barrier holding every other agent there, so a
// lost call must be made again. Returns OK, or the last error (any other error at once).
absl::Status ProceedUntilDelivered(AgentClient& client, const v1::ProceedRequest& request,
                                   absl::Duration call_timeout,
                                   const std::function<bool()>& keep_trying,
                                   absl::Duration give_up_after, absl::Duration retry_pause);

// Builds the channel (keepalive so a dead agent is noticed within seconds, 64 MiB messages) and the
// client. The one place channels are made. With `security.tls()`: TLS checked against the CA and
// the agent's name (or security.server_name), the coordinator certificate for mutual TLS, the
// bearer token on every call. Without: plaintext, refused for an address that is not loopback.
// Errors: FailedPrecondition (plaintext to a remote agent), InvalidArgument (inconsistent
// settings), NotFound / PermissionDenied (a certificate, key or token file cannot be read).
absl::StatusOr<std::unique_ptr<AgentClient>> MakeAgentClient(const std::string& address,
                                                             const ClientSecurity& security);

// Plaintext, for loopback agents (tests, the local fleet).
std::unique_ptr<AgentClient> MakeGrpcAgentClient(const std::string& address);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_AGENT_CLIENT_H_
