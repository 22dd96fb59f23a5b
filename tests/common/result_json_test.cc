#include "common/result_json.h"

#include <cstdint>
#include <string>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using nlohmann::json;

JobResult ReadJob(std::initializer_list<uint64_t> latencies_ns) {
  JobResult result;
  result.name = "j";
  result.runtime_ns = 1'000'000'000;
  OpStats& read = result.Stats(OpKind::kRead);
  for (uint64_t ns : latencies_ns) {
    read.lat.Record(ns);
    ++read.ops;
    read.bytes += 4096;
  }
  return result;
}

TEST(FioLatencyDistributionTest, SharesFollowFiosRangesInNanoMicroAndMilliseconds) {
  // One sample in each of six of fio's ranges.
  const json job = JobResultToFioJson(ReadJob({1, 3, 1'500, 999'000, 1'500'000, 2'500'000'000ULL}),
                                      /*with_azbench_extras=*/false);
  const double sixth = 100.0 / 6.0;
  EXPECT_DOUBLE_EQ(job["latency_ns"]["2"].get<double>(), sixth);  // [0, 2) ns
  EXPECT_DOUBLE_EQ(job["latency_ns"]["4"].get<double>(), sixth);  // [2, 4) ns
  EXPECT_DOUBLE_EQ(job["latency_ns"]["1000"].get<double>(), 0.0);
  EXPECT_DOUBLE_EQ(job["latency_us"]["2"].get<double>(), sixth);     // [1, 2) us
  EXPECT_DOUBLE_EQ(job["latency_us"]["1000"].get<double>(), sixth);  // [750, 1000) us
  EXPECT_DOUBLE_EQ(job["latency_ms"]["2"].get<double>(), sixth);     // [1, 2) ms
  EXPECT_DOUBLE_EQ(job["latency_ms"][">=2000"].get<double>(), sixth);
  EXPECT_EQ(job["latency_ns"].size(), 10u);
  EXPECT_EQ(job["latency_us"].size(), 10u);
  EXPECT_EQ(job["latency_ms"].size(), 12u);
  double total = 0;
  for (const char* unit : {"latency_ns", "latency_us", "latency_ms"}) {
    for (const auto& [key, share] : job[unit].items()) total += share.get<double>();
  }
  EXPECT_NEAR(total, 100.0, 1e-9);
}

TEST(FioLatencyDistributionTest, UsesClatWhenTheEngineSeparatesItAndCountsEveryDirection) {
  JobResult result = ReadJob({5'000'000});       // total latency 5 ms
  result.Stats(OpKind::kRead).clat.Record(300);  // completion latency 300 ns
  OpStats& write = result.Stats(OpKind::kWrite);
  write.lat.Record(40'000);
  write.ops = 1;
  const json job = JobResultToFioJson(result, false);
  EXPECT_DOUBLE_EQ(job["latency_ns"]["500"].get<double>(), 50.0);  // [250, 500) ns: read clat
  EXPECT_DOUBLE_EQ(job["latency_us"]["50"].get<double>(), 50.0);   // [20, 50) us: write lat
  EXPECT_DOUBLE_EQ(job["latency_ms"]["10"].get<double>(), 0.0);
  // clat_ns is the separated completion latency; lat_ns the total.
  EXPECT_EQ(job["read"]["clat_ns"]["max"].get<uint64_t>(), 300u);
  EXPECT_EQ(job["read"]["lat_ns"]["max"].get<uint64_t>(), 5'000'000u);
}

TEST(FioLatencyDistributionTest, AJobWithoutOpsHasAllZeroShares) {
  JobResult empty;
  const json job = JobResultToFioJson(empty, false);
  for (const char* unit : {"latency_ns", "latency_us", "latency_ms"}) {
    for (const auto& [key, share] : job[unit].items()) EXPECT_EQ(share.get<double>(), 0.0);
  }
}

TEST(FioDocumentHeaderTest, TimestampsComeFromTheGivenInstant) {
  const json head = FioDocumentHeader(1'700'000'000'123'456'789LL);
  EXPECT_EQ(head["timestamp"].get<int64_t>(), 1'700'000'000);
  EXPECT_EQ(head["timestamp_ms"].get<int64_t>(), 1'700'000'000'123LL);
  EXPECT_THAT(head["fio version"].get<std::string>(), ::testing::StartsWith("azbench-"));
  EXPECT_TRUE(head["time"].is_string());
}

TEST(FioJobJsonTest, CpuFiguresAreFiosAveragesOverThreadsAndTheRawSumsAreInTheExtras) {
  JobResult result = ReadJob({1'000});
  // Two threads of 2 s each: 1 s of user and 0.5 s of system time in all.
  result.cpu = {.threads = 2,
                .wall_ns = 4'000'000'000,
                .user_ns = 1'000'000'000,
                .system_ns = 500'000'000,
                .voluntary_switches = 40,
                .involuntary_switches = 2,
                .minor_faults = 300,
                .major_faults = 1};
  const json job = JobResultToFioJson(result);
  EXPECT_DOUBLE_EQ(job["usr_cpu"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(job["sys_cpu"].get<double>(), 12.5);
  EXPECT_EQ(job["ctx"].get<uint64_t>(), 42u);
  EXPECT_EQ(job["minf"].get<uint64_t>(), 300u);
  EXPECT_EQ(job["majf"].get<uint64_t>(), 1u);
  const json& cpu = job["azbench"]["cpu"];
  EXPECT_EQ(cpu["threads"].get<uint32_t>(), 2u);
  EXPECT_EQ(cpu["wall_ns"].get<uint64_t>(), 4'000'000'000u);
  EXPECT_EQ(cpu["user_ns"].get<uint64_t>(), 1'000'000'000u);
  EXPECT_EQ(cpu["system_ns"].get<uint64_t>(), 500'000'000u);
  EXPECT_EQ(cpu["voluntary_switches"].get<uint64_t>(), 40u);
  EXPECT_EQ(cpu["involuntary_switches"].get<uint64_t>(), 2u);
}

TEST(FioJobJsonTest, IoDepthsArePercentPerFioBucketWithFiosKeys) {
  JobResult result = ReadJob({1'000});
  result.depth.level = {0, 0, 0, 0, 300, 0, 100};
  result.depth.submit = {0, 30, 0, 10, 0, 0, 0};
  result.depth.complete = {5, 15, 0, 0, 0, 0, 0};
  const json job = JobResultToFioJson(result);
  EXPECT_DOUBLE_EQ(job["iodepth_level"]["16"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(job["iodepth_level"][">=64"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(job["iodepth_level"]["1"].get<double>(), 0.0);
  EXPECT_EQ(job["iodepth_level"].size(), 7u);
  EXPECT_DOUBLE_EQ(job["iodepth_submit"]["4"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(job["iodepth_submit"]["16"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(job["iodepth_complete"]["0"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(job["iodepth_complete"]["4"].get<double>(), 75.0);
  for (const char* key : {"0", "4", "8", "16", "32", "64", ">=64"}) {
    EXPECT_TRUE(job["iodepth_submit"].contains(key)) << key;
    EXPECT_TRUE(job["iodepth_complete"].contains(key)) << key;
  }
  EXPECT_EQ(job["azbench"]["depth"]["level"][4].get<uint64_t>(), 300u);
}

TEST(FioJobJsonTest, CpuFiguresAreLeftOutWhenNotMeasuredRatherThanWrittenAsZero) {
  const json job = JobResultToFioJson(ReadJob({1'000}));
  for (const char* key : {"usr_cpu", "sys_cpu", "ctx", "majf", "minf"}) {
    EXPECT_FALSE(job.contains(key)) << key;
  }
  EXPECT_FALSE(job["azbench"].contains("cpu"));
  for (const char* key : {"iodepth_level", "iodepth_submit", "iodepth_complete"}) {
    EXPECT_FALSE(job.contains(key)) << key;
  }
}

}  // namespace
}  // namespace azbench
