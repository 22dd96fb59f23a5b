#include "agent/workloads/job_progress.h"

#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

TEST(EtaProfileOfTest, StateCharactersFollowFiosRwAndRwmix) {
  JobSpec spec;
  spec.rw = RwPattern::kRandRw;
  EXPECT_EQ(EtaProfileOf(spec).running_char, 'm');
  spec.rw = RwPattern::kReadWrite;
  EXPECT_EQ(EtaProfileOf(spec).running_char, 'M');
  spec.rwmixread_percent = 100;
  EXPECT_EQ(EtaProfileOf(spec).running_char, 'R');
  spec.rw = RwPattern::kRandRead;
  EXPECT_EQ(EtaProfileOf(spec).running_char, 'r');
  spec.rw = RwPattern::kWrite;
  EXPECT_EQ(EtaProfileOf(spec).running_char, 'W');
  spec.rw = RwPattern::kRandTrim;
  EXPECT_EQ(EtaProfileOf(spec).running_char, 'd');
}

TEST(EtaProfileOfTest, AVerifyingWriteJobDoesItsSizeTwice) {
  JobSpec spec;
  spec.rw = RwPattern::kWrite;
  spec.size_bytes = 1 << 20;
  spec.loops = 3;
  EXPECT_EQ(EtaProfileOf(spec).total_io_bytes, 3u << 20);
  spec.verify = VerifyType::kMd5;
  EXPECT_EQ(EtaProfileOf(spec).total_io_bytes, 6u << 20);
}

TEST(CloneProgressTest, ASampleShowsWhatTheCloneLastPublished) {
  CloneProgress progress;
  EXPECT_EQ(progress.Sample().state, CloneRunState::kPending);
  progress.Start(/*now_monotonic_ns=*/5, /*ramp=*/true);
  EXPECT_EQ(progress.Sample().state, CloneRunState::kRamp);
  progress.EndRamp(/*measured_start_monotonic_ns=*/7);
  progress.Publish({4096, 8192, 0}, {1, 2, 0});
  CloneProgressSample s = progress.Sample();
  EXPECT_EQ(s.state, CloneRunState::kRunning);
  EXPECT_EQ(s.epoch_monotonic_ns, 7u);
  EXPECT_EQ(s.bytes[1], 8192u);
  EXPECT_EQ(s.ops[0], 1u);
  progress.End(/*now_monotonic_ns=*/9, /*failed=*/true);
  s = progress.Sample();
  EXPECT_EQ(s.state, CloneRunState::kFailed);
  EXPECT_EQ(s.end_monotonic_ns, 9u);
}

TEST(JobProgressTest, HasOneEntryPerClone) {
  const JobProgress job(std::vector<JobEtaProfile>(3));
  EXPECT_EQ(job.clones.size(), 3u);
  EXPECT_EQ(job.profiles.size(), 3u);
}

TEST(EtaProfileOfTest, EachCloneCountsItsOwnRegion) {
  JobSpec spec;
  spec.rw = RwPattern::kRead;
  spec.numjobs = 2;
  spec.loops = 2;
  spec.clone_region_bytes = {1u << 20, 768u << 10};  // clones at 0 and 256 KiB of a 1 MiB file
  EXPECT_EQ(EtaProfileOf(spec, 0).total_io_bytes, 2u << 20);
  EXPECT_EQ(EtaProfileOf(spec, 1).total_io_bytes, 1536u << 10);
}

}  // namespace
}  // namespace azbench
