#include "common/job_spec.h"

#include <array>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/op_kind.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::_;
using ::testing::AllOf;
using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// A job that passes validation, for tests that change one thing.
JobSpec ValidJob() {
  JobSpec job;
  job.name = "j";
  job.size_bytes = 1 << 20;
  return job;
}

JobSpec Apply(std::vector<std::pair<std::string, std::string>> options) {
  JobSpec job;
  for (const auto& [key, value] : options) {
    absl::Status status = ApplyJobOption(job, key, value);
    EXPECT_TRUE(status.ok()) << key << "=" << value << ": " << status;
  }
  return job;
}

TEST(JobSpecTest, DefaultsFollowFio) {
  JobSpec job;
  EXPECT_EQ(job.block_size_bytes, 4096u);
  EXPECT_EQ(job.ioengine, "psync");
  EXPECT_EQ(job.iodepth, 1);
  EXPECT_EQ(job.numjobs, 1);
  EXPECT_EQ(job.nrfiles, 1);
  EXPECT_EQ(job.rw, RwPattern::kRead);
  EXPECT_EQ(job.rwmixread_percent, 50);
  EXPECT_FALSE(job.direct);
  EXPECT_TRUE(job.invalidate);
  EXPECT_TRUE(job.randrepeat);
  EXPECT_EQ(job.kb_base, 1024);
  EXPECT_EQ(job.clocksource, ClockSource::kAuto);  // fio: the TSC when it is reliable
}

TEST(RwPatternTest, HelpersDescribeEachPattern) {
  EXPECT_TRUE(IsRandom(RwPattern::kRandRead));
  EXPECT_TRUE(IsRandom(RwPattern::kRandWrite));
  EXPECT_TRUE(IsRandom(RwPattern::kRandRw));
  EXPECT_FALSE(IsRandom(RwPattern::kRead));
  EXPECT_FALSE(IsRandom(RwPattern::kReadWrite));
  EXPECT_TRUE(DoesRead(RwPattern::kReadWrite));
  EXPECT_FALSE(DoesRead(RwPattern::kWrite));
  EXPECT_TRUE(DoesWrite(RwPattern::kRandRw));
  EXPECT_FALSE(DoesWrite(RwPattern::kRandRead));
  EXPECT_EQ(RwPatternName(RwPattern::kRead), "read");
  EXPECT_EQ(RwPatternName(RwPattern::kWrite), "write");
  EXPECT_EQ(RwPatternName(RwPattern::kRandRead), "randread");
  EXPECT_EQ(RwPatternName(RwPattern::kRandWrite), "randwrite");
  EXPECT_EQ(RwPatternName(RwPattern::kReadWrite), "rw");
  EXPECT_EQ(RwPatternName(RwPattern::kRandRw), "randrw");
}

TEST(OpKindTest, NamesRoundTripAndUnknownNamesAreRejected) {
  for (int i = 0; i < kOpKindCount; ++i) {
    const auto kind = static_cast<OpKind>(i);
    EXPECT_EQ(OpKindFromName(OpKindName(kind)), kind);
  }
  EXPECT_EQ(OpKindFromName("bogus"), std::nullopt);
  EXPECT_EQ(OpKindFromName(""), std::nullopt);
}

TEST(ApplyJobOptionTest, SetsEveryTargetAndSizeOption) {
  JobSpec job = Apply({{"name", "seq"},
                       {"filename", "/mnt/efs/f"},
                       {"directory", "/mnt/efs"},
                       {"size", "4g"},
                       {"io_size", "1g"},
                       {"offset", "1m"},
                       {"bs", "4m"}});
  EXPECT_EQ(job.name, "seq");
  EXPECT_EQ(job.filename, "/mnt/efs/f");
  EXPECT_EQ(job.directory, "/mnt/efs");
  EXPECT_EQ(job.size_bytes, 4ull << 30);
  EXPECT_EQ(job.io_size_bytes, 1ull << 30);
  EXPECT_EQ(job.offset_bytes, 1u << 20);
  EXPECT_EQ(job.block_size_bytes, 4u << 20);
  EXPECT_EQ(job.EffectiveIoSize(), 1ull << 30);
}

