#include "agent/one_shot_output.h"

#include <string>
#include <vector>

#include "agent/one_shot.h"
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

TEST(ParseOutputFormatsTest, TerseAndJsonPlusAreFormatsAndTerseVersionsAreFios) {
  absl::StatusOr<OutputFormats> f = ParseOutputFormats("terse,json+");
  ASSERT_TRUE(f.ok()) << f.status();
  EXPECT_EQ(*f, (OutputFormats{.json_plus = true, .terse = true}));
  for (int version : {2, 3, 4, 5}) {
    EXPECT_EQ(ParseTerseVersion(std::to_string(version)).value_or(0), version);
  }
  EXPECT_THAT(ParseTerseVersion("6").status().message(), HasSubstr("give 2, 3, 4 or 5"));
  EXPECT_FALSE(ParseTerseVersion("x").ok());
}

TEST(OneShotArgsTest, MinimalMeansTerse) {
  absl::StatusOr<OneShotOptions> o =
      ParseOneShotArgs({"--name=w", "--rw=write", "--size=1m", "--minimal"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_EQ(o->output_format, "terse");
  absl::StatusOr<OneShotOptions> v4 = ParseOneShotArgs({"--name=w", "--terse-version=4"});
  ASSERT_TRUE(v4.ok()) << v4.status();
  EXPECT_EQ(v4->terse_version, 4);
  EXPECT_FALSE(ParseOneShotArgs({"--name=w", "--terse-version=1"}).ok());
}

TEST(OneShotArgsTest, EtaFlagsSetFiosStatusLine) {
  absl::StatusOr<OneShotOptions> o =
      ParseOneShotArgs({"--name=w", "--eta=always", "--eta-newline=2", "--eta-interval=500ms"});
  ASSERT_TRUE(o.ok()) << o.status();
  EXPECT_TRUE(o->warnings.empty());
  EXPECT_EQ(o->eta.mode, EtaMode::kAlways);
  EXPECT_EQ(o->eta.newline_every, absl::Seconds(2));
  EXPECT_EQ(o->eta.interval, absl::Milliseconds(500));
  absl::StatusOr<OneShotOptions> defaults = ParseOneShotArgs({"--name=w"});
  ASSERT_TRUE(defaults.ok()) << defaults.status();
  EXPECT_EQ(defaults->eta.mode, EtaMode::kAuto);
  EXPECT_EQ(defaults->eta.interval, absl::Seconds(1));
  EXPECT_THAT(ParseOneShotArgs({"--name=w", "--eta=sometimes"}).status().message(),
              HasSubstr("give never, auto or always"));
  EXPECT_FALSE(ParseOneShotArgs({"--name=w", "--eta-interval=soon"}).ok());
  EXPECT_FALSE(ParseOneShotArgs({"--name=w", "--eta-interval=10ms"}).ok());
}

TEST(RenderOneShotOutputTest, FormatsComeInFiosOrderTerseJsonNormal) {
  std::vector<JobResult> results(1);
  results[0].name = "w";
  const std::string text = RenderOneShotOutput(
      OutputFormats{.normal = true, .json = true, .terse = true}, results, {}, false);
  const size_t terse = text.find("3;azbench-");
  const size_t json = text.find("{\n");
  const size_t normal = text.find("w: ");
  EXPECT_EQ(terse, 0u) << text;
  EXPECT_LT(terse, json);
  EXPECT_LT(json, normal);
  EXPECT_NE(normal, std::string::npos) << text;
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

TEST(DiskUtilPathsTest, AJobWithDiskUtilOffAddsNoDisk) {
  absl::StatusOr<std::vector<FioJob>> jobs =
      ParseFioCommandLine({"--name=a", "--rw=read", "--size=1m", "--directory=/d1", "--disk_util=0",
                           "--name=b", "--rw=read", "--size=1m", "--directory=/d2"});
  ASSERT_TRUE(jobs.ok()) << jobs.status();
  EXPECT_EQ(DiskUtilPaths(*jobs), (std::vector<std::string>{"/d2"}));
}

}  // namespace
}  // namespace azbench
