// Sizes and offsets from the files that exist: size not given, size=N%, offset=N%,
// offset_increment=N%, io_size=N%. The byte counts are fio 3.33's for the same jobs on a 1 MiB
// file with bs=4k (`fio --filename=f --rw=read --bs=4k <options>`, read io_bytes).
#include "agent/workloads/block_io/existing_file_sizes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
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

TEST(ExistingFileSizesRulesTest, ClonesAtDifferentOffsetsEachTakeTheRestOfTheFileAsFio) {
  JobSpec spec = FileJob({{"numjobs", "3"}, {"offset_increment", "256k"}});
  ASSERT_TRUE(ResolveSizesFromFiles(spec, Sizes({{"/t/f", kMiB}})).ok());
  EXPECT_EQ(spec.CloneRegionBytes(0), kMiB);
  EXPECT_EQ(spec.CloneRegionBytes(1), 768u << 10);
  EXPECT_EQ(spec.CloneRegionBytes(2), 512u << 10);
  EXPECT_EQ(spec.CloneIoSize(2), 512u << 10);
  // io_size caps every clone alike.
  JobSpec capped = FileJob({{"numjobs", "2"}, {"offset_increment", "256k"}, {"io_size", "64k"}});
  ASSERT_TRUE(ResolveSizesFromFiles(capped, Sizes({{"/t/f", kMiB}})).ok());
  EXPECT_EQ(capped.CloneIoSize(1), 64u << 10);
  EXPECT_EQ(capped.CloneRegionBytes(1), 768u << 10);
  // A clone whose region is smaller than a block is refused, naming it.
  JobSpec tight = FileJob({{"numjobs", "2"}, {"offset_increment", "1020k"}, {"bs", "8k"}});
  const absl::Status status = ResolveSizesFromFiles(tight, Sizes({{"/t/f", kMiB}}));
  EXPECT_EQ(status.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(status.message()), HasSubstr("clone 1's region"));
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

// A 1 MiB file (a hole) at `path`.
bool MakeMiBFile(const std::string& path) {
  const int fd = open(path.c_str(), O_CREAT | O_WRONLY, 0644);
  if (fd < 0) return false;
  const bool sized = ftruncate(fd, static_cast<off_t>(kMiB)) == 0;
  close(fd);
  return sized;
}

// The whole job: a read job without size on an existing 1 MiB file reads it once, as fio; with
// size=50% and offset=25% it reads the 512 KiB after the first quarter.
TEST(ExistingFileSizesJobTest, AReadJobWithoutSizeReadsTheExistingFile) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("f");
  ASSERT_TRUE(MakeMiBFile(path));
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

TEST(ExistingFileSizesJobTest, ClonesAtDifferentOffsetsReadTheRestOfTheFileAsFio) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("f");
  ASSERT_TRUE(MakeMiBFile(path));
  JobSpec spec = FileJob({{"numjobs", "3"}, {"offset_increment", "256k"}, {"rw", "randread"}});
  spec.filename = path;
  spec.op_log = true;
  std::map<int, std::pair<uint64_t, uint64_t>> span;  // clone -> lowest, highest offset
  std::map<int, uint64_t> ops;
  std::mutex mu;
  RunControl control;
  control.on_op_log = [&](int clone, std::vector<OpRecord> records) {
    std::lock_guard<std::mutex> lock(mu);
    for (const OpRecord& r : records) {
      auto [it, inserted] = span.try_emplace(clone, r.offset_bytes, r.offset_bytes);
      it->second.first = std::min(it->second.first, r.offset_bytes);
      it->second.second = std::max(it->second.second, r.offset_bytes);
      ++ops[clone];
    }
  };
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(control);
  ASSERT_TRUE(result.ok()) << result.status();
  // fio 3.33: 256, 192 and 128 reads, each clone from its offset to the file's end.
  EXPECT_EQ(ops[0], 256u);
  EXPECT_EQ(ops[1], 192u);
  EXPECT_EQ(ops[2], 128u);
  EXPECT_EQ(span[1].first, 256u << 10);
  EXPECT_EQ(span[2].first, 512u << 10);
  for (int c = 0; c < 3; ++c) EXPECT_EQ(span[c].second, kMiB - 4096) << c;
  EXPECT_TRUE((*job)->RemoveCreatedFiles().ok());
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
