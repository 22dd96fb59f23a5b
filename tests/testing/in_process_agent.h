// An AgentService in the test's own process, on a real gRPC server listening on a loopback port the
// kernel chose, with a stub that calls it over that socket: for tests of the service's RPCs that
// need no agent process. Shut down when it goes away (declare it after the Runner it serves).
//
//   Runner runner_;
//   testing::InProcessAgent agent_{runner_, "s1"};
//   ASSERT_TRUE(agent_.ok());
//   agent_.stub().Prepare(&context, request, &response);
#ifndef AZBENCH_TESTS_TESTING_IN_PROCESS_AGENT_H_
#define AZBENCH_TESTS_TESTING_IN_PROCESS_AGENT_H_

#include <grpcpp/grpcpp.h>

#include <memory>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "agent/host/identity.h"
#include "agent/runner/runner.h"
#include "agent/server/service.h"
#include "azbench/v1/agent.grpc.pb.h"

namespace azbench::testing {

class InProcessAgent {
 public:
  InProcessAgent(Runner& runner, const std::string& agent_id)
      : InProcessAgent(std::make_unique<AgentService>(runner, Identity(agent_id))) {}
  // A service made with other settings (a journal's grace, a mount table).
  explicit InProcessAgent(std::unique_ptr<AgentService> service) : service_(std::move(service)) {
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    if (server_ == nullptr || port == 0) return;
    stub_ = v1::Agent::NewStub(
        grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
  }
  ~InProcessAgent() {
    if (server_ != nullptr) server_->Shutdown();
  }
  InProcessAgent(const InProcessAgent&) = delete;
  InProcessAgent& operator=(const InProcessAgent&) = delete;

  bool ok() const { return stub_ != nullptr; }
  v1::Agent::Stub& stub() { return *stub_; }

 private:
  static AgentIdentity Identity(const std::string& agent_id) {
    AgentIdentity identity;
    identity.agent_id = agent_id;
    return identity;
  }

  std::unique_ptr<AgentService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Agent::Stub> stub_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_IN_PROCESS_AGENT_H_
