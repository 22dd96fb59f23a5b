// Trim patterns through the job loop, as fio 3.33 runs them: with ioengine=falloc each trim punches
// a hole (a randtrim of the whole region frees every block once); trimwrite writes each trimmed
// range right after its trim and counts its writes alone against size (fio: `--rw=trimwrite
// --size=1m --bs=4k --ioengine=falloc` does 256 trims and 256 writes); the other engines fail the
// job on a regular file with ENOTTY, as fio's do.
#include <sys/stat.h>

#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kSizeBytes = 1 << 20;
constexpr uint64_t kBlocks = kSizeBytes / 4096;

class BlockIoTrimTest : public ::testing::Test {
 protected:
  JobSpec Job(const std::string& rw, const std::string& engine) {
    JobSpec spec;
    spec.name = "t";
    spec.directory = dir_.path();
    for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
             {"rw", rw}, {"ioengine", engine}, {"size", "1m"}, {"bs", "4k"}}) {
      EXPECT_TRUE(ApplyJobOption(spec, key, value).ok()) << key;
    }
    EXPECT_TRUE(ValidateJobSpec(spec).ok()) << ValidateJobSpec(spec);
    return spec;
  }
  absl::StatusOr<JobResult> Run(const JobSpec& spec) {
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
    if (!job.ok()) return job.status();
    return (*job)->Run(RunControl{});
  }
  int64_t Blocks() {
    struct stat st {};
    EXPECT_EQ(stat(dir_.File("t.0.0").c_str(), &st), 0);
    return st.st_blocks;
  }
  static uint64_t Ops(const JobResult& result, OpKind kind) {
    const OpStats* stats = result.Find(kind);
    return stats == nullptr ? 0 : stats->ops;
  }
  testing::TempDir dir_;
};

TEST_F(BlockIoTrimTest, FallocRandtrimPunchesEveryBlockOfTheRegionOnce) {
  absl::StatusOr<JobResult> result = Run(Job("randtrim", "falloc"));
  ASSERT_TRUE(result.ok()) << result.status();
  if (result->error_errno == EOPNOTSUPP) GTEST_SKIP() << "the file system has no fallocate";
  EXPECT_EQ(result->error_errno, 0) << result->error_message;
  EXPECT_EQ(Ops(*result, OpKind::kTrim), kBlocks);
  EXPECT_EQ(result->Find(OpKind::kTrim)->bytes, kSizeBytes);
  EXPECT_EQ(Ops(*result, OpKind::kRead) + Ops(*result, OpKind::kWrite), 0u);
  EXPECT_EQ(Blocks(), 0) << "fallocate=native allocated the file at layout; every block is freed";
}

TEST_F(BlockIoTrimTest, FallocTrimwriteWritesEachTrimmedRangeAndCountsTheWritesAgainstSize) {
  for (const std::string rw : {"trimwrite", "randtrimwrite"}) {
    SCOPED_TRACE(rw);
    absl::StatusOr<JobResult> result = Run(Job(rw, "falloc"));
    ASSERT_TRUE(result.ok()) << result.status();
    if (result->error_errno == EOPNOTSUPP) GTEST_SKIP() << "the file system has no fallocate";
    EXPECT_EQ(result->error_errno, 0) << result->error_message;
    EXPECT_EQ(Ops(*result, OpKind::kTrim), kBlocks);
    EXPECT_EQ(Ops(*result, OpKind::kWrite), kBlocks);
    EXPECT_EQ(result->Find(OpKind::kWrite)->bytes, kSizeBytes);
    EXPECT_GE(Blocks(), static_cast<int64_t>(kSizeBytes / 512))
        << "each punched range was allocated again by its write";
  }
}

TEST_F(BlockIoTrimTest, ATrimOfARegularFileFailsTheJobWithEnottyOnEveryOtherEngine) {
  for (const std::string engine : {"psync", "libaio", "io_uring"}) {
    SCOPED_TRACE(engine);
    JobSpec spec = Job("randtrim", engine);
    spec.iodepth = 8;
    absl::StatusOr<JobResult> result = Run(spec);
    if (!result.ok() && result.status().code() == absl::StatusCode::kUnavailable) continue;
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->error_errno, ENOTTY);
    EXPECT_THAT(result->error_message, HasSubstr("trim of 4096 bytes at offset"));
    EXPECT_EQ(result->Find(OpKind::kTrim)->errors, 1u);
    EXPECT_EQ(Ops(*result, OpKind::kTrim), 0u);
  }
}

TEST_F(BlockIoTrimTest, NullCountsEveryTrimItIsGiven) {
  absl::StatusOr<JobResult> result = Run(Job("trim", "null"));
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_errno, 0) << result->error_message;
  EXPECT_EQ(Ops(*result, OpKind::kTrim), kBlocks);
}

}  // namespace
}  // namespace azbench
