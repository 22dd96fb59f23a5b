// The agent refuses a Prepare, Run, Renew or Proceed whose numeric fields are out of range, at the
// RPC boundary, with INVALID_ARGUMENT naming the field and the range (a wrapped ms->ns conversion
// must not pass). Real gRPC over loopback to an in-process AgentService.
#include <grpcpp/grpcpp.h>

#include <cstdint>
#include <limits>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/runner/runner.h"
#include "agent/server/service.h"
#include "azbench/v1/agent.grpc.pb.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/in_process_agent.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

class ServiceInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(agent_.ok());
    stub_ = &agent_.stub();
  }

  // A valid Prepare of one small null-engine job in the test's directory.
  v1::PrepareRequest ValidPrepare(const std::string& run_id) {
    v1::PrepareRequest prepare;
    prepare.set_run_id(run_id);
    prepare.set_interval_ms(100);
    v1::JobSpec* job = prepare.add_jobs();
    job->set_name("j");
    const std::vector<std::pair<std::string, std::string>> options = {
        {"rw", "read"},       {"bs", "4k"},      {"size", "64k"},
        {"ioengine", "null"}, {"runtime", "1s"}, {"directory", dir_.path()}};
    for (const auto& [k, v] : options) {
      v1::JobOption* o = job->add_options();
      o->set_key(k);
      o->set_value(v);
    }
    return prepare;
  }

  grpc::Status Prepare(const v1::PrepareRequest& prepare) {
    grpc::ClientContext context;
    v1::PrepareResponse response;
    return stub_->Prepare(&context, prepare, &response);
  }

  // A refusal at the boundary: INVALID_ARGUMENT naming `field` (with its value) and `allowed`.
  static void ExpectRefused(const grpc::Status& status, const std::string& field,
                            const std::string& allowed) {
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr(field));
    EXPECT_THAT(status.error_message(), HasSubstr(allowed));
  }

  // A Prepare the agent must accept (a range's bounds, its default), then its Cleanup.
  void ExpectPreparedAndCleanedUp(const v1::PrepareRequest& prepare) {
    const grpc::Status status = Prepare(prepare);
    EXPECT_TRUE(status.ok()) << status.error_message();
    EXPECT_TRUE(Cleanup(prepare.run_id()).ok());
  }

  grpc::Status Renew(const std::string& run_id, uint32_t lease_ms) {
    grpc::ClientContext context;
    v1::RenewRequest renew;
    renew.set_run_id(run_id);
    renew.set_lease_ms(lease_ms);
    v1::RenewResponse response;
    return stub_->Renew(&context, renew, &response);
  }

  grpc::Status Cleanup(const std::string& run_id) {
    grpc::ClientContext context;
    v1::CleanupRequest cleanup;
    cleanup.set_run_id(run_id);
    cleanup.set_remove_files(true);
    v1::CleanupResponse response;
    return stub_->Cleanup(&context, cleanup, &response);
  }

  testing::TempDir dir_;
  Runner runner_;
  testing::InProcessAgent agent_{runner_, "in1"};
  v1::Agent::Stub* stub_ = nullptr;
};

TEST_F(ServiceInputTest, PrepareRefusesAnIntervalOutOfRangeWithoutOverflow) {
  // 2^64-1 ms wraps (x 1e6) to about 1.8e19 ns, and 2^63 ms to 0: neither may reach the runner.
  for (const uint64_t interval_ms : {std::numeric_limits<uint64_t>::max(), uint64_t{1} << 63,
                                     uint64_t{3'600'001}, uint64_t{9}, uint64_t{1}}) {
    SCOPED_TRACE(interval_ms);
    v1::PrepareRequest prepare = ValidPrepare("r-interval");
    prepare.set_interval_ms(interval_ms);
    ExpectRefused(Prepare(prepare), absl::StrCat("interval_ms ", interval_ms), "10 to 3600000");
  }
  // The bounds themselves, and 0 (the default), are accepted.
  for (const uint64_t interval_ms : {uint64_t{0}, uint64_t{10}, uint64_t{3'600'000}}) {
    SCOPED_TRACE(interval_ms);
    v1::PrepareRequest prepare = ValidPrepare(absl::StrCat("r-ok-", interval_ms));
    prepare.set_interval_ms(interval_ms);
    ExpectPreparedAndCleanedUp(prepare);
  }
}

TEST_F(ServiceInputTest, PrepareRefusesAPlacementOutOfRange) {
  struct Case {
    int32_t index, count;
    const char* field;
  };
  for (const Case& c : {Case{2, 2, "agent_index 2"}, Case{-1, 3, "agent_index -1"},
                        Case{1, 0, "agent_index 1"}, Case{0, -5, "agent_count -5"}}) {
    SCOPED_TRACE(c.field);
    v1::PrepareRequest prepare = ValidPrepare("r-placement");
    prepare.set_agent_index(c.index);
    prepare.set_agent_count(c.count);
    ExpectRefused(Prepare(prepare), c.field, "out of range");
  }
  v1::PrepareRequest prepare = ValidPrepare("r-placement-ok");
  prepare.set_agent_index(2);
  prepare.set_agent_count(3);
  ExpectPreparedAndCleanedUp(prepare);
}

