// The agent's Run stream sends every interval once (agent.proto, JobResult): as interval events,
// not again inside the result; and a run's lease while it is not running (ServiceLeaseTest). Real
// gRPC over loopback to an in-process AgentService.
#include <grpcpp/grpcpp.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agent/runner/runner.h"
#include "agent/server/service.h"
#include "azbench/v1/agent.grpc.pb.h"
#include "common/clock.h"
#include "common/proto_convert.h"
#include "gtest/gtest.h"
#include "tests/testing/in_process_agent.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

v1::JobSpec Spec(const std::string& name, const std::string& workload,
                 const std::vector<std::pair<std::string, std::string>>& options) {
  v1::JobSpec job;
  job.set_name(name);
  job.set_workload(workload);
  for (const auto& [k, v] : options) {
    v1::JobOption* o = job.add_options();
    o->set_key(k);
    o->set_value(v);
  }
  return job;
}

class ServiceStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(agent_.ok());
    stub_ = &agent_.stub();
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
    options.insert(options.end(), {{"ioengine", "null"},
                                   {"rw", "randread"},
                                   {"size", "1m"},
                                   {"directory", dir},
                                   {"time_based", "1"},
                                   {"runtime", "600ms"}});
    return Spec(name, "block_io", options);
  }

  // Prepares run `run_id`: a probe job "c2c" whose directory is gone when it runs (it fails making
  // its directory, before any S3 call).
  void PrepareProbeThatFails(const std::string& run_id) {
    ASSERT_TRUE(probe_dir_.ok());
    const std::string gone = probe_dir_.path() + "/gone-" + run_id;
    std::filesystem::create_directory(gone);
    v1::PrepareRequest prepare;
    prepare.set_run_id(run_id);
    prepare.set_interval_ms(100);
    *prepare.add_jobs() = Spec("c2c", "visibility",
                               {{"probe", "export"},
                                {"bucket", "b"},
                                {"trials", "1"},
                                {"timeout", "200ms"},
                                {"directory", gone}});
    grpc::ClientContext context;
    v1::PrepareResponse prepared;
    const grpc::Status status = stub_->Prepare(&context, prepare, &prepared);
    ASSERT_TRUE(status.ok()) << status.error_message();
    std::filesystem::remove_all(gone);
  }

  testing::TempDir probe_dir_{testing::kTmpfsBase};  // where PrepareProbeThatFails puts its jobs
  Runner runner_;
  testing::InProcessAgent agent_{runner_, "s1"};
  v1::Agent::Stub* stub_ = nullptr;
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

