#include "common/result_text.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

JobResult OneReadJob() {
  JobResult result;
  result.name = "j";
  result.runtime_ns = 1'000'000'000;
  OpStats& read = result.Stats(OpKind::kRead);
  read.lat.Record(1'000);
  read.ops = 1;
  read.bytes = 4096;
  return result;
}

TEST(JobResultTextTest, PrintsFiosCpuLineWhenTheCpuWasMeasured) {
  JobResult result = OneReadJob();
  result.cpu = {.threads = 1,
                .wall_ns = 1'000'000'000,
                .user_ns = 123'400'000,
                .system_ns = 876'500'000,
                .voluntary_switches = 10,
                .involuntary_switches = 5,
                .minor_faults = 33,
                .major_faults = 0};
  EXPECT_THAT(FormatJobResultText(result),
              HasSubstr("  cpu          : usr=12.34%, sys=87.65%, ctx=15, majf=0, minf=33\n"));
}

TEST(JobResultTextTest, BandwidthIsBinaryThenDecimalInParenthesesAsFioPrintsIt) {
  JobResult result = OneReadJob();
  result.Stats(OpKind::kRead).bytes = 4 * 1024 * 1024;  // in one second
  const std::string text = FormatJobResultText(result);
  // fio's num2str at its default four digits.
  EXPECT_THAT(text, HasSubstr("BW=4096KiB/s (4194kB/s)(4096KiB/1000msec)")) << text;
  ReportChoice choice;
  choice.significant_figures = 6;
  EXPECT_THAT(FormatJobResultText(result, choice), HasSubstr("BW=4096.0KiB/s (4194.3kB/s)"));
  choice.kb_base = 1000;
  EXPECT_THAT(FormatJobResultText(result, choice), HasSubstr("BW=4194.3kB/s (4096.0KiB/s)"));
  result.Stats(OpKind::kRead).bytes = 40'000;
  EXPECT_THAT(FormatJobResultText(result), HasSubstr("(40.0kB/s)"));
}

TEST(JobResultTextTest, PrintsATrimLineAsFioDoes) {
  JobResult result;
  result.name = "t";
  result.runtime_ns = 1'000'000'000;
  OpStats& trim = result.Stats(OpKind::kTrim);
  trim.lat.Record(2'000);
  trim.ops = 256;
  trim.bytes = 1 << 20;
  const std::string text = FormatJobResultText(result);
  EXPECT_THAT(text,
              HasSubstr("  trim: IOPS=256, BW=1024KiB/s (1049kB/s)(1024KiB/1000msec), errors=0\n"))
      << text;
}

TEST(JobResultTextTest, HasNoCpuOrDepthLinesWhenNothingWasMeasured) {
  EXPECT_THAT(FormatJobResultText(OneReadJob()), Not(HasSubstr("cpu")));
  EXPECT_THAT(FormatJobResultText(OneReadJob()), Not(HasSubstr("IO depths")));
}

TEST(JobResultTextTest, PrintsFiosIoDepthsSubmitAndCompleteLines) {
  JobResult result = OneReadJob();
  result.depth.level = {0, 0, 0, 0, 3, 0, 1};
  result.depth.submit = {0, 1, 0, 1, 0, 0, 0};
  result.depth.complete = {0, 4, 0, 0, 0, 0, 0};
  const std::string text = FormatJobResultText(result);
  EXPECT_THAT(text, HasSubstr("  IO depths    : 1=0.0%, 2=0.0%, 4=0.0%, 8=0.0%, 16=75.0%, 32=0.0%, "
                              ">=64=25.0%\n"));
  EXPECT_THAT(text, HasSubstr("     submit    : 0=0.0%, 4=50.0%, 8=0.0%, 16=50.0%, 32=0.0%, "
                              "64=0.0%, >=64=0.0%\n"));
  EXPECT_THAT(text, HasSubstr("     complete  : 0=0.0%, 4=100.0%, 8=0.0%"));
}

TEST(JobResultTextTest, PrintsFiosBwAndIopsLinesFromTheJsonSamplesAfterTheLatencies) {
  const JobResult result = OneReadJob();
  nlohmann::json job;
  job["read"] = {{"bw_min", 100},     {"bw_max", 300},      {"bw_agg", 50.0},   {"bw_mean", 200.0},
                 {"bw_dev", 10.0},    {"bw_samples", 3},    {"iops_min", 25},   {"iops_max", 75},
                 {"iops_mean", 50.0}, {"iops_stddev", 2.5}, {"iops_samples", 3}};
  std::string text = FormatJobResultText(result, {}, job);
  const size_t bw_at = text.find(
      "   bw (  KiB/s): min=  100, max=  300, per=50.00%, avg=200.00, stdev=10.00, samples=3\n"
      "   iops        : min=   25, max=   75, avg=50.00, stdev= 2.50, samples=3\n");
  ASSERT_NE(bw_at, std::string::npos) << text;
  EXPECT_GT(bw_at, text.find("    clat percentiles")) << text;
  // Past kb_base squared KiB/s, MiB/s as fio's (whole MiB for min and max).
  job["read"]["bw_min"] = 2'000'000;
  job["read"]["bw_max"] = 3'000'000;
  job["read"]["bw_mean"] = 2'500'000.0;
  text = FormatJobResultText(result, {}, job);
  EXPECT_THAT(text, HasSubstr("   bw (  MiB/s): min= 1953, max= 2929, per=50.00%, avg=2441.41,"));
  // Without samples, no lines.
  job["read"]["bw_samples"] = 0;
  job["read"]["iops_samples"] = 0;
  text = FormatJobResultText(result, {}, job);
  EXPECT_THAT(text, Not(HasSubstr("   bw (")));
  EXPECT_THAT(text, Not(HasSubstr("   iops        :")));
}

TEST(JobResultTextTest, PrintsFiosErrorsLineWithContinueOnError) {
  JobResult result = OneReadJob();
  EXPECT_THAT(FormatJobResultText(result), Not(HasSubstr("errors    :")));
  result.continue_on_error = true;
  result.total_err_count = 48;
  result.first_error = 28;
  const std::string text = FormatJobResultText(result);
  EXPECT_THAT(text, HasSubstr("err=28 (No space left on device (ENOSPC)): pid="));
  EXPECT_THAT(text,
              HasSubstr("     errors    : total=48, first_error=28/<No space left on device"));
}

}  // namespace
}  // namespace azbench