TEST_F(ServiceInputTest, PrepareAndRenewRefuseALeaseOutOfRange) {
  // The coordinator's --prepared-lease is 1 s to 24 h; 0 is the agent's default lease.
  for (const uint32_t lease_ms :
       {std::numeric_limits<uint32_t>::max(), uint32_t{86'400'001}, uint32_t{999}, uint32_t{1}}) {
    SCOPED_TRACE(lease_ms);
    v1::PrepareRequest prepare = ValidPrepare("r-lease");
    prepare.set_lease_ms(lease_ms);
    ExpectRefused(Prepare(prepare), absl::StrCat("lease_ms ", lease_ms), "1000 to 86400000");
  }
  for (const uint32_t lease_ms : {uint32_t{0}, uint32_t{1'000}, uint32_t{86'400'000}}) {
    SCOPED_TRACE(lease_ms);
    v1::PrepareRequest prepare = ValidPrepare(absl::StrCat("r-lease-ok-", lease_ms));
    prepare.set_lease_ms(lease_ms);
    ExpectPreparedAndCleanedUp(prepare);
  }
  // A Renew of a prepared run: the same range.
  const v1::PrepareRequest prepare = ValidPrepare("r-renew");
  ASSERT_TRUE(Prepare(prepare).ok());
  for (const uint32_t lease_ms : {std::numeric_limits<uint32_t>::max(), uint32_t{500}}) {
    SCOPED_TRACE(lease_ms);
    ExpectRefused(Renew("r-renew", lease_ms), absl::StrCat("lease_ms ", lease_ms),
                  "1000 to 86400000");
  }
  for (const uint32_t lease_ms : {uint32_t{0}, uint32_t{86'400'000}}) {
    SCOPED_TRACE(lease_ms);
    const grpc::Status status = Renew("r-renew", lease_ms);
    EXPECT_TRUE(status.ok()) << status.error_message();
  }
  EXPECT_TRUE(Cleanup("r-renew").ok());
}

// A job's options are bounded (20,000 repeated bs were applied one by one); repeats under the bound
// stay fio's (the last counts), as a job file's [global] and section options both travel.
TEST_F(ServiceInputTest, PrepareRefusesAJobWithTooManyOptionsNamingTheJobAndTheKey) {
  v1::PrepareRequest prepare = ValidPrepare("r-options");
  v1::JobSpec* job = prepare.mutable_jobs(0);
  while (job->options_size() < 257) {
    v1::JobOption* o = job->add_options();
    o->set_key("bs");
    o->set_value("4k");
  }
  grpc::Status status = Prepare(prepare);
  EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
  EXPECT_EQ(status.error_message(), "job 'j' has 257 options (252 of them 'bs'): give at most 256");
  job->mutable_options()->RemoveLast();
  ExpectPreparedAndCleanedUp(prepare);
}

// Every family's job name is part of its file names: refused at the boundary, before the layout.
TEST_F(ServiceInputTest, PrepareRefusesAJobNameThatCannotBePartOfAFileName) {
  for (const char* workload : {"", "metadata"}) {
    SCOPED_TRACE(workload);
    v1::PrepareRequest prepare = ValidPrepare("r-name");
    v1::JobSpec* job = prepare.mutable_jobs(0);
    job->set_name("a/b");
    job->set_workload(workload);
    if (std::string(workload) == "metadata") {
      job->clear_options();
      v1::JobOption* o = job->add_options();
      o->set_key("directory");
      o->set_value(dir_.path());
    }
    const grpc::Status status = Prepare(prepare);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr("job name 'a/b' contains '/'"));
  }
  EXPECT_TRUE(testing::DirectoryNames(dir_.path()).empty()) << "nothing was laid out";
}

TEST_F(ServiceInputTest, RunRefusesANegativeStartOrAnOverlongProgressInterval) {
  const v1::PrepareRequest prepare = ValidPrepare("r-run");
  ASSERT_TRUE(Prepare(prepare).ok());
  struct Case {
    int64_t start_at;
    uint32_t progress_ms;
    const char* field;
  };
  for (const Case& c : {Case{-1, 0, "start_at_agent_realtime_ns -1"},
                        Case{0, std::numeric_limits<uint32_t>::max(), "progress_interval_ms"}}) {
    SCOPED_TRACE(c.field);
    v1::RunRequest request;
    request.set_run_id("r-run");
    request.set_start_at_agent_realtime_ns(c.start_at);
    request.set_progress_interval_ms(c.progress_ms);
    grpc::ClientContext context;
    std::unique_ptr<grpc::ClientReader<v1::RunEvent>> reader = stub_->Run(&context, request);
    // Drained whatever comes (none when refused), so Finish returns rather than waits.
    v1::RunEvent event;
    int events = 0;
    while (reader->Read(&event)) ++events;
    EXPECT_EQ(events, 0);
    const grpc::Status status = reader->Finish();
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr(c.field));
    EXPECT_THAT(status.error_message(), HasSubstr("out of range"));
  }
  // Refused before it started: the run is still prepared, and goes with a Cleanup.
  EXPECT_TRUE(Cleanup("r-run").ok());
}

TEST_F(ServiceInputTest, ProceedRefusesANegativePhaseOrStart) {
  for (const auto& [phase, start_at, field] :
       {std::tuple<int32_t, int64_t, const char*>{-1, 0, "phase_index -1"},
        {0, -7, "start_at_agent_realtime_ns -7"}}) {
    SCOPED_TRACE(field);
    v1::ProceedRequest request;
    request.set_run_id("none");
    request.set_phase_index(phase);
    request.set_start_at_agent_realtime_ns(start_at);
    grpc::ClientContext context;
    v1::ProceedResponse response;
    const grpc::Status status = stub_->Proceed(&context, request, &response);
    EXPECT_EQ(status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
    EXPECT_THAT(status.error_message(), HasSubstr(field));
  }
}

}  // namespace
}  // namespace azbench
