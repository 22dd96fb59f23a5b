#include "agent/one_shot_output.h"

#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

TEST(ParseOutputFormatsTest, TakesFiosNamesCommaSeparated) {
  absl::StatusOr<OutputFormats> f = ParseOutputFormats("json,normal");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_TRUE(f->json);
  EXPECT_TRUE(f->normal);
  absl::StatusOr<OutputFormats> bad = ParseOutputFormats("json,xml");
  EXPECT_EQ(bad.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("'xml' is not a format"));
}

TEST(OneShotFioContextTest, GlobalOptionsAreWrittenOnceAndEachJobKeepsItsOwn) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioJobFile(
      "[global]\nioengine=psync\nbs=4k\n[a]\nrw=read\nsize=1m\n[b]\nrw=write\nsize=1m\n", "t.fio");
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  std::vector<JobResult> results(2);
  results[0].name = "b";  // results may come in any order
  results[1].name = "a";
  const FioRunContext context = OneShotFioContext(*jobs, results, {});
  EXPECT_EQ(context.global_options, (FioOptionList{{"ioengine", "psync"}, {"bs", "4k"}}));
  ASSERT_EQ(context.job_options.size(), 2u);
  EXPECT_EQ(context.job_options[0], (FioOptionList{{"rw", "write"}, {"size", "1m"}}));
  EXPECT_EQ(context.job_options[1], (FioOptionList{{"rw", "read"}, {"size", "1m"}}));
}

TEST(OneShotFioContextTest, ACommandLineJobsOptionsStartWithItsNameAsFiosDo) {
  absl::StatusOr<std::vector<FioJob>> jobs =
      ParseFioCommandLine({"--bs=8k", "--name=w", "--rw=write", "--size=1m"});
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  std::vector<JobResult> results(1);
  results[0].name = "w";
  const FioRunContext context = OneShotFioContext(*jobs, results, {});
  EXPECT_EQ(context.global_options, (FioOptionList{{"bs", "8k"}}));
  EXPECT_EQ(context.job_options[0],
            (FioOptionList{{"name", "w"}, {"rw", "write"}, {"size", "1m"}}));
}

TEST(DiskUtilPathsTest, FilenamesWinOverDirectoriesAndNeitherMeansTheWorkingDirectory) {
  absl::StatusOr<std::vector<FioJob>> jobs = ParseFioCommandLine(
      {"--name=a", "--rw=read", "--size=1m", "--filename=/x/f1:/y/f2", "--directory=/z", "--name=b",
       "--rw=read", "--size=1m", "--directory=/d1:/d2", "--name=c", "--rw=read", "--size=1m"});
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ(DiskUtilPaths(*jobs), (std::vector<std::string>{"/x/f1", "/y/f2", "/d1", "/d2", "."}));
}

}  // namespace
}  // namespace azbench
