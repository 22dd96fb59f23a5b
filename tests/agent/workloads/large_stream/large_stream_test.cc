#include "agent/workloads/large_stream/large_stream.h"

#include <sys/stat.h>

#include <chrono>
#include <thread>

#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::kDiskBase;
using testing::kTmpfsBase;
using testing::TempDir;

LargeStreamSpec Spec(const std::string& dir) {
  LargeStreamSpec spec;
  spec.name = "ls";
  spec.directory = dir;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 64 << 10;
  spec.passes = 3;
  return spec;
}

bool Exists(const std::string& path) {
  struct stat st;
  return stat(path.c_str(), &st) == 0;
}

TEST(LargeStreamTest, EveryPassReadsTheWholeFileInBlockSizeCalls) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  LargeStreamSpec spec = Spec(dir.path());
  auto job = LargeStreamJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  ASSERT_EQ((*job)->files().size(), 1u);
  EXPECT_TRUE((*job)->files()[0].created);
  auto results = (*job)->Run(RunControl{});
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 3u);
  for (int pass = 0; pass < 3; ++pass) {
    const JobResult& r = (*results)[pass];
    EXPECT_EQ(r.name, "ls.pass" + std::to_string(pass + 1));
    ASSERT_NE(r.Find(OpKind::kRead), nullptr);
    EXPECT_EQ(r.Find(OpKind::kRead)->ops, 16u);
    EXPECT_EQ(r.Find(OpKind::kRead)->bytes, 1u << 20);
    EXPECT_EQ(r.Find(OpKind::kWrite), nullptr);
    EXPECT_EQ(r.TotalErrors(), 0u);
    EXPECT_GT(r.runtime_ns, 0u);
    EXPECT_EQ(r.cpu.threads, 1u) << r.name;
  }
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_FALSE(Exists(spec.FilePath()));
}

TEST(LargeStreamTest, WritePassesEndWithOneFsyncEach) {
  TempDir dir(kTmpfsBase);
  LargeStreamSpec spec = Spec(dir.path());
  spec.write = true;
  spec.passes = 2;
  spec.block_size_bytes = 100'000;  // not a divisor: the last call is short by design
  auto job = LargeStreamJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  auto results = (*job)->Run(RunControl{});
  ASSERT_TRUE(results.ok());
  ASSERT_EQ(results->size(), 2u);
  for (const JobResult& r : *results) {
    EXPECT_EQ(r.Find(OpKind::kWrite)->ops, 11u);  // ceil(1 MiB / 100000)
    EXPECT_EQ(r.Find(OpKind::kWrite)->bytes, 1u << 20);
    EXPECT_EQ(r.Find(OpKind::kFsync)->ops, 1u);
    EXPECT_EQ(r.Find(OpKind::kRead), nullptr);
  }
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_FALSE(Exists(spec.FilePath()));
}

TEST(LargeStreamTest, DirectReadOnTheLocalDisk) {
  TempDir dir(kDiskBase);
  LargeStreamSpec spec = Spec(dir.path());
  spec.direct = true;
  spec.passes = 1;
  auto job = LargeStreamJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  auto results = (*job)->Run(RunControl{});
  ASSERT_TRUE(results.ok());
  EXPECT_EQ((*results)[0].Find(OpKind::kRead)->bytes, 1u << 20);
  EXPECT_EQ((*results)[0].TotalErrors(), 0u) << (*results)[0].error_message;
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
}

TEST(LargeStreamTest, AnExistingFileIsReusedAndKept) {
  TempDir dir(kTmpfsBase);
  LargeStreamSpec spec = Spec(dir.path());
  spec.passes = 1;
  {
    auto first = LargeStreamJob::Prepare(spec);
    ASSERT_TRUE(first.ok());
    // `first` keeps its file (no RemoveCreatedFiles) ...
  }
  auto second = LargeStreamJob::Prepare(spec);
  ASSERT_TRUE(second.ok());
  EXPECT_FALSE((*second)->files()[0].created);
  ASSERT_TRUE((*second)->RemoveCreatedFiles().ok());
  EXPECT_TRUE(Exists(spec.FilePath())) << "a reused file is not the job's to remove";
}

// The first interval's delivery (a congested coordinator stream) waits until the pass has done
// 1000 more reads. Delivered on the job's thread, as before the relay, it would wait for ever
// (here: 30 s, then the test fails); through the relay the reads go on meanwhile.
TEST(LargeStreamTest, ReadsGoOnWhileAnIntervalDeliveryIsBlocked) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  LargeStreamSpec spec = Spec(dir.path());
  spec.size_bytes = uint64_t{256} << 20;
  spec.block_size_bytes = 4096;
  spec.passes = 2;
  auto job = LargeStreamJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  RunControl control;
  control.interval_ns = 20'000'000;
  bool progressed_while_blocked = false;
  int intervals = 0;
  control.on_interval = [&](const IntervalOrigin&, const IntervalStats&) {
    if (intervals++ > 0) return;
    const uint64_t ops_then = (*job)->ops_done();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if ((*job)->ops_done() >= ops_then + 1000) {
        progressed_while_blocked = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  auto results = (*job)->Run(control);
  ASSERT_TRUE(results.ok()) << results.status();
  ASSERT_EQ(results->size(), 2u);
  EXPECT_TRUE(progressed_while_blocked) << "the pass stopped while its interval was delivered";
  EXPECT_EQ(intervals,
            static_cast<int>((*results)[0].intervals.size() + (*results)[1].intervals.size()))
      << "every interval of the results was delivered before Run returned";
  for (const JobResult& r : *results) {
    ASSERT_NE(r.Find(OpKind::kRead), nullptr);
    EXPECT_EQ(r.Find(OpKind::kRead)->ops, spec.size_bytes / 4096) << r.name;
  }
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
}

}  // namespace
}  // namespace azbench