TEST(ApplyJobOptionTest, AliasesSetTheSameFieldsAsTheirCanonicalNames) {
  JobSpec job = Apply({{"blocksize", "8k"},
                       {"readwrite", "randwrite"},
                       {"io_limit", "2m"},
                       {"iodepth_batch", "4"},
                       {"iodepth_batch_complete", "2"},
                       {"nr_files", "3"},
                       {"timeout", "30"},
                       {"wait_for_previous", ""}});
  EXPECT_EQ(job.block_size_bytes, 8192u);
  EXPECT_EQ(job.rw, RwPattern::kRandWrite);
  EXPECT_EQ(job.io_size_bytes, 2u << 20);
  EXPECT_EQ(job.iodepth_batch_submit, 4);
  EXPECT_EQ(job.iodepth_batch_complete_min, 2);
  EXPECT_EQ(job.nrfiles, 3);
  EXPECT_EQ(job.runtime, absl::Seconds(30));
  EXPECT_TRUE(job.stonewall);
}

TEST(ApplyJobOptionTest, RwAcceptsEveryFioSpellingOfTheSupportedPatterns) {
  const std::pair<const char*, RwPattern> cases[] = {
      {"read", RwPattern::kRead},         {"write", RwPattern::kWrite},
      {"randread", RwPattern::kRandRead}, {"randwrite", RwPattern::kRandWrite},
      {"rw", RwPattern::kReadWrite},      {"readwrite", RwPattern::kReadWrite},
      {"randrw", RwPattern::kRandRw},     {"RandRead", RwPattern::kRandRead},
  };
  for (const auto& [text, rw] : cases) {
    JobSpec job;
    ASSERT_TRUE(ApplyJobOption(job, "rw", text).ok()) << text;
    EXPECT_EQ(job.rw, rw) << text;
  }
}

TEST(ApplyJobOptionTest, RwRejectsOtherPatternsListingTheAllowedValues) {
  for (const char* text : {"trimread", "randtrimread", ""}) {
    JobSpec job;
    EXPECT_THAT(ApplyJobOption(job, "rw", text),
                StatusIs(absl::StatusCode::kInvalidArgument,
                         AllOf(HasSubstr("option 'rw'"),
                               HasSubstr("read, write, trim, randread, randwrite, randtrim, rw, "
                                         "readwrite, randrw, trimwrite, randtrimwrite"))))
        << text;
  }
}

TEST(ApplyJobOptionTest, RwmixwriteSetsTheReadShareToTheRest) {
  EXPECT_EQ(Apply({{"rwmixread", "70"}}).rwmixread_percent, 70);
  EXPECT_EQ(Apply({{"rwmixwrite", "30"}}).rwmixread_percent, 70);
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "rwmixread", "101"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("from 0 to 100")));
  EXPECT_THAT(ApplyJobOption(job, "rwmixwrite", "-1"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("option 'rwmixwrite'")));
}

// A misspelt engine is refused where the job is written (a campaign's `azbench plan`, a job
// file), not first on an agent in the middle of a campaign.
TEST(ApplyJobOptionTest, IoengineAcceptsTheBuiltInEnginesAndNamesThemWhenRefusing) {
  for (std::string_view name : kIoEngineNames) {
    EXPECT_EQ(Apply({{"ioengine", std::string(name)}}).ioengine, name);
  }
  for (const char* bad : {"windowsaio", "io_urin", "IO_URING", ""}) {
    JobSpec job;
    EXPECT_THAT(
        ApplyJobOption(job, "ioengine", bad),
        StatusIs(
            absl::StatusCode::kInvalidArgument,
            AllOf(
                HasSubstr("option 'ioengine'"),
                HasSubstr("allowed: psync, sync, vsync, pvsync, pvsync2, posixaio, mmap, libaio"))))
        << bad;
    EXPECT_EQ(job.ioengine, JobSpec{}.ioengine) << "a refused name leaves the default";
  }
}

