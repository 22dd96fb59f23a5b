#include "agent/server/service.h"

#include <unistd.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "agent/host/logging.h"
#include "agent/host/mounts.h"
#include "agent/server/agent_proto.h"
#include "agent/server/journal_sink.h"
#include "common/clock.h"
#include "common/job_spec.h"
#include "common/nfs_url.h"
#include "common/proto_convert.h"
#include "common/status_macros.h"
#include "common/version.h"
#include "spdlog/spdlog.h"

namespace azbench {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  // absl and gRPC share the canonical code numbering.
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()));
}

namespace {

// A run that finished while its coordinator was away, and that no coordinator reattached to within
// the grace: nobody will call Cleanup, so its files go now (not a prepared lease later), and
// `forget_lease` forgets the lease its Prepare asked for.
std::function<void(const std::string&)> AbandonedRunCleaner(
    Runner& runner, std::function<void(const std::string&)> forget_lease) {
  return [&runner, forget_lease = std::move(forget_lease)](const std::string& run_id) {
    forget_lease(run_id);
    absl::StatusOr<int> removed = runner.Cleanup(run_id, /*remove_files=*/true);
    if (removed.ok()) {
      AgentLogger("rpc")->warn("run {}: forgot it and removed {} files", run_id, *removed);
    }
  };
}

// The most options one job of a Prepare may carry (azbench knows fewer than 100 option names).
constexpr int kMaxJobOptions = 256;

// A Prepare's or Renew's lease_ms: 0 (the lease the agent would use anyway) or 1 s to 24 h, the
// range the coordinator's --prepared-lease takes (a longer lease keeps a dead coordinator's files).
constexpr uint32_t kMinLeaseMs = 1'000, kMaxLeaseMs = 86'400'000;

// The most Prepare leases remembered at once (AgentService::asked_leases_). The runner holds a few
// runs (max_concurrent_runs); the rest are runs its reaper forgot, which nothing else removes.
constexpr size_t kMaxAskedLeases = 4096;

absl::Status CheckLeaseMs(uint32_t lease_ms, const char* zero_means) {
  if (lease_ms != 0 && (lease_ms < kMinLeaseMs || lease_ms > kMaxLeaseMs)) {
    return absl::InvalidArgumentError(
        absl::StrCat("lease_ms ", lease_ms, " is out of range: give 0 (= ", zero_means, ") or ",
                     kMinLeaseMs, " to ", kMaxLeaseMs, " (1 s to 24 h)"));
  }
  return absl::OkStatus();
}

// The numeric fields of a Prepare, checked before any is used (a field's unit conversion, e.g.
// interval_ms to ns, must not overflow into a value that passes the runner's checks).
absl::Status CheckPrepareRequest(const v1::PrepareRequest& request) {
  const uint64_t min_ms = kMinIntervalNs / 1'000'000, max_ms = kMaxIntervalNs / 1'000'000;
  if (request.interval_ms() != 0 &&
      (request.interval_ms() < min_ms || request.interval_ms() > max_ms)) {
    return absl::InvalidArgumentError(absl::StrCat("interval_ms ", request.interval_ms(),
                                                   " is out of range: give 0 (= 1000) or ", min_ms,
                                                   " to ", max_ms, " (1 h)"));
  }
  if (request.agent_count() < 0) {
    return absl::InvalidArgumentError(absl::StrCat("agent_count ", request.agent_count(),
                                                   " is out of range: give 0 (= 1) or more"));
  }
  const int agent_count = std::max(1, request.agent_count());
  if (request.agent_index() < 0 || request.agent_index() >= agent_count) {
    return absl::InvalidArgumentError(absl::StrCat("agent_index ", request.agent_index(),
                                                   " is out of range: give 0 to ", agent_count - 1,
                                                   " (agent_count ", request.agent_count(), ")"));
  }
  RETURN_IF_ERROR(CheckLeaseMs(request.lease_ms(), "the agent's default lease"));
  for (const v1::JobSpec& job : request.jobs()) {
    // Every family's job name is part of its file names.
    RETURN_IF_ERROR(CheckJobName(job.name()));
    // A bound on the work of applying them (20,000 repeated bs options were taken). Repeats
    // themselves are fio's: a job file's [global] bs and its section's bs both travel, the last
    // one counts.
    if (job.options_size() > kMaxJobOptions) {
      // Named: the key given most often (a loop that repeated one option, usually).
      std::map<std::string, int> counts;
      for (const v1::JobOption& option : job.options()) ++counts[option.key()];
      const auto most =
          std::max_element(counts.begin(), counts.end(),
                           [](const auto& a, const auto& b) { return a.second < b.second; });
      return absl::InvalidArgumentError(absl::StrCat(
          "job '", job.name(), "' has ", job.options_size(), " options (", most->second,
          " of them '", most->first, "'): give at most ", kMaxJobOptions));
    }
  }
  return absl::OkStatus();
}

// The same for a Run (and a Proceed): a start instant is an agent realtime in ns, 0 = now.
absl::Status CheckStartAt(int64_t start_at_agent_realtime_ns) {
  if (start_at_agent_realtime_ns < 0) {
    return absl::InvalidArgumentError(absl::StrCat(
        "start_at_agent_realtime_ns ", start_at_agent_realtime_ns,
        " is out of range: give 0 (= now) or an instant on the agent's clock, at most ",
        kMaxStartAheadNs / 1'000'000'000, " s ahead"));
  }
  return absl::OkStatus();
}

absl::Status CheckRunRequest(const v1::RunRequest& request) {
  RETURN_IF_ERROR(CheckStartAt(request.start_at_agent_realtime_ns()));
  // Progress events are also the lease's poll (a broken stream is noticed at the next one).
  const uint64_t max_ms = kMaxProgressIntervalNs / 1'000'000;
  if (request.progress_interval_ms() > max_ms) {
    return absl::InvalidArgumentError(
        absl::StrCat("progress_interval_ms ", request.progress_interval_ms(),
                     " is out of range: give 0 (= 250) or up to ", max_ms, " (below 10 is 10)"));
  }
  return absl::OkStatus();
}

}  // namespace

AgentService::AgentService(Runner& runner, AgentIdentity identity)
    : AgentService(runner, std::move(identity), "/proc/self/mountinfo", nullptr) {}

AgentService::AgentService(Runner& runner, AgentIdentity identity, std::string mountinfo_path,
                           std::shared_ptr<HostResolver> resolver, RunJournalConfig journal)
    : runner_(runner),
      identity_(std::move(identity)),
      mountinfo_path_(std::move(mountinfo_path)),
      resolver_(resolver != nullptr ? std::move(resolver) : std::make_shared<SystemResolver>()),
      journals_(std::make_unique<RunJournals>(
          std::move(journal), AbandonedRunCleaner(runner, [this](const std::string& run_id) {
            ForgetAskedLease(run_id);
          }))) {}

absl::Duration AgentService::AskedLease(const std::string& run_id) {
  absl::MutexLock lock(&leases_mu_);
  auto it = asked_leases_.find(run_id);
  return it == asked_leases_.end() ? absl::ZeroDuration() : it->second.lease;
}

void AgentService::RememberAskedLease(const std::string& run_id, absl::Duration lease) {
  absl::MutexLock lock(&leases_mu_);
  if (lease <= absl::ZeroDuration()) {
    asked_leases_.erase(run_id);
    return;
  }
  if (asked_leases_.size() >= kMaxAskedLeases && !asked_leases_.contains(run_id)) {
    asked_leases_.erase(std::min_element(
        asked_leases_.begin(), asked_leases_.end(),
        [](const auto& a, const auto& b) { return a.second.order < b.second.order; }));
  }
  asked_leases_[run_id] = Lease{.lease = lease, .order = next_lease_order_++};
}

void AgentService::ForgetAskedLease(const std::string& run_id) {
  absl::MutexLock lock(&leases_mu_);
  asked_leases_.erase(run_id);
}

grpc::Status AgentService::Hello(grpc::ServerContext*, const v1::HelloRequest* request,
                                 v1::HelloResponse* response) {
  response->set_agent_realtime_ns(RealtimeNanos());
  response->set_protocol_version(kProtocolVersion);
  response->set_agent_version(kAzbenchVersion);
  response->set_agent_id(identity_.agent_id);
  response->set_reattach_grace_ms(absl::ToInt64Milliseconds(journals_->config().grace));
  if (request->protocol_version() != kProtocolVersion) {
    return grpc::Status(
        grpc::StatusCode::FAILED_PRECONDITION,
        absl::StrCat("protocol version mismatch: coordinator speaks ", request->protocol_version(),
                     " (azbench ", request->coordinator_version(), "), agent speaks ",
                     kProtocolVersion, " (azbench ", kAzbenchVersion, ")"));
  }
  for (const std::string& cap : AgentCapabilities()) response->add_capabilities(cap);
  return grpc::Status::OK;
}

grpc::Status AgentService::Describe(grpc::ServerContext*, const v1::DescribeRequest* request,
                                    v1::DescribeResponse* response) {
  IdentityToProto(identity_, response->mutable_identity());
  absl::StatusOr<std::vector<MountEntry>> mounts = ReadMounts(mountinfo_path_);
  if (!mounts.ok()) {
    AgentLogger("rpc")->warn("describe: {}", std::string(mounts.status().message()));
  }
  for (const std::string& path : request->target_paths()) {
    if (!IsNfsUrl(path) && !mounts.ok()) continue;
    const TargetMount m = IsNfsUrl(path) ? DescribeNfsUrlTarget(path, *resolver_)
                                         : DescribeTargetMount(*mounts, path, *resolver_);
    if (!m.found) continue;
    TargetMountToProto(m, response->add_mounts());
  }
  response->set_agent_realtime_ns(RealtimeNanos());
  return grpc::Status::OK;
}

grpc::Status AgentService::Prepare(grpc::ServerContext*, const v1::PrepareRequest* request,
                                   v1::PrepareResponse* response) {
  if (absl::Status bad = CheckPrepareRequest(*request); !bad.ok()) {
    AgentLogger("rpc")->warn("prepare {}: {}", request->run_id(), std::string(bad.message()));
    return ToGrpcStatus(bad);
  }
  std::vector<JobRequest> jobs;
  for (const v1::JobSpec& spec : request->jobs()) {
    JobDefinition definition = JobDefinitionFromProto(spec);
    JobRequest job;
    job.name = std::move(definition.name);
    job.workload = std::move(definition.workload);
    job.group_id = definition.group_id;
    job.options = std::move(definition.options);
    jobs.push_back(std::move(job));
  }
  const uint64_t interval_ns =
      (request->interval_ms() == 0 ? 1000 : request->interval_ms()) * 1'000'000ULL;
  RunPlacement placement;
  placement.agent_index = request->agent_index();
  placement.agent_count = std::max(1, request->agent_count());
  absl::StatusOr<PrepareOutcome> outcome =
      runner_.Prepare(request->run_id(), jobs, interval_ns, placement);
  if (outcome.ok()) {
    // The last Prepare that succeeded names the lease (a retry of the same request succeeds too).
    const absl::Duration lease = absl::Milliseconds(request->lease_ms());
    RememberAskedLease(request->run_id(), lease);
    if (lease > absl::ZeroDuration()) (void)runner_.Renew(request->run_id(), lease);
  }
  if (!outcome.ok()) {
    AgentLogger("rpc")->warn("prepare {}: {}", request->run_id(),
                             std::string(outcome.status().message()));
    return ToGrpcStatus(outcome.status());
  }
  for (const auto& w : outcome->warnings) response->add_warnings(w);
  for (const LaidOutFile& f : outcome->files) PreparedFileToProto(f, response->add_files());
  AgentLogger("rpc")->info("prepared run {} ({} jobs)", request->run_id(), jobs.size());
  return grpc::Status::OK;
}

namespace {

// A Run or Attach stream as the journal writes to it. A failed Write or a cancelled context means
// the coordinator is gone (the journal then waits for an Attach, for the grace).
class GrpcJournalWriter final : public JournalWriter {
 public:
  GrpcJournalWriter(grpc::ServerContext* context, grpc::ServerWriter<v1::RunEvent>* writer)
      : context_(context), writer_(writer) {}
  bool Write(const v1::RunEvent& event) override { return writer_->Write(event); }
  bool Cancelled() override { return context_->IsCancelled(); }
  void Cancel() override { context_->TryCancel(); }

 private:
  grpc::ServerContext* context_;
  grpc::ServerWriter<v1::RunEvent>* writer_;
};

}  // namespace

grpc::Status AgentService::Run(grpc::ServerContext* context, const v1::RunRequest* request,
                               grpc::ServerWriter<v1::RunEvent>* writer) {
  if (absl::Status bad = CheckRunRequest(*request); !bad.ok()) {
    AgentLogger("rpc")->warn("run {}: {}", request->run_id(), std::string(bad.message()));
    return ToGrpcStatus(bad);
  }
  // This thread runs the run; the journal writes its events to this stream, or to an Attach
  // stream (another handler thread) after this one broke.
  GrpcJournalWriter out(context, writer);
  absl::StatusOr<RunJournals::Started> started = journals_->Start(request->run_id(), &out);
  if (!started.ok()) return ToGrpcStatus(started.status());
  std::shared_ptr<RunJournal> journal = std::move(started->journal);
  const uint64_t attachment = started->attachment;
  JournalSink sink(*journal);
  AgentLogger("rpc")->info("run {} starting", request->run_id());
  // 0 = the runner's default; below 10 ms progress would only load the stream.
  const absl::Duration progress =
      request->progress_interval_ms() == 0
          ? absl::ZeroDuration()
          : absl::Milliseconds(std::max<uint64_t>(request->progress_interval_ms(), 10));
  absl::Status status =
      runner_.Run(request->run_id(), request->start_at_agent_realtime_ns(), sink, progress);
  // RunFinished goes out only now, with the run's outcome in it: whichever stream carries it (this
  // one, or an Attach after a break) carries the job's error, and a coordinator that lost the
  // stream's status after RunFinished still has it.
  (void)sink.Finish(status);
  const bool complete = journal->Detach(attachment);
  // The lease a run waiting for Cleanup has (agent.proto, PrepareRequest.lease_ms); 0 = the
  // runner's default, which the runner gave it when the run ended.
  const absl::Duration asked_lease = AskedLease(request->run_id());
  const absl::Duration lease =
      asked_lease > absl::ZeroDuration() ? asked_lease : runner_.prepared_lease();
  // Nothing to resume: the run never started (it may be run again), or its lease was lost.
  if (journal->last_seq() == 0 || journal->lease_lost()) {
    journals_->Forget(request->run_id());
    if (journal->lease_lost()) ForgetAskedLease(request->run_id());  // nobody will renew it
  } else if (!complete && lease > absl::ZeroDuration()) {
    // Its end is collectable by an Attach for the grace: the files wait for the Cleanup after it.
    (void)runner_.Renew(request->run_id(), journals_->config().grace + lease);
  } else if (asked_lease > absl::ZeroDuration()) {
    (void)runner_.Renew(request->run_id(), asked_lease);
  }
  if (!status.ok()) {
    AgentLogger("rpc")->warn("run {}: {}", request->run_id(), std::string(status.message()));
    return ToGrpcStatus(status);
  }
  AgentLogger("rpc")->info("run {} finished", request->run_id());
  if (!complete) {
    return grpc::Status(grpc::StatusCode::ABORTED,
                        "this stream broke or was replaced by an Attach before the run finished");
  }
  return grpc::Status::OK;
}

grpc::Status AgentService::Attach(grpc::ServerContext* context, const v1::AttachRequest* request,
                                  grpc::ServerWriter<v1::RunEvent>* writer) {
  absl::StatusOr<std::shared_ptr<RunJournal>> journal = journals_->Find(request->run_id());
  if (!journal.ok()) return ToGrpcStatus(journal.status());
  GrpcJournalWriter out(context, writer);
  absl::StatusOr<uint64_t> attachment = (*journal)->Attach(&out, request->after_seq());
  if (!attachment.ok()) {
    AgentLogger("rpc")->warn("attach {}: {}", request->run_id(),
                             std::string(attachment.status().message()));
    return ToGrpcStatus(attachment.status());
  }
  const absl::Status ended = (*journal)->Wait(*attachment);
  if (!ended.ok()) return ToGrpcStatus(ended);
  // RunFinished was written to this stream (or the coordinator had it): it ends with the outcome
  // RunFinished carries, as Run's would have.
  return ToGrpcStatus((*journal)->outcome());
}

grpc::Status AgentService::Cancel(grpc::ServerContext*, const v1::CancelRequest* request,
                                  v1::CancelResponse* response) {
  response->set_was_running(runner_.Cancel(request->run_id()));
  return grpc::Status::OK;
}

grpc::Status AgentService::Proceed(grpc::ServerContext*, const v1::ProceedRequest* request,
                                   v1::ProceedResponse* response) {
  if (request->phase_index() < 0) {
    return ToGrpcStatus(absl::InvalidArgumentError(
        absl::StrCat("phase_index ", request->phase_index(), " is out of range: give 0 or more")));
  }
  if (absl::Status bad = CheckStartAt(request->start_at_agent_realtime_ns()); !bad.ok()) {
    return ToGrpcStatus(bad);
  }
  absl::StatusOr<bool> waiting = runner_.Proceed(request->run_id(), request->phase_index(),
                                                 request->start_at_agent_realtime_ns());
  if (!waiting.ok()) return ToGrpcStatus(waiting.status());
  response->set_was_waiting(*waiting);
  return grpc::Status::OK;
}

grpc::Status AgentService::Cleanup(grpc::ServerContext*, const v1::CleanupRequest* request,
                                   v1::CleanupResponse* response) {
  absl::StatusOr<int> removed = runner_.Cleanup(request->run_id(), request->remove_files());
  // Gone either way (NotFound: it expired), and its Prepare's lease with it.
  if (removed.ok() || absl::IsNotFound(removed.status())) ForgetAskedLease(request->run_id());
  if (!removed.ok()) return ToGrpcStatus(removed.status());
  journals_->Forget(request->run_id());  // the coordinator has what it wanted
  response->set_files_removed(static_cast<uint32_t>(*removed));
  return grpc::Status::OK;
}

grpc::Status AgentService::Renew(grpc::ServerContext*, const v1::RenewRequest* request,
                                 v1::RenewResponse*) {
  if (absl::Status bad = CheckLeaseMs(
          request->lease_ms(), "the lease the Prepare asked for, or the agent's default lease");
      !bad.ok()) {
    AgentLogger("rpc")->warn("renew {}: {}", request->run_id(), std::string(bad.message()));
    return ToGrpcStatus(bad);
  }
  // A Renew's own lease_ms counts for this renewal only; 0 is the Prepare's again.
  const absl::Duration lease = request->lease_ms() > 0 ? absl::Milliseconds(request->lease_ms())
                                                       : AskedLease(request->run_id());
  const absl::Status renewed = runner_.Renew(request->run_id(), lease);
  if (absl::IsNotFound(renewed)) ForgetAskedLease(request->run_id());  // expired
  return ToGrpcStatus(renewed);
}

}  // namespace azbench
