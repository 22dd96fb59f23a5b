#include "coordinator/agent_client.h"

#include <chrono>

#include "absl/strings/str_cat.h"
#include "grpcpp/grpcpp.h"

namespace azbench {

namespace {

absl::Status FromGrpc(const grpc::Status& status, const std::string& address, const char* rpc) {
  if (status.ok()) return absl::OkStatus();
  return absl::Status(static_cast<absl::StatusCode>(status.error_code()),
                      absl::StrCat("agent ", address, " ", rpc, ": ", status.error_message()));
}

void SetDeadline(grpc::ClientContext& context, absl::Duration timeout) {
  context.set_deadline(std::chrono::system_clock::now() +
                       std::chrono::milliseconds(absl::ToInt64Milliseconds(timeout)));
}

class GrpcAgentClient final : public AgentClient {
 public:
  GrpcAgentClient(std::string address, std::shared_ptr<grpc::Channel> channel)
      : address_(std::move(address)), channel_(channel), stub_(v1::Agent::NewStub(channel)) {}

  const std::string& address() const override { return address_; }

  absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest& request,
                                          absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    context.set_wait_for_ready(false);
    v1::HelloResponse response;
    grpc::Status s = stub_->Hello(&context, request, &response);
    if (!s.ok()) return FromGrpc(s, address_, "Hello");
    return response;
  }

  absl::StatusOr<v1::DescribeResponse> Describe(const v1::DescribeRequest& request,
                                                absl::Duration timeout) override {
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    v1::DescribeResponse response;
    grpc::Status s = stub_->Describe(&context, request, &response);
    if (!s.ok()) return FromGrpc(s, address_, "Describe");
    return response;
  }

  absl::StatusOr<v1::PrepareResponse> Prepare(const v1::PrepareRequest& request,
                                              absl::Duration timeout) override {
    // Every scenario starts with a Prepare: an agent that restarted since the last one (systemd
    // brings it back in about a second) gets a bounded wait for the channel to reconnect instead
    // of failing on the channel's cached connection error.
    if (!channel_->WaitForConnected(std::chrono::system_clock::now() + kReconnectGrace)) {
      return absl::UnavailableError(
          absl::StrCat("agent ", address_, " Prepare: not reachable (no connection within ",
                       std::chrono::duration_cast<std::chrono::seconds>(kReconnectGrace).count(),
                       " s: down, restarting or partitioned)"));
    }
    grpc::ClientContext context;
    SetDeadline(context, timeout);
    v1::PrepareResponse response;
    grpc::Status s = stub_->Prepare(&context, request, &response);
    if (!s.ok()) return FromGrpc(s, address_, "Prepare");
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
  std::shared_ptr<grpc::Channel> channel_;
  std::unique_ptr<v1::Agent::Stub> stub_;
};

}  // namespace

std::unique_ptr<AgentClient> MakeGrpcAgentClient(const std::string& address) {
  grpc::ChannelArguments args;
  args.SetMaxReceiveMessageSize(64 << 20);
  args.SetMaxSendMessageSize(64 << 20);
  // Keepalive: a silent (dead, partitioned or stopped) agent is detected within ~ 10 s.
  args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, 5000);
  args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
  args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
  args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
  // Reconnect quickly to an agent that restarted (the default backoff grows to 2 minutes).
  args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 250);
  args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 250);
  args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 2000);
  // TLS and authentication come with the security work; until then the channel is plaintext.
  auto channel = grpc::CreateCustomChannel(address, grpc::InsecureChannelCredentials(), args);
  return std::make_unique<GrpcAgentClient>(address, std::move(channel));
}

}  // namespace azbench
