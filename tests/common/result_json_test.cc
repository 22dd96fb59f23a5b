#include "common/result_json.h"

#include <cstdint>
#include <string>
#include <vector>

#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using nlohmann::json;

JobResult ReadJob(const std::vector<uint64_t>& latencies_ns) {
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

TEST(FioLatencyDistributionTest, ARangeWithAnyCompletionShowsAtLeastAHundredthPercent) {
  // 20,000 reads in [1, 2) us and one in [750, 1000) us: its 0.005% shows as fio's 0.01%.
  std::vector<uint64_t> latencies(20'000, 1'500);
  latencies.push_back(999'000);
  const json job = JobResultToFioJson(ReadJob(latencies), false);
  EXPECT_DOUBLE_EQ(job["latency_us"]["1000"].get<double>(), 0.01);
  EXPECT_DOUBLE_EQ(job["latency_us"]["2"].get<double>(), 100.0 * 20'000 / 20'001);
  EXPECT_DOUBLE_EQ(job["latency_us"]["500"].get<double>(), 0.0);
}

TEST(FioLatencyDistributionTest, AJobWithoutOpsHasAllZeroShares) {
  JobResult empty;
  const json job = JobResultToFioJson(empty, false);
  for (const char* unit : {"latency_ns", "latency_us", "latency_ms"}) {
    for (const auto& [key, share] : job[unit].items()) EXPECT_EQ(share.get<double>(), 0.0);
  }
}

// A read job with `ops_per_interval[i]` 4 KiB reads in interval i (1 s intervals).
JobResult ReadSeries(uint64_t runtime_ns, const std::vector<uint64_t>& ops_per_interval) {
  JobResult result;
  result.name = "j";
  result.runtime_ns = runtime_ns;
  result.interval_ns = 1'000'000'000;
  OpStats& read = result.Stats(OpKind::kRead);
  for (size_t i = 0; i < ops_per_interval.size(); ++i) {
    IntervalStats& interval = result.intervals.emplace_back();
    interval.index = static_cast<int64_t>(i);
    IntervalOpStats& s = interval.by_kind[static_cast<int>(OpKind::kRead)];
    s.ops = ops_per_interval[i];
    s.bytes = s.ops * 4096;
    read.ops += s.ops;
    read.bytes += s.bytes;
  }
  return result;
}

TEST(FioIntervalSamplesTest, LatencyOnlyIntervalsPastTheRuntimeAreNotSamples) {
  // The carrier of an agent's interval latency: its own 10 s, then 50 intervals that only hold
  // other jobs' latency (ops 0).
  std::vector<uint64_t> ops(60, 0);
  for (int i = 0; i < 10; ++i) ops[i] = 1000;
  const json job = JobResultToFioJson(ReadSeries(10'000'000'000, ops), false);
  EXPECT_EQ(job["read"]["iops_samples"].get<size_t>(), 10u);
  EXPECT_EQ(job["read"]["iops_min"].get<int64_t>(), 1000);
  EXPECT_DOUBLE_EQ(job["read"]["iops_mean"].get<double>(), 1000.0);
  EXPECT_EQ(job["read"]["bw_samples"].get<size_t>(), 10u);
  EXPECT_EQ(job["read"]["bw_min"].get<int64_t>(), 4000);  // KiB/s
}

TEST(FioIntervalSamplesTest, AnEmptyIntervalInsideTheRuntimeIsNoSampleAsInFio) {
  // Interval 1 stalled: the series may lack it or hold it with 0 ops; either way, as fio, no
  // sample (fio's stat.c skips an interval without bytes or ops).
  JobResult result = ReadSeries(3'000'000'000, {1000, 0, 2000});
  const json with_zero = JobResultToFioJson(result, false);
  result.intervals.erase(result.intervals.begin() + 1);
  const json without = JobResultToFioJson(result, false);
  for (const json& job : {with_zero, without}) {
    EXPECT_EQ(job["read"]["iops_samples"].get<size_t>(), 2u);
    EXPECT_EQ(job["read"]["iops_min"].get<int64_t>(), 1000);
    EXPECT_EQ(job["read"]["iops_max"].get<int64_t>(), 2000);
    EXPECT_EQ(job["read"]["bw_samples"].get<size_t>(), 2u);
  }
}

TEST(FioIntervalSamplesTest, AHugeRuntimeCostsOnlyTheIntervalsTheResultHas) {
  // 2^62 ns of 1 s intervals: some 4.6e9 full intervals, of which the result has three. Their
  // samples are those three; nothing is sized by the runtime (that was a bad_alloc).
  const json job = JobResultToFioJson(ReadSeries(uint64_t{1} << 62, {1000, 0, 2000}), false);
  EXPECT_EQ(job["read"]["iops_samples"].get<size_t>(), 2u);
  EXPECT_EQ(job["read"]["iops_min"].get<int64_t>(), 1000);
  EXPECT_EQ(job["read"]["iops_max"].get<int64_t>(), 2000);
  EXPECT_EQ(job["read"]["bw_samples"].get<size_t>(), 2u);
}

TEST(FioIntervalSamplesTest, TheLastPartialIntervalIsNotASample) {
  // 10 s at 50k IOPS, then 100 us of drain holding 32 completions.
  std::vector<uint64_t> ops(10, 50'000);
  ops.push_back(32);
  const json job = JobResultToFioJson(ReadSeries(10'000'100'000, ops), false);
  EXPECT_EQ(job["read"]["iops_samples"].get<size_t>(), 10u);
  EXPECT_EQ(job["read"]["iops_min"].get<int64_t>(), 50'000);
  EXPECT_DOUBLE_EQ(job["read"]["iops_stddev"].get<double>(), 0.0);
}

TEST(FioIntervalSamplesTest, AJobShorterThanOneIntervalHasNoSamplesAsInFio) {
  const json job = JobResultToFioJson(ReadSeries(250'000'000, {100}), false);
  EXPECT_EQ(job["read"]["iops_samples"].get<size_t>(), 0u);
  EXPECT_EQ(job["read"]["bw_samples"].get<size_t>(), 0u);
  EXPECT_EQ(job["read"]["iops_min"].get<int64_t>(), 0);
  // One full interval is one sample.
  const json longer = JobResultToFioJson(ReadSeries(1'250'000'000, {100, 100}), false);
  EXPECT_EQ(longer["read"]["iops_samples"].get<size_t>(), 1u);
  EXPECT_EQ(longer["read"]["iops_min"].get<int64_t>(), 100);
}

TEST(FioIntervalSamplesTest, ADirectionWithoutOpsHasNoSamples) {
  const json job = JobResultToFioJson(ReadSeries(3'000'000'000, {10, 10, 10}), false);
  EXPECT_EQ(job["write"]["iops_samples"].get<size_t>(), 0u);
  EXPECT_EQ(job["write"]["bw_samples"].get<size_t>(), 0u);
}

TEST(FioIntervalSamplesTest, BwAggIsTheJobsShareOfItsGroupsAggregateBandwidth) {
  // One group of two jobs over 3 s: 1000 and 3000 reads/s of 4 KiB. The group moves 16000 KiB/s;
  // the first job's mean sample is 4000 KiB/s, 25% of it.
  std::vector<JobResult> results;
  results.push_back(ReadSeries(3'000'000'000, {1000, 1000, 1000}));
  results.push_back(ReadSeries(3'000'000'000, {3000, 3000, 3000}));
  // A job of another group is its group's whole bandwidth.
  results.push_back(ReadSeries(3'000'000'000, {500, 500, 500}));
  results.back().group_id = 1;
  const json doc = ResultsToFioJson(results, false);
  EXPECT_DOUBLE_EQ(doc["jobs"][0]["read"]["bw_agg"].get<double>(), 25.0);
  EXPECT_DOUBLE_EQ(doc["jobs"][1]["read"]["bw_agg"].get<double>(), 75.0);
  EXPECT_DOUBLE_EQ(doc["jobs"][2]["read"]["bw_agg"].get<double>(), 100.0);
  // No samples (a direction without ops): 0, as fio.
  EXPECT_DOUBLE_EQ(doc["jobs"][0]["write"]["bw_agg"].get<double>(), 0.0);
  // Alone (no group given), a job is its own group.
  EXPECT_DOUBLE_EQ(JobResultToFioJson(results[0], false)["read"]["bw_agg"].get<double>(), 100.0);
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

// fio 3.33, numjobs=4 + group_reporting, four 2 s threads: job_runtime is their sum, while the
// read runtime (what bw and iops are over) is the longest. The agent's one-shot JSON writes a
// job's clones merged, so it must give what fio gives, as the coordinator's fio-json does.
TEST(FioJobJsonTest, JobRuntimeIsTheSumOverTheClonesAsFiosGroupReportedThreads) {
  std::vector<JobResult> results;
  results.push_back(ReadJob({1'000, 2'000}));
  results.back().clones = 4;
  results.back().runtime_ns = 2'000'000'000;
  results.push_back(ReadJob({1'000}));  // one clone of 1 s
  const json doc = ResultsToFioJson(results, false);
  EXPECT_EQ(doc["jobs"][0]["job_runtime"].get<uint64_t>(), 4u * 2000u);
  EXPECT_EQ(doc["jobs"][0]["read"]["runtime"].get<uint64_t>(), 2000u);
  EXPECT_DOUBLE_EQ(doc["jobs"][0]["read"]["iops"].get<double>(), 2 / 2.0);
  EXPECT_EQ(doc["jobs"][1]["job_runtime"].get<uint64_t>(), 1000u);
  EXPECT_EQ(FioJobRuntimeSumMs({&results[0], &results[1]}), 4u * 2000u + 1000u);
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

namespace azbench {
namespace {

TEST(FioJobFieldsTest, EtaElapsedAndLatencyTargetFieldsAreFiosForAFinishedJob) {
  JobResult result = ReadJob({1'000});
  result.start_realtime_ns = 1'000'000'000;
  result.end_realtime_ns = 1'003'000'000;  // 3 ms: fio rounds elapsed up to 1 s
  const json job = JobResultToFioJson(result, false);
  EXPECT_EQ(job["eta"].get<int64_t>(), 2147483647);
  EXPECT_EQ(job["elapsed"].get<int64_t>(), 1);
  EXPECT_EQ(job["latency_depth"].get<int>(), 1);
  EXPECT_EQ(job["latency_target"].get<int>(), 0);
  EXPECT_DOUBLE_EQ(job["latency_percentile"].get<double>(), 100.0);
  EXPECT_EQ(job["latency_window"].get<int>(), 0);
  EXPECT_EQ(FioElapsedSeconds(0, 2'000'000'000), 2);
  EXPECT_EQ(FioElapsedSeconds(0, 2'000'000'001), 3);
}

TEST(FioJobFieldsTest, JobOptionsAreStringsAsGivenAndSetLatencyDepth) {
  json job = JobResultToFioJson(ReadJob({1'000}), false);
  AddFioJobOptions(job, {{"iodepth", "4"}, {"bs", "4k"}}, {{"rw", "randread"}, {"iodepth", "16"}});
  EXPECT_EQ(job["job options"], (json{{"rw", "randread"}, {"iodepth", "16"}}));
  EXPECT_EQ(job["latency_depth"].get<int>(), 16);
  AddFioJobOptions(job, {{"iodepth", "8"}}, {{"rw", "read"}});
  EXPECT_EQ(job["latency_depth"].get<int>(), 8) << "from the global options";
}

// With latency_target the depth is the search's (the result's), the target is written in ns and
// the window in us, as fio writes them (latency_target=500000 is 500 ms).
TEST(FioJobFieldsTest, LatencyTargetKeysAreTheSearchsDepthAndTheJobsOptions) {
  JobResult result = ReadJob({1'000});
  result.latency_depth = 24;
  json job = JobResultToFioJson(result, false);
  AddFioJobOptions(job, {{"iodepth", "128"}, {"latency_target", "500000"}},
                   {{"latency_window", "5s"}, {"latency_percentile", "99.9"}});
  EXPECT_EQ(job["latency_depth"].get<int>(), 24);
  EXPECT_EQ(job["latency_target"].get<int64_t>(), 500'000'000);
  EXPECT_DOUBLE_EQ(job["latency_percentile"].get<double>(), 99.9);
  EXPECT_EQ(job["latency_window"].get<int64_t>(), 5'000'000);
}

TEST(FioDocumentTest, GlobalOptionsAndDiskUtilAreWrittenOnlyWhenThereAreAny) {
  std::vector<JobResult> results;
  results.push_back(ReadJob({1'000}));
  results.back().start_realtime_ns = 0;
  results.back().end_realtime_ns = 1'000'000'000;
  results.push_back(ReadJob({1'000}));
  results.back().name = "k";
  results.back().start_realtime_ns = 1'000'000'000;
  results.back().end_realtime_ns = 3'500'000'000;
  const json bare = ResultsToFioJson(results, false);
  EXPECT_FALSE(bare.contains("global options"));
  EXPECT_FALSE(bare.contains("disk_util"));
  EXPECT_FALSE(bare["jobs"][0].contains("job options"));
  // As fio's, elapsed is the whole run's, for every job.
  EXPECT_EQ(bare["jobs"][0]["elapsed"].get<int64_t>(), 4);
  EXPECT_EQ(bare["jobs"][1]["elapsed"].get<int64_t>(), 4);

  FioRunContext context;
  context.global_options = {{"ioengine", "psync"}};
  context.job_options = {{{"rw", "read"}}, {{"rw", "write"}}};
  context.disks = {DiskUtil{.name = "vda", .read_ios = 3, .util = 12.5}};
  const json doc = ResultsToFioJson(results, false, context);
  EXPECT_EQ(doc["global options"], (json{{"ioengine", "psync"}}));
  EXPECT_EQ(doc["jobs"][1]["job options"], (json{{"rw", "write"}}));
  ASSERT_EQ(doc["disk_util"].size(), 1u);
  EXPECT_EQ(doc["disk_util"][0]["name"], "vda");
  EXPECT_EQ(doc["disk_util"][0]["read_ios"].get<uint64_t>(), 3u);
  EXPECT_DOUBLE_EQ(doc["disk_util"][0]["util"].get<double>(), 12.5);
  EXPECT_EQ(doc["disk_util"][0].size(), 9u);
}

}  // namespace
}  // namespace azbench

namespace azbench {
namespace {

TEST(FioBinsTest, IndexAndValueFollowFiosLayout) {
  EXPECT_EQ(FioPlatIndex(0), 0);
  EXPECT_EQ(FioPlatIndex(127), 127);
  EXPECT_EQ(FioPlatIndex(128), 128);
  EXPECT_EQ(FioPlatIndex(129), 128);  // [128, 130): width 2
  EXPECT_EQ(FioPlatValue(128), 129u);
  // As fio 3.33 reported a 41008 ns read: bin "41216" (width 512).
  EXPECT_EQ(FioPlatValue(FioPlatIndex(41'008)), 41'216u);
  EXPECT_EQ(FioPlatWidth(FioPlatIndex(41'008)), 512u);
  // From 2^34 ns on, one last bin.
  EXPECT_EQ(FioPlatIndex(uint64_t{1} << 34), kFioPlatBins - 1);
  EXPECT_EQ(FioPlatIndex(UINT64_MAX), kFioPlatBins - 1);
  // Every bin's value maps back to the bin.
  for (int i = 0; i < kFioPlatBins; ++i) EXPECT_EQ(FioPlatIndex(FioPlatValue(i)), i) << i;
}

TEST(FioBinsTest, EveryBucketOfTheHistogramLiesInsideOneFioBin) {
  for (int b = 0; b < Histogram::kBucketCount; ++b) {
    const uint64_t lo = Histogram::BucketLowerBound(b);
    const uint64_t hi = lo + (Histogram::BucketWidth(b) - 1);
    ASSERT_EQ(FioPlatIndex(lo), FioPlatIndex(hi)) << "bucket " << b;
  }
}

TEST(FioBinsTest, JsonPlusBinsHoldEverySampleOfClat) {
  Histogram h;
  for (uint64_t v : std::vector<uint64_t>{5, 5, 130, 131, 41'008, 41'400, 5'000'000'000}) {
    h.Record(v);
  }
  const json bins = FioBinsJson(h);
  EXPECT_EQ(bins, (json{{"5", 2}, {"131", 2}, {"41216", 2}, {"4999610368", 1}}));
  std::vector<JobResult> results;
  results.push_back(ReadJob({41'008, 41'400}));
  FioRunContext context;
  context.with_bins = true;
  const json doc = ResultsToFioJson(results, false, context);
  EXPECT_EQ(doc["jobs"][0]["read"]["clat_ns"]["bins"], (json{{"41216", 2}}));
  EXPECT_FALSE(doc["jobs"][0]["write"]["clat_ns"].contains("bins")) << "no samples, as in fio";
  EXPECT_FALSE(ResultsToFioJson(results, false)["jobs"][0]["read"]["clat_ns"].contains("bins"));
}

TEST(FioPercentilesTest, TheJobsChoiceDecidesWhichLatenciesCarryWhichPercentilesAndBins) {
  std::vector<JobResult> results;
  results.push_back(ReadJob({41'008, 41'400}));
  results.push_back(ReadJob({41'008, 41'400}));
  FioRunContext context;
  context.with_bins = true;
  context.global_options = {{"percentile_list", "50:99.5"}};
  context.job_options = {{}, {{"lat_percentiles", "1"}, {"clat_percentiles", "0"}}};
  const json doc = ResultsToFioJson(results, false, context);
  // fio's defaults: clat only.
  const json& first = doc["jobs"][0]["read"];
  EXPECT_EQ(first["clat_ns"]["percentile"], (json{{"50.000000", 41'008}, {"99.500000", 41'400}}));
  EXPECT_TRUE(first["clat_ns"].contains("bins"));
  EXPECT_FALSE(first["lat_ns"].contains("percentile"));
  EXPECT_FALSE(first["lat_ns"].contains("bins"));
  EXPECT_FALSE(first["slat_ns"].contains("percentile"));
  // The second job's own options win over the global ones.
  const json& second = doc["jobs"][1]["read"];
  EXPECT_FALSE(second["clat_ns"].contains("percentile"));
  EXPECT_FALSE(second["clat_ns"].contains("bins"));
  EXPECT_EQ(second["lat_ns"]["percentile"].size(), 2u);
  EXPECT_TRUE(second["lat_ns"].contains("bins"));
  // A direction without samples has no percentile object, as fio.
  EXPECT_FALSE(doc["jobs"][1]["write"]["lat_ns"].contains("percentile"));
}

TEST(FioJobErrorsTest, ContinueOnErrorAddsTotalErrAndFirstErrorAndMakesTheFirstTheJobsError) {
  JobResult result;
  result.name = "w";
  OpStats& write = result.Stats(OpKind::kWrite);
  write.ops = 16;
  write.errors = 48;
  const json plain = JobResultToFioJson(result, false);
  EXPECT_FALSE(plain.contains("total_err")) << "fio writes them only with continue_on_error";
  EXPECT_EQ(plain["write"]["total_ios"], 64) << "as fio, the failed I/Os count too";
  result.continue_on_error = true;
  result.total_err_count = 48;
  result.first_error = 28;
  const json doc = JobResultToFioJson(result, false);
  EXPECT_EQ(doc["total_err"], 48);
  EXPECT_EQ(doc["first_error"], 28);
  EXPECT_EQ(doc["error"], 28) << "fio reports the first error it went on after";
  result.error_errno = 5;
  EXPECT_EQ(JobResultToFioJson(result, false)["error"], 5) << "the error that ended the job wins";
}

TEST(FioSteadyStateTest, TheBlockHasFiosKeysAndFormats) {
  JobResult result = ReadJob({1000});
  EXPECT_FALSE(JobResultToFioJson(result, false).contains("steadystate"))
      << "fio writes the block only for a job with ss_dur";
  SteadyStateResult ss;
  ss.spec.iops = true;
  ss.spec.slope = false;
  ss.spec.percent = true;
  ss.spec.limit = 10;
  ss.spec.duration = absl::Seconds(3);
  ss.attained = true;
  ss.criterion = 100.0 / 11.0;
  ss.max_deviation = 10;
  ss.iops = {100, 110, 120};
  ss.bw = {409600, 450560, 491520};
  result.steadystate = ss;
  const json block = JobResultToFioJson(result, false)["steadystate"];
  EXPECT_EQ(block["ss"], "iops:10.000000%");
  EXPECT_EQ(block["duration"], 3);
  EXPECT_EQ(block["attained"], 1);
  EXPECT_EQ(block["criterion"], "9.090909%");
  EXPECT_EQ(block["max_deviation"], 10.0);
  EXPECT_EQ(block["slope"], 0.0);
  EXPECT_EQ(block["data"]["iops_mean"], 110);
  EXPECT_EQ(block["data"]["bw_mean"], 450560);
  EXPECT_EQ(block["data"]["iops"], json({100, 110, 120}));
  EXPECT_EQ(block["data"]["bw"], json({409600, 450560, 491520}));
  // A bandwidth limit in bytes/s, no "%".
  result.steadystate->spec.iops = false;
  result.steadystate->spec.slope = true;
  result.steadystate->spec.percent = false;
  result.steadystate->spec.limit = 1048576;
  result.steadystate->criterion = -2.5;
  const json bw = JobResultToFioJson(result, false)["steadystate"];
  EXPECT_EQ(bw["ss"], "bw_slope:1048576.000000");
  EXPECT_EQ(bw["criterion"], "-2.500000");
}

JobResult ReadWriteSyncJob() {
  JobResult result = ReadJob({10'000, 30'000});
  OpStats& write = result.Stats(OpKind::kWrite);
  write.lat.Record(50'000);
  write.ops = 1;
  write.bytes = 8192;
  OpStats& sync = result.Stats(OpKind::kFsync);
  sync.lat.Record(90'000);
  sync.ops = 1;
  return result;
}

TEST(FioUnifiedRwTest, MixedReplacesTheDirectionsAndSyncWithTheirSum) {
  std::vector<JobResult> results;
  results.push_back(ReadWriteSyncJob());
  FioRunContext context;
  context.with_bins = true;
  context.job_options = {{{"unified_rw_reporting", "mixed"}}};
  const json job = ResultsToFioJson(results, false, context)["jobs"][0];
  for (const char* key : {"read", "write", "trim", "sync"}) EXPECT_FALSE(job.contains(key)) << key;
  const json& mixed = job["mixed"];
  EXPECT_EQ(mixed["total_ios"], 3);
  EXPECT_EQ(mixed["io_bytes"], 16384);
  EXPECT_EQ(mixed["clat_ns"]["N"], 3);
  EXPECT_EQ(mixed["clat_ns"]["min"], 10'000);
  EXPECT_EQ(mixed["clat_ns"]["max"], 50'000);
  EXPECT_TRUE(mixed["clat_ns"].contains("percentile"));
  EXPECT_TRUE(mixed["clat_ns"].contains("bins"));
  // The group's bandwidth is over every direction's bytes: this job is all of it.
  EXPECT_EQ(mixed["bw_bytes"], 16384);
}

TEST(FioUnifiedRwTest, BothKeepsTheDirectionsAndAddsTheirSum) {
  std::vector<JobResult> results;
  results.push_back(ReadWriteSyncJob());
  FioRunContext context;
  context.global_options = {{"unified_rw_reporting", "2"}};
  context.job_options = {{}};
  const json job = ResultsToFioJson(results, false, context)["jobs"][0];
  EXPECT_EQ(job["read"]["total_ios"], 2);
  EXPECT_EQ(job["write"]["total_ios"], 1);
  EXPECT_EQ(job["sync"]["total_ios"], 1);
  EXPECT_EQ(job["mixed"]["total_ios"], 3);
  EXPECT_EQ(job["mixed"]["lat_ns"]["N"], 3);
  // Without the option, no mixed direction.
  context.global_options.clear();
  EXPECT_FALSE(ResultsToFioJson(results, false, context)["jobs"][0].contains("mixed"));
}

}  // namespace
}  // namespace azbench
