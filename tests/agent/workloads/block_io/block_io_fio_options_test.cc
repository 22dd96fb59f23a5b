// fio's pacing and job-structure options in block-I/O jobs: loops, number_ios, offset_increment,
// startdelay and the cpp_null engine. Op counts are those fio 3.33 reports (total_ios) for the
// same job with ioengine=null.
#include <algorithm>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "agent/workloads/block_io/block_io.h"
#include "common/fio_jobfile.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

// A null-engine job of 1 MiB in 4 KiB blocks (256 ops per pass): no file is opened.
JobSpec NullJob(RwPattern rw = RwPattern::kRandRead) {
  JobSpec spec;
  spec.name = "null";
  spec.filename = "/nonexistent/never-opened";
  spec.ioengine = "null";
  spec.rw = rw;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 4096;
  return spec;
}

JobResult RunOk(const JobSpec& spec, RunControl control = RunControl{}) {
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  EXPECT_TRUE(job.ok()) << job.status();
  if (!job.ok()) return JobResult();
  absl::StatusOr<JobResult> result = (*job)->Run(control);
  EXPECT_TRUE(result.ok()) << result.status();
  return result.ok() ? std::move(*result) : JobResult();
}

uint64_t DataOps(const JobResult& r) {
  uint64_t ops = 0;
  for (OpKind kind : {OpKind::kRead, OpKind::kWrite}) {
    if (const OpStats* s = r.Find(kind)) ops += s->ops;
  }
  return ops;
}

struct OpCountCase {
  int loops;
  uint64_t number_ios;
  int iodepth;
  uint64_t fio_total_ios;  // fio 3.33, the same job with ioengine=null
};

class LoopsAndNumberIosTest : public ::testing::TestWithParam<OpCountCase> {};

TEST_P(LoopsAndNumberIosTest, OpCountsMatchFio) {
  const OpCountCase& c = GetParam();
  JobSpec spec = NullJob();
  spec.loops = c.loops;
  spec.number_ios = c.number_ios;
  spec.iodepth = c.iodepth;
  EXPECT_EQ(DataOps(RunOk(spec)), c.fio_total_ios);
}

INSTANTIATE_TEST_SUITE_P(Fio333, LoopsAndNumberIosTest,
                         ::testing::Values(OpCountCase{3, 0, 1, 768}, OpCountCase{1, 100, 1, 100},
                                           OpCountCase{3, 100, 1, 300},
                                           OpCountCase{1, 1000, 1, 256},
                                           OpCountCase{2, 1000, 1, 512},
                                           OpCountCase{1, 100, 8, 100}));

// The offsets of a job's I/Os, in the order they were logged.
std::vector<uint64_t> Offsets(JobSpec spec) {
  spec.op_log = true;
  std::vector<uint64_t> offsets;
  RunControl control;
  control.on_op_log = [&](int, std::vector<OpRecord> records) {
    for (const OpRecord& r : records) offsets.push_back(r.offset_bytes);
  };
  RunOk(spec, control);
  return offsets;
}

TEST(BlockIoFioOptionsTest, NumberIosCountsIosWhateverTheirSizesAsFio) {
  struct Case {
    const char* option;
    const char* value;
    RwPattern rw;
    int loops;
    uint64_t number_ios;
    uint64_t fio_total_ios;  // fio 3.33, the same 1 MiB job with ioengine=null
  };
  for (const Case& c : {Case{"bssplit", "4k/50:64k/50", RwPattern::kRandRead, 3, 10, 30},
                        Case{"bsrange", "4k-64k", RwPattern::kRandRead, 2, 7, 14},
                        Case{"bs", "4k,64k", RwPattern::kReadWrite, 1, 20, 20},
                        // io_size (sixteen 64 KiB blocks) comes first.
                        Case{"bssplit", "64k", RwPattern::kRandRead, 1, 100, 16}}) {
    SCOPED_TRACE(absl::StrCat(c.option, "=", c.value));
    JobSpec spec = NullJob(c.rw);
    ASSERT_TRUE(ApplyJobOption(spec, c.option, c.value).ok());
    spec.loops = c.loops;
    spec.number_ios = c.number_ios;
    EXPECT_EQ(DataOps(RunOk(spec)), c.fio_total_ios);
  }
}

