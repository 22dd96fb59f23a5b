// Sizes and offsets from the files that exist: size not given, size=N%, offset=N%,
// offset_increment=N%, io_size=N%. The byte counts are fio 3.33's for the same jobs on a 1 MiB
// file with bs=4k (`fio --filename=f --rw=read --bs=4k <options>`, read io_bytes).
#include "agent/workloads/block_io/existing_file_sizes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "agent/workloads/block_io/block_io.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr uint64_t kMiB = 1 << 20;

// Sizes by path; a path not listed does not exist (0 bytes, as fio counts a missing file).
FileBytesFunction Sizes(std::map<std::string, uint64_t> sizes) {
  return [sizes](const std::string& path) -> absl::StatusOr<uint64_t> {
    auto it = sizes.find(path);
    return it == sizes.end() ? 0 : it->second;
  };
}

JobSpec FileJob(std::vector<std::pair<std::string, std::string>> options) {
  JobSpec spec;
  spec.name = "j";
  spec.filename = "/t/f";
  for (const auto& [key, value] : options) {
    absl::Status applied = ApplyJobOption(spec, key, value);
    EXPECT_TRUE(applied.ok()) << key << "=" << value << ": " << applied;
  }
  return spec;
}

struct PercentCase {
  std::vector<std::pair<std::string, std::string>> options;
  uint64_t fio_io_bytes;  // fio 3.33's read io_bytes on a 1 MiB file
  uint64_t fio_offset_bytes;
};

class ExistingFileSizesTest : public ::testing::TestWithParam<PercentCase> {};

TEST_P(ExistingFileSizesTest, SizesAndOffsetsAreFios) {
  JobSpec spec = FileJob(GetParam().options);
  EXPECT_TRUE(spec.SizeFromFiles());
  EXPECT_TRUE(ValidateJobSpec(spec).ok()) << ValidateJobSpec(spec);
  ASSERT_TRUE(ResolveSizesFromFiles(spec, Sizes({{"/t/f", kMiB}})).ok());
  EXPECT_FALSE(spec.SizeFromFiles());
  EXPECT_EQ(spec.EffectiveIoSize(), GetParam().fio_io_bytes);
  EXPECT_EQ(spec.CloneOffset(0), GetParam().fio_offset_bytes);
  EXPECT_TRUE(ValidateJobSpec(spec).ok()) << ValidateJobSpec(spec);
}

INSTANTIATE_TEST_SUITE_P(
    Fio333, ExistingFileSizesTest,
    ::testing::Values(PercentCase{{}, kMiB, 0}, PercentCase{{{"size", "50%"}}, 512 << 10, 0},
                      PercentCase{{{"size", "30%"}}, 311296, 0},
                      PercentCase{{{"offset", "25%"}}, 768 << 10, 256 << 10},
                      PercentCase{{{"offset", "10%"}}, 942080, 106496},
                      PercentCase{{{"offset", "25%"}, {"size", "50%"}}, 512 << 10, 256 << 10},
                      PercentCase{{{"io_size", "50%"}}, 512 << 10, 0},
                      PercentCase{{{"offset", "256k"}}, 768 << 10, 256 << 10}));

TEST(ExistingFileSizesRulesTest, ASizeInBytesNeedsNoFile) {
  JobSpec spec = FileJob({{"size", "64k"}});
  EXPECT_FALSE(spec.SizeFromFiles());
  ASSERT_TRUE(ResolveSizesFromFiles(spec, Sizes({})).ok());
  EXPECT_EQ(spec.size_bytes, 64u << 10);
}

