// Campaign files (coordinator/campaign/campaign.h) that are refused: each error names
// file:line:column, the field and what is allowed. Campaigns that parse: campaign_test.cc.
#include <string>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_replace.h"
#include "coordinator/campaign/campaign.h"
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
using ::azbench::testing::StatusIs;
using ::azbench::testing::TestData;
using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

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

// Names become parts of file names: one too long for them, or '.' / '..', is refused where it is
// written (a 5000-character campaign name failed only when its default <name>.db was opened).
TEST(CampaignErrorTest, ANameTooLongOrDotsIsRefusedWhereItIsWritten) {
  const std::string long_name(101, 'w');
  EXPECT_THAT(ParseMinimalWith("  - name: randread", "  - name: " + long_name),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:11: "), HasSubstr("workloads[0]"),
                                       HasSubstr("(101 characters)"), HasSubstr("1 to 100"),
                                       ::testing::Not(HasSubstr(long_name)))));
  EXPECT_TRUE(ParseMinimalWith("  - name: randread", "  - name: " + long_name.substr(1)).ok())
      << "100 characters are allowed";
  EXPECT_THAT(ParseMinimalWith("name: mini", "name: a b"),
              StatusIs(kInvalid, StartsWith("test.yaml:1:7: ")));
  EXPECT_THAT(
      ParseMinimalWith("name: mini", "name: " + std::string(5000, 'c')),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:1:7: "), HasSubstr("(5000 characters)"))));
  EXPECT_THAT(
      ParseMinimalWith("name: mini", "name: '..'"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:1:7: "), HasSubstr("not '.' or '..'"))));
  EXPECT_THAT(ParseMinimalWith("  - name: scratch", "  - name: ."),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:5:11: "), HasSubstr("targets[0]"))));
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

TEST(CampaignErrorTest, AHostListedTwiceInTheHostsFileNamesBothFilesLines) {
  const std::string text =
      absl::StrReplaceAll(kMinimal, {{"local: {agents: 2}", "hosts_file: hosts-twice.txt"}});
  EXPECT_THAT(ParseCampaign(text, TestData("inline.yaml")),
              StatusIs(kInvalid, AllOf(HasSubstr("inline.yaml:3:15: fleet.hosts_file: "),
                                       HasSubstr("hosts-twice.txt:3: host '10.0.1.5:7480' is "
                                                 "listed twice (also on line 2)"))));
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
  EXPECT_THAT(
      ParseMinimalWith("bs: 4k", "ioengine: libaoi"),
      StatusIs(kInvalid,
               AllOf(StartsWith("test.yaml:9:"), HasSubstr("workloads[0].options.ioengine"),
                     HasSubstr("unknown I/O engine \"libaoi\""),
                     HasSubstr(
                         "allowed: psync, sync, vsync, pvsync, pvsync2, posixaio, mmap, libaio"))));
}

TEST(CampaignErrorTest, JobNameOptionIsRefused) {
  EXPECT_THAT(ParseMinimalWith("bs: 4k", "name: x"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:9:29: "),
                                       HasSubstr("named after the workload"))));
}

TEST(CampaignErrorTest, WholeJobChecksNameTheWorkloadAndTheMatrixCell) {
  EXPECT_THAT(ParseMinimalWith(", size: 1m", ", size: 1m, time_based: 1"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:5: "),
                                       HasSubstr("workloads[0] 'randread': time_based requires "
                                                 "runtime"))));
  // Without size, the agent takes the size of the existing files when it prepares the job.
  EXPECT_TRUE(ParseMinimalWith(", size: 1m", "").ok());
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

// kMinimal on remote hosts with target 'fsx' at /mnt/fsx/azbench, and `extra` options added to
// the workload's.
absl::StatusOr<Campaign> ParseOnFsxWith(const std::string& extra_options,
                                        const std::string& plus = "") {
  return ParseCampaign(
      absl::StrReplaceAll(kMinimal, {{"local: {agents: 2}", "hosts: [10.0.0.1]"},
                                     {"name: scratch", "name: fsx"},
                                     {"path: scratch", "path: /mnt/fsx/azbench"},
                                     {"size: 1m}", "size: 1m" + extra_options + "}"}}) +
          plus,
      "test.yaml");
}

TEST(CampaignErrorTest, AbsoluteFilenameOutsideTheTargetIsRefused) {
  EXPECT_THAT(
      ParseOnFsxWith(", filename: /etc/passwd"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:5: "), HasSubstr("workloads[0] 'randread'"),
                               HasSubstr("filename '/etc/passwd' is outside target 'fsx' "
                                         "(path /mnt/fsx/azbench)"),
                               HasSubstr("write a name relative to the target (e.g. "
                                         "'passwd'"))));
  // Any entry of fio's ':'-separated list, also one that only looks inside ("..", a prefix).
  EXPECT_THAT(ParseOnFsxWith(", filename: 'a:/mnt/fsx/azbench/../other/b'"),
              StatusIs(kInvalid, HasSubstr("filename '/mnt/fsx/azbench/../other/b' is outside")));
  EXPECT_THAT(ParseOnFsxWith(", filename: /mnt/fsx/azbench2/f"),
              StatusIs(kInvalid, HasSubstr("filename '/mnt/fsx/azbench2/f' is outside")));
  // Relative names must not climb out either, nor may a relative directory.
  EXPECT_THAT(ParseOnFsxWith(", filename: ../../etc/passwd"),
              StatusIs(kInvalid, HasSubstr("filename '../../etc/passwd' is outside")));
  EXPECT_THAT(ParseOnFsxWith(", directory: sub/../../x"),
              StatusIs(kInvalid, HasSubstr("directory '/mnt/fsx/azbench/sub/../../x' is outside")));
  // Keys and values as the agent reads them: surrounding blanks are stripped there.
  EXPECT_THAT(ParseOnFsxWith(", ' filename ': ' /etc/passwd'"),
              StatusIs(kInvalid, HasSubstr("filename '/etc/passwd' is outside")));
  EXPECT_THAT(
      ParseCampaign(absl::StrReplaceAll(
                        kMinimal, {{"options: {rw: randread, bs: 4k, size: 1m}",
                                    "workload: large_stream\n    options: {filename: ' /etc/x'}"}}),
                    "test.yaml"),
      StatusIs(kInvalid, HasSubstr("filename '/etc/x' is outside target 'scratch'")));
  // A matrix axis over filename is checked per value.
  EXPECT_THAT(ParseOnFsxWith("", "matrix:\n  filename: [a, /etc/shadow]\n"),
              StatusIs(kInvalid, AllOf(HasSubstr("with filename=/etc/shadow"),
                                       HasSubstr("filename '/etc/shadow' is outside"))));
  // large_stream's filename too.
  EXPECT_THAT(
      ParseCampaign(absl::StrReplaceAll(
                        kMinimal, {{"options: {rw: randread, bs: 4k, size: 1m}",
                                    "workload: large_stream\n    options: {filename: /etc/x}"}}),
                    "test.yaml"),
      StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:5: "),
                               HasSubstr("filename '/etc/x' is outside target 'scratch'"))));
}