TEST(BlockIoFioOptionsTest, ANumberIosLoopOfMixedSizesStartsOverAtTheRegionStart) {
  JobSpec spec = NullJob(RwPattern::kRead);
  ASSERT_TRUE(ApplyJobOption(spec, "bsrange", "4k-16k").ok());
  spec.loops = 2;
  spec.number_ios = 3;
  const std::vector<uint64_t> offsets = Offsets(spec);
  ASSERT_EQ(offsets.size(), 6u);
  EXPECT_EQ(offsets[0], 0u);
  EXPECT_EQ(offsets[3], 0u);
  EXPECT_GT(offsets[2], offsets[1]);
}

TEST(BlockIoFioOptionsTest, EachLoopStartsOverAtTheRegionStart) {
  JobSpec spec = NullJob(RwPattern::kRead);
  spec.loops = 2;
  spec.number_ios = 3;
  const std::vector<uint64_t> offsets = Offsets(spec);
  EXPECT_THAT(offsets, ::testing::ElementsAre(0, 4096, 8192, 0, 4096, 8192));
}

TEST(BlockIoFioOptionsTest, OffsetIncrementMovesEachCloneRegion) {
  JobSpec spec = NullJob(RwPattern::kRead);
  spec.numjobs = 3;
  spec.offset_bytes = 4096;
  spec.offset_increment_bytes = 1 << 20;
  spec.number_ios = 2;
  spec.op_log = true;
  std::set<std::pair<int, uint64_t>> seen;
  std::mutex mu;
  RunControl control;
  control.on_op_log = [&](int clone, std::vector<OpRecord> records) {
    std::lock_guard<std::mutex> lock(mu);
    for (const OpRecord& r : records) seen.emplace(clone, r.offset_bytes);
  };
  RunOk(spec, control);
  const uint64_t mib = 1 << 20;
  EXPECT_THAT(seen, ::testing::UnorderedElementsAre(
                        std::pair{0, 4096ul}, std::pair{0, 8192ul}, std::pair{1, mib + 4096},
                        std::pair{1, mib + 8192}, std::pair{2, 2 * mib + 4096},
                        std::pair{2, 2 * mib + 8192}));
}

TEST(BlockIoFioOptionsTest, StartDelayRangeDrawsADelayPerCloneWithinIt) {
  JobSpec spec;
  ASSERT_TRUE(ApplyJobOption(spec, "startdelay", "50ms-150ms").ok());
  EXPECT_EQ(spec.startdelay, absl::Milliseconds(50));
  EXPECT_EQ(spec.startdelay_high, absl::Milliseconds(150));
  EXPECT_FALSE(ApplyJobOption(spec, "startdelay", "3-1").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "startdelay", "2").ok());
  EXPECT_EQ(spec.startdelay, absl::Seconds(2));

  JobSpec job = NullJob(RwPattern::kRead);
  job.numjobs = 4;
  job.number_ios = 1;
  job.startdelay = absl::Milliseconds(50);
  job.startdelay_high = absl::Milliseconds(150);
  std::vector<int64_t> starts;
  std::mutex mu;
  RunControl control;
  control.on_interval = [&](const IntervalOrigin& origin, const IntervalStats&) {
    std::lock_guard<std::mutex> lock(mu);
    starts.push_back(origin.series_start_realtime_ns);
  };
  const int64_t before = absl::GetCurrentTimeNanos();
  RunOk(job, control);
  ASSERT_EQ(starts.size(), 4u);
  std::set<int64_t> distinct(starts.begin(), starts.end());
  EXPECT_EQ(distinct.size(), 4u) << "each clone draws its own delay";
  for (int64_t start : starts) EXPECT_GE(start - before, 50'000'000);
}

