// Campaign files (coordinator/campaign/campaign.h) that parse: the documented defaults, every
// field, the matrix, fio job files, hosts files, placement and topology, the examples. Errors:
// campaign_errors_test.cc.
#include "coordinator/campaign/campaign.h"

#include <fstream>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/minimal_campaign.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::kInvalid;
using ::azbench::testing::kMinimal;
using ::azbench::testing::ParseMinimalPlus;
using ::azbench::testing::ParseMinimalWith;
using ::azbench::testing::SourceRoot;
using ::azbench::testing::StatusIs;
using ::azbench::testing::TestData;
using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::StartsWith;

// --- Valid campaigns ---------------------------------------------------------------------------

TEST(CampaignTest, QuickstartExampleParses) {
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(SourceRoot() + "/examples/quickstart.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  EXPECT_EQ(campaign->name, "quickstart");
  EXPECT_EQ(campaign->fleet.kind, FleetSpec::Kind::kLocal);
  EXPECT_EQ(campaign->fleet.local_agents, 4);
  EXPECT_THAT(campaign->fleet.local_azs, ElementsAre("local-a", "local-b"));
  ASSERT_EQ(campaign->targets.size(), 1u);
  EXPECT_EQ(campaign->targets[0].kind, TargetKind::kLocal);
  EXPECT_EQ(campaign->workloads.size(), 2u);
  ASSERT_EQ(campaign->matrix.size(), 1u);
  EXPECT_EQ(campaign->matrix[0].key, "nodes");
  EXPECT_EQ(campaign->keep, KeepPolicy::kLast);
  EXPECT_EQ(campaign->cooldown, absl::Seconds(1));
  EXPECT_THAT(campaign->results_path, EndsWith("examples/quickstart.db"));
  EXPECT_THAT(campaign->text, HasSubstr("name: quickstart"));
}

TEST(CampaignTest, MinimalCampaignGetsTheDocumentedDefaults) {
  absl::StatusOr<Campaign> campaign = ParseCampaign(kMinimal, "dir/test.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  EXPECT_THAT(campaign->fleet.local_azs, ElementsAre("local"));
  EXPECT_EQ(campaign->targets[0].kind, TargetKind::kOther);
  EXPECT_THAT(campaign->targets[0].labels, IsEmpty());
  EXPECT_TRUE(campaign->matrix.empty());
  EXPECT_EQ(campaign->repeats, 1);
  EXPECT_EQ(campaign->keep, KeepPolicy::kAll);
  EXPECT_EQ(campaign->warmup, absl::ZeroDuration());
  EXPECT_EQ(campaign->cooldown, absl::ZeroDuration());
  EXPECT_EQ(campaign->results_path, "dir/mini.db");
  ASSERT_EQ(campaign->workloads[0].jobs.size(), 1u);
  EXPECT_EQ(campaign->workloads[0].jobs[0].name, "randread");
  EXPECT_THAT(campaign->workloads[0].jobs[0].options,
              ElementsAre(Pair("rw", "randread"), Pair("bs", "4k"), Pair("size", "1m")));
}

TEST(CampaignTest, EveryFieldIsRead) {
  absl::StatusOr<Campaign> campaign = ParseCampaign(R"(name: full.campaign_1
fleet:
  hosts: [10.0.1.5:7481, 10.0.2.7, "[fd00::1]:7482", "fd00::2"]
targets:
  - name: efs
    path: /mnt/efs/azbench
    kind: efs
    labels: {tier: elastic, mount: efs-proxy}
    server_az: use1-az1
  - {name: zfs, path: /mnt/zfs, kind: fsx-openzfs}
workloads:
  - name: seq
    options: {rw: read, bs: 4m, size: 4g, ioengine: libaio, runtime: 60, time_based: }
matrix:
  direct: [0, 1]
  iodepth: [1, 16]
  nodes: [1, all]
repeats: 3
keep: median
warmup: 10s
cooldown: 500ms
results: /var/lib/azbench/full.db
)",
                                                    "/campaigns/full.yaml");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  EXPECT_EQ(campaign->fleet.kind, FleetSpec::Kind::kHosts);
  EXPECT_THAT(campaign->fleet.hosts,
              ElementsAre("10.0.1.5:7481", "10.0.2.7:7480", "[fd00::1]:7482", "[fd00::2]:7480"));
  EXPECT_EQ(campaign->targets[0].kind, TargetKind::kEfs);
  EXPECT_THAT(campaign->targets[0].labels,
              ElementsAre(Pair("mount", "efs-proxy"), Pair("tier", "elastic")));
  EXPECT_EQ(campaign->targets[0].server_az, "use1-az1");
  EXPECT_EQ(campaign->targets[0].location.ToString(), "/campaigns/full.yaml:5:5");
  EXPECT_EQ(campaign->targets[1].kind, TargetKind::kFsxOpenZfs);
  // `time_based:` with no value is fio's bare flag.
  EXPECT_THAT(campaign->workloads[0].jobs[0].options.back(), Pair("time_based", ""));
  EXPECT_EQ(campaign->repeats, 3);
  EXPECT_EQ(campaign->keep, KeepPolicy::kMedian);
  EXPECT_EQ(campaign->warmup, absl::Seconds(10));
  EXPECT_EQ(campaign->cooldown, absl::Milliseconds(500));
  EXPECT_EQ(campaign->results_path, "/var/lib/azbench/full.db");
}

TEST(CampaignTest, MatrixAxesKeepTheWrittenOrder) {
  absl::StatusOr<Campaign> campaign = ParseMinimalPlus(R"(matrix:
  rw: [randread, read]
  nodes: [2, 1, all]
  bs: [64k, 4k]
)");
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  ASSERT_EQ(campaign->matrix.size(), 3u);
  EXPECT_EQ(campaign->matrix[0].key, "rw");
  EXPECT_EQ(campaign->matrix[1].key, "nodes");
  EXPECT_THAT(campaign->matrix[1].values, ElementsAre("2", "1", "all"));
  EXPECT_EQ(campaign->matrix[2].key, "bs");
  EXPECT_EQ(campaign->matrix[2].location.ToString(), "test.yaml:13:3");
}

TEST(CampaignTest, MatrixCellsAreTheCrossProductWithTheFirstAxisOutermost) {
  const std::vector<MatrixAxis> matrix = {{"iodepth", {"1", "16"}, {}},
                                          {"nodes", {"1", "2", "all"}, {}}};
  const std::vector<MatrixCell> cells = MatrixCells(matrix);
  ASSERT_EQ(cells.size(), 6u);
  EXPECT_THAT(cells[0], ElementsAre(Pair("iodepth", "1"), Pair("nodes", "1")));
  EXPECT_THAT(cells[2], ElementsAre(Pair("iodepth", "1"), Pair("nodes", "all")));
  EXPECT_THAT(cells[3], ElementsAre(Pair("iodepth", "16"), Pair("nodes", "1")));
  EXPECT_THAT(MatrixCells({}), ElementsAre(IsEmpty()));
}

TEST(CampaignTest, FioJobWorkloadLoadsStudyCJobFile) {
  absl::StatusOr<Campaign> campaign = ParseCampaignFile(TestData("study-c.yaml"));
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  ASSERT_EQ(campaign->workloads.size(), 1u);
  const Workload& workload = campaign->workloads[0];
  EXPECT_EQ(workload.fio_job_path, TestData("study-c.fio"));
  ASSERT_EQ(workload.jobs.size(), 2u);
  EXPECT_EQ(workload.jobs[0].name, "rand-read");
  EXPECT_THAT(workload.jobs[0].options,
              ElementsAre(Pair("directory", "/mnt/efs"), Pair("rw", "randread"), Pair("size", "1m"),
                          Pair("numjobs", "1")));
  EXPECT_EQ(workload.jobs[1].name, "seq-read");
  EXPECT_THAT(workload.jobs[1].options,
              ElementsAre(Pair("directory", "/mnt/efs"), Pair("rw", "read"), Pair("size", "1g"),
                          Pair("numjobs", "1")));
  // No stonewall: both jobs run at once, in one reporting group.
  EXPECT_EQ(workload.jobs[0].group_id, 0);
  EXPECT_EQ(workload.jobs[1].group_id, 0);
  EXPECT_EQ(campaign->repeats, 3);
  EXPECT_EQ(campaign->keep, KeepPolicy::kLast);
  EXPECT_EQ(campaign->results_path, TestData("study-c.db"));
}

TEST(CampaignTest, FioJobKeepsIncludedGlobalsGroupsAndRenamedJobs) {
  // fio_job is relative to the campaign file: name one beside the fixtures.
  absl::StatusOr<Campaign> campaign =
      ParseCampaign(absl::StrReplaceAll(kMinimal, {{"options: {rw: randread, bs: 4k, "
                                                    "size: 1m}",
                                                    "fio_job: grouped.fio"}}),
                    TestData("inline.yaml"));
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  const std::vector<WorkloadJob>& jobs = campaign->workloads[0].jobs;
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_EQ(jobs[0].name, "write-first");
  EXPECT_THAT(jobs[0].options,
              ElementsAre(Pair("bs", "64k"), Pair("ioengine", "psync"), Pair("directory", "data"),
                          Pair("rw", "write"), Pair("size", "4m")));
  EXPECT_EQ(jobs[0].group_id, 0);
  EXPECT_EQ(jobs[1].name, "read-second");
  EXPECT_EQ(jobs[1].group_id, 1);
  EXPECT_THAT(jobs[1].options,
              ElementsAre(Pair("bs", "64k"), Pair("ioengine", "psync"), Pair("directory", "data"),
                          Pair("stonewall", ""), Pair("rw", "read"), Pair("size", "4m")));
}

TEST(CampaignTest, HostsFileIsReadRelativeToTheCampaignWithCommentsAndDefaultPort) {
  absl::StatusOr<Campaign> campaign =
      ParseCampaign(absl::StrReplaceAll(kMinimal, {{"local: {agents: 2}", "hosts_file: hosts.txt"},
                                                   {"path: scratch", "path: /mnt/scratch"}}),
                    TestData("inline.yaml"));
  ASSERT_TRUE(campaign.ok()) << campaign.status();
  EXPECT_EQ(campaign->fleet.kind, FleetSpec::Kind::kHosts);
  EXPECT_EQ(campaign->fleet.hosts_file, TestData("hosts.txt"));
  EXPECT_THAT(campaign->fleet.hosts,
              ElementsAre("10.0.1.5:7480", "10.0.2.7:7480", "[fd00::9]:7500"));
}

// --- Helpers shared with plan ------------------------------------------------------------------

TEST(CampaignTest, CellOptionsOverrideTheWorkloadAndAddTheTargetDirectory) {
  const WorkloadJob job{"j", {{"rw", "read"}, {"iodepth", "1"}, {"size", "1m"}}, 0};
  const CampaignTarget target{"t", "/mnt/t", TargetKind::kEfs, {}, "", {}};
  EXPECT_THAT(CellJobOptions(job, {{"iodepth", "16"}, {"nodes", "2"}}, target),
              ElementsAre(Pair("rw", "read"), Pair("size", "1m"), Pair("iodepth", "16"),
                          Pair("directory", "/mnt/t")));
}

TEST(CampaignTest, TargetReplacesAnAbsoluteDirectoryAndNestsARelativeOne) {
  const CampaignTarget target{"t", "/mnt/t", TargetKind::kEfs, {}, "", {}};
  const WorkloadJob absolute{"j", {{"directory", "/mnt/efs"}, {"size", "1m"}}, 0};
  EXPECT_THAT(CellJobOptions(absolute, {}, target),
              ElementsAre(Pair("size", "1m"), Pair("directory", "/mnt/t")));
  const WorkloadJob relative{"j", {{"directory", "sub/dir"}, {"size", "1m"}}, 0};
  EXPECT_THAT(CellJobOptions(relative, {}, target),
              ElementsAre(Pair("size", "1m"), Pair("directory", "/mnt/t/sub/dir")));
}

TEST(CampaignTest, ValidateJobOptionsAppliesKbBaseFirstAndNamesUnknownOptions) {
  EXPECT_TRUE(ValidateJobOptions({{"size", "1m"}, {"kb_base", "1000"}}, "j").ok());
  EXPECT_THAT(ValidateJobOptions({{"size", "1m"}, {"blocksz", "4k"}}, "j"),
              StatusIs(kInvalid, HasSubstr("unknown job option 'blocksz'")));
  // Without size a job takes its files' sizes where they exist, so only the agent can tell.
  EXPECT_TRUE(ValidateJobOptions({{"rw", "read"}}, "j").ok());
}

// A campaign's fio log files go beside the database: a prefix names files there, never a path.
TEST(CampaignTest, ValidateJobOptionsTakesFioLogPrefixesWithoutADirectory) {
  for (const char* option : {"write_bw_log", "write_lat_log", "write_iops_log", "write_hist_log"}) {
    EXPECT_TRUE(ValidateJobOptions({{"size", "1m"}, {option, "j"}}, "j").ok()) << option;
    EXPECT_TRUE(ValidateJobOptions({{"size", "1m"}, {option, ""}}, "j").ok()) << option;
    EXPECT_THAT(ValidateJobOptions({{"size", "1m"}, {option, "/tmp/j"}}, "j"),
                StatusIs(kInvalid, AllOf(HasSubstr(absl::StrCat(option, "=/tmp/j")),
                                         HasSubstr("cannot contain '/'"))))
        << option;
  }
}

TEST(CampaignPlacementTest, PlacementAxisIsAMatrixAxisThatChangesNoJobOption) {
  absl::StatusOr<Campaign> c = ParseMinimalPlus("matrix:\n  placement: [same-az, cross-az]\n");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->matrix.size(), 1u);
  EXPECT_EQ(c->matrix[0].key, "placement");
  EXPECT_THAT(c->matrix[0].values, ElementsAre("same-az", "cross-az"));
  const std::vector<MatrixCell> cells = MatrixCells(c->matrix);
  ASSERT_EQ(cells.size(), 2u);
  for (const auto& [key, value] :
       CellJobOptions(c->workloads[0].jobs[0], cells[1], c->targets[0])) {
    EXPECT_NE(key, "placement");
  }
}

