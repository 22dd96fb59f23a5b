#include "coordinator/fleet/agent_client.h"

#include <chrono>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "common/file_util.h"
#include "common/loopback.h"
#include "common/status_macros.h"
#include "grpcpp/grpcpp.h"
#include "grpcpp/security/credentials.h"

namespace azbench {

namespace {

// What to check when an agent cannot be reached: with TLS most failures are a handshake refused
// by one side, which gRPC reports only as a failed connection.
std::string UnavailableHint(const ClientSecurity& security) {
  if (!security.tls()) {
    return " [plaintext connection: if the agent serves TLS, give --tls-ca (and --tls-cert/"
           "--tls-key or --token-file), or fleet.tls in the campaign]";
  }
  return absl::StrCat(
      " [TLS: check that the agent is up and serves TLS, that its certificate is signed by ",
      security.ca_file, " and names the host you gave",
      security.server_name.empty() ? ""
                                   : absl::StrCat(" (checked as '", security.server_name, "')"),
      security.cert_file.empty()
          ? ", and whether the agent requires a client certificate (--tls-cert/--tls-key)"
          : absl::StrCat(", and that the agent's tls.ca_file signed ", security.cert_file),
      "]");
}

// `unavailable_hint` (UnavailableHint) is added only where a TLS mismatch can be the cause: a
// handshake one side refuses fails the connection at once (UNAVAILABLE, the agent closing it or
// the handshake failing), never by running out the call's time (DEADLINE_EXCEEDED: a slow or
// unreachable agent); and without TLS, not a refused connection (an agent serving TLS accepts it,
// then closes it).
absl::Status FromGrpc(const grpc::Status& status, const std::string& address, const char* rpc,
                      const std::string& unavailable_hint = "", bool tls = false) {
  if (status.ok()) return absl::OkStatus();
  const bool hint = status.error_code() == grpc::StatusCode::UNAVAILABLE &&
                    (tls || !absl::StrContains(status.error_message(), "Connection refused"));
  return AgentCallError(static_cast<absl::StatusCode>(status.error_code()), address, rpc,
                        absl::StrCat(status.error_message(), hint ? unavailable_hint : ""));
}

// Adds "authorization: Bearer <token>" to every call (sent only over TLS: gRPC refuses call
// credentials on an insecure channel).
class BearerTokenPlugin final : public grpc::MetadataCredentialsPlugin {
 public:
  explicit BearerTokenPlugin(std::string token) : value_("Bearer " + std::move(token)) {}
  bool IsBlocking() const override { return false; }
  grpc::Status GetMetadata(grpc::string_ref, grpc::string_ref, const grpc::AuthContext&,
                           std::multimap<grpc::string, grpc::string>* metadata) override {
    metadata->insert(std::make_pair("authorization", value_));
    return grpc::Status::OK;
  }

 private:
  std::string value_;
};

void SetDeadline(grpc::ClientContext& context, absl::Duration timeout) {
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(absl::ToInt64Milliseconds(timeout)));
}

class GrpcAgentClient final : public AgentClient {
 public:
  GrpcAgentClient(std::string address, std::shared_ptr<grpc::Channel> channel,
                  std::string hint = "", bool tls = false)
      : address_(std::move(address)),
        hint_(std::move(hint)),
        tls_(tls),
        channel_(channel),
        stub_(v1::Agent::NewStub(channel)) {}

  const std::string& address() const override { return address_; }

  bool WaitForConnection(absl::Duration timeout) override {
    return channel_->WaitForConnected(
        std::chrono::system_clock::now() +
        std::chrono::milliseconds(absl::ToInt64Milliseconds(timeout)));
  }

  absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest& request,
                                          absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    context.set_wait_for_ready(false);
    v1::HelloResponse response;
    grpc::Status s = stub_->Hello(&context, request, &response);
    if (!s.ok()) return FromGrpc(s, address_, "Hello", hint_, tls_);
    return response;
  }

  absl::StatusOr<v1::DescribeResponse> Describe(const v1::DescribeRequest& request,
                                                absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    v1::DescribeResponse response;
    grpc::Status s = stub_->Describe(&context, request, &response);
    if (!s.ok()) return FromGrpc(s, address_, "Describe", hint_, tls_);
    return response;
  }

