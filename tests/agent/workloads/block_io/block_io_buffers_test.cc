// fio's write buffer contents in block-I/O jobs: the same job written by fio 3.33 and by azbench
// gives files with the same share of duplicate blocks and the same zlib ratio (within a few
// points), for zero_buffers, buffer_pattern, buffer_compress_percentage/chunk and
// dedupe_percentage, and with verify (which overrides them as in fio).
#include <zlib.h>

#include <chrono>
#include <fstream>
#include <iostream>
#include <iterator>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/dedupe_working_set.h"
#include "common/job_spec.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using Options = std::vector<std::pair<std::string, std::string>>;

struct FileShape {
  double duplicate_percent = 0;  // 4 KiB blocks equal to an earlier block
  double zlib_percent = 0;       // compressed size over file size
};

FileShape Measure(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  FileShape shape;
  if (data.empty()) return shape;
  std::set<std::string> seen;
  size_t duplicates = 0;
  const size_t blocks = data.size() / 4096;
  for (size_t b = 0; b < blocks; ++b) {
    duplicates += seen.insert(data.substr(b * 4096, 4096)).second ? 0 : 1;
  }
  shape.duplicate_percent = 100.0 * static_cast<double>(duplicates) / static_cast<double>(blocks);
  uLongf compressed = compressBound(data.size());
  std::vector<Bytef> out(compressed);
  EXPECT_EQ(compress2(out.data(), &compressed, reinterpret_cast<const Bytef*>(data.data()),
                      data.size(), 6),
            Z_OK);
  shape.zlib_percent = 100.0 * static_cast<double>(compressed) / static_cast<double>(data.size());
  return shape;
}

class BlockIoBuffersTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  FileShape Azbench(const Options& options) {
    JobSpec spec;
    spec.name = "b";
    spec.filename = dir_.File("azbench-data");
    spec.rw = RwPattern::kWrite;
    spec.size_bytes = 8 << 20;
    spec.block_size_bytes = 4096;
    for (const auto& [key, value] : options) {
      absl::Status st = ApplyJobOption(spec, key, value);
      EXPECT_TRUE(st.ok()) << key << ": " << st;
    }
    absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
    EXPECT_TRUE(job.ok()) << job.status();
    if (!job.ok()) return {};
    absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
    EXPECT_TRUE(result.ok()) << result.status();
    return Measure(dir_.File("azbench-data"));
  }

  FileShape Fio(const Options& options) {
    std::vector<std::string> args = {testing::kFioBinary,
                                     "--name=b",
                                     "--filename=" + dir_.File("fio-data"),
                                     "--rw=write",
                                     "--bs=4k",
                                     "--size=8m",
                                     "--verify_state_save=0",
                                     "--output=/dev/null"};
    for (const auto& [key, value] : options) args.push_back(absl::StrCat("--", key, "=", value));
    testing::Subprocess fio(args, dir_.File("fio-output.txt"));
    EXPECT_EQ(fio.Wait(std::chrono::seconds(60)), 0) << fio.Output();
    return Measure(dir_.File("fio-data"));
  }

  testing::TempDir dir_;
};

TEST_F(BlockIoBuffersTest, WrittenFilesDedupeAndCompressAsFios) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  const std::vector<Options> cases = {
      {},
      {{"zero_buffers", "1"}},
      {{"zero_buffers", "1"}, {"scramble_buffers", "1"}},
      {{"buffer_pattern", "0xdeadbeef\"ab\"7"}},
      {{"buffer_compress_percentage", "50"}},
      {{"buffer_compress_percentage", "70"}, {"buffer_compress_chunk", "4k"}},
      {{"buffer_compress_percentage", "30"}, {"buffer_pattern", "0x5a"}},
      {{"buffer_compress_percentage", "100"}},
      {{"dedupe_percentage", "50"}},
      {{"dedupe_percentage", "30"}, {"buffer_compress_percentage", "40"}},
      {{"dedupe_percentage", "100"}},
      // With verify fio writes random blocks, shaped only by buffer_compress_percentage.
      {{"verify", "crc32c"}},
      {{"verify", "crc32c"}, {"buffer_compress_percentage", "50"}},
      {{"verify", "md5"}, {"zero_buffers", "1"}, {"dedupe_percentage", "50"}},
      {{"verify", "crc32c"}, {"buffer_compress_percentage", "100"}},
  };
  for (const Options& options : cases) {
    std::string label;
    for (const auto& [key, value] : options) absl::StrAppend(&label, key, "=", value, " ");
    const FileShape fio = Fio(options);
    const FileShape azbench = Azbench(options);
    EXPECT_NEAR(azbench.duplicate_percent, fio.duplicate_percent, 3.0) << label;
    EXPECT_NEAR(azbench.zlib_percent, fio.zlib_percent, 3.0) << label;
  }
}

