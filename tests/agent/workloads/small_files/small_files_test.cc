#include "agent/workloads/small_files/small_files.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::kDiskBase;
using testing::kTmpfsBase;
using testing::TempDir;

size_t EntriesUnder(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::recursive_directory_iterator(dir)) ++n;
  return n;
}

SmallFilesSpec Spec(const std::string& dir) {
  SmallFilesSpec spec;
  spec.name = "sf";
  spec.directory = dir;
  spec.file_sizes_bytes = {4096, 64 << 10};
  spec.files = 10;
  spec.numjobs = 2;
  return spec;
}

std::vector<JobResult> RunOk(const SmallFilesSpec& spec) {
  auto job = SmallFilesJob::Prepare(spec);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return {};
  auto results = (*job)->Run(RunControl{});
  EXPECT_TRUE(results.ok()) << results.status();
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
  return results.ok() ? std::move(*results) : std::vector<JobResult>{};
}

TEST(SmallFilesTest, EachSizeHasAWriteAndAReadResultWithExactCountsAndBytes) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  std::vector<JobResult> r = RunOk(Spec(dir.path()));
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[0].name, "sf.4k.write");
  EXPECT_EQ(r[1].name, "sf.4k.read");
  EXPECT_EQ(r[2].name, "sf.64k.write");
  EXPECT_EQ(r[3].name, "sf.64k.read");
  const uint64_t sizes[] = {4096, 64 << 10};
  for (int s = 0; s < 2; ++s) {
    const JobResult& w = r[2 * s];
    const JobResult& rd = r[2 * s + 1];
    ASSERT_NE(w.Find(OpKind::kCreate), nullptr);
    EXPECT_EQ(w.Find(OpKind::kCreate)->ops, 20u);  // 2 clones x 10 files
    EXPECT_EQ(w.Find(OpKind::kWrite)->ops, 20u) << "bs=0: one write per file";
    EXPECT_EQ(w.Find(OpKind::kWrite)->bytes, 20u * sizes[s]);
    EXPECT_EQ(w.Find(OpKind::kRead), nullptr);
    EXPECT_EQ(rd.Find(OpKind::kOpen)->ops, 20u);
    EXPECT_EQ(rd.Find(OpKind::kRead)->ops, 20u);
    EXPECT_EQ(rd.Find(OpKind::kRead)->bytes, 20u * sizes[s]);
    EXPECT_EQ(rd.Find(OpKind::kWrite), nullptr);
    EXPECT_EQ(w.TotalErrors() + rd.TotalErrors(), 0u);
  }
  EXPECT_EQ(EntriesUnder(dir.path()), 0u) << "each size's files are removed after its read pass";
}

TEST(SmallFilesTest, BlockSizeSplitsEachFileAndFsyncIsCountedPerFile) {
  TempDir dir(kTmpfsBase);
  SmallFilesSpec spec = Spec(dir.path());
  spec.file_sizes_bytes = {64 << 10};
  spec.block_size_bytes = 16 << 10;
  spec.fsync = true;
  spec.numjobs = 1;
  std::vector<JobResult> r = RunOk(spec);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_EQ(r[0].Find(OpKind::kWrite)->ops, 40u);  // 10 files x 4 blocks
  EXPECT_EQ(r[0].Find(OpKind::kFsync)->ops, 10u);
  EXPECT_EQ(r[1].Find(OpKind::kRead)->ops, 40u);
  EXPECT_EQ(r[1].Find(OpKind::kRead)->bytes, 10u * (64u << 10));
}

TEST(SmallFilesTest, DirectIoOnTheLocalDiskWorks) {
  TempDir dir(kDiskBase);
  SmallFilesSpec spec = Spec(dir.path());
  spec.direct = true;
  spec.numjobs = 1;
  std::vector<JobResult> r = RunOk(spec);
  ASSERT_EQ(r.size(), 4u);
  EXPECT_EQ(r[3].Find(OpKind::kRead)->bytes, 10u * (64u << 10));
  EXPECT_EQ(r[3].TotalErrors(), 0u) << r[3].error_message;
}

TEST(SmallFilesTest, MissingDirectoryIsAPreconditionError) {
  SmallFilesSpec spec = Spec("/var/tmp/azbench-no-such-dir/x");
  EXPECT_EQ(SmallFilesJob::Prepare(spec).status().code(), absl::StatusCode::kFailedPrecondition);
}

}  // namespace
}  // namespace azbench