TEST(CampaignErrorTest, FilenamesBeneathTheTargetAreKept) {
  absl::StatusOr<Campaign> c =
      ParseOnFsxWith(", filename: '/mnt/fsx/azbench/a:b/c:/mnt/fsx/azbench/./d/../e'");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_TRUE(ParseOnFsxWith(", directory: /elsewhere, filename: /mnt/fsx/azbench/f").ok());
}

TEST(CampaignErrorTest, AbsoluteFilenameCannotBeInsideARelativeTarget) {
  // kMinimal's target 'scratch' is relative: inside each local agent's own work directory.
  EXPECT_THAT(ParseMinimalWith("size: 1m}", "size: 1m, filename: /tmp/scratch/f}"),
              StatusIs(kInvalid, AllOf(StartsWith("test.yaml:8:5: "),
                                       HasSubstr("filename '/tmp/scratch/f' is outside target "
                                                 "'scratch' (path scratch), a directory inside "
                                                 "each agent's own work directory"))));
  EXPECT_TRUE(ParseMinimalWith("size: 1m}", "size: 1m, filename: f}").ok());
}

// "[1, 2, ..., n]"
std::string Counts(int n) {
  std::string list = "[";
  for (int i = 1; i <= n; ++i) absl::StrAppend(&list, i == 1 ? "" : ", ", i);
  return list + "]";
}

TEST(CampaignErrorTest, MatrixAboveTheScenarioCapIsRefusedBeforeExpanding) {
  // 1000 x 1000 cells: refused at once, naming the axes, their sizes and the product.
  EXPECT_THAT(
      ParseMinimalPlus("matrix:\n  iodepth: " + Counts(1000) + "\n  nodes: " + Counts(1000) + "\n"),
      StatusIs(kInvalid,
               AllOf(StartsWith("test.yaml:11:3: matrix: the campaign expands to 1000000 "
                                "scenarios; at most 10000 are allowed"),
                     HasSubstr("workloads[0] 'randread': 1 targets x 1 runs per cell (repeats 1) "
                               "x iodepth (1000 values) x nodes (1000 values) = 1000000"))));
  // Repeats, warmup and targets multiply too: 2 targets x (50 + 1) x 100 = 10200.
  EXPECT_THAT(
      ParseCampaign(absl::StrReplaceAll(kMinimal, {{"    path: scratch\n",
                                                    "    path: scratch\n  - name: second\n"
                                                    "    path: second\n"}}) +
                        "repeats: 50\nwarmup: 1s\nmatrix:\n  iodepth: " + Counts(100) + "\n",
                    "test.yaml"),
      StatusIs(kInvalid, AllOf(HasSubstr("expands to 10200 scenarios"),
                               HasSubstr("2 targets x 51 runs per cell (repeats 50 + "
                                         "warmup) x iodepth (100 values) = 10200"))));
  // 10 x 100^11 = 10^23 overflows 64 bits: counted without wrapping.
  std::string huge = "matrix:\n  nodes: " + Counts(10) + "\n";
  for (const char* axis : {"iodepth", "numjobs", "nrfiles", "randseed", "offset", "io_size",
                           "runtime", "ramp_time", "rate_iops", "op_log_rate", "nodes_per_az"}) {
    absl::StrAppend(&huge, "  ", axis, ": ", Counts(100), "\n");
  }
  EXPECT_THAT(ParseMinimalPlus(huge),
              StatusIs(kInvalid, HasSubstr("expands to more than 2^64 scenarios")));
  // Exactly at the cap is allowed.
  EXPECT_TRUE(
      ParseMinimalPlus("matrix:\n  iodepth: " + Counts(100) + "\n  nodes: " + Counts(100) + "\n")
          .ok());
}

TEST(CampaignErrorTest, UnreadableCampaignFileKeepsTheErrnoCode) {
  EXPECT_THAT(ParseCampaignFile(TestData("no-such-campaign.yaml")),
              StatusIs(absl::StatusCode::kNotFound, HasSubstr("no-such-campaign.yaml")));
}

}  // namespace
}  // namespace azbench
