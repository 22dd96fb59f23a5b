#include "coordinator/cli/fio_job_run.h"

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_split.h"
#include "coordinator/cli/cli_fleet.h"
#include "coordinator/plan/plan.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Pair;

std::string TestData(const std::string& name) {
  return std::string(testing::kSourceDir) + "/tests/coordinator/testdata/" + name;
}

std::vector<AgentInfo> TwoAgents() {
  std::vector<AgentInfo> agents(2);
  agents[0].agent_id = agents[0].address = "10.0.1.5:7480";
  agents[1].agent_id = agents[1].address = "10.0.2.7:7480";
  return agents;
}

FleetSpec Hosts() {
  FleetSpec fleet;
  fleet.kind = FleetSpec::Kind::kHosts;
  fleet.hosts = {"10.0.1.5:7480", "10.0.2.7:7480"};
  return fleet;
}

// Study A's fio command line, verbatim (the O_DIRECT case; the file is named with --directory).
std::vector<std::string> StudyA() {
  return absl::StrSplit(
      "--name=write --rw=write --bs=4m --size=4g --numjobs=1 --iodepth=1 --ioengine=libaio "
      "--runtime=60 --time_based --group_reporting --direct=1 --directory=/mnt/fsx",
      ' ');
}

TEST(FioJobRunTest, StudyACommandLineRunsVerbatimOnEveryAgentWithItsOwnOptions) {
  FioJobRunOptions options;
  options.fio_args = StudyA();
  options.fleet = Hosts();
  absl::StatusOr<FioJobRun> run = MakeFioJobRun(options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->campaign.name, "fio");
  EXPECT_EQ(run->campaign.results_path, "fio.db");
  absl::StatusOr<std::vector<Scenario>> plan = ExpandFioJobRun(*run, TwoAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 1u);
  const Scenario& s = (*plan)[0];
  EXPECT_THAT(s.agent_ids, ElementsAre("10.0.1.5:7480", "10.0.2.7:7480"));
  EXPECT_EQ(s.target, kFioJobTargetName);
  ASSERT_EQ(s.jobs.size(), 1u);
  EXPECT_EQ(s.jobs[0].name, "write");
  EXPECT_THAT(
      s.jobs[0].options,
      ElementsAre(Pair("rw", "write"), Pair("bs", "4m"), Pair("size", "4g"), Pair("numjobs", "1"),
                  Pair("iodepth", "1"), Pair("ioengine", "libaio"), Pair("runtime", "60"),
                  Pair("time_based", ""), Pair("group_reporting", ""), Pair("direct", "1"),
                  Pair("directory", "/mnt/fsx")));
}

