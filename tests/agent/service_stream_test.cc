// The agent's Run stream sends every interval once (agent.proto, JobResult): as interval events,
// not again inside the result. Real gRPC over loopback to an in-process AgentService.
#include <grpcpp/grpcpp.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "agent/runner.h"
#include "agent/service.h"
#include "azbench/v1/agent.grpc.pb.h"
#include "common/proto_convert.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

class ServiceStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    AgentIdentity identity;
    identity.agent_id = "s1";
    service_ = std::make_unique<AgentService>(runner_, identity);
    grpc::ServerBuilder builder;
    int port = 0;
    builder.AddListeningPort("127.0.0.1:0", grpc::InsecureServerCredentials(), &port);
    builder.RegisterService(service_.get());
    server_ = builder.BuildAndStart();
    ASSERT_NE(server_, nullptr);
    ASSERT_NE(port, 0);
    stub_ = v1::Agent::NewStub(
        grpc::CreateChannel(absl::StrCat("127.0.0.1:", port), grpc::InsecureChannelCredentials()));
  }
  void TearDown() override {
    if (server_ != nullptr) server_->Shutdown();
  }

  // Prepares and runs `jobs` (100 ms intervals), returning every event of the stream.
  std::vector<v1::RunEvent> Run(const std::string& run_id, const std::vector<v1::JobSpec>& jobs) {
    v1::PrepareRequest prepare;
    prepare.set_run_id(run_id);
    prepare.set_interval_ms(100);
    for (const v1::JobSpec& job : jobs) *prepare.add_jobs() = job;
    v1::PrepareResponse prepared;
    {
      grpc::ClientContext context;
      const grpc::Status status = stub_->Prepare(&context, prepare, &prepared);
      EXPECT_TRUE(status.ok()) << status.error_message();
      if (!status.ok()) return {};
    }
    std::vector<v1::RunEvent> events;
    v1::RunRequest request;
    request.set_run_id(run_id);
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Run(&context, request);
    v1::RunEvent event;
    while (reader->Read(&event)) events.push_back(event);
    EXPECT_TRUE(reader->Finish().ok());
    v1::CleanupRequest cleanup;
    cleanup.set_run_id(run_id);
    cleanup.set_remove_files(true);
    v1::CleanupResponse cleaned;
    grpc::ClientContext cleanup_context;
    EXPECT_TRUE(stub_->Cleanup(&cleanup_context, cleanup, &cleaned).ok());
    return events;
  }

  static v1::JobSpec Job(const std::string& name, const std::string& dir,
                         std::vector<std::pair<std::string, std::string>> options) {
    v1::JobSpec job;
    job.set_name(name);
    job.set_workload("block_io");
    options.insert(options.end(), {{"ioengine", "null"},
                                   {"rw", "randread"},
                                   {"size", "1m"},
                                   {"directory", dir},
                                   {"time_based", "1"},
                                   {"runtime", "600ms"}});
    for (const auto& [k, v] : options) {
      v1::JobOption* o = job.add_options();
      o->set_key(k);
      o->set_value(v);
    }
    return job;
  }

  Runner runner_;
  std::unique_ptr<AgentService> service_;
  std::unique_ptr<grpc::Server> server_;
  std::unique_ptr<v1::Agent::Stub> stub_;
};

TEST_F(ServiceStreamTest, ResultsDoNotRepeatTheIntervalsStreamedBeforeThem) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  // Two jobs with the same name (job names may repeat), one with two clones.
  const std::vector<v1::RunEvent> events =
      Run("stream", {Job("j", dir.path(), {{"numjobs", "2"}, {"rate_iops", "2000"}}),
                     Job("j", dir.path(), {{"rate_iops", "1000"}})});
  // Interval ops per (job index, result name), summed over clones.
  std::map<std::pair<int, std::string>, uint64_t> streamed_ops;
  std::map<std::pair<int, std::string>, int> streamed_events;
  int results = 0;
  bool result_seen = false;
  for (const v1::RunEvent& event : events) {
    if (event.has_interval()) {
      EXPECT_FALSE(result_seen) << "all intervals come before the results";
      const v1::IntervalEvent& e = event.interval();
      EXPECT_EQ(e.job_name(), "j");
      EXPECT_EQ(e.result_name(), "j");
      EXPECT_NE(e.series_start_realtime_ns(), 0);
      for (const v1::IntervalOpStats& op : e.interval().ops()) {
        streamed_ops[{e.job_index(), e.result_name()}] += op.ops();
      }
      ++streamed_events[{e.job_index(), e.result_name()}];
    }
    if (event.has_result()) {
      result_seen = true;
      ++results;
      const v1::JobResult& r = event.result();
      const std::pair<int, std::string> key{r.job_index(), r.name()};
      EXPECT_EQ(r.intervals_size(), 0) << "job " << r.job_index() << ": the series was streamed";
      uint64_t ops = 0;
      for (const v1::OpStats& op : r.ops()) ops += op.ops();
      EXPECT_GT(ops, 0u);
      EXPECT_EQ(streamed_ops[key], ops) << "job " << r.job_index();
      // 600 ms of 100 ms intervals: 6 per clone, and a last partial one at most.
      EXPECT_GE(streamed_events[key], r.job_index() == 0 ? 12 : 6);
    }
  }
  EXPECT_EQ(results, 2);
  EXPECT_EQ(streamed_ops.size(), 2u) << "the two jobs named j are kept apart by job_index";
}

TEST_F(ServiceStreamTest, TheSeriesRebuiltFromTheStreamEqualsTheAgentsOwnResult) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::vector<v1::RunEvent> events =
      Run("rebuild", {Job("k", dir.path(), {{"numjobs", "2"}, {"rate_iops", "500"}})});
  std::map<int64_t, IntervalStats> series;
  Histogram latency;
  uint64_t result_ops = 0;
  Histogram result_latency;
  for (const v1::RunEvent& event : events) {
    if (event.has_interval()) {
      absl::StatusOr<IntervalStats> interval = IntervalFromProto(event.interval().interval());
      ASSERT_TRUE(interval.ok()) << interval.status();
      const IntervalOpStats& read = interval->by_kind[static_cast<int>(OpKind::kRead)];
      ASSERT_TRUE(latency.MergeSparse(read.lat).ok());
      auto [it, fresh] = series.try_emplace(interval->index, *interval);
      if (!fresh) it->second.Merge(*interval);
    }
    if (event.has_result()) {
      absl::StatusOr<JobResult> result = JobResultFromProto(event.result());
      ASSERT_TRUE(result.ok()) << result.status();
      const OpStats* read = result->Find(OpKind::kRead);
      ASSERT_NE(read, nullptr);
      result_ops = read->ops;
      result_latency = read->lat;
    }
  }
  uint64_t series_ops = 0;
  for (const auto& [index, interval] : series) {
    series_ops += interval.by_kind[static_cast<int>(OpKind::kRead)].ops;
  }
  EXPECT_GT(result_ops, 0u);
  EXPECT_EQ(series_ops, result_ops);
  EXPECT_TRUE(latency == result_latency) << "the streamed intervals hold every latency sample";
}

}  // namespace
}  // namespace azbench