// A job's error is the end of whichever stream carried RunFinished: here an Attach that replaced
// the Run stream (as after a break).
TEST_F(ServiceStreamTest, AJobErrorEndsTheAttachStreamThatCarriedTheRunsEnd) {
  ASSERT_NO_FATAL_FAILURE(PrepareProbeThatFails("fails"));
  v1::RunRequest request;
  request.set_run_id("fails");
  request.set_start_at_agent_realtime_ns(RealtimeNanos() + 300'000'000);
  grpc::ClientContext run_context;
  std::unique_ptr<grpc::ClientReader<v1::RunEvent>> run = stub_->Run(&run_context, request);
  grpc::Status attached;
  bool finished = false;
  // Until the Run handler has its journal (a deadline, not a count: the handler may start late).
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (std::chrono::steady_clock::now() < deadline) {
    v1::AttachRequest attach;
    attach.set_run_id("fails");
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Attach(&context, attach);
    v1::RunEvent event;
    finished = false;
    while (reader->Read(&event)) finished = finished || event.has_finished();
    attached = reader->Finish();
    // NOT_FOUND: no journal yet (a journal is published with the Run stream attached, so an
    // Attach that finds it always replaces the Run stream).
    if (attached.error_code() != grpc::StatusCode::NOT_FOUND) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_TRUE(finished);
  EXPECT_FALSE(attached.ok());
  EXPECT_NE(attached.error_message().find("job 'c2c'"), std::string::npos)
      << attached.error_message();
  v1::RunEvent event;
  while (run->Read(&event)) {
  }
  (void)run->Finish();
}

// The run's outcome travels in RunFinished itself (agent.proto, RunFinished.outcome): a coordinator
// whose stream broke after RunFinished, before the stream's status, still has the job's error.
TEST_F(ServiceStreamTest, AFailedJobsRunFinishedCarriesItsError) {
  ASSERT_NO_FATAL_FAILURE(PrepareProbeThatFails("fails-in-band"));
  v1::RunRequest request;
  request.set_run_id("fails-in-band");
  grpc::ClientContext context;
  std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Run(&context, request);
  std::vector<v1::RunEvent> finished;
  v1::RunEvent event;
  while (reader->Read(&event)) {
    if (event.has_finished()) finished.push_back(event);
  }
  const grpc::Status status = reader->Finish();
  ASSERT_EQ(finished.size(), 1u);
  ASSERT_TRUE(finished[0].finished().has_outcome());
  const v1::RunOutcome& outcome = finished[0].finished().outcome();
  EXPECT_NE(outcome.code(), 0);
  EXPECT_NE(outcome.message().find("job 'c2c'"), std::string::npos) << outcome.message();
  // The stream's status says the same, for a coordinator that reads it there.
  EXPECT_EQ(static_cast<int>(status.error_code()), outcome.code());
  EXPECT_EQ(status.error_message(), outcome.message());
}

// A coordinator that has every event of a failed run, RunFinished included, but lost the stream's
// status (or replays only RunFinished) Attaches after the run ended: the Attach stream ends with
// the job's error, the same code and message RunFinished.outcome carries, never OK.
TEST_F(ServiceStreamTest, AnAttachAfterAFailedRunEndedEndsWithTheJobsError) {
  ASSERT_NO_FATAL_FAILURE(PrepareProbeThatFails("fails-then-attach"));
  v1::RunRequest request;
  request.set_run_id("fails-then-attach");
  uint64_t last_seq = 0;
  v1::RunOutcome outcome;
  {
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Run(&context, request);
    v1::RunEvent event;
    while (reader->Read(&event)) {
      last_seq = event.seq();
      if (event.has_finished()) outcome = event.finished().outcome();
    }
    EXPECT_FALSE(reader->Finish().ok());
  }
  ASSERT_GE(last_seq, 2u) << "at least RunStarted and RunFinished";
  ASSERT_NE(outcome.code(), 0) << "RunFinished is the last event and carries the job's error";
  ASSERT_NE(outcome.message().find("job 'c2c'"), std::string::npos) << outcome.message();
  // after_seq: the last event (the coordinator has it all), then the one before (RunFinished is
  // replayed).
  for (const uint64_t after_seq : {last_seq, last_seq - 1}) {
    SCOPED_TRACE(absl::StrCat("after_seq ", after_seq, " of ", last_seq));
    v1::AttachRequest attach;
    attach.set_run_id("fails-then-attach");
    attach.set_after_seq(after_seq);
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Attach(&context, attach);
    std::vector<uint64_t> seqs;
    v1::RunEvent event;
    while (reader->Read(&event)) seqs.push_back(event.seq());
    const grpc::Status status = reader->Finish();
    EXPECT_EQ(seqs,
              after_seq == last_seq ? std::vector<uint64_t>{} : std::vector<uint64_t>{last_seq});
    EXPECT_EQ(static_cast<int>(status.error_code()), outcome.code()) << status.error_message();
    EXPECT_EQ(status.error_message(), outcome.message());
  }
  v1::CleanupRequest cleanup;
  cleanup.set_run_id("fails-then-attach");
  cleanup.set_remove_files(true);
  v1::CleanupResponse cleaned;
  grpc::ClientContext cleanup_context;
  EXPECT_TRUE(stub_->Cleanup(&cleanup_context, cleanup, &cleaned).ok());
}

TEST_F(ServiceStreamTest, ASuccessfulRunsRunFinishedSaysOk) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  const std::vector<v1::RunEvent> events =
      Run("succeeds", {Job("j", dir.path(), {{"rate_iops", "100"}})});
  ASSERT_FALSE(events.empty());
  ASSERT_TRUE(events.back().has_finished());
  ASSERT_TRUE(events.back().finished().has_outcome()) << "said, not left to the default";
  EXPECT_EQ(events.back().finished().outcome().code(), 0);
  EXPECT_EQ(events.back().finished().outcome().message(), "");
}