// The share of 4 KiB blocks whose content occurs more than once in `data`: a working set of N
// blocks gives at most N such contents, dedupe_mode=repeat one per run of repeats.
double RepeatedContentsPercent(const std::string& data) {
  std::map<std::string, int> counts;
  const size_t blocks = data.size() / 4096;
  for (size_t b = 0; b < blocks; ++b) ++counts[data.substr(b * 4096, 4096)];
  size_t repeated = 0;
  for (const auto& [content, count] : counts) repeated += count > 1 ? 1 : 0;
  return 100.0 * static_cast<double>(repeated) / static_cast<double>(blocks);
}

std::string ReadAll(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

TEST_F(BlockIoBuffersTest, WorkingSetDedupeRepeatsTheFirstUniqueBlocksAsFios) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  // 2,048 blocks: a set of 10% is 204 blocks, so about 10% of the blocks are repeated contents;
  // dedupe_mode=repeat at 50% gives about 25% (one per run of repeats).
  const std::vector<Options> cases = {
      {{"dedupe_mode", "working_set"},
       {"dedupe_percentage", "50"},
       {"dedupe_working_set_percentage", "10"}},
      {{"dedupe_mode", "working_set"},
       {"dedupe_percentage", "30"},
       {"dedupe_working_set_percentage", "20"},
       {"buffer_compress_percentage", "40"}},
  };
  for (const Options& options : cases) {
    std::string label;
    for (const auto& [key, value] : options) absl::StrAppend(&label, key, "=", value, " ");
    const FileShape fio = Fio(options);
    const FileShape azbench = Azbench(options);
    EXPECT_NEAR(azbench.duplicate_percent, fio.duplicate_percent, 3.0) << label;
    EXPECT_NEAR(azbench.zlib_percent, fio.zlib_percent, 3.0) << label;
    const double fio_repeated = RepeatedContentsPercent(ReadAll(dir_.File("fio-data")));
    const double az_repeated = RepeatedContentsPercent(ReadAll(dir_.File("azbench-data")));
    EXPECT_NEAR(az_repeated, fio_repeated, 3.0) << label << "repeated contents, in %";
    std::cout << label << ": duplicates fio " << fio.duplicate_percent << "%, azbench "
              << azbench.duplicate_percent << "%; repeated contents fio " << fio_repeated
              << "%, azbench " << az_repeated << "%\n";
  }
}

