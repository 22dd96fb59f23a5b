// fio's write buffer contents in block-I/O jobs: the same job written by fio 3.33 and by azbench
// gives files with the same share of duplicate blocks and the same zlib ratio (within a few
// points), for zero_buffers, buffer_pattern, buffer_compress_percentage/chunk and
// dedupe_percentage, and with verify (which overrides them as in fio).
#include <zlib.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "agent/workloads/block_io/block_io.h"
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

TEST_F(BlockIoBuffersTest, WorkingSetDedupeIsRefusedSayingWhy) {
  JobSpec spec;
  absl::Status st = ApplyJobOption(spec, "dedupe_mode", "working_set");
  EXPECT_EQ(st.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(st.message().find("repeat"), std::string::npos) << st;
  EXPECT_TRUE(ApplyJobOption(spec, "dedupe_mode", "repeat").ok());
}

}  // namespace
}  // namespace azbench