  absl::StatusOr<v1::PrepareResponse> Prepare(const v1::PrepareRequest& request,
                                              absl::Duration timeout) override {
    // Every scenario starts with a Prepare: an agent that restarted since the last one (systemd
    // brings it back in about a second) gets a bounded wait for the channel to reconnect instead
    // of failing on the channel's cached connection error. A call that met the old process's
    // connection (reset, or refused while the new one came up) is tried once more on the new
    // connection. The agent reserves a run id before laying the run out and answers the same
    // request for an id it holds (or is still preparing) with the first request's outcome, so a
    // retry never prepares twice and gets the answer of the attempt that reached the agent.
    const auto give_up = std::chrono::system_clock::now() + kReconnectGrace;
    grpc::Status s;
    v1::PrepareResponse response;
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (!channel_->WaitForConnected(give_up)) {
        return absl::UnavailableError(
            absl::StrCat("agent ", address_, " Prepare: not reachable (no connection within ",
                         std::chrono::duration_cast<std::chrono::seconds>(kReconnectGrace).count(),
                         " s: down, restarting or partitioned)"));
      }
      grpc::ClientContext context;
      SetDeadline(context, timeout);
      s = stub_->Prepare(&context, request, &response);
      if (s.error_code() != grpc::StatusCode::UNAVAILABLE) break;
    }
    if (!s.ok()) return FromGrpc(s, address_, "Prepare", hint_, tls_);
    return response;
  }

  absl::Status Run(const v1::RunRequest& request,
                   const std::function<bool(const v1::RunEvent&)>& on_event) override {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Run(&context, request);
    v1::RunEvent event;
    while (reader->Read(&event)) {
      if (!on_event(event)) {
        context.TryCancel();
        break;
      }
    }
    return FromGrpc(reader->Finish(), address_, "Run");
  }

  absl::Status Attach(const v1::AttachRequest& request, absl::Duration connect_timeout,
                      const std::function<bool(const v1::RunEvent&)>& on_event) override {
    // A stream has no deadline (it lasts as long as the run): the wait for a connection has one.
    const auto connect_by = std::chrono::system_clock::now() +
                            std::chrono::milliseconds(absl::ToInt64Milliseconds(connect_timeout));
    if (!channel_->WaitForConnected(connect_by)) {
      return absl::UnavailableError(absl::StrCat("agent ", address_,
                                                 " Attach: not reachable within ",
                                                 absl::FormatDuration(connect_timeout)));
    }
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Attach(&context, request);
    v1::RunEvent event;
    while (reader->Read(&event)) {
      if (!on_event(event)) {
        context.TryCancel();
        break;
      }
    }
    return FromGrpc(reader->Finish(), address_, "Attach");
  }

  absl::Status Cancel(const std::string& run_id, absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    v1::CancelRequest request;
    request.set_run_id(run_id);
    v1::CancelResponse response;
    return FromGrpc(stub_->Cancel(&context, request, &response), address_, "Cancel");
  }

  absl::StatusOr<v1::CleanupResponse> Cleanup(const v1::CleanupRequest& request,
                                              absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    v1::CleanupResponse response;
    grpc::Status s = stub_->Cleanup(&context, request, &response);
    if (!s.ok()) return FromGrpc(s, address_, "Cleanup");
    return response;
  }

  absl::Status Proceed(const v1::ProceedRequest& request, absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    v1::ProceedResponse response;
    return FromGrpc(stub_->Proceed(&context, request, &response), address_, "Proceed");
  }

  absl::Status Renew(const v1::RenewRequest& request, absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    v1::RenewResponse response;
    return FromGrpc(stub_->Renew(&context, request, &response), address_, "Renew");
  }

 private:
  static constexpr std::chrono::seconds kReconnectGrace{10};
  std::string address_;
  std::string hint_;  // appended to "unavailable" errors of the handshake RPCs (FromGrpc)
  bool tls_ = false;
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Agent::Stub> stub_;
};