TEST(ApplyJobOptionTest, QueueAndJobCountOptionsAreRangeChecked) {
  JobSpec job = Apply({{"iodepth", "64"},
                       {"iodepth_batch_submit", "16"},
                       {"iodepth_batch_complete_min", "1"},
                       {"iodepth_batch_complete_max", "32"},
                       {"numjobs", "4"},
                       {"nrfiles", "10"}});
  EXPECT_EQ(job.iodepth, 64);
  EXPECT_EQ(job.iodepth_batch_submit, 16);
  EXPECT_EQ(job.iodepth_batch_complete_min, 1);
  EXPECT_EQ(job.iodepth_batch_complete_max, 32);
  EXPECT_EQ(job.numjobs, 4);
  EXPECT_EQ(job.nrfiles, 10);
  EXPECT_THAT(ApplyJobOption(job, "iodepth", "0"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("option 'iodepth'"), HasSubstr("from 1 to 65536"))));
  EXPECT_THAT(ApplyJobOption(job, "iodepth", "65537"),
              StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ApplyJobOption(job, "numjobs", "4097"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("from 1 to 4096")));
  EXPECT_THAT(ApplyJobOption(job, "nrfiles", "0"), StatusIs(absl::StatusCode::kInvalidArgument, _));
  EXPECT_THAT(ApplyJobOption(job, "iodepth", "4k"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("digits only")));
}

TEST(ApplyJobOptionTest, FileServiceTypeAcceptsTheThreeSupportedPolicies) {
  EXPECT_EQ(Apply({{"file_service_type", "roundrobin"}}).file_service_type,
            FileServiceType::kRoundRobin);
  EXPECT_EQ(Apply({{"file_service_type", "sequential"}}).file_service_type,
            FileServiceType::kSequential);
  EXPECT_EQ(Apply({{"file_service_type", "random"}}).file_service_type, FileServiceType::kRandom);
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "file_service_type", "zipf:1.2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("allowed: roundrobin, sequential, random")));
}

TEST(ApplyJobOptionTest, BufferedIsTheInverseOfDirect) {
  EXPECT_TRUE(Apply({{"direct", "1"}}).direct);
  EXPECT_FALSE(Apply({{"direct", "1"}, {"buffered", "1"}}).direct);
  EXPECT_TRUE(Apply({{"buffered", "0"}}).direct);
  EXPECT_FALSE(Apply({{"direct", "true"}, {"direct", "off"}}).direct);
}

TEST(ApplyJobOptionTest, BareFlagsMeanTrue) {
  JobSpec job = Apply({{"time_based", ""},
                       {"group_reporting", ""},
                       {"stonewall", ""},
                       {"norandommap", ""},
                       {"new_group", ""},
                       {"end_fsync", ""},
                       {"direct", ""},
                       {"refill_buffers", ""}});
  EXPECT_TRUE(job.time_based);
  EXPECT_TRUE(job.group_reporting);
  EXPECT_TRUE(job.stonewall);
  EXPECT_TRUE(job.norandommap);
  EXPECT_TRUE(job.new_group);
  EXPECT_TRUE(job.end_fsync);
  EXPECT_TRUE(job.direct);
  EXPECT_EQ(job.refill_buffers, true);
}

TEST(ApplyJobOptionTest, BooleanOptionsRejectOtherWords) {
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "direct", "maybe"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("option 'direct'"), HasSubstr("true/false"))));
}

TEST(ApplyJobOptionTest, SyncTimingAndRandomnessOptions) {
  JobSpec job = Apply({{"fsync", "8"},
                       {"fdatasync", "2"},
                       {"end_fsync", "1"},
                       {"runtime", "60"},
                       {"ramp_time", "5s"},
                       {"randrepeat", "0"},
                       {"randseed", "1234"},
                       {"rate_iops", "500"},
                       {"invalidate", "0"},
                       {"buffer_compress_percentage", "50"},
                       {"refill_buffers", "1"},
                       {"scramble_buffers", "0"}});
  EXPECT_EQ(job.fsync_every_n, 8);
  EXPECT_EQ(job.fdatasync_every_n, 2);
  EXPECT_TRUE(job.end_fsync);
  EXPECT_EQ(job.runtime, absl::Seconds(60));
  EXPECT_EQ(job.ramp_time, absl::Seconds(5));
  EXPECT_FALSE(job.randrepeat);
  EXPECT_EQ(job.randseed, 1234u);
  EXPECT_EQ(job.rate_iops, (std::array<uint64_t, 2>{500, 500}));
  EXPECT_FALSE(job.invalidate);
  EXPECT_EQ(job.buffer_compress_percentage, 50);
  EXPECT_EQ(job.refill_buffers, true);
  EXPECT_EQ(job.scramble_buffers, false);
}

