// sharing=write-verify end to end on the local fleet: real agent processes in two AZs, the real
// `azbench` binary, a real results file and every report format. Agent 0 writes the files, the
// other agent verifies them; a block corrupted on disk between two runs is then found by both
// agents (verify_only=1), at its offset; with continue_on_error=verify both read on past it, and
// the errors they counted (total_err, first_error) reach the results file and every report.
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <fstream>

#include "absl/strings/str_cat.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/store/store.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using testing::Subprocess;
using testing::TempDir;

class WriteVerifyTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }

  // Runs one campaign in `sub` (its own results file); returns azbench's exit code.
  int Run(const std::string& sub, const std::vector<std::string>& hosts,
          const std::string& extra_options) {
    fs::create_directories(dir_.File(sub));
    const std::string campaign = dir_.File(sub + "/campaign.yaml");
    std::ofstream(campaign) << testing::CampaignHead("xverify", hosts)
                            << "targets:\n  - {name: shm, path: " << shm_.path()
                            << "}\nworkloads:\n  - name: wv\n    options: {rw: randwrite, bs: 4k, "
                               "size: 256k, verify: crc32c, sharing: write-verify"
                            << extra_options << "}\n";
    Subprocess azbench({AZBENCH_BIN, "run", campaign}, dir_.File(sub + "/out.txt"));
    const int rc = azbench.Wait(std::chrono::seconds(120));
    output_ = azbench.Output();
    return rc;
  }

  ScenarioResult Stored(const std::string& sub) {
    auto store = Store::OpenExisting(dir_.File(sub + "/results.db"));
    EXPECT_TRUE(store.ok()) << store.status();
    if (!store.ok()) return {};
    auto scenarios = (*store)->LoadScenarios();
    EXPECT_TRUE(scenarios.ok()) << scenarios.status();
    if (!scenarios.ok() || scenarios->size() != 1) return {};
    return std::move((*scenarios)[0]);
  }

  std::string Report(const std::string& sub, const std::string& format) {
    Subprocess report({AZBENCH_BIN, "report", dir_.File(sub + "/results.db"), "--format", format},
                      dir_.File(sub + "/report-" + format + ".txt"));
    EXPECT_EQ(report.Wait(std::chrono::seconds(60)), 0) << report.Output();
    return report.Output();
  }

  // The one file of the shared layout gets a byte changed past the header of its 11th block.
  void CorruptTheBlockAt40KiB() {
    std::vector<fs::path> files;
    for (const auto& e : fs::recursive_directory_iterator(shm_.path())) {
      if (e.is_regular_file()) files.push_back(e.path());
    }
    ASSERT_EQ(files.size(), 1u);
    const int fd = open(files[0].c_str(), O_WRONLY);
    ASSERT_GE(fd, 0);
    EXPECT_EQ(pwrite(fd, "X", 1, 40 * 1024 + 100), 1);
    close(fd);
  }

  static uint64_t Ops(const JobResult& r, OpKind kind) {
    const OpStats* stats = r.Find(kind);
    return stats == nullptr ? 0 : stats->ops;
  }

  TempDir dir_{testing::kDiskBase};
  TempDir shm_{testing::kTmpfsBase};
  std::string output_;
};

