// fio's fill_device: a write job ends cleanly when the file system is full, its bytes counted. On
// a 4 MiB tmpfs, fio 3.33 (`--rw=write --bs=4k --fill_device=1`, and `--rw=randwrite --size=8m`)
// writes 4194304 bytes with err=0 in both cases.
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/block_io/block_io_family.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kFsBytes = 4 << 20;

// A 4 MiB tmpfs mounted for the test and unmounted (with what it holds) at its end.
class BlockIoFillDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (geteuid() != 0) GTEST_SKIP() << "mounting a tmpfs needs root";
    ASSERT_TRUE(dir_.ok());
    if (mount("tmpfs", dir_.path().c_str(), "tmpfs", 0, "size=4m") != 0) {
      GTEST_SKIP() << "cannot mount a tmpfs here (" << errno << ")";
    }
    mounted_ = true;
  }
  void TearDown() override {
    if (mounted_) umount2(dir_.path().c_str(), MNT_DETACH);
  }

  JobSpec FillJob(const std::string& rw, const std::string& size) {
    JobSpec spec;
    spec.name = "f";
    spec.directory = dir_.path();
    EXPECT_TRUE(ApplyJobOption(spec, "rw", rw).ok());
    EXPECT_TRUE(ApplyJobOption(spec, "fill_device", "1").ok());
    if (!size.empty()) {
      EXPECT_TRUE(ApplyJobOption(spec, "size", size).ok());
    }
    EXPECT_TRUE(ValidateJobSpec(spec).ok()) << ValidateJobSpec(spec);
    return spec;
  }

  testing::TempDir dir_;
  bool mounted_ = false;
};

TEST_F(BlockIoFillDeviceTest, AWriteWithoutSizeEndsCleanlyWhenTheFileSystemIsFull) {
  for (const std::string engine : {"psync", "libaio"}) {
    JobSpec spec = FillJob("write", "");
    spec.ioengine = engine;
    spec.iodepth = 8;
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
    ASSERT_TRUE(job.ok()) << engine << ": " << job.status();
    absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
    ASSERT_TRUE(result.ok()) << result.status();
    EXPECT_EQ(result->error_errno, 0) << engine << ": " << result->error_message;
    const OpStats* writes = result->Find(OpKind::kWrite);
    ASSERT_NE(writes, nullptr);
    EXPECT_EQ(writes->bytes, kFsBytes) << engine;
    EXPECT_EQ(writes->errors, 0u) << engine;
    struct stat st {};
    ASSERT_EQ(stat(dir_.File("f.0.0").c_str(), &st), 0);
    EXPECT_EQ(static_cast<uint64_t>(st.st_size), kFsBytes);
    EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
  }
}

TEST_F(BlockIoFillDeviceTest, ARandomWriteLargerThanTheFileSystemStopsAtENOSPC) {
  JobSpec spec = FillJob("randwrite", "8m");
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_errno, 0) << result->error_message;
  const OpStats* writes = result->Find(OpKind::kWrite);
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->bytes, kFsBytes);
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
}

TEST_F(BlockIoFillDeviceTest, WithoutFillDeviceENOSPCIsTheJobsError) {
  JobSpec spec;
  spec.name = "f";
  spec.directory = dir_.path();
  spec.rw = RwPattern::kRandWrite;
  spec.size_bytes = 8 << 20;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_errno, ENOSPC);
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
}

TEST(BlockIoFillDeviceRulesTest, FillDeviceIsForJobsThatOnlyWrite) {
  JobSpec spec;
  spec.fill_device = true;
  spec.size_bytes = 1 << 20;
  spec.rw = RwPattern::kRandRw;
  EXPECT_THAT(std::string(ValidateJobSpec(spec).message()), HasSubstr("only write"));
  spec.rw = RwPattern::kRandWrite;
  EXPECT_TRUE(ValidateJobSpec(spec).ok());
  spec.size_bytes = 0;
  EXPECT_THAT(std::string(ValidateJobSpec(spec).message()), HasSubstr("needs rw=write"));
}

TEST(BlockIoFillDeviceRulesTest, WithoutSizeNoFreeSpaceReserveHolds) {
  JobSpec spec;
  spec.fill_device = true;
  spec.rw = RwPattern::kWrite;
  spec.directory = "/x";
  EXPECT_EQ(BlockIoFootprint(spec).bytes, UINT64_MAX);
  spec.size_bytes = 1 << 20;
  EXPECT_EQ(BlockIoFootprint(spec).bytes, uint64_t{1} << 20);
}

}  // namespace
}  // namespace azbench
