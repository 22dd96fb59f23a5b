// Integration-test fixture of the visibility probes (tests/integration/visibility_c2c_test.cc and
// visibility_s3_test.cc only: CMake defines AZBENCH_BIN there): loopback agents on a shared tmpfs
// directory (the target `shm`), a campaign run through the real `azbench` binary with its stored
// scenarios, the HTML report's visibility section, and what a probe left on the mount.
//
//   TEST_F(VisibilityCampaignRunTest, ...) {
//     StartAgents(2);
//     std::vector<ScenarioResult> scenarios = Run("workloads:\n  - name: c2c\n ...");
//     EXPECT_EQ(RegularFiles(shm_.path()), std::vector<std::string>{});
//   }
#ifndef AZBENCH_TESTS_TESTING_VISIBILITY_CAMPAIGN_FIXTURE_H_
#define AZBENCH_TESTS_TESTING_VISIBILITY_CAMPAIGN_FIXTURE_H_

#ifndef AZBENCH_BIN
#error "visibility_campaign_fixture.h is for tests/integration, whose targets define AZBENCH_BIN"
#endif

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "common/job_result.h"
#include "coordinator/fleet/local_fleet.h"
#include "coordinator/scenario.h"
#include "gtest/gtest.h"
#include "tests/testing/integration_fleet.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench::testing {

// Regular files under `dir` (directories made by the synchroniser fixture do not count).
inline std::vector<std::string> RegularFiles(const std::string& dir) {
  std::vector<std::string> files;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    if (it->is_regular_file(ec)) files.push_back(it->path().string());
  }
  return files;
}

inline bool HasWarning(const JobResult& r, const std::string& text) {
  for (const std::string& w : r.warnings) {
    if (w.find(text) != std::string::npos) return true;
  }
  return false;
}

// Loopback agents (StartAgents) whose campaign's target `shm` is the tmpfs directory shm_; empty_
// is a tmpfs directory nothing writes to; dir_ holds the agents' work, the campaign, results.db and
// the reports.
class VisibilityCampaignRunTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    ASSERT_TRUE(shm_.ok());
    ASSERT_TRUE(empty_.ok());
  }

  void StartAgents(int n, std::vector<std::vector<std::string>> agent_env = {}) {
    fleet_ = StartLoopbackAgents(n, dir_.File("agents"), {kDiskBase, kTmpfsBase}, {"az-a", "az-b"},
                                 std::move(agent_env));
    ASSERT_NE(fleet_, nullptr);
  }

  // Runs the campaign (target: the shared tmpfs dir) and returns its stored scenarios.
  std::string WriteCampaign(const std::string& body) {
    const std::string path = dir_.File("campaign.yaml");
    std::ofstream out(path);
    out << CampaignHead("vis", fleet_->addresses())
        << "targets:\n  - {name: shm, path: " << shm_.path() << ", kind: local}\n"
        << body;
    return path;
  }

  std::vector<ScenarioResult> Run(const std::string& body) {
    Subprocess azbench({AZBENCH_BIN, "run", WriteCampaign(body)}, dir_.File("out.txt"));
    EXPECT_EQ(azbench.Wait(std::chrono::seconds(120)), 0) << azbench.Output();
    output_ = azbench.Output();
    return Stored();
  }

  std::vector<ScenarioResult> Stored() { return StoredScenarios(dir_.File("results.db")); }

  // `azbench report --format html` of the results; "" on failure (with a test failure).
  std::string HtmlReport() {
    const std::string out = dir_.File("report.html");
    Subprocess report(
        {AZBENCH_BIN, "report", dir_.File("results.db"), "--format", "html", "-o", out},
        dir_.File("report.txt"));
    EXPECT_EQ(report.Wait(std::chrono::seconds(60)), 0) << report.Output();
    std::ifstream in(out);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  }

  // The HTML report's visibility section lists `probe` with a line per agent and its mount.
  void ExpectReportedPerReader(const ScenarioResult& s, const std::string& probe) {
    const std::string html = HtmlReport();
    const size_t at = html.find("<section id=\"visibility\"");
    ASSERT_NE(at, std::string::npos);
    const std::string section = html.substr(at, html.find("</section>", at) - at);
    EXPECT_NE(section.find(": probe " + probe + "</h3>"), std::string::npos) << section;
    for (const std::string& agent : s.scenario.agent_ids) {
      EXPECT_NE(section.find("<td>" + agent + "</td>"), std::string::npos) << agent;
    }
    EXPECT_NE(section.find("tmpfs"), std::string::npos) << "the mount line: " << section;
  }

  const JobResult* Find(const ScenarioResult& s, const std::string& agent) {
    for (const AgentJobResult& r : s.results) {
      if (r.agent_id == agent) return &r.result;
    }
    return nullptr;
  }

  TempDir dir_{kDiskBase};
  TempDir shm_{kTmpfsBase};
  TempDir empty_{kTmpfsBase};
  std::unique_ptr<LocalFleet> fleet_;
  std::string output_;
};

}  // namespace azbench::testing

#endif  // AZBENCH_TESTS_TESTING_VISIBILITY_CAMPAIGN_FIXTURE_H_