TEST(ApplyJobOptionTest, RuntimeCountsSecondsUnlessAUnitIsGiven) {
  EXPECT_EQ(Apply({{"runtime", "2m"}}).runtime, absl::Minutes(2));
  EXPECT_EQ(Apply({{"runtime", "1500ms"}}).runtime, absl::Milliseconds(1500));
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "runtime", "10x"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("option 'runtime'"), HasSubstr("'10x'"))));
}

TEST(ApplyJobOptionTest, KbBaseChangesHowLaterSizesAreRead) {
  EXPECT_EQ(Apply({{"kb_base", "1000"}, {"size", "1m"}}).size_bytes, 1'000'000u);
  EXPECT_EQ(Apply({{"kb_base", "1000"}, {"size", "1MiB"}}).size_bytes, 1u << 20);
  EXPECT_EQ(Apply({{"size", "1m"}, {"kb_base", "1000"}}).size_bytes, 1u << 20);
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "kb_base", "1023"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("1000, 1024")));
  EXPECT_THAT(ApplyJobOption(job, "kb_base", "2048"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("option 'kb_base'")));
}

TEST(ApplyJobOptionTest, ClocksourceIsCpuOrClockGettime) {
  EXPECT_EQ(Apply({{"clocksource", "cpu"}}).clocksource, ClockSource::kCpu);
  EXPECT_EQ(Apply({{"clocksource", "clock_gettime"}}).clocksource, ClockSource::kClockGettime);
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "clocksource", "gettimeofday"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("option 'clocksource'"), HasSubstr("cpu"),
                             HasSubstr("clock_gettime"), HasSubstr("microsecond"))));
  EXPECT_THAT(ApplyJobOption(job, "clocksource", "tsc"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("allowed: cpu")));
}

TEST(ApplyJobOptionTest, SizeErrorsNameTheOptionAndTheAcceptedForms) {
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "bs", "4x"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(StartsWith("option 'bs': '4x'"), HasSubstr("kib"))));
  EXPECT_THAT(ApplyJobOption(job, "size", "150%"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("option 'size'"), HasSubstr("1% to 100%"))));
  EXPECT_THAT(ApplyJobOption(job, "bs", "4k,8k,4k,4k"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("read,write,trim")));
  EXPECT_THAT(ApplyJobOption(job, "rate_iops", "100,50,10,5"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("option 'rate_iops'")));
}

TEST(ApplyJobOptionTest, ARateTrimValueIsCheckedAndHasNoEffect) {
  // fio's examples/exitwhat.fio writes rate=300,300,300. azbench does not pace trims (a job that
  // trims refuses rates): the value is accepted with a warning and reads and writes keep theirs.
  for (const char* option : {"rate", "rate_min", "rate_iops", "rate_iops_min"}) {
    SCOPED_TRACE(option);
    JobSpec job;
    std::vector<std::string> warnings;
    ASSERT_TRUE(ApplyJobOption(job, option, "300,200,100", &warnings).ok());
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_THAT(warnings[0], AllOf(HasSubstr(option), HasSubstr("trim value has no effect")));
    EXPECT_THAT(ApplyJobOption(job, option, "300,300,x"),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(option)));
    warnings.clear();
    ASSERT_TRUE(ApplyJobOption(job, option, "300,300", &warnings).ok());
    ASSERT_TRUE(ApplyJobOption(job, option, "300,300,", &warnings).ok());
    EXPECT_TRUE(warnings.empty());
  }
  JobSpec job;
  ASSERT_TRUE(ApplyJobOption(job, "rate", "300,200,100").ok());
  EXPECT_EQ(job.rate_bytes_per_s, (std::array<uint64_t, 2>{300, 200}));
  ASSERT_TRUE(ApplyJobOption(job, "rate_iops", "30,20,10").ok());
  EXPECT_EQ(job.rate_iops, (std::array<uint64_t, 2>{30, 20}));
}

