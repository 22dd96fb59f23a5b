#include "agent/service.h"

#include <unistd.h>

#include <algorithm>
#include <map>
#include <set>

#include "absl/strings/str_cat.h"
#include "agent/logging.h"
#include "agent/mounts.h"
#include "common/clock.h"
#include "common/proto_convert.h"
#include "common/version.h"
#include "spdlog/spdlog.h"

namespace azbench {

grpc::Status ToGrpcStatus(const absl::Status& status) {
  if (status.ok()) return grpc::Status::OK;
  // absl and gRPC share the canonical code numbering.
  return grpc::Status(static_cast<grpc::StatusCode>(status.code()), std::string(status.message()));
}

AgentService::AgentService(Runner& runner, AgentIdentity identity)
    : runner_(runner),
      identity_(std::move(identity)),
      resolver_(std::make_shared<SystemResolver>()) {}

AgentService::AgentService(Runner& runner, AgentIdentity identity, std::string mountinfo_path,
                           std::shared_ptr<HostResolver> resolver)
    : runner_(runner),
      identity_(std::move(identity)),
      mountinfo_path_(std::move(mountinfo_path)),
      resolver_(resolver != nullptr ? std::move(resolver) : std::make_shared<SystemResolver>()) {}

grpc::Status AgentService::Hello(grpc::ServerContext*, const v1::HelloRequest* request,
                                 v1::HelloResponse* response) {
  response->set_agent_realtime_ns(RealtimeNanos());
  response->set_protocol_version(kProtocolVersion);
  response->set_agent_version(kAzbenchVersion);
  response->set_agent_id(identity_.agent_id);
  if (request->protocol_version() != kProtocolVersion) {
    return grpc::Status(
        grpc::StatusCode::FAILED_PRECONDITION,
        absl::StrCat("protocol version mismatch: coordinator speaks ", request->protocol_version(),
                     " (azbench ", request->coordinator_version(), "), agent speaks ",
                     kProtocolVersion, " (azbench ", kAzbenchVersion, ")"));
  }
  for (const char* cap :
       {"engine:psync", "engine:libaio", "engine:io_uring", "engine:null", "workload:block_io",
        "workload:metadata", "workload:small_files", "workload:large_stream", "phase_barrier"}) {
    response->add_capabilities(cap);
  }
  return grpc::Status::OK;
}

grpc::Status AgentService::Describe(grpc::ServerContext*, const v1::DescribeRequest* request,
                                    v1::DescribeResponse* response) {
  v1::Identity* id = response->mutable_identity();
  id->set_agent_id(identity_.agent_id);
  id->set_hostname(identity_.hostname);
  id->set_region(identity_.region);
  id->set_availability_zone(identity_.availability_zone);
  id->set_availability_zone_id(identity_.availability_zone_id);
  id->set_instance_type(identity_.instance_type);
  id->set_az_source(identity_.az_source);
  id->set_instance_id(identity_.instance_id);
  id->set_local_ipv4(identity_.local_ipv4);
  for (const AgentSubnet& s : identity_.subnets) {
    v1::Subnet* subnet = id->add_subnets();
    subnet->set_subnet_id(s.subnet_id);
    subnet->set_cidr(s.cidr);
  }
  absl::StatusOr<std::vector<MountEntry>> mounts = ReadMounts(mountinfo_path_);
  if (mounts.ok()) {
    for (const std::string& path : request->target_paths()) {
      const TargetMount m = DescribeTargetMount(*mounts, path, *resolver_);
      if (!m.found) continue;
      v1::MountInfo* info = response->add_mounts();
      info->set_target_path(path);
      info->set_mount_point(m.mount.mount_point);
      info->set_fstype(m.mount.fstype);
      info->set_source(m.mount.source);
      info->set_server(m.mount.server);
      info->set_export_path(m.mount.export_path);
      for (const auto& [k, v] : m.mount.options) (*info->mutable_options())[k] = v;
      for (const auto& a : m.server_addresses) info->add_server_addresses(a);
      info->set_addr(m.addr);
      info->set_client_addr(m.client_addr);
      info->set_resolve_error(m.resolve_error);
    }
  } else {
    AgentLogger("rpc")->warn("describe: {}", std::string(mounts.status().message()));
  }
  response->set_agent_realtime_ns(RealtimeNanos());
  return grpc::Status::OK;
}

grpc::Status AgentService::Prepare(grpc::ServerContext*, const v1::PrepareRequest* request,
                                   v1::PrepareResponse* response) {
  std::vector<JobRequest> jobs;
  for (const v1::JobSpec& spec : request->jobs()) {
    JobRequest job;
    job.name = spec.name();
    job.workload = spec.workload().empty() ? "block_io" : spec.workload();
    job.group_id = spec.group_id();
    for (const auto& opt : spec.options()) job.options.emplace_back(opt.key(), opt.value());
    jobs.push_back(std::move(job));
  }
  const uint64_t interval_ns =
      (request->interval_ms() == 0 ? 1000 : request->interval_ms()) * 1'000'000ULL;
  RunPlacement placement;
  placement.agent_index = request->agent_index();
  placement.agent_count = std::max(1, request->agent_count());
  absl::StatusOr<PrepareOutcome> outcome =
      runner_.Prepare(request->run_id(), jobs, interval_ns, placement);
  if (outcome.ok() && request->lease_ms() > 0) {
    (void)runner_.Renew(request->run_id(), request->lease_ms() * 1'000'000ULL);
  }
  if (!outcome.ok()) {
    AgentLogger("rpc")->warn("prepare {}: {}", request->run_id(),
                             std::string(outcome.status().message()));
    return ToGrpcStatus(outcome.status());
  }
  for (const auto& w : outcome->warnings) response->add_warnings(w);
  for (const auto& f : outcome->files) {
    v1::PreparedFile* file = response->add_files();
    file->set_path(f.path);
    file->set_created(f.created);
  }
  AgentLogger("rpc")->info("prepared run {} ({} jobs)", request->run_id(), jobs.size());
  return grpc::Status::OK;
}

namespace {

// Writes run events to the gRPC stream. A failed Write or a cancelled context means the coordinator
// is gone: the lease is broken.
class StreamSink final : public RunEventSink {
 public:
  StreamSink(grpc::ServerContext* context, grpc::ServerWriter<v1::RunEvent>* writer)
      : context_(context), writer_(writer) {}