grpc::ChannelArguments BaseChannelArguments() {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  // Keepalive: a silent (dead, partitioned or stopped) agent is detected within ~ 10 s. gRPC also
  // sets the keepalive timeout as each socket's TCP_USER_TIMEOUT, which bounds a TCP connect that
  // gets no answer (SYNs dropped by a partition) to 5 s: the next attempt then begins at once, so a
  // healed partition is seen within ~ 2 s (the kernel's SYN retransmits come 1 and 3 s into an
  // attempt), whatever the attempt time below.
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 5000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  // Reconnect quickly to an agent that restarted (the default backoff grows to 2 minutes).
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 250);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  // Despite its name, gRPC takes this as the least time one connection attempt (TCP connect,
  // handshakes, the agent's first HTTP/2 SETTINGS) is given before it is abandoned, the attempt's
  // deadline being the later of this and the next backoff: at 250 ms, every attempt to an agent
  // that a loaded machine made slow to answer was abandoned after 250 ms .. 2 s and begun again,
  // and the agent was never reached. 20 s (gRPC's default) outlasts the 10 s first-contact window.
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 20000);
  return args;
}

}  // namespace

absl::Status ProceedUntilDelivered(AgentClient& client, const v1::ProceedRequest& request,
                                   absl::Duration call_timeout,
                                   const std::function<bool()>& keep_trying,
                                   absl::Duration give_up_after, absl::Duration retry_pause) {
  const absl::Time give_up_at = absl::Now() + give_up_after;
  for (;;) {
    absl::Status s = client.Proceed(request, call_timeout);
    const bool transient = absl::IsUnavailable(s) || absl::IsDeadlineExceeded(s);
    if (s.ok() || !transient || !keep_trying() || absl::Now() + retry_pause >= give_up_at) {
      return s;
    }
    absl::SleepFor(retry_pause);
  }
}

std::unique_ptr<AgentClient> MakeGrpcAgentClient(const std::string& address) {
  auto channel = grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(),
                                           BaseChannelArguments());
  return std::make_unique<GrpcAgentClient>(address, std::move(channel),
                                           UnavailableHint(ClientSecurity{}));
}

absl::StatusOr<std::unique_ptr<AgentClient>> MakeAgentClient(const std::string& address,
                                                             const ClientSecurity& security) {
  RETURN_IF_ERROR(ValidateClientSecurity(security, "agent connection"));
  if (!security.tls()) {
    if (!IsLoopbackAddress(address)) {
      return absl::FailedPreconditionError(absl::StrCat(
          "agent ", address,
          ": no TLS configured, and plaintext is only used for loopback agents; give --tls-ca "
          "with --tls-cert/--tls-key (mutual TLS) or --token-file, or fleet.tls in the campaign "
          "(`azbench certs init` makes the files)"));
    }
    return MakeGrpcAgentClient(address);
  }
  grpc::SslCredentialsOptions options;
  ASSIGN_OR_RETURN(options.pem_root_certs, ReadWholeFile(security.ca_file, "CA file"));
  if (!security.cert_file.empty()) {
    ASSIGN_OR_RETURN(options.pem_cert_chain,
                     ReadWholeFile(security.cert_file, "coordinator certificate"));
    ASSIGN_OR_RETURN(options.pem_private_key, ReadWholeFile(security.key_file, "coordinator key"));
  }
  std::shared_ptr<grpc::ChannelCredentials> credentials = grpc::SslCredentials(options);
  if (!security.token_file.empty()) {
    ASSIGN_OR_RETURN(std::string text, ReadWholeFile(security.token_file, "token file"));
    std::string token(absl::StripAsciiWhitespace(text.substr(0, text.find('\n'))));
    if (token.empty()) {
      return absl::InvalidArgumentError(
          absl::StrCat("token file '", security.token_file, "' is empty"));
    }
    credentials = grpc::CompositeChannelCredentials(
        credentials,
        grpc::MetadataCredentialsFromPlugin(std::make_unique<BearerTokenPlugin>(std::move(token))));
  }
  grpc::ChannelArguments args = BaseChannelArguments();
  if (!security.server_name.empty()) {
    args.SetSslTargetNameOverride(security.server_name);
  }
  auto channel = grpc::CreateCustomChannel(address, credentials, args);
  return std::unique_ptr<AgentClient>(std::make_unique<GrpcAgentClient>(address, std::move(channel),
                                                                        UnavailableHint(security),
                                                                        /*tls=*/true));
}

}  // namespace azbench
