#include "coordinator/campaign.h"

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/str_replace.h"
#include "absl/time/time.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Pair;
using ::testing::StartsWith;

const absl::Status& GetStatus(const absl::Status& status) { return status; }
template <typename T>
const absl::Status& GetStatus(const absl::StatusOr<T>& status_or) {
  return status_or.status();
}

// Matches an absl::Status (or the status of a StatusOr) by code and message.
MATCHER_P2(StatusIs, code, message_matcher, "") {
  const absl::Status& status = GetStatus(arg);
  *result_listener << "status is " << status;
  return status.code() == code &&
         ::testing::ExplainMatchResult(message_matcher, std::string(status.message()),
                                       result_listener);
}

// The source tree, found from this file's path (CMake compiles it by absolute path).
std::string SourceRoot() {
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().string();
}
std::string TestData(const std::string& name) {
  return SourceRoot() + "/tests/coordinator/testdata/" + name;
}

// A valid campaign; tests replace one part of it. Lines are numbered for the error positions.
constexpr char kMinimal[] = R"(name: mini
fleet:
  local: {agents: 2}
targets:
  - name: scratch
    path: scratch
workloads:
  - name: randread
    options: {rw: randread, bs: 4k, size: 1m}
)";

absl::StatusOr<Campaign> ParseMinimalWith(const std::string& from, const std::string& to) {
  const std::string text = absl::StrReplaceAll(kMinimal, {{from, to}});
  EXPECT_NE(text, kMinimal) << "the replacement did not apply: " << from;
  return ParseCampaign(text, "test.yaml");
}

absl::StatusOr<Campaign> ParseMinimalPlus(const std::string& extra) {
  return ParseCampaign(std::string(kMinimal) + extra, "test.yaml");
}

const absl::StatusCode kInvalid = absl::StatusCode::kInvalidArgument;

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
  EXPECT_THAT(ValidateJobOptions({{"rw", "read"}}, "j"), StatusIs(kInvalid, HasSubstr("size")));
}

// --- Errors: each names file:line:column, the field and what is allowed -----------------------

TEST(CampaignErrorTest, YamlSyntaxErrorNamesLineAndColumn) {
  EXPECT_THAT(ParseCampaign("name: x\ntargets: [a, b\n", "test.yaml"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:1: "), HasSubstr("YAML syntax"))));
  EXPECT_THAT(ParseCampaign("name: x\n  bad: indent\n", "test.yaml"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:2:6: "), HasSubstr("YAML syntax"))));
}

TEST(CampaignErrorTest, EmptyFileAndNonMapAreRefused) {
  EXPECT_THAT(ParseCampaign("", "test.yaml"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:1:1: "), HasSubstr("empty"))));
  EXPECT_THAT(ParseCampaign("- a\n- b\n", "test.yaml"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:1:1: "), HasSubstr("a list"),
                                       HasSubstr("name, fleet, targets, workloads"))));
}

TEST(CampaignErrorTest, UnknownTopLevelKeyListsTheAllowedKeys) {
  EXPECT_THAT(
      ParseMinimalPlus("worklods: []\n"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:10:1: "), HasSubstr("unknown key 'worklods'"),
                               HasSubstr("allowed: name, fleet, targets, workloads, "
                                         "matrix, repeats, keep, warmup, cooldown, "
                                         "results"))));
}

TEST(CampaignErrorTest, UnknownNestedKeyNamesTheField) {
  EXPECT_THAT(ParseMinimalWith("    path: scratch", "    paht: scratch"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:6:5: "), HasSubstr("targets[0]"),
                                       HasSubstr("unknown key 'paht'"),
                                       HasSubstr("allowed: name, path, kind, labels, "
                                                 "server_az"))));
}

TEST(CampaignErrorTest, RepeatedKeyIsRefused) {
  EXPECT_THAT(ParseMinimalPlus("repeats: 2\nrepeats: 3\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:1: "),
                                       HasSubstr("key 'repeats' is given twice"))));
}

TEST(CampaignErrorTest, MissingRequiredKeyIsNamed) {
  EXPECT_THAT(ParseCampaign("name: x\nfleet: {local: {agents: 1}}\nworkloads: []\n", "test.yaml"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:1:1: "),
                                       HasSubstr("missing required key 'targets'"))));
  EXPECT_THAT(ParseMinimalWith("    path: scratch\n", ""),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:5:5: "), HasSubstr("targets[0]"),
                                       HasSubstr("missing required key 'path'"))));
}