TEST(FioJobRunTest, StudyCJobFileKeepsItsDirectoryUnlessOneIsGiven) {
  FioJobRunOptions options;
  options.job_file = TestData("study-c.fio");
  options.fleet = Hosts();
  absl::StatusOr<FioJobRun> run = MakeFioJobRun(options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_EQ(run->campaign.name, "study-c");
  absl::StatusOr<std::vector<Scenario>> plan = ExpandFioJobRun(*run, TwoAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ((*plan)[0].jobs.size(), 2u);
  EXPECT_THAT((*plan)[0].jobs[0].options,
              ElementsAre(Pair("directory", "/mnt/efs"), Pair("rw", "randread"), Pair("size", "1m"),
                          Pair("numjobs", "1")));
  EXPECT_EQ((*plan)[0].jobs[1].name, "seq-read");

  options.directory = "/mnt/efs2/azbench";
  run = MakeFioJobRun(options);
  ASSERT_TRUE(run.ok()) << run.status();
  plan = ExpandFioJobRun(*run, TwoAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_THAT((*plan)[0].jobs[1].options,
              ElementsAre(Pair("rw", "read"), Pair("size", "1g"), Pair("numjobs", "1"),
                          Pair("directory", "/mnt/efs2/azbench")));
}

TEST(FioJobRunTest, UnsupportedOptionsAreRefusedWithTheLineOrArgument) {
  testing::TempDir dir;
  const std::string bad = dir.File("bad.fio");
  std::ofstream(bad) << "[global]\nsize=1m\n\n[job]\nrw=read\nsync=1\n";
  FioJobRunOptions options;
  options.job_file = bad;
  EXPECT_THAT(MakeFioJobRun(options).status().message(),
              HasSubstr(bad + ":6: option 'sync' is not supported by azbench: "));
  EXPECT_TRUE(absl::IsInvalidArgument(MakeFioJobRun(options).status()));

  options.job_file.clear();
  options.fio_args = StudyA();
  options.fio_args.push_back("--lat_percentile=1");
  EXPECT_THAT(MakeFioJobRun(options).status().message(),
              HasSubstr("argument 13 '--lat_percentile=1': unknown option 'lat_percentile'; did "
                        "you mean 'lat_percentiles'?"));
}

TEST(FioJobRunTest, BadRequestsAreErrors) {
  FioJobRunOptions neither;
  EXPECT_TRUE(absl::IsInvalidArgument(MakeFioJobRun(neither).status()));
  FioJobRunOptions both;
  both.job_file = TestData("study-c.fio");
  both.fio_args = StudyA();
  EXPECT_TRUE(absl::IsInvalidArgument(MakeFioJobRun(both).status()));
  FioJobRunOptions missing;
  missing.job_file = TestData("no-such.fio");
  EXPECT_TRUE(absl::IsNotFound(MakeFioJobRun(missing).status()));
  FioJobRunOptions relative;
  relative.job_file = TestData("study-c.fio");
  relative.fleet = Hosts();
  relative.directory = "data";
  EXPECT_THAT(MakeFioJobRun(relative).status().message(), HasSubstr("must be an absolute path"));
  relative.fleet = FleetSpec{};  // local: relative to each agent's work directory
  EXPECT_TRUE(MakeFioJobRun(relative).ok());
  // ... and inside it: a local fleet's agents would otherwise make the directory outside it.
  relative.directory = "data/../../../escape";
  EXPECT_THAT(MakeFioJobRun(relative).status(),
              testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                HasSubstr("--directory 'data/../../../escape' must stay inside "
                                          "each agent's work directory (no '..')")));
}

TEST(FioJobRunTest, WithDirectoryEveryFileMustLieBeneathIt) {
  FioJobRunOptions options;
  options.fio_args = {"--name=w", "--rw=write", "--bs=4k", "--size=1m", "--filename=/etc/passwd"};
  options.fleet = Hosts();
  options.directory = "/mnt/fsx";
  EXPECT_THAT(MakeFioJobRun(options).status(),
              testing::StatusIs(absl::StatusCode::kInvalidArgument,
                                AllOf(HasSubstr("job 'w' with --directory /mnt/fsx"),
                                      HasSubstr("filename '/etc/passwd' is outside --directory "
                                                "/mnt/fsx"))));
  options.fio_args.back() = "--filename=/mnt/fsx/data";
  EXPECT_TRUE(MakeFioJobRun(options).ok());
  // Without --directory the job file is the user's own, run as fio would.
  options.fio_args.back() = "--filename=/etc/passwd";
  options.directory.clear();
  EXPECT_TRUE(MakeFioJobRun(options).ok());
}

TEST(LocalFleetRootsTest, CampaignsGiveOnlyTheirTargetPaths) {
  Campaign campaign;
  CampaignTarget target;
  target.name = "t";
  target.path = "/mnt/t";
  campaign.targets = {target};
  target.path = "relative";
  campaign.targets.push_back(target);
  Workload workload;
  workload.jobs.push_back(
      WorkloadJob{"j", {{"directory", "/mnt/other"}, {"filename", "/etc/passwd"}}, 0});
  campaign.workloads = {workload};
  EXPECT_THAT(cli_internal::LocalFleetRoots(campaign), ElementsAre("/mnt/t"));

  // A fio job run without --directory (its target has no path) runs the jobs' own paths.
  FioJobRunOptions options;
  options.fio_args = {"--name=w",  "--rw=write",         "--bs=4k",
                      "--size=1m", "--directory=/mnt/d", "--filename=/mnt/f/data:x"};
  absl::StatusOr<FioJobRun> run = MakeFioJobRun(options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(cli_internal::LocalFleetRoots(run->campaign), ElementsAre("/mnt/d", "/mnt/f"));
  options.directory = "/mnt/given";
  options.fio_args.back() = "--filename=data:/mnt/given/x";
  run = MakeFioJobRun(options);
  ASSERT_TRUE(run.ok()) << run.status();
  EXPECT_THAT(cli_internal::LocalFleetRoots(run->campaign), ElementsAre("/mnt/given"));
}

TEST(LocalFleetNfsServersTest, TheServersTheJobsNameByAddress) {
  Campaign campaign;
  Workload workload;
  workload.jobs.push_back(WorkloadJob{"a", {{"nfs_url", "nfs://10.0.0.5/export?version=3"}}, 0});
  workload.jobs.push_back(WorkloadJob{"b", {{"nfs_url", "nfs://[fd00::7]:2049/x"}}, 0});
  workload.jobs.push_back(WorkloadJob{"c", {{"nfs_url", "nfs://10.0.0.5/other"}}, 0});
  // A host name is not allowed by an agent (allowed_nfs_servers holds addresses): the agent
  // refuses the job with its own error instead.
  workload.jobs.push_back(WorkloadJob{"d", {{"nfs_url", "nfs://fs.example/export"}}, 0});
  workload.jobs.push_back(WorkloadJob{"e", {{"directory", "/mnt/x"}}, 0});
  campaign.workloads = {workload};
  EXPECT_THAT(cli_internal::LocalFleetNfsServers(campaign), ElementsAre("10.0.0.5", "fd00::7"));
  campaign.workloads.clear();
  EXPECT_THAT(cli_internal::LocalFleetNfsServers(campaign), ElementsAre());
  // A target given as an nfs:// URL is reached the same way.
  campaign.targets.push_back(CampaignTarget{"n", "nfs://10.0.0.9/x?version=3", {}, {}, "", {}});
  campaign.targets.push_back(CampaignTarget{"l", "/mnt/x", {}, {}, "", {}});
  EXPECT_THAT(cli_internal::LocalFleetNfsServers(campaign), ElementsAre("10.0.0.9"));
}

TEST(FleetFromFlagsTest, DefaultsToOneLocalAgentAndReadsHostLists) {
  absl::StatusOr<FleetSpec> fleet = FleetFromFlags(nullptr, nullptr, nullptr);
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  EXPECT_EQ(fleet->kind, FleetSpec::Kind::kLocal);
  EXPECT_EQ(fleet->local_agents, 1);
  EXPECT_THAT(fleet->local_azs, ElementsAre("local"));

  const std::string three = "3", azs = "a,b";
  fleet = FleetFromFlags(nullptr, &three, &azs);
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  EXPECT_EQ(fleet->local_agents, 3);
  EXPECT_THAT(fleet->local_azs, ElementsAre("a", "b"));

  const std::string list = "10.0.1.5,10.0.2.7:7500";
  fleet = FleetFromFlags(&list, nullptr, nullptr);
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  EXPECT_EQ(fleet->kind, FleetSpec::Kind::kHosts);
  EXPECT_THAT(fleet->hosts, ElementsAre("10.0.1.5:7480", "10.0.2.7:7500"));

  const std::string file = TestData("hosts.txt");
  fleet = FleetFromFlags(&file, nullptr, nullptr);
  ASSERT_TRUE(fleet.ok()) << fleet.status();
  EXPECT_EQ(fleet->hosts_file, file);
  EXPECT_FALSE(fleet->hosts.empty());

  const std::string zero = "0";
  EXPECT_TRUE(absl::IsInvalidArgument(FleetFromFlags(nullptr, &zero, nullptr).status()));
  EXPECT_TRUE(absl::IsInvalidArgument(FleetFromFlags(&list, &three, nullptr).status()));
}

// --- fio job files in campaigns ----------------------------------------------------------------

TEST(FioJobCampaignTest, StudyCExampleRunsTheJobFileThreeTimesPerTargetAndKeepsTheLast) {
  const std::string examples = std::filesystem::path(testing::kSourceDir).string() + "/examples/";
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(examples + "study-c-efs-vs-ebs.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  EXPECT_EQ(campaign->repeats, 3);
  EXPECT_EQ(campaign->keep, KeepPolicy::kLast);
  ASSERT_EQ(campaign->workloads.size(), 1u);
  // The example's job file is study C's, option for option (the test fixture is the article's).
  absl::StatusOr<std::vector<FioJob>> example = ParseFioJobFileAtPath(examples + "study-c.fio");
  absl::StatusOr<std::vector<FioJob>> article = ParseFioJobFileAtPath(TestData("study-c.fio"));
  ASSERT_TRUE(example.ok() && article.ok());
  ASSERT_EQ(example->size(), article->size());
  for (size_t i = 0; i < example->size(); ++i) {
    ASSERT_EQ((*example)[i].options.size(), (*article)[i].options.size());
    for (size_t k = 0; k < (*example)[i].options.size(); ++k) {
      EXPECT_EQ((*example)[i].options[k].key, (*article)[i].options[k].key);
      EXPECT_EQ((*example)[i].options[k].value, (*article)[i].options[k].value);
    }
  }
  absl::StatusOr<std::vector<Scenario>> plan =
      ExpandCampaign(*campaign, ExpectedAgents(campaign->fleet));
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 6u);  // 3 repeats x 2 targets
  EXPECT_EQ((*plan)[5].key, "workload=web-root/target=ebs/repeat=3");
  for (const Scenario& s : *plan) {
    ASSERT_EQ(s.jobs.size(), 2u);
    EXPECT_EQ(s.jobs[0].options.back().first, "directory");
    EXPECT_EQ(s.jobs[0].options.back().second,
              s.target == "efs" ? "/mnt/azbench/efs/azbench" : "/mnt/azbench/ebs/azbench");
  }
}

TEST(FioJobCampaignTest, KbBaseInAJobSectionAfterGlobalSizesIsRefused) {
  testing::TempDir dir;
  std::ofstream(dir.File("k.fio")) << "[global]\nsize=1m\n[a]\nkb_base=1000\nrw=read\n";
  std::ofstream(dir.File("c.yaml")) << "name: k\nfleet: {local: {agents: 1}}\ntargets: [{name: "
                                       "t, path: t}]\nworkloads: [{name: w, fio_job: k.fio}]\n";
  EXPECT_THAT(ParseCampaignFile(dir.File("c.yaml")).status().message(),
              HasSubstr(dir.File("k.fio") + ":3: job 'a': its sizes depend on kb_base"));
}

}  // namespace
}  // namespace azbench
