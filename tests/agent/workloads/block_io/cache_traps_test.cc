#include "agent/workloads/block_io/cache_traps.h"

#include <fstream>
#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;
using ::testing::SizeIs;

constexpr uint64_t kMiB = 1 << 20;
constexpr uint64_t kGiB = uint64_t{1} << 30;

CacheTrapFacts SmallFile() {
  return {.working_set_bytes = 64 * kMiB, .client_memory_bytes = 4 * kGiB};
}

TEST(CacheTrapsTest, BufferedWritesWithNoFlushAtAllAreFlagged) {
  CacheTrapFacts f = SmallFile();
  f.bytes_written = 32 * kMiB;  // even less than the file: nothing forced it out
  EXPECT_THAT(CacheTrapWarnings(f),
              ElementsAre(HasSubstr("buffered writes (direct=0) with no fsync, fdatasync or "
                                    "end_fsync")));
  f.working_set_bytes = 64 * kGiB;  // larger than memory: still nothing flushed
  EXPECT_THAT(CacheTrapWarnings(f), SizeIs(1));
}

TEST(CacheTrapsTest, TimeBasedRewritesOfASmallFileWithOnlyEndFsyncAreFlaggedWithHowManyTimes) {
  // The quickstart's trap: a 64 MiB file rewritten for 5 s, end_fsync flushes the last pages.
  CacheTrapFacts f = SmallFile();
  f.end_fsync = true;
  f.bytes_written = 640 * kMiB;
  EXPECT_THAT(CacheTrapWarnings(f),
              ElementsAre(AllOf(HasSubstr("rewrote 64.0 MiB of files that fit in this client's "
                                          "memory (4.0 GiB) 10.0x over"),
                                HasSubstr("end_fsync flushed only the pages still dirty"))));
}

TEST(CacheTrapsTest, WritesThatAreFlushedOrDirectOrOnceOverOrLargerThanMemoryAreNotFlagged) {
  CacheTrapFacts f = SmallFile();
  f.bytes_written = 640 * kMiB;
  f.syncs_during_run = true;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty()) << "fsync=N";
  f = SmallFile();
  f.bytes_written = 640 * kMiB;
  f.direct = true;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty()) << "direct=1";
  f = SmallFile();
  f.end_fsync = true;
  f.bytes_written = 64 * kMiB;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty()) << "written once, end_fsync flushes it all";
  f.bytes_written = 640 * kGiB;
  f.working_set_bytes = 64 * kGiB;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty()) << "a working set larger than memory";
}

TEST(CacheTrapsTest, BufferedReReadsOfAFileThatFitsInMemoryAreFlagged) {
  CacheTrapFacts f = SmallFile();
  f.bytes_read = 256 * kMiB;
  EXPECT_THAT(CacheTrapWarnings(f),
              ElementsAre(AllOf(HasSubstr("buffered reads (direct=0) of 64.0 MiB"),
                                HasSubstr("read 4.0x over"), HasSubstr("page cache"))));
}

TEST(CacheTrapsTest, BufferedReadsWithoutInvalidateAreFlaggedEvenOnceOver) {
  CacheTrapFacts f = SmallFile();
  f.bytes_read = 16 * kMiB;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty()) << "invalidate=1 dropped the cache, read once";
  f.invalidate = false;
  EXPECT_THAT(CacheTrapWarnings(f), ElementsAre(HasSubstr("with invalidate=0")));
}

TEST(CacheTrapsTest, ReadsOfFilesLargerThanMemoryOrOfUnknownMemoryOrDirectAreNotFlagged) {
  CacheTrapFacts f = SmallFile();
  f.bytes_read = 256 * kGiB;
  f.working_set_bytes = 64 * kGiB;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty());
  f = SmallFile();
  f.bytes_read = 256 * kMiB;
  f.client_memory_bytes = 0;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty());
  f = SmallFile();
  f.bytes_read = 256 * kMiB;
  f.direct = true;
  EXPECT_THAT(CacheTrapWarnings(f), IsEmpty());
}

TEST(CacheTrapsTest, ClientMemoryIsMemTotalInBytes) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.path() + "/meminfo";
  std::ofstream(path) << "MemFree:          123 kB\nMemTotal:       24576000 kB\n";
  absl::StatusOr<uint64_t> bytes = ClientMemoryBytes(path);
  ASSERT_TRUE(bytes.ok()) << bytes.status();
  EXPECT_EQ(*bytes, uint64_t{24576000} * 1024);
  std::ofstream(path) << "MemFree: 1 kB\n";
  EXPECT_FALSE(ClientMemoryBytes(path).ok());
  EXPECT_FALSE(ClientMemoryBytes(dir.path() + "/absent").ok());
  ASSERT_TRUE(ClientMemoryBytes().ok()) << "this host's /proc/meminfo";
  EXPECT_GT(*ClientMemoryBytes(), 0u);
}

// A real job: a small file rewritten for a while, end_fsync only, as the quickstart's write did.
TEST(CacheTrapsTest, ARealTimeBasedRewriteOfASmallFileCarriesTheWarning) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  JobSpec spec;
  spec.name = "w";
  spec.directory = dir.path();
  spec.rw = RwPattern::kWrite;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 64 << 10;
  spec.time_based = true;
  spec.runtime = absl::Milliseconds(200);
  spec.end_fsync = true;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_GT(result->Find(OpKind::kWrite)->bytes, spec.size_bytes) << "it rewrote the file";
  EXPECT_THAT(result->warnings, Contains(HasSubstr("rewrote 1.0 MiB of files that fit")));

  spec.fsync_every_n = 4;  // now the writes reach storage as they go
  job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_THAT(result->warnings, Not(Contains(HasSubstr("buffered"))));
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
}

}  // namespace
}  // namespace azbench
