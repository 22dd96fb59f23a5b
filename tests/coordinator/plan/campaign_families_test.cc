// Campaigns with workload families other than block_io: the `workload:` key, per-family option
// checks, family-aware matrix axes and small_files' per-size scenarios.
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_replace.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/plan/plan.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

constexpr char kHead[] = R"(name: fam
fleet:
  local: {agents: 2}
targets:
  - name: scratch
    path: /mnt/shared/fam
workloads:
)";

std::string Message(const absl::Status& s) { return std::string(s.message()); }

absl::StatusOr<Campaign> Parse(const std::string& workloads) {
  return ParseCampaign(std::string(kHead) + workloads, "fam.yaml");
}

std::vector<AgentInfo> TwoAgents() {
  std::vector<AgentInfo> agents(2);
  agents[0].agent_id = agents[0].address = "127.0.0.1:1";
  agents[1].agent_id = agents[1].address = "127.0.0.1:2";
  agents[0].availability_zone = agents[1].availability_zone = "local";
  return agents;
}

std::vector<std::string> Keys(const std::vector<Scenario>& plan) {
  std::vector<std::string> keys;
  for (const Scenario& s : plan) keys.push_back(s.key);
  return keys;
}

TEST(CampaignFamiliesTest, EachFamilyParsesAndItsJobsCarryTheFamily) {
  absl::StatusOr<Campaign> c = Parse(
      "  - {name: md, workload: metadata, options: {files: 100, dirs: 4, dir_mode: shared, "
      "stride: 1}}\n"
      "  - {name: stream, workload: large_stream, options: {size: 8m, bs: 1m, passes: 2}}\n"
      "  - {name: rr, workload: block_io, options: {rw: randread, size: 1m}}\n");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->workloads.size(), 3u);
  EXPECT_EQ(c->workloads[0].family, "metadata");
  EXPECT_EQ(c->workloads[1].family, "large_stream");
  EXPECT_EQ(c->workloads[2].family, "block_io");
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(*c, TwoAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  ASSERT_EQ(plan->size(), 3u);
  EXPECT_EQ((*plan)[0].jobs[0].workload, "metadata");
  EXPECT_EQ((*plan)[1].jobs[0].workload, "large_stream");
  EXPECT_EQ((*plan)[2].jobs[0].workload, "block_io");
  EXPECT_THAT((*plan)[0].jobs[0].options,
              ::testing::Contains(::testing::Pair("directory", "/mnt/shared/fam")));
}