  bool OnStarted(int64_t start_realtime_ns) override {
    v1::RunEvent event;
    event.mutable_started()->set_start_realtime_ns(start_realtime_ns);
    return Write(event);
  }
  bool OnProgress(int64_t now, uint64_t ops, uint64_t bytes, int jobs_running) override {
    v1::RunEvent event;
    v1::Progress* p = event.mutable_progress();
    p->set_agent_realtime_ns(now);
    p->set_ops(ops);
    p->set_bytes(bytes);
    p->set_jobs_running(jobs_running);
    return Write(event);
  }
  bool OnInterval(const std::string& job, int clone, const IntervalStats& interval) override {
    return OnSeriesInterval(-1, job, IntervalOrigin{job, clone, 0}, interval);
  }
  bool OnSeriesInterval(int job_index, const std::string& job, const IntervalOrigin& origin,
                        const IntervalStats& interval) override {
    v1::RunEvent event;
    v1::IntervalEvent* e = event.mutable_interval();
    e->set_job_name(job);
    e->set_clone(origin.clone);
    e->set_job_index(job_index);
    e->set_result_name(origin.result_name);
    e->set_series_start_realtime_ns(origin.series_start_realtime_ns);
    IntervalToProto(interval, e->mutable_interval());
    if (!Write(event)) return false;
    streamed_[{job_index, origin.result_name}].insert(interval.index);
    return true;
  }
  bool OnOpLog(const std::string& job, int clone, const std::vector<OpRecord>& records) override {
    v1::RunEvent event;
    OpLogToProto(job, clone, records, event.mutable_op_log());
    return Write(event);
  }
  bool OnResult(const JobResult& result) override { return OnJobResult(-1, result); }
  // The result without the intervals this stream already carried (agent.proto, JobResult).
  bool OnJobResult(int job_index, const JobResult& result) override {
    v1::RunEvent event;
    v1::JobResult* out = event.mutable_result();
    JobResultToProto(result, out);
    out->set_job_index(job_index);
    auto sent = streamed_.find({job_index, result.name});
    if (sent != streamed_.end()) {
      auto* intervals = out->mutable_intervals();
      int kept = 0;
      for (int i = 0; i < intervals->size(); ++i) {
        if (sent->second.count(intervals->Get(i).index()) == 0) intervals->SwapElements(i, kept++);
      }
      intervals->DeleteSubrange(kept, intervals->size() - kept);
      streamed_.erase(sent);
    }
    return Write(event);
  }
  bool OnFinished(int64_t end_realtime_ns, bool cancelled) override {
    v1::RunEvent event;
    event.mutable_finished()->set_end_realtime_ns(end_realtime_ns);
    event.mutable_finished()->set_cancelled(cancelled);
    return Write(event);
  }
  bool OnPhaseDone(int phase_index, const std::string& phase) override {
    v1::RunEvent event;
    event.mutable_phase_done()->set_phase_index(phase_index);
    event.mutable_phase_done()->set_phase(phase);
    return Write(event);
  }
  // The coordinator releases every phase with Proceed (a barrier across all agents).
  bool DrivesPhases() const override { return true; }
  bool Alive() override { return !context_->IsCancelled(); }

