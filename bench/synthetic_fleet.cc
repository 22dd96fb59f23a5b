#include "bench/synthetic_fleet.h"

#include <grpcpp/grpcpp.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/synchronization/mutex.h"
#include "azbench/v1/agent.grpc.pb.h"
#include "common/clock.h"
#include "common/histogram.h"
#include "common/job_result.h"
#include "common/job_spec.h"
#include "common/proto_convert.h"
#include "common/version.h"

namespace azbench {

namespace {

struct PreparedRun {
  uint64_t interval_ns = 1'000'000'000;
  std::vector<std::string> jobs;
  std::vector<uint64_t> runtime_ns;
};

// Latency shapes shared by every agent (making histograms is the costly part, not sending them).
const std::vector<Histogram::Sparse>& LatencyPool() {
  static const std::vector<Histogram::Sparse>* pool = [] {
    auto* p = new std::vector<Histogram::Sparse>();
    std::mt19937_64 rng(7);
    std::lognormal_distribution<double> lat(std::log(200'000.0), 0.8);
    for (int i = 0; i < 16; ++i) {
      Histogram h;
      for (int op = 0; op < 2000; ++op) h.Record(static_cast<uint64_t>(lat(rng)));
      p->push_back(h.ToSparse());
    }
    return p;
  }();
  return *pool;
}

// The same shapes as histograms, to add up totals cheaply.
const std::vector<Histogram>& PoolHistograms() {
  static const std::vector<Histogram>* pool = [] {
    auto* p = new std::vector<Histogram>();
    for (const Histogram::Sparse& s : LatencyPool()) p->push_back(*Histogram::FromSparse(s));
    return p;
  }();
  return *pool;
}

// `n` copies of `h` merged, by doubling.
Histogram Times(const Histogram& h, uint64_t n) {
  Histogram out, power = h;
  while (n > 0) {
    if (n & 1) out.Merge(power);
    n >>= 1;
    if (n > 0) {
      const Histogram copy = power;
      power.Merge(copy);
    }
  }
  return out;
}

class SyntheticAgent final : public v1::Agent::Service {
 public:
  SyntheticAgent(std::string agent_id, std::string az, uint64_t ops_per_interval)
      : agent_id_(std::move(agent_id)), az_(std::move(az)), ops_(ops_per_interval) {}

  grpc::Status Hello(grpc::ServerContext*, const v1::HelloRequest*,
                     v1::HelloResponse* response) override {
    response->set_agent_realtime_ns(RealtimeNanos());
    response->set_protocol_version(kProtocolVersion);
    response->set_agent_version(kAzbenchVersion);
    response->set_agent_id(agent_id_);
    response->add_capabilities("workload:block_io");
    return grpc::Status::OK;
  }
  grpc::Status Describe(grpc::ServerContext*, const v1::DescribeRequest*,
                        v1::DescribeResponse* response) override {
    response->mutable_identity()->set_agent_id(agent_id_);
    response->mutable_identity()->set_availability_zone(az_);
    response->mutable_identity()->set_az_source("config");
    response->set_agent_realtime_ns(RealtimeNanos());
    return grpc::Status::OK;
  }
  grpc::Status Prepare(grpc::ServerContext*, const v1::PrepareRequest* request,
                       v1::PrepareResponse*) override {
    PreparedRun run;
    run.interval_ns = (request->interval_ms() == 0 ? 1000 : request->interval_ms()) * 1'000'000;
    for (const v1::JobSpec& job : request->jobs()) {
      JobSpec spec;
      for (const v1::JobOption& o : job.options()) (void)ApplyJobOption(spec, o.key(), o.value());
      run.jobs.push_back(job.name());
      run.runtime_ns.push_back(static_cast<uint64_t>(absl::ToInt64Nanoseconds(spec.runtime)));
    }
    absl::MutexLock lock(&mu_);
    runs_[request->run_id()] = std::move(run);
    return grpc::Status::OK;
  }
  grpc::Status Run(grpc::ServerContext* context, const v1::RunRequest* request,
                   grpc::ServerWriter<v1::RunEvent>* writer) override {
    PreparedRun run;
    {
      absl::MutexLock lock(&mu_);
      auto it = runs_.find(request->run_id());
      if (it == runs_.end()) return grpc::Status(grpc::StatusCode::NOT_FOUND, "no such run");
      run = it->second;
    }
    const int64_t start = request->start_at_agent_realtime_ns();
    SleepUntil(start);
    v1::RunEvent started;
    started.mutable_started()->set_start_realtime_ns(RealtimeNanos());
    if (!writer->Write(started)) return grpc::Status::CANCELLED;
    uint64_t longest = 0;
    for (uint64_t r : run.runtime_ns) longest = std::max(longest, r);
    const int64_t ticks = static_cast<int64_t>((longest + run.interval_ns - 1) / run.interval_ns);
    const std::vector<Histogram::Sparse>& pool = LatencyPool();
    std::vector<JobResult> results(run.jobs.size());
    for (size_t j = 0; j < run.jobs.size(); ++j) {
      results[j].name = run.jobs[j];
      results[j].interval_ns = run.interval_ns;
      results[j].start_realtime_ns = start;
    }
    uint64_t total_ops = 0;
    // How often each job used each pool shape: its latency totals are built from these at the end
    // (the child's CPU is shared with the coordinator under test; keep it small).
    std::vector<std::vector<uint64_t>> pool_uses(run.jobs.size(),
                                                 std::vector<uint64_t>(pool.size(), 0));
    for (int64_t tick = 0; tick < ticks; ++tick) {
      SleepUntil(start + (tick + 1) * static_cast<int64_t>(run.interval_ns));
      if (context->IsCancelled()) return grpc::Status::CANCELLED;
      for (size_t j = 0; j < run.jobs.size(); ++j) {
        IntervalStats interval;
        interval.index = tick;
        IntervalOpStats& s = interval.by_kind[static_cast<int>(OpKind::kRead)];
        s.ops = ops_;
        s.bytes = ops_ * 4096;
        s.lat = pool[static_cast<size_t>(tick + static_cast<int64_t>(j)) % pool.size()];
        OpStats& totals = results[j].Stats(OpKind::kRead);
        totals.ops += s.ops;
        totals.bytes += s.bytes;
        ++pool_uses[j][static_cast<size_t>(tick + static_cast<int64_t>(j)) % pool.size()];
        total_ops += s.ops;
        v1::RunEvent event;
        v1::IntervalEvent* e = event.mutable_interval();
        e->set_job_name(run.jobs[j]);
        e->set_job_index(static_cast<int32_t>(j));
        e->set_result_name(run.jobs[j]);
        e->set_series_start_realtime_ns(start);
        IntervalToProto(interval, e->mutable_interval());
        if (!writer->Write(event)) return grpc::Status::CANCELLED;
      }
      v1::RunEvent progress;
      progress.mutable_progress()->set_agent_realtime_ns(RealtimeNanos());
      progress.mutable_progress()->set_ops(total_ops);
      progress.mutable_progress()->set_bytes(total_ops * 4096);
      if (!writer->Write(progress)) return grpc::Status::CANCELLED;
    }
    const int64_t end = RealtimeNanos();
    for (size_t j = 0; j < results.size(); ++j) {
      JobResult& result = results[j];
      for (size_t p = 0; p < pool.size(); ++p) {
        if (pool_uses[j][p] > 0) {
          result.Stats(OpKind::kRead).lat.Merge(Times(PoolHistograms()[p], pool_uses[j][p]));
        }
      }
      result.end_realtime_ns = end;
      result.runtime_ns = static_cast<uint64_t>(end - start);
      v1::RunEvent event;
      JobResultToProto(result, event.mutable_result());
      // As agent/server/service.cc: the streamed intervals are not repeated (protocol 2).
      event.mutable_result()->set_job_index(static_cast<int32_t>(j));
      if (!writer->Write(event)) return grpc::Status::CANCELLED;
    }
    v1::RunEvent finished;
    finished.mutable_finished()->set_end_realtime_ns(end);
    writer->Write(finished);
    return grpc::Status::OK;
  }
  grpc::Status Cancel(grpc::ServerContext*, const v1::CancelRequest*,
                      v1::CancelResponse*) override {
    return grpc::Status::OK;
  }
  grpc::Status Cleanup(grpc::ServerContext*, const v1::CleanupRequest* request,
                       v1::CleanupResponse*) override {
    absl::MutexLock lock(&mu_);
    runs_.erase(request->run_id());
    return grpc::Status::OK;
  }

 private:
  static void SleepUntil(int64_t realtime_ns) {
    const int64_t wait = realtime_ns - RealtimeNanos();
    if (wait > 0) std::this_thread::sleep_for(std::chrono::nanoseconds(wait));
  }

  const std::string agent_id_;
  const std::string az_;
  const uint64_t ops_;
  absl::Mutex mu_;
  std::map<std::string, PreparedRun> runs_;
};

[[noreturn]] void ServeChild(const SyntheticFleetOptions& options, int report_fd) {
  (void)LatencyPool();
  (void)PoolHistograms();
  std::vector<std::unique_ptr<SyntheticAgent>> agents;
  std::vector<std::unique_ptr<grpc::Server>> servers;
  std::string ports;
  for (int i = 0; i < options.agents; ++i) {
    agents.push_back(std::make_unique<SyntheticAgent>(
        absl::StrCat("sim-", i), absl::StrCat("az-", i % std::max(options.azs, 1)),
        options.ops_per_interval));
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(agents.back().get());
    builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MIN_POLLERS, 1);
    builder.SetSyncServerOption(grpc::ServerBuilder::SyncServerOption::MAX_POLLERS, 2);
    std::unique_ptr<grpc::Server> server = builder.BuildAndStart();
    if (server == nullptr || port == 0) {
      std::fprintf(stderr, "synthetic agent %d: cannot listen\n", i);
      _exit(1);
    }
    servers.push_back(std::move(server));
    absl::StrAppend(&ports, port, "\n");
  }
  absl::StrAppend(&ports, "end\n");
  size_t off = 0;
  while (off < ports.size()) {
    const ssize_t n = write(report_fd, ports.data() + off, ports.size() - off);
    if (n <= 0) _exit(1);
    off += static_cast<size_t>(n);
  }
  close(report_fd);
  for (;;) pause();
}

}  // namespace

SyntheticFleetProcess StartSyntheticFleet(const SyntheticFleetOptions& options) {
  SyntheticFleetProcess fleet;
  int fds[2];
  if (pipe(fds) != 0) return fleet;
  const pid_t pid = fork();
  if (pid < 0) return fleet;
  if (pid == 0) {
    close(fds[0]);
    ServeChild(options, fds[1]);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n <= 0) break;
    text.append(buf, static_cast<size_t>(n));
    if (text.size() >= 4 && text.compare(text.size() - 4, 4, "end\n") == 0) break;
  }
  close(fds[0]);
  fleet.pid = pid;
  size_t pos = 0;
  while (pos < text.size()) {
    const size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) break;
    const std::string line = text.substr(pos, nl - pos);
    pos = nl + 1;
    if (line == "end") break;
    fleet.addresses.push_back(absl::StrCat("127.0.0.1:", line));
  }
  if (static_cast<int>(fleet.addresses.size()) != options.agents) {
    std::fprintf(stderr, "the synthetic fleet started %zu of %d agents\n", fleet.addresses.size(),
                 options.agents);
    StopSyntheticFleet(fleet);
  }
  return fleet;
}

void StopSyntheticFleet(SyntheticFleetProcess& fleet) {
  if (fleet.pid > 0) {
    kill(fleet.pid, SIGKILL);
    waitpid(fleet.pid, nullptr, 0);
  }
  fleet.pid = -1;
  fleet.addresses.clear();
}

}  // namespace azbench