TEST(CampaignFamiliesTest, SmallFilesGetOneScenarioPerSizeByDefaultAndFromTheirList) {
  absl::StatusOr<Campaign> c = Parse("  - {name: sf, workload: small_files, options: {}}\n");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(*c, TwoAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  EXPECT_EQ(Keys(*plan),
            (std::vector<std::string>{"workload=sf/filesizes=4k/target=scratch/repeat=1",
                                      "workload=sf/filesizes=64k/target=scratch/repeat=1",
                                      "workload=sf/filesizes=128k/target=scratch/repeat=1",
                                      "workload=sf/filesizes=256k/target=scratch/repeat=1",
                                      "workload=sf/filesizes=1m/target=scratch/repeat=1"}));
  EXPECT_THAT((*plan)[2].jobs[0].options,
              ::testing::Contains(::testing::Pair("filesizes", "128k")));

  c = Parse("  - {name: sf, workload: small_files, options: {filesizes: '8k:2m', files: 3}}\n");
  ASSERT_TRUE(c.ok()) << c.status();
  plan = ExpandCampaign(*c, TwoAgents());
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(Keys(*plan),
            (std::vector<std::string>{"workload=sf/filesizes=8k/target=scratch/repeat=1",
                                      "workload=sf/filesizes=2m/target=scratch/repeat=1"}));
}

TEST(CampaignFamiliesTest, MatrixAxesMultiplyOnlyTheWorkloadsWhoseFamilyHasTheOption) {
  absl::StatusOr<Campaign> c =
      ParseCampaign(std::string(kHead) +
                        "  - {name: md, workload: metadata, options: {files: 10}}\n"
                        "  - {name: rr, options: {rw: randread, size: 1m}}\n"
                        "matrix:\n  numjobs: [1, 4]\n  iodepth: [1, 16]\n  files: [10, 20]\n",
                    "fam.yaml");
  ASSERT_TRUE(c.ok()) << c.status();
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(*c, TwoAgents());
  ASSERT_TRUE(plan.ok()) << plan.status();
  // metadata: numjobs x files; block_io: numjobs x iodepth.
  ASSERT_EQ(plan->size(), 8u);
  EXPECT_EQ((*plan)[0].key, "workload=md/numjobs=1/files=10/target=scratch/repeat=1");
  EXPECT_EQ((*plan)[4].key, "workload=rr/numjobs=1/iodepth=1/target=scratch/repeat=1");
}

TEST(CampaignFamiliesTest, StudyBExampleParsesAndPlansEveryFamilyOnEveryTarget) {
  const std::string root = std::filesystem::path(testing::kSourceDir).string();
  absl::StatusOr<Campaign> c =
      ParseCampaignFile(root + "/examples/study-b-lustre-s3files-efs.yaml");
  ASSERT_TRUE(c.ok()) << c.status();
  std::vector<AgentInfo> agents = TwoAgents();
  absl::StatusOr<std::vector<Scenario>> plan = ExpandCampaign(*c, agents);
  ASSERT_TRUE(plan.ok()) << plan.status();
  // (8 block_io workloads x 4 iodepths + 2 dd + 1 metadata + 5 sizes) x 3 repeats x 3 targets.
  EXPECT_EQ(plan->size(), (8u * 4u + 2u + 1u + 5u) * 3u * 3u);
  std::set<std::string> families;
  for (const Scenario& s : *plan) families.insert(s.jobs[0].workload);
  EXPECT_EQ(families,
            (std::set<std::string>{"block_io", "large_stream", "metadata", "small_files"}));
}

TEST(CampaignFamiliesErrorTest, UnknownFamilyListsTheFamilies) {
  EXPECT_THAT(Message(Parse("  - {name: md, workload: mdtest, options: {}}\n").status()),
              AllOf(StartsWith("fam.yaml:8:"),
                    HasSubstr("workload 'mdtest' is not supported; allowed: block_io, metadata, "
                              "small_files, large_stream")));
}

TEST(CampaignFamiliesErrorTest, AnOptionOfAnotherFamilyPointsAtTheKeyAndListsTheFamilysOptions) {
  EXPECT_THAT(
      Message(
          Parse("  - {name: md, workload: metadata, options: {files: 10, iodepth: 4}}\n").status()),
      AllOf(StartsWith("fam.yaml:8:"),
            HasSubstr("option 'iodepth' is not supported by workload metadata; "
                      "supported: name, directory, numjobs, files, dirs")));
}

TEST(CampaignFamiliesErrorTest, BadValuesNameTheOptionAndTheAllowedValues) {
  EXPECT_THAT(
      Message(Parse("  - {name: md, workload: metadata, options: {dir_mode: private}}\n").status()),
      HasSubstr("option 'dir_mode': 'private' is not allowed; allowed: unique, shared"));
  EXPECT_THAT(
      Message(
          Parse("  - {name: md, workload: metadata, options: {phases: 'create,list'}}\n").status()),
      HasSubstr("'list' is not a phase; allowed: create, stat, open, read, rename, delete"));
  EXPECT_THAT(
      Message(Parse("  - {name: s, workload: large_stream, options: {rw: randread}}\n").status()),
      HasSubstr("option 'rw': 'randread' is not allowed; allowed: read, write"));
  EXPECT_THAT(
      Message(Parse("  - {name: md, workload: metadata, options: {stride: 1, stonewall: 5s}}\n")
                  .status()),
      HasSubstr("stride and stonewall cannot be combined"));
}

TEST(CampaignFamiliesErrorTest, StrideNeedsATargetEveryAgentShares) {
  const std::string relative = absl::StrReplaceAll(
      std::string(kHead) + "  - {name: md, workload: metadata, options: {stride: 1}}\n",
      {{"/mnt/shared/fam", "scratch"}});
  EXPECT_THAT(Message(ParseCampaign(relative, "fam.yaml").status()),
              HasSubstr("stride makes agents read each other's files, but target 'scratch' has a "
                        "relative path"));
}

TEST(CampaignFamiliesErrorTest, FioJobIsOnlyForBlockIo) {
  EXPECT_THAT(Message(Parse("  - {name: md, workload: metadata, fio_job: x.fio}\n").status()),
              HasSubstr("fio_job is only for workload block_io"));
}

TEST(CampaignFamiliesErrorTest, AnAxisNoWorkloadHasIsRefused) {
  EXPECT_THAT(
      Message(ParseCampaign(std::string(kHead) + "  - {name: md, workload: metadata, options: {}}\n"
                                                 "matrix:\n  iodepth: [1, 16]\n",
                            "fam.yaml")
                  .status()),
      HasSubstr("axis 'iodepth' is an option of no workload in this campaign"));
}

}  // namespace
}  // namespace azbench
