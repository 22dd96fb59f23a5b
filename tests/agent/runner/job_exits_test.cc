// fio's exitall, exit_what and exitall_on_error across a run's jobs (agent/runner/job_exits.h):
// which jobs a clone's end ends, as fio 3.33's fio_terminate_threads chooses them.
#include "agent/runner/job_exits.h"

#include <vector>

#include "gtest/gtest.h"

namespace azbench {
namespace {

ExitPolicy Policy(int group_id, bool exitall = false, ExitWhat what = ExitWhat::kGroup,
                  bool on_error = false) {
  return ExitPolicy{exitall, on_error, what, group_id};
}

std::vector<bool> Ended(const JobExits& exits, size_t jobs) {
  std::vector<bool> ended;
  for (size_t i = 0; i < jobs; ++i) ended.push_back(exits.Ended(i));
  return ended;
}

TEST(JobExitsTest, WithoutExitallAnEndEndsNothing) {
  JobExits exits({Policy(0), Policy(0)});
  exits.Started(0, 2);
  exits.CloneEnded(0, /*failed=*/true);
  EXPECT_EQ(Ended(exits, 2), (std::vector<bool>{false, false}));
}

TEST(JobExitsTest, ExitallEndsTheReportingGroupOfTheJobThatEnded) {
  // Jobs 0 and 1 in group 0, job 2 in group 1 (new_group) of the same stonewall group.
  JobExits exits({Policy(0, true), Policy(0, true), Policy(1, true)});
  exits.Started(0, 3);
  exits.CloneEnded(1, false);
  EXPECT_EQ(Ended(exits, 3), (std::vector<bool>{true, true, false}));
}

TEST(JobExitsTest, OneJobsExitallMakesEveryJobsEndCountAsFiosGlobalFlag) {
  JobExits exits({Policy(0, true), Policy(1), Policy(1)});
  exits.Started(0, 3);
  exits.CloneEnded(1, false);  // job 1 sets no exitall itself
  EXPECT_EQ(Ended(exits, 3), (std::vector<bool>{false, true, true}));
}

TEST(JobExitsTest, ExitWhatStonewallEndsTheRunningStonewallGroupOnly) {
  // examples/exitwhat.fio: slow1 (stonewall), fast1 | slow2, fast2, runsnever.
  JobExits exits({Policy(0, true, ExitWhat::kStonewall), Policy(1, true), Policy(2, true),
                  Policy(2, true), Policy(2, true)});
  exits.Started(0, 2);
  exits.CloneEnded(0, false);
  EXPECT_EQ(Ended(exits, 5), (std::vector<bool>{true, true, false, false, false}));
}

TEST(JobExitsTest, ExitWhatAllEndsEveryJobIncludingLaterGroups) {
  JobExits exits({Policy(0, true), Policy(0, true, ExitWhat::kAll), Policy(1, true)});
  exits.Started(0, 2);
  exits.CloneEnded(1, false);
  EXPECT_EQ(Ended(exits, 3), (std::vector<bool>{true, true, true}));
}

TEST(JobExitsTest, ExitallOnErrorEndsOnlyOnAFailure) {
  JobExits exits({Policy(0, false, ExitWhat::kGroup, true), Policy(0)});
  exits.Started(0, 2);
  exits.CloneEnded(0, /*failed=*/false);
  EXPECT_EQ(Ended(exits, 2), (std::vector<bool>{false, false}));
  exits.CloneEnded(0, /*failed=*/true);
  EXPECT_EQ(Ended(exits, 2), (std::vector<bool>{true, true}));
}

TEST(JobExitsTest, CancelAllEndsEveryJob) {
  JobExits exits({Policy(0), Policy(1)});
  exits.CancelAll();
  EXPECT_EQ(Ended(exits, 2), (std::vector<bool>{true, true}));
}

}  // namespace
}  // namespace azbench
