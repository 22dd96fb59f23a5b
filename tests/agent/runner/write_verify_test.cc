// sharing=write-verify: each agent's part (agent 0 writes, the others verify after the barrier),
// and two agents (two Runners on one directory, as two agent processes on one shared file system)
// that write and then verify the same files, finding a block corrupted between two runs.
#include <fcntl.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/runner/runner.h"
#include "agent/workloads/block_io/write_verify.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::TempDir;

JobSpec WriteVerifySpec() {
  JobSpec spec;
  EXPECT_TRUE(ApplyJobOption(spec, "rw", "randwrite").ok());
  EXPECT_TRUE(ApplyJobOption(spec, "size", "1m").ok());
  EXPECT_TRUE(ApplyJobOption(spec, "verify", "crc32c").ok());
  EXPECT_TRUE(ApplyJobOption(spec, "sharing", "write-verify").ok());
  return spec;
}

TEST(WriteVerifyRoleTest, AgentZeroWritesWithoutReadingBackAndTheOthersVerifyAfterIt) {
  JobSpec writer = WriteVerifySpec();
  auto role = ApplyWriteVerifyRole(writer, 0, 3);
  ASSERT_TRUE(role.ok()) << role.status();
  EXPECT_TRUE(role->writer);
  EXPECT_FALSE(role->waits_for_writer);
  EXPECT_FALSE(writer.do_verify);
  EXPECT_FALSE(writer.verify_only);

  for (int index : {1, 2}) {
    JobSpec verifier = WriteVerifySpec();
    role = ApplyWriteVerifyRole(verifier, index, 3);
    ASSERT_TRUE(role.ok()) << role.status();
    EXPECT_FALSE(role->writer);
    EXPECT_TRUE(role->waits_for_writer);
    EXPECT_TRUE(verifier.verify_only);
    // Replays agent 0's writes: the same stream, so the same offsets and seeds.
    EXPECT_EQ(verifier.shared_stream_index, 0);
    EXPECT_EQ(verifier.shared_stream_count, 1);
  }
}

TEST(WriteVerifyRoleTest, WithVerifyOnlyEveryAgentVerifiesAtOnce) {
  for (int index : {0, 1}) {
    JobSpec spec = WriteVerifySpec();
    ASSERT_TRUE(ApplyJobOption(spec, "verify_only", "1").ok());
    auto role = ApplyWriteVerifyRole(spec, index, 2);
    ASSERT_TRUE(role.ok()) << role.status();
    EXPECT_FALSE(role->writer);
    EXPECT_FALSE(role->waits_for_writer);
    EXPECT_TRUE(spec.verify_only);
  }
}

TEST(WriteVerifyRoleTest, OneAgentIsRefused) {
  JobSpec spec = WriteVerifySpec();
  auto role = ApplyWriteVerifyRole(spec, 0, 1);
  EXPECT_EQ(role.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(role.status().message().find("at least 2 agents"), std::string::npos);
}

TEST(WriteVerifyRoleTest, OtherSharingModesAreLeftAlone) {
  JobSpec spec;
  ASSERT_TRUE(ApplyJobOption(spec, "sharing", "shared-file").ok());
  spec.shared_stream_index = 1;
  spec.shared_stream_count = 2;
  auto role = ApplyWriteVerifyRole(spec, 1, 2);
  ASSERT_TRUE(role.ok());
  EXPECT_FALSE(role->writer);
  EXPECT_FALSE(role->waits_for_writer);
  EXPECT_EQ(spec.shared_stream_index, 1);
}

TEST(WriteVerifyValidationTest, NeedsAVerifyTypeAWritingRwAndASize) {
  JobSpec no_verify;
  ASSERT_TRUE(ApplyJobOption(no_verify, "rw", "write").ok());
  ASSERT_TRUE(ApplyJobOption(no_verify, "size", "1m").ok());
  ASSERT_TRUE(ApplyJobOption(no_verify, "sharing", "write-verify").ok());
  absl::Status s = ValidateJobSpec(no_verify);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("needs a verify type"), std::string::npos) << s;

  JobSpec reads = WriteVerifySpec();
  ASSERT_TRUE(ApplyJobOption(reads, "rw", "randread").ok());
  s = ValidateJobSpec(reads);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("rw=randread"), std::string::npos) << s;

  JobSpec timed = WriteVerifySpec();
  ASSERT_TRUE(ApplyJobOption(timed, "runtime", "5").ok());
  ASSERT_TRUE(ApplyJobOption(timed, "time_based", "1").ok());
  s = ValidateJobSpec(timed);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("time_based"), std::string::npos) << s;

  EXPECT_TRUE(ValidateJobSpec(WriteVerifySpec()).ok()) << ValidateJobSpec(WriteVerifySpec());
}

