// fio's trim patterns and bs's trim value as the option table parses them, fallocate's modes, and
// what a job that trims refuses (common/trim_options.h), each with an error naming the option.
#include "common/trim_options.h"

#include <string>
#include <utility>
#include <vector>

#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::HasSubstr;

JobSpec Parsed(const std::vector<std::pair<std::string, std::string>>& options) {
  JobSpec job;
  for (const auto& [key, value] : options) {
    EXPECT_TRUE(ApplyJobOption(job, key, value).ok()) << key << "=" << value;
  }
  return job;
}

TEST(TrimOptionsTest, FioTrimPatternsParseWithTheirDirections) {
  struct Row {
    const char* rw;
    bool random, reads, writes;
  };
  for (const Row& row :
       {Row{"trim", false, false, false}, Row{"randtrim", true, false, false},
        Row{"trimwrite", false, false, true}, Row{"randtrimwrite", true, false, true}}) {
    SCOPED_TRACE(row.rw);
    const JobSpec job = Parsed({{"rw", row.rw}});
    EXPECT_EQ(RwPatternName(job.rw), row.rw);
    EXPECT_TRUE(DoesTrim(job.rw));
    EXPECT_EQ(IsRandom(job.rw), row.random);
    EXPECT_EQ(DoesRead(job.rw), row.reads);
    EXPECT_EQ(DoesWrite(job.rw), row.writes);
    EXPECT_TRUE(ValidateJobSpec(job).ok()) << ValidateJobSpec(job);
  }
  EXPECT_FALSE(DoesTrim(Parsed({{"rw", "randrw"}}).rw));
}

TEST(TrimOptionsTest, BsTrimValueFollowsFiosCommaRule) {
  EXPECT_EQ(Parsed({{"bs", "8k"}}).trim_block_size_bytes, 8192u);
  EXPECT_EQ(Parsed({{"bs", "8k,32k"}}).trim_block_size_bytes, 32768u)
      << "a value not followed by a comma applies to the directions after it";
  EXPECT_EQ(Parsed({{"bs", "8k,32k,"}}).trim_block_size_bytes, 4096u) << "trims keep the default";
  EXPECT_EQ(Parsed({{"bs", "8k,32k,16k"}}).trim_block_size_bytes, 16384u);
  EXPECT_EQ(Parsed({{"bs", ",,64k"}}).block_size_bytes, 4096u);
}

TEST(TrimOptionsTest, FallocateTakesFiosModesAndNativeIsTheDefault) {
  EXPECT_EQ(JobSpec{}.fallocate, FallocateMode::kNative);
  const std::vector<std::pair<std::string, FallocateMode>> modes = {
      {"none", FallocateMode::kNone},
      {"native", FallocateMode::kNative},
      {"posix", FallocateMode::kPosix},
      {"keep", FallocateMode::kKeep},
      {"truncate", FallocateMode::kTruncate},
      {"0", FallocateMode::kNone},
      {"1", FallocateMode::kPosix}};
  for (const auto& [value, mode] : modes) {
    EXPECT_EQ(Parsed({{"fallocate", value}}).fallocate, mode) << value;
  }
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "fallocate", "2"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("allowed: none, native, posix, keep, truncate, 0, 1")));
}

TEST(TrimOptionsTest, AJobThatTrimsRefusesWhatItCannotDoForTrimsNamingTheOption) {
  const std::vector<std::pair<std::vector<std::pair<std::string, std::string>>, std::string>>
      refused = {
          {{{"rw", "randtrim"}, {"bssplit", "4k/50:8k/50"}}, "bssplit"},
          {{{"rw", "trim"}, {"bsrange", "4k-8k"}}, "bsrange"},
          {{{"rw", "randtrim"}, {"rate_iops", "100"}}, "azbench does not pace trims"},
          {{{"rw", "randtrim:4"}}, "rw modifier"},
          {{{"rw", "randtrim"}, {"percentage_random", "50"}}, "percentage_random"},
          {{{"rw", "trim"}, {"number_ios", "10"}}, "number_ios"},
          {{{"rw", "randtrim"}, {"ioengine", "ftruncate"}}, "ioengine=ftruncate"},
          {{{"rw", "trimwrite"}, {"nrfiles", "2"}}, "nrfiles"},
          {{{"rw", "trimwrite"}, {"bs", "4k,4k,8k"}}, "other than the trim bs"},
      };
  for (const auto& [options, why] : refused) {
    SCOPED_TRACE(why);
    EXPECT_THAT(ValidateJobSpec(Parsed(options)),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(why)));
  }
  EXPECT_TRUE(ValidateJobSpec(Parsed({{"rw", "randwrite"}, {"bssplit", "4k/50:8k/50"}})).ok())
      << "a job that does not trim is not held to these";
}

}  // namespace
}  // namespace azbench
