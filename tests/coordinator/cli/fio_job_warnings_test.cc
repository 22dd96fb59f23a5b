// Options of a fio job file that have no effect in azbench reach the user as warnings, with the
// file and line, whichever way the job file comes in: `azbench run --fio-job` and a campaign's
// `fio_job:` (shown by `azbench plan` and `azbench run` when the campaign is loaded).
#include <fstream>
#include <string>

#include "coordinator/campaign/campaign.h"
#include "coordinator/cli/cli_commands.h"
#include "coordinator/cli/fio_job_run.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kJobFile[] = "[global]\nsize=1m\nthread\n[job]\nrw=read\ndisable_slat=1\n";

TEST(FioJobWarningsTest, AFioJobRunKeepsTheJobFilesWarnings) {
  testing::TempDir dir;
  const std::string job = dir.File("w.fio");
  std::ofstream(job) << kJobFile;
  FioJobRunOptions options;
  options.job_file = job;
  absl::StatusOr<FioJobRun> run = MakeFioJobRun(options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(run->campaign.workloads.at(0).warnings,
              ElementsAre(StartsWith(job + ":3: [global] option 'thread' has no effect"),
                          StartsWith(job + ":6: [job] option 'disable_slat' has no effect")));
}

TEST(FioJobWarningsTest, ACampaignsFioJobWarningsAreKeptAndPrintedWhenItIsLoaded) {
  testing::TempDir dir;
  std::ofstream(dir.File("w.fio")) << kJobFile;
  const std::string campaign_file = dir.File("c.yaml");
  std::ofstream(campaign_file) << "name: c\nfleet:\n  local: {agents: 1}\ntargets:\n"
                                  "  - name: scratch\n    path: scratch\nworkloads:\n"
                                  "  - name: w\n    fio_job: w.fio\n";
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(campaign_file);
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  EXPECT_THAT(campaign->workloads.at(0).warnings,
              ElementsAre(HasSubstr("w.fio:3: [global] option 'thread'"),
                          HasSubstr("w.fio:6: [job] option 'disable_slat'")));

  ::testing::internal::CaptureStderr();
  const int rc = cli_internal::PlanCommand({campaign_file});
  const std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(rc, 0) << err;
  EXPECT_THAT(err, HasSubstr("azbench plan: warning: " + dir.File("w.fio") +
                             ":3: [global] option 'thread' has no effect in azbench: "));
  EXPECT_THAT(err, HasSubstr(":6: [job] option 'disable_slat' has no effect in azbench: "));
}

}  // namespace
}  // namespace azbench