struct ResultSink : RunEventSink {
  bool OnStarted(int64_t) override { return true; }
  bool OnProgress(int64_t, uint64_t, uint64_t, int) override { return true; }
  bool OnInterval(const std::string&, int, const IntervalStats&) override { return true; }
  bool OnOpLog(const std::string&, int, const std::vector<OpRecord>&) override { return true; }
  bool OnResult(const JobResult& r) override {
    results.push_back(r.Clone());
    return true;
  }
  bool OnFinished(int64_t, bool) override { return true; }
  std::vector<JobResult> results;
};

// Runs the write-verify job as agent `index` of 2 on `dir`; the files are kept, as a campaign
// keeps them. Without a sink that drives phases, a verifier's barrier is released at once.
JobResult RunAgent(const std::string& dir, int index, bool verify_only) {
  Runner runner([&] {
    RunnerConfig config;
    config.agent_subdir = absl::StrCat("agent-", index);
    return config;
  }());
  JobRequest job;
  job.name = "w";
  job.options = {{"rw", "randwrite"},  {"size", "256k"},   {"bs", "4k"},
                 {"verify", "crc32c"}, {"directory", dir}, {"sharing", "write-verify"}};
  if (verify_only) job.options.emplace_back("verify_only", "1");
  auto prepared = runner.Prepare("r", {job}, 1'000'000'000, RunPlacement{index, 2});
  EXPECT_TRUE(prepared.ok()) << prepared.status();
  if (!prepared.ok()) return {};
  ResultSink sink;
  EXPECT_TRUE(runner.Run("r", 0, sink).ok());
  EXPECT_TRUE(runner.Cleanup("r", /*remove_files=*/false).ok());
  EXPECT_EQ(sink.results.size(), 1u);
  return sink.results.empty() ? JobResult{} : sink.results[0].Clone();
}

uint64_t Ops(const JobResult& r, OpKind kind) {
  const OpStats* stats = r.Find(kind);
  return stats == nullptr ? 0 : stats->ops;
}

TEST(WriteVerifyRunTest, TheSecondAgentVerifiesTheFirstOnesWritesAndFindsACorruptedBlock) {
  TempDir dir(testing::kTmpfsBase);
  const JobResult written = RunAgent(dir.path(), 0, false);
  EXPECT_EQ(Ops(written, OpKind::kWrite), 64u);
  EXPECT_EQ(Ops(written, OpKind::kRead), 0u) << "the writer does not read back";
  // Every block the writer wrote exists in the shared layout (no agent subdirectory).
  ASSERT_TRUE(std::filesystem::exists(dir.File("w.0.0")));

  const JobResult clean = RunAgent(dir.path(), 1, false);
  EXPECT_EQ(Ops(clean, OpKind::kRead), 64u);
  EXPECT_EQ(Ops(clean, OpKind::kWrite), 0u);
  EXPECT_EQ(clean.verify_failures, 0u);
  EXPECT_EQ(clean.error_errno, 0) << clean.error_message;

  // One byte of the block at 40 KiB, past its header: its checksum no longer matches.
  const int fd = open(dir.File("w.0.0").c_str(), O_WRONLY);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(pwrite(fd, "X", 1, 40 * 1024 + 100), 1);
  close(fd);

  for (int index : {0, 1}) {
    const JobResult found = RunAgent(dir.path(), index, /*verify_only=*/true);
    EXPECT_EQ(found.verify_failures, 1u) << "agent " << index;
    EXPECT_EQ(found.verify_failure_offsets, std::vector<uint64_t>{40 * 1024}) << "agent " << index;
  }
}

}  // namespace
}  // namespace azbench