// A run that finished while its stream was broken keeps its files (the runner's lease) for an
// Attach within the reattach grace and the Cleanup after it, even when the grace is longer than the
// lease a finished run normally waits for its Cleanup.
TEST(ServiceLeaseTest, ARunThatFinishedDetachedKeepsItsFilesForTheGrace) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  Runner runner(RunnerConfig{.prepared_lease = absl::Milliseconds(300),
                             .reap_interval = absl::Milliseconds(20)});
  RunJournalConfig journal;
  journal.grace = absl::Seconds(10);
  journal.reap_interval = absl::Milliseconds(20);
  AgentIdentity identity;
  identity.agent_id = "s2";
  testing::InProcessAgent agent(
      std::make_unique<AgentService>(runner, identity, "", nullptr, journal));
  ASSERT_TRUE(agent.ok());
  v1::Agent::Stub* stub = &agent.stub();
  v1::PrepareRequest prepare;
  prepare.set_run_id("late");
  prepare.set_interval_ms(100);
  *prepare.add_jobs() = Spec("j", "block_io",
                             {{"ioengine", "null"},
                              {"rw", "randread"},
                              {"size", "1m"},
                              {"directory", dir.path()},
                              {"time_based", "1"},
                              {"runtime", "300ms"}});
  {
    grpc::ClientContext context;
    v1::PrepareResponse prepared;
    ASSERT_TRUE(stub->Prepare(&context, prepare, &prepared).ok());
  }
  {
    v1::RunRequest request;
    request.set_run_id("late");
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub->Run(&context, request);
    v1::RunEvent event;
    ASSERT_TRUE(reader->Read(&event));
    context.TryCancel();  // the stream breaks; the run goes on for the grace
    while (reader->Read(&event)) {
    }
    (void)reader->Finish();
  }
  // The run ends (300 ms) and the lease a finished run waits for Cleanup (300 ms) passes.
  std::this_thread::sleep_for(std::chrono::milliseconds(1200));
  {
    v1::AttachRequest attach;
    attach.set_run_id("late");
    attach.set_after_seq(1);
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub->Attach(&context, attach);
    v1::RunEvent event;
    bool finished = false;
    while (reader->Read(&event)) finished = finished || event.has_finished();
    const grpc::Status status = reader->Finish();
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_TRUE(finished);
  }
  v1::CleanupRequest cleanup;
  cleanup.set_run_id("late");
  cleanup.set_remove_files(true);
  v1::CleanupResponse cleaned;
  grpc::ClientContext context;
  const grpc::Status status = stub->Cleanup(&context, cleanup, &cleaned);
  EXPECT_TRUE(status.ok()) << status.error_message() << " (the run was forgotten before)";
}

// A Prepare of one null-engine job named after the run that reads 64 KiB (it runs at once), with
// the lease `lease_ms`.
grpc::Status PrepareWithLease(v1::Agent::Stub& stub, const std::string& run_id, uint32_t lease_ms,
                              const std::string& dir) {
  v1::PrepareRequest prepare;
  prepare.set_run_id(run_id);
  prepare.set_interval_ms(100);
  prepare.set_lease_ms(lease_ms);
  *prepare.add_jobs() = Spec(
      run_id, "block_io",
      {{"ioengine", "null"}, {"rw", "read"}, {"bs", "4k"}, {"size", "64k"}, {"directory", dir}});
  grpc::ClientContext context;
  v1::PrepareResponse prepared;
  return stub.Prepare(&context, prepare, &prepared);
}

grpc::Status RenewWithLease(v1::Agent::Stub& stub, const std::string& run_id, uint32_t lease_ms) {
  v1::RenewRequest renew;
  renew.set_run_id(run_id);
  renew.set_lease_ms(lease_ms);
  grpc::ClientContext context;
  v1::RenewResponse response;
  return stub.Renew(&context, renew, &response);
}