TEST(ApplyJobOptionTest, UringWaitPauseIsADurationInMicrosecondsByDefaultUpTo1ms) {
  JobSpec job;
  EXPECT_FALSE(job.uring_wait_pause.has_value());
  EXPECT_EQ(Apply({{"uring_wait_pause", "3"}}).uring_wait_pause, absl::Microseconds(3));
  EXPECT_EQ(Apply({{"uring_wait_pause", "500ns"}}).uring_wait_pause, absl::Nanoseconds(500));
  EXPECT_EQ(Apply({{"uring_wait_pause", "0"}}).uring_wait_pause, absl::ZeroDuration());
  EXPECT_EQ(Apply({{"uring_wait_pause", "1ms"}}).uring_wait_pause, absl::Milliseconds(1));
  EXPECT_THAT(
      ApplyJobOption(job, "uring_wait_pause", "2ms"),
      StatusIs(absl::StatusCode::kInvalidArgument,
               AllOf(StartsWith("option 'uring_wait_pause': '2ms'"), HasSubstr("allowed 0..1ms"))));
  EXPECT_THAT(ApplyJobOption(job, "uring_wait_pause", "-1us"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("option 'uring_wait_pause'")));
  EXPECT_FALSE(job.uring_wait_pause.has_value());
}

TEST(ApplyJobOptionTest, FixedbufsAndRegisterfilesAreFiosBooleansUnsetByDefault) {
  JobSpec job;
  EXPECT_FALSE(job.fixedbufs.has_value());
  EXPECT_FALSE(job.registerfiles.has_value());
  EXPECT_EQ(Apply({{"fixedbufs", ""}}).fixedbufs, true) << "a bare fio flag means 1";
  EXPECT_EQ(Apply({{"fixedbufs", "0"}}).fixedbufs, false);
  EXPECT_EQ(Apply({{"registerfiles", "1"}}).registerfiles, true);
  EXPECT_EQ(Apply({{"registerfiles", "0"}}).registerfiles, false);
  EXPECT_THAT(ApplyJobOption(job, "fixedbufs", "maybe"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("option 'fixedbufs'")));
  EXPECT_FALSE(job.fixedbufs.has_value());
}

TEST(ApplyJobOptionTest, AFailedOptionLeavesTheJobUnchanged) {
  JobSpec job = Apply({{"bs", "8k"}});
  EXPECT_FALSE(ApplyJobOption(job, "bs", "bogus").ok());
  EXPECT_EQ(job.block_size_bytes, 8192u);
}

TEST(ApplyJobOptionTest, OutputOnlyOptionsAreAcceptedWithoutEffect) {
  JobSpec before;
  JobSpec job = Apply({{"description", "EFS web root"}, {"thread", ""}});
  EXPECT_EQ(job.name, before.name);
  EXPECT_EQ(job.size_bytes, before.size_bytes);
}

TEST(ApplyJobOptionTest, UnknownOptionIsNotFoundNamingItAndTheClosestOption) {
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "blocksz", "4k"),
              StatusIs(absl::StatusCode::kNotFound,
                       AllOf(StartsWith("unknown option 'blocksz'; did you mean 'blocksize'?"),
                             HasSubstr("azbench-agent --cmdhelp"))));
  EXPECT_THAT(ApplyJobOption(job, "zzzzzzzz", "1"),
              StatusIs(absl::StatusCode::kNotFound, Not(HasSubstr("did you mean"))));
}

TEST(ApplyJobOptionTest, RefusedFioOptionIsUnimplementedSayingWhy) {
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "verify_backlog_batch", "50"),
              StatusIs(absl::StatusCode::kUnimplemented,
                       StartsWith("option 'verify_backlog_batch' is not supported by azbench: ")));
  EXPECT_THAT(ApplyJobOption(job, "create_fsync", "1"),
              StatusIs(absl::StatusCode::kUnimplemented,
                       StartsWith("option 'create_fsync' is not supported by azbench: ")));
  EXPECT_THAT(ApplyJobOption(job, "file_append", "1"),
              StatusIs(absl::StatusCode::kUnimplemented, StartsWith("option 'file_append' ")));
}