 private:
  bool Write(const v1::RunEvent& event) {
    if (context_->IsCancelled()) return false;
    return writer_->Write(event);
  }
  grpc::ServerContext* context_;
  grpc::ServerWriter<v1::RunEvent>* writer_;
  // Interval indices written per (job index, result name), until that result is sent (the runner
  // serialises calls, so no lock).
  std::map<std::pair<int, std::string>, std::set<int64_t>> streamed_;
};

}  // namespace

grpc::Status AgentService::Run(grpc::ServerContext* context, const v1::RunRequest* request,
                               grpc::ServerWriter<v1::RunEvent>* writer) {
  StreamSink sink(context, writer);
  AgentLogger("rpc")->info("run {} starting", request->run_id());
  // 0 = the runner's default; below 10 ms progress would only load the stream.
  const uint64_t progress_ns =
      request->progress_interval_ms() == 0
          ? 0
          : std::max<uint64_t>(request->progress_interval_ms(), 10) * 1'000'000ULL;
  absl::Status status =
      runner_.Run(request->run_id(), request->start_at_agent_realtime_ns(), sink, progress_ns);
  if (!status.ok()) {
    AgentLogger("rpc")->warn("run {}: {}", request->run_id(), std::string(status.message()));
  } else {
    AgentLogger("rpc")->info("run {} finished", request->run_id());
  }
  return ToGrpcStatus(status);
}

grpc::Status AgentService::Cancel(grpc::ServerContext*, const v1::CancelRequest* request,
                                  v1::CancelResponse* response) {
  response->set_was_running(runner_.Cancel(request->run_id()));
  return grpc::Status::OK;
}

grpc::Status AgentService::Proceed(grpc::ServerContext*, const v1::ProceedRequest* request,
                                   v1::ProceedResponse* response) {
  absl::StatusOr<bool> waiting = runner_.Proceed(request->run_id(), request->phase_index(),
                                                 request->start_at_agent_realtime_ns());
  if (!waiting.ok()) return ToGrpcStatus(waiting.status());
  response->set_was_waiting(*waiting);
  return grpc::Status::OK;
}

grpc::Status AgentService::Cleanup(grpc::ServerContext*, const v1::CleanupRequest* request,
                                   v1::CleanupResponse* response) {
  absl::StatusOr<int> removed = runner_.Cleanup(request->run_id(), request->remove_files());
  if (!removed.ok()) return ToGrpcStatus(removed.status());
  response->set_files_removed(static_cast<uint32_t>(*removed));
  return grpc::Status::OK;
}

grpc::Status AgentService::Renew(grpc::ServerContext*, const v1::RenewRequest* request,
                                 v1::RenewResponse*) {
  return ToGrpcStatus(runner_.Renew(request->run_id(), request->lease_ms() * 1'000'000ULL));
}

}  // namespace azbench