// dedupe-global.fio's two jobs at 4 MiB each: with dedupe_global each job's working set is half
// its own first blocks and half the other's, so a file alone holds fewer repeats than both
// together (fio's example: 34% and 50%).
TEST_F(BlockIoBuffersTest, GlobalWorkingSetSpreadsRepeatsOverTheJobsAsFios) {
  if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
      !missing.empty()) {
    FAIL() << missing;
  }
  const Options global = {{"dedupe_mode", "working_set"},
                          {"dedupe_global", "1"},
                          {"dedupe_percentage", "50"},
                          {"buffer_compress_percentage", "50"},
                          {"dedupe_working_set_percentage", "50"}};
  std::vector<std::string> args = {testing::kFioBinary, "--output=/dev/null",
                                   "--verify_state_save=0"};
  for (const char* job : {"a", "b"}) {
    for (const std::string& arg :
         {absl::StrCat("--name=", job), "--filename=" + dir_.File(absl::StrCat("fio-", job)),
          std::string("--rw=write"), std::string("--bs=4k"), std::string("--size=4m")}) {
      args.push_back(arg);
    }
    for (const auto& [key, value] : global) args.push_back(absl::StrCat("--", key, "=", value));
  }
  testing::Subprocess fio(args, dir_.File("fio-output.txt"));
  ASSERT_EQ(fio.Wait(std::chrono::seconds(60)), 0) << fio.Output();

  DedupeThreads threads;  // the run's, as the runner keeps it
  std::vector<std::unique_ptr<BlockIoJob>> jobs;
  for (const char* job : {"a", "b"}) {
    JobSpec spec;
    spec.name = job;
    spec.filename = dir_.File(absl::StrCat("azbench-", job));
    spec.rw = RwPattern::kWrite;
    spec.size_bytes = 4 << 20;
    spec.block_size_bytes = 4096;
    for (const auto& [key, value] : global) ASSERT_TRUE(ApplyJobOption(spec, key, value).ok());
    absl::StatusOr<std::unique_ptr<BlockIoJob>> prepared = BlockIoJob::Prepare(
        spec, 0, CreateEngine, nullptr, static_cast<int>(jobs.size()), &threads);
    ASSERT_TRUE(prepared.ok()) << prepared.status();
    jobs.push_back(*std::move(prepared));
  }
  for (auto& job : jobs) ASSERT_TRUE(job->Run(RunControl{}).ok());

  const std::string fio_a = ReadAll(dir_.File("fio-a")), fio_b = ReadAll(dir_.File("fio-b"));
  const std::string az_a = ReadAll(dir_.File("azbench-a")), az_b = ReadAll(dir_.File("azbench-b"));
  std::ofstream(dir_.File("fio-ab"), std::ios::binary) << fio_a << fio_b;
  std::ofstream(dir_.File("azbench-ab"), std::ios::binary) << az_a << az_b;
  for (const char* file : {"a", "b", "ab"}) {
    const FileShape f = Measure(dir_.File(absl::StrCat("fio-", file)));
    const FileShape a = Measure(dir_.File(absl::StrCat("azbench-", file)));
    EXPECT_NEAR(a.duplicate_percent, f.duplicate_percent, 3.0) << file;
    EXPECT_NEAR(a.zlib_percent, f.zlib_percent, 3.0) << file;
    std::cout << file << ": duplicates fio " << f.duplicate_percent << "%, azbench "
              << a.duplicate_percent << "%; zlib fio " << f.zlib_percent << "%, azbench "
              << a.zlib_percent << "%\n";
  }
  EXPECT_GT(Measure(dir_.File("azbench-ab")).duplicate_percent,
            Measure(dir_.File("azbench-a")).duplicate_percent + 10)
      << "the jobs repeat each other's blocks";
}

TEST_F(BlockIoBuffersTest, WorkingSetChecksAreFios) {
  JobSpec spec;
  spec.name = "w";
  spec.filename = dir_.File("w");
  spec.rw = RwPattern::kWrite;
  spec.size_bytes = 1 << 20;
  ASSERT_TRUE(ApplyJobOption(spec, "dedupe_mode", "working_set").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "dedupe_percentage", "60").ok());
  absl::Status st = ValidateJobSpec(spec);
  EXPECT_EQ(st.code(), absl::StatusCode::kOk) << st;  // 60 + the default 5
  ASSERT_TRUE(ApplyJobOption(spec, "dedupe_working_set_percentage", "50").ok());
  st = ValidateJobSpec(spec);
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("dedupe_working_set_percentage 50 is over 100"), std::string::npos)
      << st;
  st = ApplyJobOption(spec, "dedupe_mode", "pages");
  EXPECT_NE(st.message().find("allowed: repeat, working_set"), std::string::npos) << st;
}

}  // namespace
}  // namespace azbench