TEST(ApplyJobOptionTest, NoEffectOptionIsAcceptedWithAWarningSayingWhy) {
  JobSpec job;
  std::vector<std::string> warnings;
  ASSERT_TRUE(ApplyJobOption(job, "disable_slat", "1", &warnings).ok());
  ASSERT_TRUE(ApplyJobOption(job, "thread", "", &warnings).ok());
  EXPECT_THAT(warnings, ElementsAre(StartsWith("option 'disable_slat' has no effect in azbench: "),
                                    HasSubstr("threads of the agent")));
  EXPECT_TRUE(ApplyJobOption(job, "thread", "").ok()) << "warnings are optional";
  EXPECT_THAT(ApplyJobOption(job, "thread", "maybe"),
              StatusIs(absl::StatusCode::kInvalidArgument, StartsWith("option 'thread': ")));
}

TEST(ApplyJobOptionTest, KeysAndValuesAreTrimmed) {
  EXPECT_EQ(Apply({{" bs ", " 16k "}}).block_size_bytes, 16384u);
}

TEST(JobOptionNamesTest, SupportedMeansHonouredOrWithoutEffect) {
  EXPECT_TRUE(IsSupportedJobOption("bs"));
  EXPECT_TRUE(IsSupportedJobOption("blocksize"));
  EXPECT_TRUE(IsSupportedJobOption("group_reporting"));
  EXPECT_TRUE(IsSupportedJobOption("thread"));
  EXPECT_TRUE(IsSupportedJobOption("verify"));
  EXPECT_FALSE(IsSupportedJobOption("create_fsync"));
  EXPECT_FALSE(IsSupportedJobOption("no_such_option"));
  EXPECT_THAT(SupportedJobOptionNames(),
              AllOf(Contains("bs"), Contains("blocksize"), Contains("wait_for_previous"),
                    Contains("kb_base"), Not(Contains("create_fsync"))));
  for (const std::string& name : SupportedJobOptionNames()) {
    EXPECT_TRUE(IsSupportedJobOption(name)) << name;
  }
}

TEST(ValidateJobSpecTest, AcceptsAMinimalJob) { EXPECT_TRUE(ValidateJobSpec(ValidJob()).ok()); }

// A job's name is part of its file names ("<name>.<clone>.<file>"): a name that is no file name
// (a '/' made a "directory ... does not exist" error) is refused, naming the job and what is
// allowed.
TEST(ValidateJobSpecTest, RefusesANameThatCannotBePartOfAFileName) {
  struct Case {
    std::string name;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"a/b", "job name 'a/b' contains '/'"},
      {"/", "job name '/' contains '/'"},
      {".", "job name '.'"},
      {"..", "job name '..'"},
      {"", "empty job name"},
      {std::string("a\0b", 3), "job name 'a\\000b' contains a control character"},
      {"tab\there", "job name 'tab\\there' contains a control character"},
      {"nl\n", "job name 'nl\\n' contains a control character"},
      {std::string(101, 'x'), "is 101 characters long"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    JobSpec job = ValidJob();
    job.name = c.name;
    EXPECT_THAT(
        ValidateJobSpec(job),
        StatusIs(absl::StatusCode::kInvalidArgument,
                 AllOf(HasSubstr(c.message), HasSubstr("a job name is 1 to 100 characters, "
                                                       "without '/' or control characters"))));
  }
  for (const std::string& name : {std::string(100, 'x'), std::string("a.b-c_d e"),
                                  std::string("..x"), std::string("x.."), std::string("ü")}) {
    SCOPED_TRACE(name);
    JobSpec job = ValidJob();
    job.name = name;
    EXPECT_TRUE(ValidateJobSpec(job).ok());
  }
}

// The kernel-async engines take at most 4096 requests in flight: a deeper queue is refused when
// the job is parsed (at plan time), not when an agent prepares it; the null engine goes deeper.
TEST(ValidateJobSpecTest, AKernelAsyncEngineIsRefusedADeeperQueueThanItTakes) {
  JobSpec job = ValidJob();
  job.iodepth = kMaxKernelAsyncIodepth + 1;
  for (const char* engine : {"libaio", "io_uring"}) {
    job.ioengine = engine;
    EXPECT_THAT(ValidateJobSpec(job), StatusIs(absl::StatusCode::kInvalidArgument,
                                               absl::StrCat("iodepth 4097 exceeds ioengine ",
                                                            engine, "'s limit: allowed 1..4096")));
  }
  job.iodepth = kMaxKernelAsyncIodepth;
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  job.ioengine = "null";
  job.iodepth = 65536;
  EXPECT_TRUE(ValidateJobSpec(job).ok());
}