TEST(CampaignPlacementTest, OnlySameAzAndCrossAzArePlacementValues) {
  EXPECT_THAT(
      ParseMinimalPlus("matrix:\n  placement: [same-az, unknown]\n"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:24: "), HasSubstr("matrix.placement"),
                               HasSubstr("allowed: same-az, cross-az"))));
}

TEST(CampaignPlacementTest, TopologySubnetsAreCanonicalCidrsWithAnAz) {
  absl::StatusOr<Campaign> c = ParseMinimalPlus(
      "topology:\n  subnets:\n    10.0.1.7/24: us-east-1a\n    \"fd00:1::/64\": use1-az2\n");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->topology_subnets.size(), 2u);
  EXPECT_EQ(c->topology_subnets[0].cidr, "10.0.1.0/24");
  EXPECT_EQ(c->topology_subnets[0].az, "us-east-1a");
  EXPECT_EQ(c->topology_subnets[0].location.line, 12);
  EXPECT_EQ(c->topology_subnets[1].cidr, "fd00:1::/64");
}

TEST(CampaignPlacementTest, BadTopologyIsRefusedWithItsPosition) {
  EXPECT_THAT(ParseMinimalPlus("topology:\n  subnets:\n    10.0.1.0/33: us-east-1a\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:12:5: "),
                                       HasSubstr("topology.subnets"), HasSubstr("0..32"))));
  EXPECT_THAT(ParseMinimalPlus("topology:\n  subnets:\n    10.0.1.0/24: a\n    10.0.1.1/24: b\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:13:5: "),
                                       HasSubstr("already given at test.yaml:12:5"))));
  EXPECT_THAT(ParseMinimalPlus("topology:\n  zones: {}\n"),
              StatusIs(kInvalid, AllOf(HasSubstr("unknown key 'zones'"), HasSubstr("subnets"))));
  EXPECT_THAT(ParseMinimalPlus("topology:\n  subnets: [10.0.1.0/24]\n"),
              StatusIs(kInvalid, HasSubstr("must be a map of CIDR -> AZ")));
}