TEST(BlockIoFioOptionsTest, CppNullIsTheNullEngine) {
  JobSpec spec;
  ASSERT_TRUE(ApplyJobOption(spec, "ioengine", "cpp_null").ok());
  EXPECT_EQ(spec.ioengine, "null");
}

TEST(BlockIoFioOptionsTest, TimeBasedWithoutRuntimeWarnsAndRunsBySize) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[null]\nioengine=cpp_null\nsize=1m\nrw=randread\nnorandommap\ntime_based\n", "cpp_null.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  ASSERT_EQ(jobs->size(), 1u);
  EXPECT_FALSE((*jobs)[0].spec.time_based);
  EXPECT_THAT((*jobs)[0].warnings,
              ::testing::Contains(::testing::HasSubstr("time_based without a runtime")));
}

// Measured ops per second of direction `kind`, over the job's measured runtime.
double Iops(const JobResult& r, OpKind kind) {
  const OpStats* s = r.Find(kind);
  if (s == nullptr || r.runtime_ns == 0) return 0;
  return static_cast<double>(s->ops) * 1e9 / static_cast<double>(r.runtime_ns);
}

JobSpec TimedNullJob(RwPattern rw, absl::Duration runtime) {
  JobSpec spec = NullJob(rw);
  spec.time_based = true;
  spec.runtime = runtime;
  return spec;
}

TEST(BlockIoFioOptionsTest, RateIopsHoldsTheCapWithin3Percent) {
  JobSpec spec = TimedNullJob(RwPattern::kRandRead, absl::Milliseconds(500));
  ASSERT_TRUE(ApplyJobOption(spec, "rate_iops", "2000").ok());
  EXPECT_NEAR(Iops(RunOk(spec), OpKind::kRead), 2000, 60);
}

TEST(BlockIoFioOptionsTest, RateCapsEachDirectionOnItsOwn) {
  JobSpec spec = TimedNullJob(RwPattern::kRandRw, absl::Seconds(1));
  ASSERT_TRUE(ApplyJobOption(spec, "rate", "1m,512k").ok());  // 256 and 128 ops/s of 4 KiB
  const JobResult r = RunOk(spec);
  EXPECT_NEAR(Iops(r, OpKind::kRead), 256, 256 * 0.03);
  EXPECT_NEAR(Iops(r, OpKind::kWrite), 128, 128 * 0.03);
}

