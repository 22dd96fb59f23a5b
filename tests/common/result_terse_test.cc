#include "common/result_terse.h"

#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "common/result_json.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

std::vector<std::string> Fields(const std::string& line) {
  return absl::StrSplit(line.substr(0, line.find('\n')), ';');
}

std::vector<JobResult> OneReadJob() {
  std::vector<JobResult> results(1);
  JobResult& r = results[0];
  r.name = "rr";
  r.group_id = 2;
  r.runtime_ns = 2'000'000'000;
  OpStats& read = r.Stats(OpKind::kRead);
  for (uint64_t ns : {500, 1'500, 3'000, 2'500'000}) {
    read.lat.Record(ns);
    ++read.ops;
    read.bytes += 4096;
  }
  return results;
}

TEST(FioTerseTest, Version3HasFiosFieldsInFiosOrder) {
  const std::string text = FioTerseLines(ResultsToFioJson(OneReadJob(), false));
  const std::vector<std::string> f = Fields(text);
  ASSERT_EQ(f.size(), 121u) << text;
  EXPECT_EQ(f[0], "3");
  EXPECT_EQ(f[1].rfind("azbench-", 0), 0u);
  EXPECT_EQ(f[2], "rr");
  EXPECT_EQ(f[3], "2");
  EXPECT_EQ(f[4], "0");
  EXPECT_EQ(f[5], "16");     // read io_kbytes
  EXPECT_EQ(f[8], "2000");   // runtime, ms
  EXPECT_EQ(f[13], "0");     // clat min, us: 500 ns
  EXPECT_EQ(f[14], "2500");  // clat max, us
  EXPECT_EQ(f[17], "1.000000%=0");
  EXPECT_EQ(f[33], "99.990000%=2500");
  EXPECT_EQ(f[34], "0%=0");
  EXPECT_EQ(f[36], "0%=0");
  // Write: nothing, percentiles still written as 0 (as fio).
  EXPECT_EQ(f[46], "0");
  EXPECT_EQ(f[58], "1.000000%=0");
  // Latency in us: the 500 ns sample counts in the first range, with [1, 2) us: 2 of 4.
  EXPECT_EQ(f[99], "50.00%");
  EXPECT_EQ(f[100], "25.00%");  // [2, 4) us
  EXPECT_EQ(f[110], "25.00%");  // [2, 4) ms
}

TEST(FioTerseTest, TheSlotsCarryTheChosenListOfLatOrClatAsFio) {
  FioRunContext context;
  context.job_options = {{{"percentile_list", "99:50"}, {"lat_percentiles", "1"}}};
  std::vector<std::string> f = Fields(FioTerseLines(ResultsToFioJson(OneReadJob(), false, context),
                                                    kFioTerseVersion, FioReportChoices(context)));
  ASSERT_EQ(f.size(), 121u);
  EXPECT_EQ(f[17], "50.000000%=1");  // the second of 500, 1,500, 3,000 and 2,500,000 ns
  EXPECT_EQ(f[18], "99.000000%=2500");
  for (int i = 19; i < 37; ++i) EXPECT_EQ(f[i], "0%=0") << i;
  EXPECT_EQ(f[58], "50.000000%=0");  // writes: none, the list at 0

  context.job_options = {{{"clat_percentiles", "0"}}};
  f = Fields(FioTerseLines(ResultsToFioJson(OneReadJob(), false, context), kFioTerseVersion,
                           FioReportChoices(context)));
  for (int i = 17; i < 37; ++i) EXPECT_EQ(f[i], "0%=0") << i;
}

TEST(FioTerseTest, EachDiskAddsItsNineFields) {
  FioRunContext context;
  context.disks = {DiskUtil{.name = "vda", .read_ios = 7, .util = 12.345}};
  const std::vector<std::string> f =
      Fields(FioTerseLines(ResultsToFioJson(OneReadJob(), false, context)));
  ASSERT_EQ(f.size(), 130u);
  EXPECT_EQ(f[121], "vda");
  EXPECT_EQ(f[122], "7");
  EXPECT_EQ(f[129], "12.35%");
}

