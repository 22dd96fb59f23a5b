// fio's steadystate options as job files give them (common/steady_state.h, the option table and
// the job file's reporting groups).
#include "common/steady_state.h"

#include <string>

#include "absl/status/status.h"
#include "absl/time/time.h"
#include "common/fio_jobfile.h"
#include "common/fio_option_table.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(SteadyStateTest, CriterionNamesTheSamplesTheTestAndTheLimit) {
  SteadyStateSpec ss;
  ASSERT_TRUE(ParseSteadyStateCriterion("iops:10%", 1024, ss).ok());
  EXPECT_TRUE(ss.iops);
  EXPECT_FALSE(ss.slope);
  EXPECT_TRUE(ss.percent);
  EXPECT_EQ(ss.limit, 10.0);
  ASSERT_TRUE(ParseSteadyStateCriterion("bw_slope:0.5%", 1024, ss).ok());
  EXPECT_FALSE(ss.iops);
  EXPECT_TRUE(ss.slope);
  EXPECT_EQ(ss.limit, 0.5);
  ASSERT_TRUE(ParseSteadyStateCriterion("iops_slope:2.5", 1024, ss).ok());
  EXPECT_FALSE(ss.percent);
  EXPECT_EQ(ss.limit, 2.5);
  // A bandwidth limit is bytes/s, with fio's size suffixes.
  ASSERT_TRUE(ParseSteadyStateCriterion("bw:10m", 1024, ss).ok());
  EXPECT_EQ(ss.limit, 10.0 * 1024 * 1024);
  EXPECT_EQ(SteadyStateCriterionName(ss), "bw");
}

TEST(SteadyStateTest, ABadCriterionSaysWhatIsAllowed) {
  SteadyStateSpec ss;
  EXPECT_THAT(ParseSteadyStateCriterion("iops", 1024, ss),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("needs a limit"), HasSubstr("iops_slope"))));
  EXPECT_THAT(ParseSteadyStateCriterion("lat:1%", 1024, ss),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("unknown criterion")));
  EXPECT_THAT(ParseSteadyStateCriterion("iops:ten%", 1024, ss),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("must be a number")));
  EXPECT_EQ(ss, SteadyStateSpec{}) << "a refused value leaves the spec as it was";
}

TEST(SteadyStateTest, TheOptionsFillTheJobWithFiosUnitsAndDefaults) {
  JobSpec job;
  EXPECT_FALSE(job.steadystate.enabled()) << "fio: ss_dur 0 turns steady state off";
  ASSERT_TRUE(ApplyJobOption(job, "ss_dur", "1500ms").ok());
  EXPECT_EQ(job.steadystate.window_seconds(), 1) << "fio keeps whole seconds";
  ASSERT_TRUE(ApplyJobOption(job, "steadystate_ramp_time", "5").ok());
  EXPECT_EQ(job.steadystate.ramp, absl::Seconds(5));
  // Without ss, fio judges iops_slope:0.01%.
  EXPECT_TRUE(job.steadystate.iops);
  EXPECT_TRUE(job.steadystate.slope);
  EXPECT_TRUE(job.steadystate.percent);
  EXPECT_EQ(job.steadystate.limit, 0.01);
}

TEST(SteadyStateTest, ClonesAreJudgedTogetherOnlyWithGroupReporting) {
  EXPECT_THAT(ParseFioJobFile("[a]\nrw=read\nsize=1m\nnumjobs=2\nss=iops:5%\nss_dur=10\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("t.fio"), HasSubstr("needs group_reporting"))));
  EXPECT_TRUE(
      ParseFioJobFile("[a]\nrw=read\nsize=1m\nnumjobs=2\ngroup_reporting\nss=iops:5%\nss_dur=10\n",
                      "t.fio")
          .ok());
}

TEST(SteadyStateTest, TheJobsOfAReportingGroupMustJudgeAlike) {
  EXPECT_THAT(
      ParseFioJobFile("[global]\nrw=read\nsize=1m\n[a]\nss=iops:5%\nss_dur=10\n"
                      "[b]\nss=iops:6%\nss_dur=10\n",
                      "t.fio"),
      StatusIs(absl::StatusCode::kInvalidArgument, AllOf(HasSubstr("job 'b'"), HasSubstr("job 'a'"),
                                                         HasSubstr("of its reporting group"))));
  // A new group may judge otherwise.
  EXPECT_TRUE(ParseFioJobFile("[global]\nrw=read\nsize=1m\n[a]\nss=iops:5%\nss_dur=10\n"
                              "[b]\nnew_group\nss=iops:6%\nss_dur=10\n",
                              "t.fio")
                  .ok());
}

TEST(SteadyStateTest, FileOperationEnginesHaveNoRateToJudge) {
  EXPECT_THAT(ParseFioJobFile("[a]\nioengine=filecreate\nnrfiles=5\nss_dur=10\n", "t.fio"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("engines that move data")));
}

}  // namespace
}  // namespace azbench