TEST(CampaignNfsTargetTest, AnNfsUrlTargetGivesItsJobsTheUrlTheNfsEngineAndTheExportRoot) {
  absl::StatusOr<Campaign> c =
      ParseMinimalWith("path: scratch", "path: nfs://10.100.0.2/export?version=3");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_THAT(
      CellJobOptions(c->workloads[0].jobs[0], {}, c->targets[0]),
      ElementsAre(Pair("rw", "randread"), Pair("bs", "4k"), Pair("size", "1m"),
                  Pair("ioengine", "nfs"), Pair("nfs_url", "nfs://10.100.0.2/export?version=3"),
                  Pair("directory", "/")));
  const WorkloadJob sub{"j", {{"ioengine", "nfs"}, {"directory", "sub"}, {"size", "1m"}}, 0};
  EXPECT_THAT(
      CellJobOptions(sub, {}, c->targets[0]),
      ElementsAre(Pair("ioengine", "nfs"), Pair("size", "1m"),
                  Pair("nfs_url", "nfs://10.100.0.2/export?version=3"), Pair("directory", "/sub")));
}

TEST(CampaignNfsTargetTest, WhatCannotRunOnAnNfsUrlTargetIsRefusedWhenParsed) {
  const std::string nfs = "path: nfs://10.100.0.2/export";
  EXPECT_THAT(ParseMinimalWith("path: scratch", "path: nfs://10.100.0.2"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:6:11: "), HasSubstr("targets[0].path"),
                                       HasSubstr("export path is missing"))));
  EXPECT_THAT(
      ParseCampaign(absl::StrReplaceAll(kMinimal, {{"path: scratch", nfs},
                                                   {"size: 1m", "size: 1m, ioengine: libaio"}}),
                    "test.yaml"),
      StatusIs(kInvalid, AllOf(HasSubstr("workloads[0] 'randread'"),
                               HasSubstr("ioengine=libaio cannot reach target 'scratch'"))));
  EXPECT_THAT(ParseCampaign(absl::StrReplaceAll(
                                kMinimal, {{"path: scratch", nfs},
                                           {"size: 1m", "size: 1m, nfs_url: 'nfs://10.0.0.1/x'"}}),
                            "test.yaml"),
              StatusIs(kInvalid, HasSubstr("nfs_url is given by target 'scratch'")));
  EXPECT_THAT(ParseCampaign(absl::StrReplaceAll(kMinimal, {{"path: scratch", nfs},
                                                           {"size: 1m", "size: 1m, direct: 1"}}),
                            "test.yaml"),
              StatusIs(kInvalid, HasSubstr("direct")));
  // The other families run through libnfs as they are, by the same rules as the nfs engine.
  EXPECT_THAT(
      ParseCampaign(absl::StrReplaceAll(kMinimal, {{"path: scratch", nfs},
                                                   {"options: {rw: randread, bs: 4k, size: 1m}",
                                                    "workload: large_stream\n    options: {size: "
                                                    "1m, bs: 64k, direct: 1}"}}),
                    "test.yaml"),
      StatusIs(kInvalid, AllOf(HasSubstr("workloads[0]"), HasSubstr("direct=1 is not allowed"))));
  EXPECT_TRUE(
      ParseCampaign(absl::StrReplaceAll(kMinimal, {{"path: scratch", nfs + "?version=4"},
                                                   {"options: {rw: randread, bs: 4k, size: 1m}",
                                                    "workload: small_files\n    options: "
                                                    "{filesizes: 64k}"}}),
                    "test.yaml")
          .ok())
      << "NFSv4 writes of any size: the backend sends them in pieces";
  // Of the visibility probes, only client_to_client has no S3 side that needs a mount.
  EXPECT_THAT(
      ParseCampaign(absl::StrReplaceAll(kMinimal, {{"path: scratch", nfs},
                                                   {"options: {rw: randread, bs: 4k, size: 1m}",
                                                    "workload: visibility\n    options: {probe: "
                                                    "export, bucket: b}"}}),
                    "test.yaml"),
      StatusIs(kInvalid, AllOf(HasSubstr("probe export cannot run on target 'scratch'"),
                               HasSubstr("only probe client_to_client"))));
}

