// The gRPC adapter of the agent: converts azbench.v1 messages to domain types and delegates to
// Runner (jobs) and the identity provider. No business logic lives here.
#ifndef AZBENCH_AGENT_SERVER_SERVICE_H_
#define AZBENCH_AGENT_SERVER_SERVICE_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>

#include "absl/base/thread_annotations.h"
#include "absl/synchronization/mutex.h"
#include "agent/host/identity.h"
#include "agent/host/target_mounts.h"
#include "agent/runner/runner.h"
#include "agent/server/run_journal.h"
#include "azbench/v1/agent.grpc.pb.h"

namespace azbench {

class AgentService final : public v1::Agent::Service {
 public:
  AgentService(Runner& runner, AgentIdentity identity);
  // Where Describe reads the mount table and how it resolves server names (default:
  // /proc/self/mountinfo and getaddrinfo), and the run streams' journals
  // (agent/server/run_journal.h: the reattach grace and the bounds).
  AgentService(Runner& runner, AgentIdentity identity, std::string mountinfo_path,
               std::shared_ptr<HostResolver> resolver, RunJournalConfig journal = {});

  grpc::Status Hello(grpc::ServerContext* context, const v1::HelloRequest* request,
                     v1::HelloResponse* response) override;
  grpc::Status Describe(grpc::ServerContext* context, const v1::DescribeRequest* request,
                        v1::DescribeResponse* response) override;
  grpc::Status Prepare(grpc::ServerContext* context, const v1::PrepareRequest* request,
                       v1::PrepareResponse* response) override;
  grpc::Status Run(grpc::ServerContext* context, const v1::RunRequest* request,
                   grpc::ServerWriter<v1::RunEvent>* writer) override;
  grpc::Status Attach(grpc::ServerContext* context, const v1::AttachRequest* request,
                      grpc::ServerWriter<v1::RunEvent>* writer) override;
  grpc::Status Cancel(grpc::ServerContext* context, const v1::CancelRequest* request,
                      v1::CancelResponse* response) override;
  grpc::Status Renew(grpc::ServerContext* context, const v1::RenewRequest* request,
                     v1::RenewResponse* response) override;
  grpc::Status Cleanup(grpc::ServerContext* context, const v1::CleanupRequest* request,
                       v1::CleanupResponse* response) override;
  grpc::Status Proceed(grpc::ServerContext* context, const v1::ProceedRequest* request,
                       v1::ProceedResponse* response) override;

  // The journals of the runs streamed (tests look at them).
  RunJournals& journals() { return *journals_; }

 private:
  // The lease a run's Prepare asked for (lease_ms > 0); zero when it asked for none (the runner's
  // default). A Renew with lease_ms 0 and the end of the run renew to it
  // (agent.proto, RenewRequest.lease_ms and PrepareRequest.lease_ms).
  absl::Duration AskedLease(const std::string& run_id);
  void RememberAskedLease(const std::string& run_id, absl::Duration lease);
  void ForgetAskedLease(const std::string& run_id);

  Runner& runner_;
  AgentIdentity identity_;
  std::string mountinfo_path_ = "/proc/self/mountinfo";
  std::shared_ptr<HostResolver> resolver_;
  // Declared before journals_, whose reaper forgets abandoned runs' leases: they outlive it.
  struct Lease {
    absl::Duration lease;
    uint64_t order = 0;  // when it was remembered (the oldest goes first at the bound)
  };
  absl::Mutex leases_mu_;
  // By run id. Forgotten at Cleanup, when the run is abandoned or its lease lost, and when a Renew
  // finds the run gone; a run the runner's reaper forgot (its coordinator died) is never cleaned
  // up, so at most kMaxAskedLeases are kept, the oldest dropped.
  std::map<std::string, Lease> asked_leases_ ABSL_GUARDED_BY(leases_mu_);
  uint64_t next_lease_order_ ABSL_GUARDED_BY(leases_mu_) = 0;
  std::unique_ptr<RunJournals> journals_;
};

// The one place where absl::Status becomes grpc::Status (and back, for the coordinator).
grpc::Status ToGrpcStatus(const absl::Status& status);

}  // namespace azbench

#endif  // AZBENCH_AGENT_SERVER_SERVICE_H_
