// A base for a test's fake AgentClient: every call answers Unimplemented naming itself ("Run not
// used by this test"), so a fake overrides only the calls its test makes, and a call the test did
// not expect fails with a message that says which.
//
//   class ClockClient final : public testing::UnimplementedAgentClient {
//    public:
//     absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest&, absl::Duration) override;
//   };
#ifndef AZBENCH_TESTS_TESTING_UNIMPLEMENTED_AGENT_CLIENT_H_
#define AZBENCH_TESTS_TESTING_UNIMPLEMENTED_AGENT_CLIENT_H_

#include <functional>
#include <string>
#include <utility>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "coordinator/fleet/agent_client.h"

namespace azbench::testing {

class UnimplementedAgentClient : public AgentClient {
 public:
  explicit UnimplementedAgentClient(std::string address = "127.0.0.1:1")
      : address_(std::move(address)) {}

  const std::string& address() const override { return address_; }
  absl::StatusOr<v1::HelloResponse> Hello(const v1::HelloRequest&, absl::Duration) override {
    return NotUsed("Hello");
  }
  absl::StatusOr<v1::DescribeResponse> Describe(const v1::DescribeRequest&,
                                                absl::Duration) override {
    return NotUsed("Describe");
  }
  absl::StatusOr<v1::PrepareResponse> Prepare(const v1::PrepareRequest&, absl::Duration) override {
    return NotUsed("Prepare");
  }
  absl::Status Run(const v1::RunRequest&,
                   const std::function<bool(const v1::RunEvent&)>&) override {
    return NotUsed("Run");
  }
  absl::Status Attach(const v1::AttachRequest&, absl::Duration,
                      const std::function<bool(const v1::RunEvent&)>&) override {
    return NotUsed("Attach");
  }
  absl::Status Cancel(const std::string&, absl::Duration) override { return NotUsed("Cancel"); }
  absl::StatusOr<v1::CleanupResponse> Cleanup(const v1::CleanupRequest&, absl::Duration) override {
    return NotUsed("Cleanup");
  }
  absl::Status Proceed(const v1::ProceedRequest&, absl::Duration) override {
    return NotUsed("Proceed");
  }
  absl::Status Renew(const v1::RenewRequest&, absl::Duration) override { return NotUsed("Renew"); }

 private:
  static absl::Status NotUsed(const std::string& method) {
    return absl::UnimplementedError(method + " not used by this test");
  }

  std::string address_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_UNIMPLEMENTED_AGENT_CLIENT_H_