TEST(CampaignErrorTest, BadNameSaysWhichCharactersAreAllowed) {
  EXPECT_THAT(ParseMinimalWith("name: mini", "name: my campaign"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:1:7: "), HasSubstr("name:"),
                                       HasSubstr("letters, digits, '.', '_' and '-'"))));
}

TEST(CampaignErrorTest, WrongTypesSayWhatWasExpected) {
  EXPECT_THAT(ParseMinimalWith("targets:\n  - name: scratch\n    path: scratch\n",
                               "targets: {name: scratch}\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:4:10: "), HasSubstr("targets:"),
                                       HasSubstr("must be a list"), HasSubstr("got a map"))));
  EXPECT_THAT(
      ParseMinimalWith("options: {rw: randread, bs: 4k, size: 1m}", "options: [rw]"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:9:14: "), HasSubstr("workloads[0].options"),
                               HasSubstr("must be a map of fio options"))));
  EXPECT_THAT(
      ParseMinimalWith("bs: 4k", "bs: [4k, 8k]"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:9:33: "), HasSubstr("workloads[0].options.bs"),
                               HasSubstr("got a list"))));
}

TEST(CampaignErrorTest, EmptyListsAreRefused) {
  EXPECT_THAT(ParseMinimalWith("targets:\n  - name: scratch\n    path: scratch\n", "targets: []\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:4:10: "), HasSubstr("targets:"),
                                       HasSubstr("must not be empty"))));
  EXPECT_THAT(ParseMinimalWith("workloads:\n  - name: randread\n    options: {rw: randread, bs: "
                               "4k, size: 1m}\n",
                               "workloads: []\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:7:12: "), HasSubstr("workloads:"),
                                       HasSubstr("must not be empty"))));
}

TEST(CampaignErrorTest, EmptyMatrixAxisIsRefused) {
  EXPECT_THAT(ParseMinimalPlus("matrix:\n  iodepth: []\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:12: "), HasSubstr("matrix.iodepth"),
                                       HasSubstr("must not be empty"), HasSubstr("[1, 16]"))));
  EXPECT_THAT(
      ParseMinimalPlus("matrix:\n  iodepth: 16\n"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:12: "), HasSubstr("must be a list"))));
}

TEST(CampaignErrorTest, DuplicateTargetAndWorkloadNamesAreRefused) {
  EXPECT_THAT(ParseMinimalWith("    path: scratch\n",
                               "    path: scratch\n  - name: scratch\n    path: other\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:7:11: "), HasSubstr("targets[1].name"),
                                       HasSubstr("'scratch' is already used by test.yaml:5:5"))));
  EXPECT_THAT(
      ParseMinimalPlus("  - name: randread\n    options: {size: 1m}\n"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:10:11: "), HasSubstr("workloads[1].name"),
                               HasSubstr("'randread' is already used by"))));
}

TEST(CampaignErrorTest, FleetNeedsExactlyOneKind) {
  EXPECT_THAT(
      ParseMinimalWith("  local: {agents: 2}", "  local: {agents: 2}\n  hosts: [a]"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:3: "), HasSubstr("fleet:"),
                               HasSubstr("exactly one of local, hosts, hosts_file; got several"))));
  EXPECT_THAT(ParseMinimalWith("fleet:\n  local: {agents: 2}", "fleet: {}"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:2:8: "),
                                       HasSubstr("exactly one of local, hosts, hosts_file; got "
                                                 "none"))));
}

TEST(CampaignErrorTest, LocalFleetNeedsAtLeastOneAgent) {
  EXPECT_THAT(ParseMinimalWith("agents: 2", "agents: 0"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:19: "),
                                       HasSubstr("fleet.local.agents"), HasSubstr("at least 1"))));
  // What plan accepts, run can start: no more agents than the local fleet launches.
  EXPECT_THAT(ParseMinimalWith("agents: 2", "agents: 257"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:19: "),
                                       HasSubstr("fleet.local.agents"), HasSubstr("1 to 256"))));
  EXPECT_TRUE(ParseMinimalWith("agents: 2", "agents: 256").ok());
  EXPECT_THAT(ParseMinimalWith("{agents: 2}", "{azs: [a]}"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:10: "), HasSubstr("fleet.local"),
                                       HasSubstr("missing required key 'agents'"))));
  EXPECT_THAT(
      ParseMinimalWith("{agents: 2}", "{agents: 2, azs: [a, a]}"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:31: "), HasSubstr("'a' is listed twice"))));
}

TEST(CampaignErrorTest, BadHostsAreRefused) {
  EXPECT_THAT(ParseMinimalWith("local: {agents: 2}", "hosts: [10.0.0.1:99999]"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:11: "), HasSubstr("fleet.hosts"),
                                       HasSubstr("port must be a number from 1 to 65535"))));
  EXPECT_THAT(ParseMinimalWith("local: {agents: 2}", "hosts: [a, a:7480]"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:14: "),
                                       HasSubstr("host 'a:7480' is listed twice"))));
  EXPECT_THAT(ParseMinimalWith("local: {agents: 2}", "hosts: []"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:3:10: "), HasSubstr("fleet.hosts"),
                                       HasSubstr("must not be empty"))));
}