TEST(CampaignNfsTargetTest, AClientToClientProbeOnAnNfsUrlTargetGetsTheUrlAndNoEngine) {
  absl::StatusOr<Campaign> c = ParseCampaign(
      absl::StrReplaceAll(kMinimal, {{"path: scratch", "path: nfs://10.100.0.2/export?version=3"},
                                     {"options: {rw: randread, bs: 4k, size: 1m}",
                                      "workload: visibility\n    options: {probe: "
                                      "client_to_client, trials: 3, directory: vis}"}}),
      "test.yaml");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_THAT(
      CellJobOptions(c->workloads[0].jobs[0], {}, c->targets[0], "visibility"),
      ElementsAre(Pair("probe", "client_to_client"), Pair("trials", "3"),
                  Pair("nfs_url", "nfs://10.100.0.2/export?version=3"), Pair("directory", "/vis")));
}

TEST(CampaignNfsTargetTest, FileFamiliesOnAnNfsUrlTargetGetTheUrlAndTheirDirectoryBeneathIt) {
  // metadata's stride is allowed: every agent reaches the one export alike.
  absl::StatusOr<Campaign> c = ParseCampaign(
      absl::StrReplaceAll(kMinimal, {{"path: scratch", "path: nfs://10.100.0.2/export?version=3"},
                                     {"options: {rw: randread, bs: 4k, size: 1m}",
                                      "workload: metadata\n    options: {files: 10, stride: 1, "
                                      "directory: md}"}}),
      "test.yaml");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_THAT(
      CellJobOptions(c->workloads[0].jobs[0], {}, c->targets[0], "metadata"),
      ElementsAre(Pair("files", "10"), Pair("stride", "1"),
                  Pair("nfs_url", "nfs://10.100.0.2/export?version=3"), Pair("directory", "/md")));
  for (const char* family : {"small_files", "large_stream"}) {
    absl::StatusOr<Campaign> f = ParseCampaign(
        absl::StrReplaceAll(kMinimal,
                            {{"path: scratch", "path: nfs://10.100.0.2/export"},
                             {"options: {rw: randread, bs: 4k, size: 1m}",
                              absl::StrCat("workload: ", family, "\n    options: {bs: 4k}")}}),
        "test.yaml");
    ASSERT_TRUE(f.ok()) << family << ": " << f.status();
    EXPECT_THAT(CellJobOptions(f->workloads[0].jobs[0], {}, f->targets[0], family),
                ElementsAre(Pair("bs", "4k"), Pair("nfs_url", "nfs://10.100.0.2/export"),
                            Pair("directory", "/")))
        << family;
  }
}