grpc::Status CleanupWithFiles(v1::Agent::Stub& stub, const std::string& run_id) {
  v1::CleanupRequest cleanup;
  cleanup.set_run_id(run_id);
  cleanup.set_remove_files(true);
  v1::CleanupResponse cleaned;
  grpc::ClientContext context;
  return stub.Cleanup(&context, cleanup, &cleaned);
}

// The leases below are the agent's default (1 s) and a Prepare's (1 h); the reaper is called by
// hand for an instant 10 s ahead, between the two, so nothing waits and no timing decides.
constexpr uint64_t kDefaultLeaseNs = 1'000'000'000, kReapAheadNs = 10'000'000'000;
constexpr uint32_t kAskedLeaseMs = 3'600'000;

// RenewRequest.lease_ms 0 is "the lease the Prepare asked for (or the agent default)"
// (agent.proto): it used to be the agent's default always, so a coordinator renewing with 0
// shortened the lease its Prepare asked for.
TEST(ServiceLeaseTest, ARenewWithoutALeaseRenewsToTheLeaseThePrepareAskedFor) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  Runner runner(RunnerConfig{.prepared_lease = absl::Nanoseconds(kDefaultLeaseNs),
                             .reap_interval = absl::ZeroDuration()});
  testing::InProcessAgent agent(runner, "s3");
  ASSERT_TRUE(agent.ok());
  for (const auto& [run_id, lease_ms] :
       {std::pair<std::string, uint32_t>{"asked", kAskedLeaseMs}, {"default", 0}}) {
    SCOPED_TRACE(run_id);
    grpc::Status status = PrepareWithLease(agent.stub(), run_id, lease_ms, dir.path());
    ASSERT_TRUE(status.ok()) << status.error_message();
    status = RenewWithLease(agent.stub(), run_id, 0);
    ASSERT_TRUE(status.ok()) << status.error_message();
  }
  EXPECT_EQ(runner.ReapExpired(MonotonicNanos() + kReapAheadNs),
            std::vector<std::string>{"default"})
      << "only the run whose Prepare asked for no lease has the agent's default";
  // A Renew's own lease counts for that renewal only: 0 is the Prepare's lease again.
  ASSERT_TRUE(RenewWithLease(agent.stub(), "asked", 1'000).ok());
  ASSERT_TRUE(RenewWithLease(agent.stub(), "asked", 0).ok());
  EXPECT_TRUE(runner.ReapExpired(MonotonicNanos() + kReapAheadNs).empty());
  const grpc::Status cleaned = CleanupWithFiles(agent.stub(), "asked");
  EXPECT_TRUE(cleaned.ok()) << cleaned.error_message();
}

// PrepareRequest.lease_ms is the lease "while it is not running (waiting for Run, or for Cleanup
// afterwards)": a finished run used to get the agent's default instead.
TEST(ServiceLeaseTest, AFinishedRunWaitsForCleanupWithTheLeaseThePrepareAskedFor) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  Runner runner(RunnerConfig{.prepared_lease = absl::Nanoseconds(kDefaultLeaseNs),
                             .reap_interval = absl::ZeroDuration()});
  testing::InProcessAgent agent(runner, "s4");
  ASSERT_TRUE(agent.ok());
  const grpc::Status prepared = PrepareWithLease(agent.stub(), "ran", kAskedLeaseMs, dir.path());
  ASSERT_TRUE(prepared.ok()) << prepared.error_message();
  {
    v1::RunRequest request;
    request.set_run_id("ran");
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = agent.stub().Run(&context, request);
    v1::RunEvent event;
    bool finished = false;
    while (reader->Read(&event)) finished = finished || event.has_finished();
    const grpc::Status status = reader->Finish();
    ASSERT_TRUE(status.ok()) << status.error_message();
    ASSERT_TRUE(finished);
  }
  EXPECT_TRUE(runner.ReapExpired(MonotonicNanos() + kReapAheadNs).empty())
      << "the finished run lost the lease its Prepare asked for";
  const grpc::Status cleaned = CleanupWithFiles(agent.stub(), "ran");
  EXPECT_TRUE(cleaned.ok()) << cleaned.error_message();
}

}  // namespace
}  // namespace azbench