TEST(FioTerseTest, ContinueOnErrorAppendsTotalErrAndFirstErrorAsFio) {
  std::vector<JobResult> results = OneReadJob();
  results[0].continue_on_error = true;
  results[0].total_err_count = 3;
  results[0].first_error = 5;
  const std::vector<std::string> f = Fields(FioTerseLines(ResultsToFioJson(results, false)));
  ASSERT_EQ(f.size(), 123u);
  EXPECT_EQ(f[121], "3");
  EXPECT_EQ(f[122], "5");
}

TEST(FioTerseTest, TrimFieldsFollowTheWritesInVersions2And4) {
  std::vector<JobResult> results(1);
  JobResult& r = results[0];
  r.name = "t";
  r.runtime_ns = 1'000'000'000;
  OpStats& trim = r.Stats(OpKind::kTrim);
  trim.lat.Record(2'000);
  trim.ops = 256;
  trim.bytes = 1 << 20;
  const nlohmann::json doc = ResultsToFioJson(results, false);
  const std::vector<std::string> v4 = Fields(FioTerseLines(doc, 4));
  EXPECT_EQ(v4[5 + 41 + 41], "1024");      // trim io_kbytes
  EXPECT_EQ(v4[5 + 41 + 41 + 2], "256");   // trim iops
  EXPECT_EQ(v4[5 + 41 + 41 + 3], "1000");  // trim runtime, ms
  const std::vector<std::string> v2 = Fields(FioTerseLines(doc, 2));
  EXPECT_EQ(v2[4 + 41 + 41], "1024");
}

TEST(FioTerseTest, Versions2To5HaveFiosFieldCounts) {
  FioRunContext context;
  context.disks = {DiskUtil{.name = "vda"}};
  const nlohmann::json doc = ResultsToFioJson(OneReadJob(), false, context);
  // fio 3.33's counts for one job and one disk: version 2 writes no fio version and no disks,
  // 2, 4 and 5 add trim (zeros here: no trims), 5 adds six bandwidth and IOPS fields per direction.
  EXPECT_EQ(Fields(FioTerseLines(doc, 2)).size(), 161u);
  EXPECT_EQ(Fields(FioTerseLines(doc, 3)).size(), 130u);
  EXPECT_EQ(Fields(FioTerseLines(doc, 4)).size(), 171u);
  const std::vector<std::string> v5 = Fields(FioTerseLines(doc, 5));
  ASSERT_EQ(v5.size(), 189u);
  EXPECT_EQ(v5[0], "5");
  EXPECT_EQ(v5[5], "16");           // read io_kbytes
  EXPECT_EQ(v5[5 + 47 + 47], "0");  // trim io_kbytes
  EXPECT_EQ(v5[180], "vda");
  const std::vector<std::string> v2 = Fields(FioTerseLines(doc, 2));
  EXPECT_EQ(v2[0], "2");
  EXPECT_EQ(v2[1], "rr");
  EXPECT_EQ(v2[4], "16");
}

TEST(FioTerseTest, MixedTakesReadsSlotsAloneAndBothAddsItAfterTheDirections) {
  std::vector<JobResult> results = OneReadJob();
  OpStats& write = results[0].Stats(OpKind::kWrite);
  write.lat.Record(7'000);
  write.ops = 1;
  write.bytes = 4096;
  FioRunContext context;
  context.job_options = {{{"unified_rw_reporting", "mixed"}}};
  // fio 3.33's counts for one job, no disk: 121 fields, one direction (41) fewer with mixed, one
  // more with both.
  const std::vector<std::string> mixed = Fields(
      FioTerseLines(ResultsToFioJson(results, false, context), 3, FioReportChoices(context)));
  ASSERT_EQ(mixed.size(), 80u);
  EXPECT_EQ(mixed[5], "20");  // io_kbytes: 16 read + 4 written
  context.job_options = {{{"unified_rw_reporting", "both"}}};
  const std::vector<std::string> both = Fields(
      FioTerseLines(ResultsToFioJson(results, false, context), 3, FioReportChoices(context)));
  ASSERT_EQ(both.size(), 162u);
  EXPECT_EQ(both[5], "16");
  EXPECT_EQ(both[5 + 41], "4");
  EXPECT_EQ(both[5 + 41 + 41], "20");
}

}  // namespace
}  // namespace azbench