TEST(CampaignErrorTest, HostsFileErrorsNameTheHostsFileLineAndTheCampaignField) {
  const std::string text = absl::StrReplaceAll(
      kMinimal,
      {{"local: {agents: 2}", "hosts_file: hosts-bad.txt"}, {"path: scratch", "path: /x"}});
  EXPECT_THAT(ParseCampaign(text, TestData("inline.yaml")),
              StatusIs(kInvalid,
                       AllOf(HasSubstr("inline.yaml:3:15: fleet.hosts_file: "),
                             HasSubstr("hosts-bad.txt:2: "), HasSubstr("port must be a number"))));
  const std::string missing =
      absl::StrReplaceAll(kMinimal, {{"local: {agents: 2}", "hosts_file: nowhere.txt"}});
  EXPECT_THAT(
      ParseCampaign(missing, TestData("inline.yaml")),
      StatusIs(absl::StatusCode::kNotFound,
               AllOf(HasSubstr("inline.yaml:3:15: fleet.hosts_file: "), HasSubstr("nowhere.txt"))));
}

TEST(CampaignErrorTest, UnknownTargetKindListsTheKinds) {
  EXPECT_THAT(ParseMinimalWith("    path: scratch", "    path: scratch\n    kind: nfs"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:7:11: "), HasSubstr("targets[0].kind"),
                                       HasSubstr("'nfs' is not allowed; allowed: efs, "
                                                 "fsx-openzfs, fsx-lustre, s3files, local, "
                                                 "other"))));
}

TEST(CampaignErrorTest, RelativeTargetPathNeedsTheLocalFleet) {
  EXPECT_THAT(ParseMinimalWith("local: {agents: 2}", "hosts: [a]"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:6:11: "), HasSubstr("targets[0].path"),
                                       HasSubstr("must be an absolute path"))));
  EXPECT_THAT(ParseMinimalWith("path: scratch", "path: ../escape"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:6:11: "), HasSubstr("no '..'"))));
}

TEST(CampaignErrorTest, UnknownKeepListsTheChoices) {
  EXPECT_THAT(ParseMinimalPlus("keep: best\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:10:7: "), HasSubstr("keep:"),
                                       HasSubstr("allowed: all, last, median"))));
}

TEST(CampaignErrorTest, BadRepeatsAndDurationsAreRefused) {
  EXPECT_THAT(ParseMinimalPlus("repeats: 0\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:10:10: "), HasSubstr("repeats:"),
                                       HasSubstr("from 1 to 1000"))));
  EXPECT_THAT(ParseMinimalPlus("warmup: soon\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:10:9: "), HasSubstr("warmup:"))));
  EXPECT_THAT(ParseMinimalPlus("warmup: 10us\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:10:9: "), HasSubstr("at least 1ms"))));
  EXPECT_THAT(ParseMinimalPlus("cooldown: -1s\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:10:11: "), HasSubstr("cooldown:"))));
}

TEST(CampaignErrorTest, BadUnitPointsAtTheValue) {
  EXPECT_THAT(
      ParseMinimalWith("bs: 4k", "bs: 4x"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:9:33: "), HasSubstr("workloads[0].options.bs"),
                               HasSubstr("option 'bs'"), HasSubstr("'4x'"))));
}

TEST(CampaignErrorTest, UnknownJobOptionPointsAtTheKey) {
  EXPECT_THAT(
      ParseMinimalWith("bs: 4k", "blocksz: 4k"),
      StatusIs(kInvalid,
               AllOf(StartsWith("test.yaml:9:29: "), HasSubstr("workloads[0].options"),
                     HasSubstr("unknown job option 'blocksz'"), HasSubstr("supported: name, "))));
}