TEST(CampaignExamplesTest, StudyACrossAzParses) {
  absl::StatusOr<Campaign> c = ParseCampaignFile(SourceRoot() + "/examples/study-a-cross-az.yaml");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->fleet.kind, FleetSpec::Kind::kHosts);
  ASSERT_EQ(c->targets.size(), 2u);
  EXPECT_EQ(TargetKindName(c->targets[0].kind), "fsx-openzfs");
  EXPECT_EQ(TargetKindName(c->targets[1].kind), "efs");
  bool has_placement = false, has_direct = false;
  for (const MatrixAxis& axis : c->matrix) {
    if (axis.key == "placement") {
      has_placement = true;
      EXPECT_THAT(axis.values, ElementsAre("same-az", "cross-az"));
    }
    if (axis.key == "direct") {
      has_direct = true;
      EXPECT_THAT(axis.values, ElementsAre("0", "1"));
    }
  }
  EXPECT_TRUE(has_placement);
  EXPECT_TRUE(has_direct);
}

TEST(CampaignExamplesTest, LabStudyAParsesWithEveryJobOnTheNfsEngine) {
  // The hosts file exists only while the lab is up: its three default agents stand in.
  std::ifstream in(SourceRoot() + "/examples/lab-study-a.yaml");
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::string hosts = "hosts_file: /var/tmp/azbench-lab/hosts";
  ASSERT_THAT(text, HasSubstr(hosts));
  absl::StatusOr<Campaign> c = ParseCampaign(
      absl::StrReplaceAll(
          text, {{hosts, "hosts: [10.100.0.10:7480, 10.101.0.10:7480, 10.102.0.10:7480]"}}),
      SourceRoot() + "/examples/lab-study-a.yaml");
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_EQ(c->targets.size(), 1u);
  EXPECT_EQ(c->targets[0].path,
            "nfs://10.100.0.2/var/tmp/azbench-lab/export?version=3&nfsport=2049&mountport=20048");
  ASSERT_EQ(c->matrix.size(), 1u);
  EXPECT_EQ(c->matrix[0].key, "placement");
  EXPECT_THAT(c->matrix[0].values, ElementsAre("same-az", "cross-az"));
  ASSERT_EQ(c->workloads.size(), 3u);
  for (const Workload& w : c->workloads) {
    const JobOptions options = CellJobOptions(w.jobs[0], {}, c->targets[0]);
    EXPECT_THAT(options, ::testing::Contains(Pair("ioengine", "nfs"))) << w.name;
    EXPECT_THAT(options, ::testing::Contains(Pair("iodepth", "1"))) << w.name;
  }
  EXPECT_EQ(c->fleet.security.ca_file, "/var/tmp/azbench-lab/tls/ca.crt");
}

}  // namespace
}  // namespace azbench