TEST(ExistingFileSizesRulesTest, NoSizeAndNoFileIsFiosYouNeedToSpecifySize) {
  JobSpec spec = FileJob({});
  absl::Status status = ResolveSizesFromFiles(spec, Sizes({}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              AllOf(HasSubstr("job 'j'"), HasSubstr("'/t/f' does not exist or is empty"),
                    HasSubstr("give size=")));
}

TEST(ExistingFileSizesRulesTest, SeveralFilesOfOneSizeGiveSizeTimesFiles) {
  JobSpec spec = FileJob({{"directory", "/t"}, {"nrfiles", "3"}});
  spec.filename.clear();
  ASSERT_TRUE(ResolveSizesFromFiles(
                  spec, Sizes({{"/t/j.0.0", kMiB}, {"/t/j.0.1", kMiB}, {"/t/j.0.2", kMiB}}))
                  .ok());
  EXPECT_EQ(spec.size_bytes, 3 * kMiB);
  EXPECT_EQ(spec.FileRegionBytes(), kMiB);
}

TEST(ExistingFileSizesRulesTest, FilesOfDifferentSizesAreRefusedNamingBoth) {
  JobSpec spec = FileJob({{"filename", "/t/a:/t/b"}, {"nrfiles", "2"}});
  absl::Status status = ResolveSizesFromFiles(spec, Sizes({{"/t/a", kMiB}, {"/t/b", 2 * kMiB}}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()),
              AllOf(HasSubstr("'/t/a' (1048576 bytes)"), HasSubstr("'/t/b' (2097152 bytes)")));
}

TEST(ExistingFileSizesRulesTest, ClonesSharingAFileEachTakeItsSize) {
  JobSpec spec = FileJob({{"numjobs", "4"}});
  ASSERT_TRUE(ResolveSizesFromFiles(spec, Sizes({{"/t/f", kMiB}})).ok());
  for (int c = 0; c < 4; ++c) EXPECT_EQ(spec.CloneOffset(c), 0u) << c;
  EXPECT_EQ(spec.size_bytes, kMiB);
}

TEST(ExistingFileSizesRulesTest, PercentIncrementsAreRoundedUpPerClone) {
  // 10% of 1 MiB is 104857.6 bytes: clone n starts at n * 104857, rounded up to 4 KiB.
  JobSpec spec = FileJob({{"numjobs", "3"}, {"size", "64k"}, {"offset_increment", "10%"}});
  ASSERT_TRUE(ResolveSizesFromFiles(spec, Sizes({{"/t/f", kMiB}})).ok());
  EXPECT_EQ(spec.CloneOffset(0), 0u);
  EXPECT_EQ(spec.CloneOffset(1), 106496u);
  EXPECT_EQ(spec.CloneOffset(2), 212992u);
}

TEST(ExistingFileSizesRulesTest, NoSizeWithClonesAtDifferentOffsetsIsRefused) {
  JobSpec spec = FileJob({{"numjobs", "2"}, {"offset_increment", "64k"}});
  absl::Status status = ResolveSizesFromFiles(spec, Sizes({{"/t/f", kMiB}}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("offset_increment"));
}

TEST(ExistingFileSizesRulesTest, AnOffsetBeyondTheFileIsRefused) {
  JobSpec spec = FileJob({{"offset", "2m"}});
  absl::Status status = ResolveSizesFromFiles(spec, Sizes({{"/t/f", kMiB}}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("beyond the end"));
}

TEST(ExistingFileSizesRulesTest, NfsFilesAreNotStatted) {
  JobSpec spec = FileJob({});
  spec.ioengine = "nfs";
  absl::Status status = ResolveSizesFromFiles(spec, Sizes({{"/t/f", kMiB}}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("ioengine=nfs"));
}

TEST(ExistingFileSizesRulesTest, PercentagesAreCheckedWhenParsed) {
  JobSpec spec;
  EXPECT_EQ(ApplyJobOption(spec, "size", "0%").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ApplyJobOption(spec, "size", "101%").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(ApplyJobOption(spec, "io_size", "150%").code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(ApplyJobOption(spec, "offset", "0%").ok());
  // Bytes after a percentage replace it, as in fio.
  ASSERT_TRUE(ApplyJobOption(spec, "size", "50%").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "size", "1m").ok());
  EXPECT_EQ(spec.size_percent, 0u);
  EXPECT_EQ(spec.size_bytes, kMiB);
}

TEST(ExistingFileSizesRulesTest, ARegularFileAndAMissingOneAreReadAsFio) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("f");
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, 12345), 0);
  close(fd);
  EXPECT_EQ(ExistingFileBytes(path).value_or(0), 12345u);
  EXPECT_EQ(ExistingFileBytes(dir.File("missing")).value_or(1), 0u);
  EXPECT_EQ(ExistingFileBytes(dir.path()).status().code(), absl::StatusCode::kInvalidArgument);
}

// The whole job: a read job without size on an existing 1 MiB file reads it once, as fio; with
// size=50% and offset=25% it reads the 512 KiB after the first quarter.
TEST(ExistingFileSizesJobTest, AReadJobWithoutSizeReadsTheExistingFile) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("f");
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  ASSERT_GE(fd, 0);
  ASSERT_EQ(ftruncate(fd, static_cast<off_t>(kMiB)), 0);
  close(fd);
  for (const auto& [options, fio_ops] :
       std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, uint64_t>>{
           {{}, 256}, {{{"size", "50%"}, {"offset", "25%"}}, 128}}) {
    JobSpec spec = FileJob(options);
    spec.filename = path;
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
    ASSERT_TRUE(job.ok()) << job.status();
    EXPECT_EQ((*job)->spec().CloneOffset(0), options.empty() ? 0u : 256u << 10);
    absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
    ASSERT_TRUE(result.ok()) << result.status();
    const OpStats* reads = result->Find(OpKind::kRead);
    ASSERT_NE(reads, nullptr);
    EXPECT_EQ(reads->ops, fio_ops);
    EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
  }
  struct stat st {};
  ASSERT_EQ(stat(path.c_str(), &st), 0) << "an existing file is kept";
  EXPECT_EQ(st.st_size, static_cast<off_t>(kMiB));
}

TEST(ExistingFileSizesJobTest, AJobWithoutSizeOrFileFailsAtPrepareLeavingNothing) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  JobSpec spec = FileJob({});
  spec.filename = dir.File("missing");
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  EXPECT_EQ(job.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(job.status().message()), HasSubstr("give size="));
  EXPECT_NE(access(spec.filename.c_str(), F_OK), 0);
}

}  // namespace
}  // namespace azbench