TEST_F(WriteVerifyTest, OneAgentWritesTheOtherVerifiesAndACorruptedBlockIsFoundByBoth) {
  std::unique_ptr<LocalFleet> fleet =
      testing::StartLoopbackAgents(2, dir_.File("agents"), {testing::kTmpfsBase});
  ASSERT_NE(fleet, nullptr);

  ASSERT_EQ(Run("clean", fleet->addresses(), ""), 0) << output_;
  const ScenarioResult clean = Stored("clean");
  EXPECT_EQ(clean.status, ScenarioStatus::kComplete) << clean.status_detail;
  ASSERT_EQ(clean.results.size(), 2u);
  ASSERT_EQ(clean.scenario.agent_ids.size(), 2u);
  for (const AgentJobResult& r : clean.results) {
    const bool writer = r.agent_id == clean.scenario.agent_ids[0];
    EXPECT_EQ(Ops(r.result, OpKind::kWrite), writer ? 64u : 0u) << r.agent_id;
    EXPECT_EQ(Ops(r.result, OpKind::kRead), writer ? 0u : 64u) << r.agent_id;
    EXPECT_EQ(r.result.verify_failures, 0u) << r.agent_id;
  }
  EXPECT_NE(output_.find("verifier"), std::string::npos) << output_;

  // The files are kept for a later verify_only run: one, in the shared layout.
  ASSERT_NO_FATAL_FAILURE(CorruptTheBlockAt40KiB());

  // Every agent verifies; the failed checks make the jobs fail (EILSEQ, as fio).
  EXPECT_NE(Run("corrupt", fleet->addresses(), ", verify_only: 1"), 0) << output_;
  const ScenarioResult corrupt = Stored("corrupt");
  ASSERT_EQ(corrupt.results.size(), 2u);
  for (const AgentJobResult& r : corrupt.results) {
    // Read back in offset order, stopping at the first bad block (the 11th), as fio's
    // continue_on_error=none.
    EXPECT_EQ(Ops(r.result, OpKind::kRead), 11u) << r.agent_id;
    EXPECT_EQ(r.result.verify_failures, 1u) << r.agent_id;
    EXPECT_EQ(r.result.verify_failure_offsets, std::vector<uint64_t>{40 * 1024}) << r.agent_id;
  }
  EXPECT_NE(output_.find("40960"), std::string::npos) << output_;
  const std::string md = Report("corrupt", "md");
  EXPECT_NE(md.find("## Verify"), std::string::npos) << md;
  EXPECT_NE(md.find("| verifier | 11 | 1 | 40960 |"), std::string::npos) << md;
  const std::string csv = Report("corrupt", "verify-csv");
  for (const std::string& agent : corrupt.scenario.agent_ids) {
    EXPECT_NE(csv.find(absl::StrCat(",wv,", agent, ",")), std::string::npos) << csv;
  }
  EXPECT_NE(csv.find(",verifier,11,1,40960,false\n"), std::string::npos) << csv;
  const std::string html = Report("corrupt", "html");
  EXPECT_NE(html.find("<section id=\"verify\">"), std::string::npos) << html;
  EXPECT_NE(html.find("<td>40960</td>"), std::string::npos) << html;
  const std::string json = Report("corrupt", "json");
  EXPECT_NE(json.find("\"mismatches\": 1"), std::string::npos) << json;
  EXPECT_NE(json.find("\"blocks_verified\": 11"), std::string::npos) << json;
}

// Both agents count the bad block and read on (fio: total_err 1, first_error 84 each):
// the scenario's total_err is their sum, its first_error theirs, in every report format.
TEST_F(WriteVerifyTest, ErrorsLetPassByContinueOnErrorAreStoredAndReportedSummedOverAgents) {
  std::unique_ptr<LocalFleet> fleet =
      testing::StartLoopbackAgents(2, dir_.File("agents"), {testing::kTmpfsBase});
  ASSERT_NE(fleet, nullptr);
  ASSERT_EQ(Run("write", fleet->addresses(), ""), 0) << output_;
  ASSERT_NO_FATAL_FAILURE(CorruptTheBlockAt40KiB());

  EXPECT_EQ(Run("ignored", fleet->addresses(), ", verify_only: 1, continue_on_error: verify"), 0)
      << output_;
  const ScenarioResult stored = Stored("ignored");
  EXPECT_EQ(stored.status, ScenarioStatus::kComplete) << stored.status_detail;
  ASSERT_EQ(stored.results.size(), 2u);
  for (const AgentJobResult& r : stored.results) {
    EXPECT_EQ(Ops(r.result, OpKind::kRead), 64u) << r.agent_id;
    EXPECT_EQ(r.result.error_errno, 0) << r.agent_id;
    EXPECT_TRUE(r.result.continue_on_error) << r.agent_id;
    EXPECT_EQ(r.result.total_err_count, 1u) << r.agent_id;
    EXPECT_EQ(r.result.first_error, EILSEQ) << r.agent_id;
  }

  const std::string note = "errors (shm): total_err=2, first_error=84 ";
  EXPECT_NE(Report("ignored", "terminal").find(note), std::string::npos);
  EXPECT_NE(Report("ignored", "md").find(note), std::string::npos);
  EXPECT_NE(Report("ignored", "html").find(note), std::string::npos);
  const std::string csv = Report("ignored", "csv");
  EXPECT_NE(csv.find(",warnings,total_err,first_error\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",2,84\n"), std::string::npos) << csv;
  const nlohmann::json json = nlohmann::json::parse(Report("ignored", "json"), nullptr, false);
  ASSERT_FALSE(json.is_discarded());
  EXPECT_EQ(json["scenarios"][0].value("total_err", -1), 2);
  EXPECT_EQ(json["scenarios"][0].value("first_error", -1), EILSEQ);
  const nlohmann::json fio = nlohmann::json::parse(Report("ignored", "fio-json"), nullptr, false);
  ASSERT_FALSE(fio.is_discarded());
  ASSERT_EQ(fio["jobs"].size(), 1u);
  EXPECT_EQ(fio["jobs"][0].value("total_err", -1), 2);
  EXPECT_EQ(fio["jobs"][0].value("first_error", -1), EILSEQ);
  EXPECT_EQ(fio["jobs"][0].value("error", -1), EILSEQ) << "fio's error: the first one let pass";
  ASSERT_EQ(fio["client_stats"].size(), 3u);  // two agents, "All clients"
  EXPECT_EQ(fio["client_stats"][0].value("total_err", -1), 1);
}

}  // namespace
}  // namespace azbench