namespace azbench {
namespace {

JobResult SyncReadsAt(uint64_t ns) {
  JobResult result;
  result.name = "j";
  result.runtime_ns = 1'000'000'000;
  OpStats& read = result.Stats(OpKind::kRead);
  for (int i = 0; i < 100; ++i) read.lat.Record(ns);
  read.ops = 100;
  read.bytes = 409'600;
  return result;
}

TEST(JobResultTextTest, PercentileBlocksAreFiosLayoutForTheChosenLatencies) {
  const JobResult result = SyncReadsAt(50'000'000);
  const uint64_t us = (result.Find(OpKind::kRead)->lat.Percentile(50) + 999) / 1000;
  ReportChoice choice;
  ASSERT_TRUE(ParsePercentileList("99.5:50", choice).ok());
  // A sync engine's clat is its total latency, as fio's; values over 2 us and 99.999 us are in
  // usec, rounded up, five digits wide.
  std::string text = FormatJobResultText(result, choice);
  EXPECT_THAT(text,
              HasSubstr(absl::StrFormat(
                  "    clat percentiles (usec):\n     | 50.0th=[%5d], 99.5th=[%5d]\n", us, us)))
      << text;
  EXPECT_THAT(text, Not(HasSubstr("    lat percentiles")));
  choice.lat = true;
  text = FormatJobResultText(result, choice);
  EXPECT_THAT(text, HasSubstr("    clat percentiles (usec):"));
  EXPECT_THAT(text,
              HasSubstr(absl::StrFormat(
                  "    lat percentiles (usec):\n     | 50.0th=[%5d], 99.5th=[%5d]\n", us, us)));
  choice.clat = choice.lat = false;
  EXPECT_THAT(FormatJobResultText(result, choice), Not(HasSubstr("percentiles")));
}

TEST(JobResultTextTest, AllZeroLatenciesPrintZerosAtTheMinimumWidth) {
  const JobResult result = SyncReadsAt(0);
  ReportChoice choice;
  ASSERT_TRUE(ParsePercentileList("50:99", choice).ok());
  EXPECT_THAT(FormatJobResultText(result, choice),
              HasSubstr("    clat percentiles (nsec):\n     |  50th=[    0],  99th=[    0]\n"));
}

TEST(JobResultTextTest, TheDefaultListWrapsFourToALineInNanoseconds) {
  const JobResult result = SyncReadsAt(1'000);
  const std::string text = FormatJobResultText(result);
  const size_t at = text.find("    clat percentiles (nsec):\n");
  ASSERT_NE(at, std::string::npos) << text;
  const std::vector<std::string> lines = absl::StrSplit(text.substr(at), '\n', absl::SkipEmpty());
  ASSERT_GE(lines.size(), 6u) << text;
  // 17 values: four lines of four, then one.
  for (int i = 1; i <= 4; ++i) {
    EXPECT_EQ(std::count(lines[i].begin(), lines[i].end(), '['), 4) << lines[i];
    EXPECT_EQ(lines[i].back(), ',') << lines[i];
  }
  EXPECT_THAT(lines[1], ::testing::StartsWith("     |  1.00th=["));
  EXPECT_THAT(lines[5], ::testing::MatchesRegex(R"(     \| 99\.99th=\[ *[0-9]+\])"));
}

TEST(JobResultTextTest, MixedPrintsOneSectionForEveryDirectionAndBothAddsItLast) {
  JobResult result = SyncReadsAt(50'000);
  OpStats& write = result.Stats(OpKind::kWrite);
  write.lat.Record(70'000);
  write.ops = 1;
  write.bytes = 4096;
  OpStats& sync = result.Stats(OpKind::kFsync);
  sync.ops = 1;
  sync.lat.Record(2'000'000);
  ReportChoice choice;
  choice.unified = UnifiedRw::kMixed;
  std::string text = FormatJobResultText(result, choice);
  EXPECT_THAT(text, HasSubstr("  mixed: IOPS=101, BW=404KiB/s"));
  for (const char* gone : {"  read:", "  write:"}) {
    EXPECT_THAT(text, Not(HasSubstr(gone))) << text;
  }
  // As fio, the fsyncs keep their own section whatever the unified reporting.
  const size_t mixed_sync_at =
      text.find("  fsync/fdatasync/sync_file_range:\n    sync (nsec): min=2000.0k, max=2000.0k");
  ASSERT_NE(mixed_sync_at, std::string::npos) << text;
  EXPECT_GT(mixed_sync_at, text.find("  mixed: IOPS=101,")) << text;
  choice.unified = UnifiedRw::kBoth;
  text = FormatJobResultText(result, choice);
  const size_t read_at = text.find("  read: IOPS=100,");
  const size_t write_at = text.find("  write: IOPS=1,");
  const size_t mixed_at = text.find("  mixed: IOPS=101,");
  ASSERT_NE(read_at, std::string::npos) << text;
  ASSERT_NE(write_at, std::string::npos) << text;
  ASSERT_NE(mixed_at, std::string::npos) << text;
  EXPECT_LT(write_at, mixed_at);
  const size_t sync_at = text.find("  fsync/fdatasync/sync_file_range:\n");
  ASSERT_NE(sync_at, std::string::npos) << text;
  EXPECT_GT(sync_at, mixed_at);
}

}  // namespace
}  // namespace azbench