// As fio, a job without size takes its files' sizes; the agent decides them when it prepares the
// job (agent/workloads/block_io/existing_file_sizes.h), and the checks against the size wait.
TEST(ValidateJobSpecTest, WithoutASizeTheSizeComesFromTheFiles) {
  JobSpec job = ValidJob();
  job.size_bytes = 0;
  job.block_size_bytes = 1 << 20;
  EXPECT_TRUE(job.SizeFromFiles());
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  job.ioengine = "filecreate";
  job.size_percent = 50;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("percentages of size")));
}

TEST(ValidateJobSpecTest, BlockSizeMustBePositiveAndFitInTheSize) {
  JobSpec job = ValidJob();
  job.block_size_bytes = 0;
  EXPECT_THAT(ValidateJobSpec(job), StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("bs")));
  job.block_size_bytes = 2 << 20;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("bs (2MiB)"), HasSubstr("size (1MiB)"))));
  job.block_size_bytes = 1 << 20;
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  // A request's length is 32 bits and Linux moves under 2 GiB per call: bs=4g would read 0 bytes.
  job.size_bytes = uint64_t{8} << 30;
  job.block_size_bytes = uint64_t{4} << 30;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("bs (4GiB) is too large"), HasSubstr("up to 1GiB"))));
  job.block_size_bytes = uint64_t{1} << 30;
  EXPECT_TRUE(ValidateJobSpec(job).ok());
}

TEST(ValidateJobSpecTest, CountsAndPercentagesMustBeInRange) {
  JobSpec job = ValidJob();
  job.iodepth = 0;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("iodepth")));
  job = ValidJob();
  job.iodepth = 65537;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("iodepth")));
  job = ValidJob();
  job.numjobs = 0;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("numjobs")));
  job = ValidJob();
  job.numjobs = 4097;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("numjobs")));
  job = ValidJob();
  job.rwmixread_percent = 101;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("rwmixread")));
  job = ValidJob();
  job.nrfiles = 0;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("nrfiles")));
}

TEST(ValidateJobSpecTest, DirectIoNeedsBlockSizeAndOffsetAlignedTo512) {
  JobSpec job = ValidJob();
  job.direct = true;
  job.block_size_bytes = 1000;
  EXPECT_THAT(ValidateJobSpec(job), StatusIs(absl::StatusCode::kInvalidArgument,
                                             AllOf(HasSubstr("bs"), HasSubstr("multiple of 512"))));
  job.block_size_bytes = 4096;
  job.offset_bytes = 100;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("offset"), HasSubstr("multiple of 512"))));
  job.offset_bytes = 512;
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  job.direct = false;
  job.block_size_bytes = 1000;
  job.offset_bytes = 100;
  EXPECT_TRUE(ValidateJobSpec(job).ok());  // buffered I/O has no alignment rule
}

TEST(ValidateJobSpecTest, TimeBasedRequiresARuntime) {
  JobSpec job = ValidJob();
  job.time_based = true;
  EXPECT_THAT(ValidateJobSpec(job), StatusIs(absl::StatusCode::kInvalidArgument,
                                             AllOf(HasSubstr("time_based"), HasSubstr("runtime"))));
  job.runtime = absl::Seconds(60);
  EXPECT_TRUE(ValidateJobSpec(job).ok());
}

TEST(ValidateJobSpecTest, UringWaitPauseOnlyWithTheIoUringEngine) {
  JobSpec job = ValidJob();
  job.ioengine = "libaio";
  job.uring_wait_pause = absl::ZeroDuration();
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("uring_wait_pause applies only to ioengine=io_uring"),
                             HasSubstr("libaio"))));
  job.ioengine = "io_uring";
  EXPECT_TRUE(ValidateJobSpec(job).ok());
  job.uring_wait_pause = absl::Microseconds(-1);  // a spec built in code, not parsed
  EXPECT_THAT(ValidateJobSpec(job), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("uring_wait_pause -1us is out of range")));
}

