// fio's filesize with data engines: each file is filesize bytes; size, at most what the files
// hold, is the I/O of a clone. Op counts and file sizes are fio 3.33's for the same jobs.
#include <sys/stat.h>

#include <memory>
#include <string>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

struct FilesizeCase {
  RwPattern rw;
  int nrfiles;
  uint64_t size_bytes;  // 0: not given
  uint64_t fio_total_ios;
};

class BlockIoFilesizeTest : public ::testing::TestWithParam<FilesizeCase> {
 protected:
  testing::TempDir dir_;
};

TEST_P(BlockIoFilesizeTest, FilesAreFilesizeAndTheOpCountIsFios) {
  const FilesizeCase& c = GetParam();
  ASSERT_TRUE(dir_.ok());
  JobSpec spec;
  spec.name = "a";
  spec.directory = dir_.path();
  spec.rw = c.rw;
  spec.nrfiles = c.nrfiles;
  spec.file_size_bytes = 64 << 10;
  spec.size_bytes = c.size_bytes;
  ASSERT_TRUE(ValidateJobSpec(spec).ok()) << ValidateJobSpec(spec);
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  for (int f = 0; f < c.nrfiles; ++f) {
    struct stat st {};
    ASSERT_EQ(stat(dir_.File("a.0." + std::to_string(f)).c_str(), &st), 0) << f;
    EXPECT_EQ(st.st_size, 64 << 10) << f;
  }
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, c.fio_total_ios);
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
}

// fio 3.33: --bs=4k --filesize=64k with these rw, nrfiles and size.
INSTANTIATE_TEST_SUITE_P(Fio333, BlockIoFilesizeTest,
                         ::testing::Values(FilesizeCase{RwPattern::kRead, 2, 0, 32},
                                           FilesizeCase{RwPattern::kRandRead, 2, 256 << 10, 32},
                                           FilesizeCase{RwPattern::kRead, 4, 128 << 10, 32}));

TEST(BlockIoFilesizeValidationTest, ABlockLargerThanFilesizeIsRefused) {
  JobSpec spec;
  spec.name = "a";
  spec.file_size_bytes = 4096;
  spec.block_size_bytes = 8192;
  absl::Status status = ValidateJobSpec(spec);
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(status.message().find("filesize"), std::string::npos) << status;
}

}  // namespace
}  // namespace azbench
