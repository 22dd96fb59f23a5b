#include "common/fio_log_writer.h"

#include <filesystem>
#include <fstream>
#include <map>
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

TEST(FioLogWriterTest, ClatBinsAreFiosLayout) {
  EXPECT_EQ(FioClatBin(0), 0);
  EXPECT_EQ(FioClatBin(127), 127);  // below 2^7 every nanosecond has its own bin
  EXPECT_EQ(FioClatBin(129), 128);  // then 64 bins per power of two
  EXPECT_EQ(FioClatBin(255), 191);
  EXPECT_EQ(FioClatBin(256), 192);
  EXPECT_EQ(FioClatBin(1000), 317);
  EXPECT_EQ(FioClatBin(uint64_t{1} << 33), 1792);
  EXPECT_EQ(FioClatBin((uint64_t{1} << 34) - 1), kFioClatBins - 1);
  EXPECT_EQ(FioClatBin(UINT64_MAX), kFioClatBins - 1);
}

// A clat_hist line of 29 columns (coarseness 6): `counts` by column, the rest 0.
std::string HistLine(uint64_t time_ms, int ddir, const std::map<int, int>& counts) {
  std::string line = std::to_string(time_ms) + ", " + std::to_string(ddir) + ", 4096";
  for (int column = 0; column < kFioClatBins / 64; ++column) {
    line += ", " + std::to_string(counts.count(column) ? counts.at(column) : 0);
  }
  return line + "\n";
}

TEST(FioLogWriterTest, HistLinesCountEachDirectionsClatsSinceItsPreviousLine) {
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  FioLogOptions options;
  options.hist_prefix = dir.File("j");
  options.hist_msec = 10;
  options.hist_coarseness = 6;
  auto writer = FioLogWriter::Open({{.name = "j", .options = options, .clones = 1}});
  ASSERT_TRUE(writer.ok()) << writer.status();
  OpRecord first = Op(OpKind::kRead, 1, 100);  // completes in ms 0: starts no window
  first.start_ns = 0;
  OpRecord submitted = Op(OpKind::kRead, 5, 1100);
  submitted.has_slat = true;
  submitted.slat_ns = 1000;  // clat 100 ns
  // 100 ns: column 1 (bin 100); 1000 ns: column 4 (bin 317); beyond 2^34 ns: the last column.
  ASSERT_TRUE(
      (*writer)
          ->Append("j", 0,
                   {first, Op(OpKind::kRead, 3, 1000), submitted, Op(OpKind::kRead, 13, 100),
                    Op(OpKind::kWrite, 14, 1000), Op(OpKind::kRead, 30, 1000),
                    Op(OpKind::kRead, 32, 100),
                    Op(OpKind::kRead, 33 + (uint64_t{1} << 35) / 1'000'000, uint64_t{1} << 35)})
          .ok());
  ASSERT_TRUE((*writer)->Close().ok());
  // Reads: the window begins at ms 3; the line at ms 13 takes the 4 reads so far; the next window
  // began at 13, so the read at 30 ends it at once; the next began at 23 (not 30) and the slow
  // read ends it. The lone write is in no line: no op ended its window.
  const uint64_t last_ms = 33 + (uint64_t{1} << 35) / 1'000'000;
  EXPECT_EQ(Slurp(dir.File("j_clat_hist.1.log")), HistLine(13, 0, {{1, 3}, {4, 1}}) +
                                                      HistLine(30, 0, {{4, 1}}) +
                                                      HistLine(last_ms, 0, {{1, 1}, {28, 1}}));
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
