// fio's unlink_each_loop: between two loops a clone removes its files and opens them again. A job
// that writes recreates them (fio 3.33: unlink, then open with O_CREAT, after every loop but the
// last); one that only reads fails on its second loop with ENOENT, as fio 3.33 does (err=2 after
// one loop's reads).
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

constexpr int kLoops = 3;
constexpr uint64_t kOpsPerLoop = 16;

class BlockIoUnlinkEachLoopTest : public ::testing::TestWithParam<const char*> {
 protected:
  JobSpec Spec(RwPattern rw, bool unlink_each_loop) const {
    JobSpec spec;
    spec.name = "u";
    spec.directory = dir_.path();
    spec.rw = rw;
    spec.ioengine = GetParam();
    spec.iodepth = 4;
    spec.size_bytes = kOpsPerLoop * 4096;
    spec.loops = kLoops;
    spec.unlink_each_loop = unlink_each_loop;
    return spec;
  }

  // Prepares the job, keeps a second link to the laid-out file (so its inode cannot be reused by a
  // new file) and runs it. Sets `replaced` when the job's path names another file afterwards.
  JobResult PrepareAndRun(const JobSpec& spec, bool* replaced) {
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
    if (!job.ok()) {
      ADD_FAILURE() << job.status();
      return JobResult{};
    }
    const std::string path = dir_.File("u.0.0");
    const std::string keep = dir_.File("keep");
    EXPECT_EQ(link(path.c_str(), keep.c_str()), 0) << errno;
    absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
    struct stat now {
    }, before{};
    const bool exists = stat(path.c_str(), &now) == 0;
    EXPECT_EQ(stat(keep.c_str(), &before), 0);
    *replaced = !exists || now.st_ino != before.st_ino;
    unlink(keep.c_str());
    EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
    unlink(path.c_str());
    EXPECT_TRUE(result.ok()) << result.status();
    return result.ok() ? std::move(*result) : JobResult{};
  }

  testing::TempDir dir_;
};

TEST_P(BlockIoUnlinkEachLoopTest, AWriteJobRecreatesItsFilesBetweenLoopsAndDoesEveryLoop) {
  ASSERT_TRUE(dir_.ok());
  bool replaced = false;
  const JobResult r = PrepareAndRun(Spec(RwPattern::kWrite, true), &replaced);
  EXPECT_EQ(r.error_errno, 0) << r.error_message;
  const OpStats* writes = r.Find(OpKind::kWrite);
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->ops, kLoops * kOpsPerLoop);
  EXPECT_TRUE(replaced) << "the file was not removed and created again";
}

TEST_P(BlockIoUnlinkEachLoopTest, WithoutItTheFilesStay) {
  ASSERT_TRUE(dir_.ok());
  bool replaced = true;
  const JobResult r = PrepareAndRun(Spec(RwPattern::kWrite, false), &replaced);
  EXPECT_EQ(r.error_errno, 0) << r.error_message;
  EXPECT_FALSE(replaced);
}

TEST_P(BlockIoUnlinkEachLoopTest, AReadJobFailsWithEnoentOnItsSecondLoopAsFio) {
  ASSERT_TRUE(dir_.ok());
  bool replaced = false;
  const JobResult r = PrepareAndRun(Spec(RwPattern::kRandRead, true), &replaced);
  EXPECT_EQ(r.error_errno, ENOENT) << r.error_message;
  const OpStats* reads = r.Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, kOpsPerLoop);
}

INSTANTIATE_TEST_SUITE_P(Engines, BlockIoUnlinkEachLoopTest, ::testing::Values("psync", "libaio"));

}  // namespace
}  // namespace azbench