TEST(CampaignErrorTest, MisspeltEngineIsRefusedAtPlanTimeNamingTheAllowedOnes) {
  EXPECT_THAT(ParseMinimalWith("bs: 4k", "ioengine: posixaio"),
              StatusIs(kInvalid,
                       AllOf(StartsWith("test.yaml:9:"), HasSubstr("workloads[0].options.ioengine"),
                             HasSubstr("unknown I/O engine \"posixaio\""),
                             HasSubstr("allowed: psync, sync, libaio, io_uring, null"))));
}

TEST(CampaignErrorTest, JobNameOptionIsRefused) {
  EXPECT_THAT(ParseMinimalWith("bs: 4k", "name: x"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:9:29: "),
                                       HasSubstr("named after the workload"))));
}

TEST(CampaignErrorTest, WholeJobChecksNameTheWorkloadAndTheMatrixCell) {
  EXPECT_THAT(ParseMinimalWith(", size: 1m", ""),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:5: "),
                                       HasSubstr("workloads[0] 'randread': size must be given"))));
  EXPECT_THAT(ParseMinimalPlus("matrix:\n  bs: [4k, 2m]\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:5: "),
                                       HasSubstr("'randread' with bs=2m: bs (2MiB) must not "
                                                 "exceed size"))));
}

TEST(CampaignErrorTest, WorkloadNeedsOptionsOrFioJobButNotBoth) {
  EXPECT_THAT(ParseMinimalWith("size: 1m}", "size: 1m}\n    fio_job: x.fio"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:5: "), HasSubstr("workloads[0]"),
                                       HasSubstr("exactly one of options"))));
  EXPECT_THAT(ParseMinimalWith("    options: {rw: randread, bs: 4k, size: 1m}\n", ""),
              StatusIs(kInvalid,
                       AllOf(StartsWith("test.yaml:8:5: "), HasSubstr("exactly one of options"))));
}

TEST(CampaignErrorTest, FioJobErrorsNameTheCampaignFieldAndTheJobFileLine) {
  const std::string bad = absl::StrReplaceAll(
      kMinimal, {{"options: {rw: randread, bs: 4k, size: 1m}", "fio_job: bad-option.fio"}});
  EXPECT_THAT(ParseCampaign(bad, TestData("inline.yaml")),
              StatusIs(kInvalid, AllOf(HasSubstr("inline.yaml:9:14: workloads[0].fio_job: "),
                                       HasSubstr("bad-option.fio:6: "),
                                       HasSubstr("unknown job option 'blocksz'"))));
  const std::string missing = absl::StrReplaceAll(
      kMinimal, {{"options: {rw: randread, bs: 4k, size: 1m}", "fio_job: nowhere.fio"}});
  EXPECT_THAT(ParseCampaign(missing, TestData("inline.yaml")),
              StatusIs(absl::StatusCode::kNotFound,
                       AllOf(HasSubstr("inline.yaml:9:14: workloads[0].fio_job: "),
                             HasSubstr("nowhere.fio"))));
}

TEST(CampaignErrorTest, UnknownMatrixAxisIsRefused) {
  EXPECT_THAT(ParseMinimalPlus("matrix:\n  clients: [1, 2]\n"),
              StatusIs(kInvalid,
                       AllOf(StartsWith("test.yaml:11:3: "), HasSubstr("matrix:"),
                             HasSubstr("unknown axis 'clients'"),
                             HasSubstr("allowed: nodes, nodes_per_az, placement, a job option"))));
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

TEST(CampaignErrorTest, DirectoryAndNameAreNotMatrixAxes) {
  EXPECT_THAT(ParseMinimalPlus("matrix:\n  directory: [/a, /b]\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:3: "), HasSubstr("targets"))));
}

TEST(CampaignErrorTest, BadMatrixValuesPointAtTheValue) {
  EXPECT_THAT(ParseMinimalPlus("matrix:\n  nodes: [1, 0]\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:14: "), HasSubstr("matrix.nodes"),
                                       HasSubstr("allowed: a count >= 1 or all"))));
  EXPECT_THAT(ParseMinimalPlus("matrix:\n  iodepth: [1, deep]\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:16: "), HasSubstr("matrix.iodepth"),
                                       HasSubstr("option 'iodepth'"))));
  EXPECT_THAT(ParseMinimalPlus("matrix:\n  iodepth: [1, 16, 1]\n"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:11:20: "),
                                       HasSubstr("value '1' is listed twice"))));
}

TEST(CampaignErrorTest, UnreadableCampaignFileKeepsTheErrnoCode) {
  EXPECT_THAT(ParseCampaignFile(TestData("no-such-campaign.yaml")),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no-such-campaign.yaml")));
}

}  // namespace
}  // namespace azbench
