#include "common/fio_log_writer.h"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::TempDir;

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

OpRecord Op(OpKind kind, uint64_t complete_ms, uint64_t latency_ns, uint64_t offset = 0) {
  OpRecord r;
  r.kind = kind;
  r.latency_ns = latency_ns;
  r.start_ns = complete_ms * 1'000'000 - latency_ns;
  r.bytes = 4096;
  r.offset_bytes = offset;
  return r;
}

TEST(FioLogWriterTest, OneLinePerOpInFiosUnits) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  FioLogOptions options;
  options.bw_prefix = dir.File("j");
  options.lat_prefix = dir.File("j");
  options.iops_prefix = dir.File("j");
  options.offset = true;
  auto writer = FioLogWriter::Open({{.name = "other", .options = {}, .clones = 2},
                                    {.name = "j", .options = options, .clones = 1}});
  ASSERT_TRUE(writer.ok()) << writer.status();
  OpRecord slow = Op(OpKind::kWrite, 7, 2'000'000, 8192);
  slow.has_slat = true;
  slow.slat_ns = 1'000'000;
  OpRecord failed = Op(OpKind::kRead, 8, 1000);
  failed.error = 5;
  ASSERT_TRUE((*writer)->Append("j", 0, {Op(OpKind::kRead, 5, 4096), slow, failed}).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  // Thread number 3: the other job's two clones come first.
  EXPECT_EQ(Slurp(dir.File("j_bw.3.log")),
            "5, 1000000, 0, 4096, 0, 0\n7, 4096, 1, 4096, 8192, 0\n");
  EXPECT_EQ(Slurp(dir.File("j_iops.3.log")), "5, 1, 0, 4096, 0, 0\n7, 1, 1, 4096, 8192, 0\n");
  EXPECT_EQ(Slurp(dir.File("j_lat.3.log")),
            "5, 4096, 0, 4096, 0, 0\n7, 2000000, 1, 4096, 8192, 0\n");
  EXPECT_EQ(Slurp(dir.File("j_clat.3.log")),
            "5, 4096, 0, 4096, 0, 0\n7, 1000000, 1, 4096, 8192, 0\n");
  EXPECT_EQ(Slurp(dir.File("j_slat.3.log")), "7, 1000000, 1, 4096, 8192, 0\n");
  EXPECT_FALSE(std::filesystem::exists(dir.File("other_bw.1.log")));
}

TEST(FioLogWriterTest, AveragedWindowsEndAtWholeMillisecondsAndSkipThePartialRate) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  FioLogOptions options;
  options.bw_prefix = dir.File("j");
  options.lat_prefix = dir.File("j");
  options.iops_prefix = dir.File("j");
  options.avg_msec = 100;
  options.per_job_logs = false;
  auto writer = FioLogWriter::Open({{.name = "j", .options = options, .clones = 2}});
  ASSERT_TRUE(writer.ok()) << writer.status();
  // Window (0, 100]: two reads; (100, 200]: nothing; (200, 300]: one read, not full at the end.
  ASSERT_TRUE((*writer)
                  ->Append("j", 0,
                           {Op(OpKind::kRead, 50, 1000), Op(OpKind::kRead, 100, 3000),
                            Op(OpKind::kRead, 250, 5000)})
                  .ok());
  ASSERT_TRUE((*writer)->Close().ok());
  // 2 ops of 4 KiB in 100 ms: 80 KiB/s, 20 IOPS; an empty window has rate 0 and no latency.
  EXPECT_EQ(Slurp(dir.File("j_bw.log")), "100, 80, 0, 0, 0\n200, 0, 0, 0, 0\n");
  EXPECT_EQ(Slurp(dir.File("j_iops.log")), "100, 20, 0, 0, 0\n200, 0, 0, 0, 0\n");
  EXPECT_EQ(Slurp(dir.File("j_lat.log")), "100, 2000, 0, 0, 0\n300, 5000, 0, 0, 0\n");
  EXPECT_EQ(Slurp(dir.File("j_slat.log")), "");
}

TEST(FioLogWriterTest, MaxValueLogsTheWindowsLargestLatency) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  FioLogOptions options;
  options.lat_prefix = dir.File("j");
  options.avg_msec = 100;
  options.max_value = true;
  auto writer = FioLogWriter::Open({{.name = "j", .options = options, .clones = 1}});
  ASSERT_TRUE(writer.ok()) << writer.status();
  ASSERT_TRUE(
      (*writer)->Append("j", 0, {Op(OpKind::kWrite, 10, 1000), Op(OpKind::kWrite, 20, 9000)}).ok());
  ASSERT_TRUE((*writer)->Close().ok());
  EXPECT_EQ(Slurp(dir.File("j_lat.1.log")), "100, 9000, 1, 0, 0\n");
  EXPECT_FALSE(std::filesystem::exists(dir.File("j_bw.1.log")));
}

TEST(FioLogWriterTest, AnUncreatableFileIsAnErrorNamingIt) {
  FioLogOptions options;
  options.bw_prefix = "/nonexistent-dir/j";
  auto writer = FioLogWriter::Open({{.name = "j", .options = options, .clones = 1}});
  ASSERT_FALSE(writer.ok());
  EXPECT_THAT(std::string(writer.status().message()),
              ::testing::HasSubstr("/nonexistent-dir/j_bw.1.log"));
}

}  // namespace
}  // namespace azbench