TEST(ValidateJobSpecTest, FixedbufsAndRegisterfilesOnlyWithTheIoUringEngine) {
  JobSpec job = ValidJob();
  job.ioengine = "psync";
  job.fixedbufs = false;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("fixedbufs applies only to ioengine=io_uring"),
                             HasSubstr("psync"))));
  job.fixedbufs.reset();
  job.registerfiles = true;
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("registerfiles applies only to ioengine=io_uring")));
  job.ioengine = "io_uring";
  job.fixedbufs = true;
  EXPECT_TRUE(ValidateJobSpec(job).ok());
}

TEST(ValidateJobSpecTest, BatchCompleteMaxMustNotBeBelowMin) {
  JobSpec job = ValidJob();
  job.iodepth = 32;
  job.iodepth_batch_complete_min = 8;
  job.iodepth_batch_complete_max = 4;
  EXPECT_THAT(ValidateJobSpec(job), StatusIs(absl::StatusCode::kInvalidArgument,
                                             HasSubstr("iodepth_batch_complete_max")));
  job.iodepth_batch_complete_max = 0;  // engine default
  EXPECT_TRUE(ValidateJobSpec(job).ok());
}

TEST(FilePathsTest, WithoutFilenameFilesAreNamedLikeFioInsideTheDirectory) {
  JobSpec job;
  job.name = "rand-read";
  job.directory = "/mnt/efs";
  EXPECT_THAT(job.FilePaths(0), ElementsAre("/mnt/efs/rand-read.0.0"));
  job.nrfiles = 3;
  EXPECT_THAT(job.FilePaths(2), ElementsAre("/mnt/efs/rand-read.2.0", "/mnt/efs/rand-read.2.1",
                                            "/mnt/efs/rand-read.2.2"));
  job.directory = "/mnt/efs/";
  job.nrfiles = 1;
  EXPECT_THAT(job.FilePaths(1), ElementsAre("/mnt/efs/rand-read.1.0"));
  job.directory.clear();
  EXPECT_THAT(job.FilePaths(0), ElementsAre("rand-read.0.0"));
}

TEST(FilePathsTest, FilenameListIsSplitOnColonsAndRelativeNamesJoinTheDirectory) {
  JobSpec job;
  job.filename = "/data/a:b:/data/c";
  EXPECT_THAT(job.FilePaths(0), ElementsAre("/data/a", "b", "/data/c"));
  job.directory = "/mnt/efs";
  EXPECT_THAT(job.FilePaths(3), ElementsAre("/data/a", "/mnt/efs/b", "/data/c"));
}

TEST(FilePathsTest, EscapedColonIsPartOfTheName) {
  JobSpec job;
  job.filename = "/data/a\\:b:/data/c";
  EXPECT_THAT(job.FilePaths(0), ElementsAre("/data/a:b", "/data/c"));
}

TEST(FilePathsTest, FilenameFormatReplacesFiosKeywordsInAnyCase) {
  JobSpec job;
  job.name = "w";
  job.directory = "/mnt/efs";
  job.nrfiles = 2;
  job.filename_format = "d/$jobname.$JOBNUM.$FileNum.$clientuid.$other";
  job.client_uid = "agent-3";
  EXPECT_THAT(job.FilePaths(1),
              ElementsAre("/mnt/efs/d/w.1.0.agent-3.$other", "/mnt/efs/d/w.1.1.agent-3.$other"));
  job.file_name_prefix = "agent-3.";  // shared-dir: the agent's id in front
  job.filename_format = "$filenum";
  EXPECT_THAT(job.FilePaths(0), ElementsAre("/mnt/efs/agent-3.0", "/mnt/efs/agent-3.1"));
  EXPECT_EQ(GeneratedFileName("", "j", 2, 3, "x"), "j.2.3");
}

TEST(FilePathsTest, FilenameFormatStaysInTheJobsDirectory) {
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "filename_format", "/etc/$jobname"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("absolute path")));
  EXPECT_THAT(ApplyJobOption(job, "filename_format", "a/../../$jobname"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("'..'")));
  EXPECT_TRUE(ApplyJobOption(job, "filename_format", "a..b/$jobname").ok());
  EXPECT_EQ(job.filename_format, "a..b/$jobname");
}

}  // namespace
}  // namespace azbench