TEST(BlockIoFioOptionsTest, AnUnratedDirectionRunsFreeBesideARatedOne) {
  JobSpec spec = TimedNullJob(RwPattern::kRandRw, absl::Milliseconds(300));
  ASSERT_TRUE(ApplyJobOption(spec, "rate_iops", ",300").ok());  // as fio: reads unlimited
  const JobResult r = RunOk(spec);
  EXPECT_NEAR(Iops(r, OpKind::kWrite), 300, 300 * 0.03 + 4);
  EXPECT_GT(Iops(r, OpKind::kRead), 30'000);
}

// The interquartile range of the gaps between consecutive op starts over their median: about 0
// for even gaps, ln(3) / ln(2) = 1.58 for exponential ones. Quartiles, not the variance, so that a
// few ops a loaded machine delays do not decide it.
double GapSpread(const JobSpec& spec) {
  std::vector<uint64_t> starts;
  RunControl control;
  control.on_op_log = [&](int, std::vector<OpRecord> records) {
    for (const OpRecord& r : records) starts.push_back(r.start_ns);
  };
  RunOk(spec, control);
  std::sort(starts.begin(), starts.end());
  if (starts.size() < 9) return 0;
  std::vector<double> gaps;
  for (size_t i = 0; i + 1 < starts.size(); ++i) {
    gaps.push_back(static_cast<double>(starts[i + 1] - starts[i]));
  }
  std::sort(gaps.begin(), gaps.end());
  const size_t n = gaps.size();
  return (gaps[n * 3 / 4] - gaps[n / 4]) / gaps[n / 2];
}

TEST(BlockIoFioOptionsTest, PoissonGapsSpreadAsAnExponentialLinearOnesDoNot) {
  JobSpec spec = TimedNullJob(RwPattern::kRandRead, absl::Milliseconds(600));
  spec.op_log = true;
  spec.rate_iops = {1000, 1000};
  const double linear = GapSpread(spec);
  spec.rate_poisson = true;
  const double poisson = GapSpread(spec);
  EXPECT_LT(linear, 0.3);
  EXPECT_GT(poisson, 1.1);
  EXPECT_LT(poisson, 2.2);
  const JobResult r = RunOk(spec);
  EXPECT_NEAR(Iops(r, OpKind::kRead), 1000, 150) << "poisson keeps the mean rate";
}

TEST(BlockIoFioOptionsTest, ThinktimeAfterEveryOpBoundsTheIops) {
  JobSpec spec = TimedNullJob(RwPattern::kRandRead, absl::Milliseconds(400));
  ASSERT_TRUE(ApplyJobOption(spec, "thinktime", "1000").ok());  // microseconds, as fio
  const double every_op = Iops(RunOk(spec), OpKind::kRead);
  // fio 3.33 does 963 ops/s with the null engine: at most one op per 1 ms of thinking.
  EXPECT_LE(every_op, 1001);
  EXPECT_GE(every_op, 600);
  spec.thinktime_blocks = 4;
  const double every_4 = Iops(RunOk(spec), OpKind::kRead);
  EXPECT_LE(every_4, 4004);  // fio: 3752
  EXPECT_GE(every_4, 2400);
}

TEST(BlockIoFioOptionsTest, ThinktimeIotimeAlternatesIoAndThinkTime) {
  JobSpec spec = TimedNullJob(RwPattern::kRandRead, absl::Milliseconds(400));
  ASSERT_TRUE(ApplyJobOption(spec, "thinktime_iotime", "0.05").ok());  // seconds, as fio
  EXPECT_EQ(spec.thinktime_iotime, absl::Milliseconds(50));
  spec.thinktime = absl::Milliseconds(50);
  spec.op_log = true;
  spec.rate_iops = {10'000, 10'000};  // keeps the op log small
  std::vector<uint64_t> starts;
  RunControl control;
  control.on_op_log = [&](int, std::vector<OpRecord> records) {
    for (const OpRecord& r : records) starts.push_back(r.start_ns);
  };
  RunOk(spec, control);
  std::sort(starts.begin(), starts.end());
  // 50 ms of back-to-back I/O, 50 ms idle, and so on: the idle gaps are the only long ones.
  int long_gaps = 0;
  for (size_t i = 0; i + 1 < starts.size(); ++i) {
    if (starts[i + 1] - starts[i] >= 40'000'000) ++long_gaps;
  }
  EXPECT_GE(long_gaps, 3);
  EXPECT_LE(long_gaps, 4);
}

TEST(BlockIoFioOptionsTest, ThinktimeSpinSpendsPartOfTheThinkTimeSpinning) {
  JobSpec spec = TimedNullJob(RwPattern::kRandRead, absl::Milliseconds(300));
  spec.thinktime = absl::Milliseconds(2);
  spec.thinktime_spin = absl::Milliseconds(2);
  const JobResult r = RunOk(spec);
  // n ops are n - 1 think times of 2 ms apart: about 150 ops in 300 ms, at most 503.4 per second.
  EXPECT_LE(Iops(r, OpKind::kRead), 505);
  // Spinning burns the thread's CPU for the whole think time.
  EXPECT_GT(r.cpu.user_ns + r.cpu.system_ns, r.cpu.wall_ns / 2);
}

TEST(BlockIoFioOptionsTest, RateIopsMinFailsAJobThatStaysBelowIt) {
  JobSpec spec = TimedNullJob(RwPattern::kRead, absl::Seconds(3));
  spec.thinktime = absl::Milliseconds(10);  // about 100 IOPS
  spec.rate_iops_min = {200, 200};
  spec.rate_cycle = absl::Milliseconds(100);
  const JobResult r = RunOk(spec);
  EXPECT_EQ(r.error_errno, EIO);
  EXPECT_THAT(r.error_message, ::testing::HasSubstr("rate_iops_min: read IOPS"));
  // Checked from 2 s on (fio's settle time), so it fails one cycle later, before the runtime ends.
  EXPECT_LT(r.runtime_ns, 2'500'000'000u);
}

TEST(BlockIoFioOptionsTest, RatesThatFioRefusesAreRefused) {
  JobSpec spec = NullJob();
  spec.rate_bytes_per_s = {1 << 20, 1 << 20};
  spec.rate_iops = {100, 0};
  EXPECT_THAT(ValidateJobSpec(spec).message(), ::testing::HasSubstr("mutually exclusive"));
  spec.rate_iops = {0, 0};
  spec.rate_min_bytes_per_s = {0, 2 << 20};
  EXPECT_THAT(ValidateJobSpec(spec).message(),
              ::testing::HasSubstr("rate_min (2097152 bytes/s) exceeds rate"));
  spec = NullJob();
  spec.rate_iops = {100, 100};
  spec.rate_iops_min = {200, 0};
  EXPECT_THAT(ValidateJobSpec(spec).message(), ::testing::HasSubstr("for reads"));
}

TEST(BlockIoFioOptionsTest, FioExampleJobFilesParse) {
  for (const char* name :
       {"1mbs_clients", "fixed-rate-submission", "poisson-rate-submission", "fsx", "cpp_null"}) {
    const std::string path = absl::StrCat("/usr/share/doc/fio/examples/", name, ".fio");
    if (!std::filesystem::exists(path)) GTEST_SKIP() << "fio's examples are not installed";
    absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFileAtPath(path);
    EXPECT_TRUE(jobs.ok()) << name << ": " << jobs.status();
  }
}

// A job on a tmpfs file through an async engine: the loop that fills and reaps a queue.
JobSpec AsyncJob(const std::string& dir, const std::string& engine, absl::Duration runtime) {
  JobSpec spec;
  spec.name = "async";
  spec.directory = dir;
  spec.ioengine = engine;
  spec.iodepth = 8;
  spec.rw = RwPattern::kRandRead;
  spec.size_bytes = 1 << 20;
  spec.block_size_bytes = 4096;
  spec.time_based = true;
  spec.runtime = runtime;
  return spec;
}

class AsyncEngineOptionsTest : public ::testing::TestWithParam<std::string> {};

TEST_P(AsyncEngineOptionsTest, RateIopsHoldsTheCapWithin3Percent) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  JobSpec spec = AsyncJob(dir.path(), GetParam(), absl::Milliseconds(500));
  spec.rate_iops = {2000, 2000};
  EXPECT_NEAR(Iops(RunOk(spec), OpKind::kRead), 2000, 60);
}

TEST_P(AsyncEngineOptionsTest, ThinktimeBoundsTheIopsCountingIssuedOrCompletedOps) {
  testing::TempDir dir(testing::kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  for (const bool issue : {false, true}) {
    JobSpec spec = AsyncJob(dir.path(), GetParam(), absl::Milliseconds(300));
    spec.thinktime = absl::Milliseconds(1);
    spec.thinktime_blocks = 4;
    spec.thinktime_blocks_issue = issue;
    const double iops = Iops(RunOk(spec), OpKind::kRead);
    // At most 4 ops per 1 ms of thinking, whose queue drains before it.
    EXPECT_LE(iops, 4004) << "issue=" << issue;
    EXPECT_GE(iops, 1000) << "issue=" << issue;
  }
}

INSTANTIATE_TEST_SUITE_P(Engines, AsyncEngineOptionsTest, ::testing::Values("libaio", "io_uring"));

}  // namespace
}  // namespace azbench
