// The HTML report of a real local campaign (4 agent processes in 2 simulated AZs, started by the
// real `azbench run`), rendered in Debian's headless Chromium through the DevTools protocol
// (tests/integration/browser/check_report.mjs): no console errors, every chart present, sized and
// drawn, no overlapping chart texts, no horizontal page scroll on a phone, printable to PDF. The
// screenshots are kept under the build folder: build/artifacts/html_report/.
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <utility>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/dependencies.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using ::testing::Contains;
using ::testing::HasSubstr;
using testing::Subprocess;
using testing::TempDir;

constexpr const char* kChromium = testing::kChromiumBinary;
constexpr const char* kNode = testing::kNodeBinary;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

bool IsPng(const std::string& path) {
  const std::string data = ReadFile(path);
  return data.size() > 1000 && data.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

TEST(HtmlReportBrowserTest, TheReportOfALocalCampaignRendersInChromiumWithEveryChartDrawn) {
  for (const auto& [name, path] : {std::pair{"chromium", kChromium}, std::pair{"node", kNode}}) {
    if (std::string missing = testing::MissingDependency(name, path); !missing.empty()) {
      GTEST_SKIP() << missing;
    }
  }
  TempDir dir;
  ASSERT_TRUE(dir.ok());
  {
    Subprocess version({kChromium, "--headless", "--no-sandbox", "--version"},
                       dir.File("chromium-version.txt"));
    if (version.Wait(std::chrono::seconds(60)) != 0) {
      GTEST_SKIP() << "chromium cannot run here: " << version.Output();
    }
  }
  const fs::path artifacts =
      fs::path(AZBENCH_BIN).parent_path().parent_path() / "artifacts" / "html_report";
  fs::remove_all(artifacts);
  fs::create_directories(artifacts);
  const std::string check_script =
      (fs::path(testing::kSourceDir) / "tests" / "integration" / "browser" / "check_report.mjs")
          .string();
  ASSERT_TRUE(fs::exists(check_script)) << check_script;

  // Two targets, an iodepth sweep and a nodes axis: every kind of chart but probes; a large_stream
  // workload for the MiB/s-per-pass table and chart.
  fs::create_directories(dir.File("shm"));
  std::ofstream(dir.File("campaign.yaml"))
      << "name: browser-test\n"
         "fleet:\n  local: {agents: 4, azs: [local-a, local-b]}\n"
         "targets:\n"
         "  - {name: disk, path: disk, kind: local, labels: {medium: disk}}\n"
         "  - {name: other, path: other, kind: other}\n"
         "workloads:\n"
         "  - name: randread-4k\n"
         "    options: {rw: randread, bs: 4k, size: 4m, ioengine: psync, runtime: 2s, "
         "time_based: 1}\n"
         "  - name: stream\n"
         "    workload: large_stream\n"
         "    options: {size: 8m, bs: 1m, passes: 3}\n"
         "matrix:\n  iodepth: [1, 4]\n  nodes: [1, all]\n"
         "results: results.db\n";
  Subprocess run({AZBENCH_BIN, "run", dir.File("campaign.yaml"), "--quiet"}, dir.File("run.txt"));
  ASSERT_EQ(run.Wait(std::chrono::seconds(240)), 0) << run.Output();

  const std::string report = (artifacts / "report.html").string();
  Subprocess render(
      {AZBENCH_BIN, "report", dir.File("results.db"), "--format", "html", "-o", report},
      dir.File("report.txt"));
  ASSERT_EQ(render.Wait(std::chrono::seconds(60)), 0) << render.Output();
  const std::string html = ReadFile(report);
  const size_t charts_in_html = Count(html, "<svg class=\"chart\"");
  // randread: 4 cells x (1 latency + 2 targets' throughput over time); stream (no iodepth): 2 cells
  // x (1 pass chart + 1 latency + 2 throughput over time); sweeps 2 x 2; scaling 3 groups (randread
  // at each iodepth, stream) x 2.
  EXPECT_EQ(charts_in_html, 12u + 8u + 4u + 6u);
  // The campaign summary: each target's mount as the agents saw it, and the placement evidence.
  EXPECT_THAT(html, ::testing::ContainsRegex("<td class=\"mount\">[a-z0-9]+ [^<]+ on /"));
  EXPECT_THAT(html, HasSubstr("not a network mount"));
  EXPECT_EQ(Count(html, "<h3>MiB/s per pass</h3>"), 2u);

  // Node and Chromium get a temporary directory of the test's own (TMPDIR), which goes with `dir`:
  // a SIGKILLed Chromium leaves org.chromium.Chromium.* directories behind.
  const std::string browser_tmp = dir.File("browser-tmp");
  fs::create_directories(browser_tmp);
  const char* old_tmpdir = getenv("TMPDIR");
  const std::string saved_tmpdir = old_tmpdir != nullptr ? old_tmpdir : "";
  setenv("TMPDIR", browser_tmp.c_str(), 1);
  Subprocess check({kNode, check_script, kChromium, report, artifacts.string()},
                   dir.File("check.txt"));
  if (old_tmpdir != nullptr) {
    setenv("TMPDIR", saved_tmpdir.c_str(), 1);
  } else {
    unsetenv("TMPDIR");
  }
  ASSERT_EQ(check.Wait(std::chrono::seconds(150)), 0) << check.Output();
  for (const auto& e : fs::directory_iterator(browser_tmp)) {
    EXPECT_FALSE(e.path().filename().string().starts_with("azbench-chromium-"))
        << "check_report.mjs left its Chromium profile: " << e.path();
  }
  const std::string output = check.Output();
  const nlohmann::json result = nlohmann::json::parse(output.substr(output.rfind("{\"charts\"")),
                                                      nullptr, /*allow_exceptions=*/false);
  ASSERT_FALSE(result.is_discarded()) << output;

  EXPECT_TRUE(result["console"].empty()) << result["console"].dump(2);
  ASSERT_EQ(result["charts"].size(), charts_in_html);
  for (const auto& chart : result["charts"]) {
    EXPECT_GE(chart["width"].get<double>(), 300) << chart.dump();
    EXPECT_GE(chart["height"].get<double>(), 200) << chart.dump();
    EXPECT_GE(chart["series"].get<int>(), 1) << "nothing drawn: " << chart.dump();
  }
  EXPECT_TRUE(result["overlaps"].empty()) << result["overlaps"].dump(2);
  EXPECT_TRUE(result["outside"].empty()) << result["outside"].dump(2);
  for (const char* id :
       {"campaign", "placement", "cell-0", "cell-3", "cell-5", "sweeps", "scaling"}) {
    EXPECT_THAT(result["sections"], Contains(id)) << result["sections"].dump();
  }
  const auto& phone = result["phone"];
  EXPECT_LE(phone["document_width"].get<double>(), phone["viewport_width"].get<double>())
      << "the page scrolls sideways on a phone";
  for (const auto& width : phone["chart_widths"]) {
    EXPECT_GT(width.get<double>(), 200);
    EXPECT_LE(width.get<double>(), phone["viewport_width"].get<double>());
  }
  EXPECT_GT(result["pdf_bytes"].get<int>(), 10000);
  for (const char* png : {"report.png", "report-phone.png", "chart.png", "section-sweeps.png",
                          "section-scaling.png", "section-placement.png"}) {
    EXPECT_TRUE(IsPng((artifacts / png).string())) << png;
  }

  // compare of the campaign with itself: everything matches, nothing is flagged.
  Subprocess compare({AZBENCH_BIN, "compare", dir.File("results.db"), dir.File("results.db"),
                      "--fail-on-regression"},
                     dir.File("compare.txt"));
  ASSERT_EQ(compare.Wait(std::chrono::seconds(60)), 0) << compare.Output();
  EXPECT_THAT(compare.Output(), HasSubstr("12 matching scenarios"));
  EXPECT_THAT(compare.Output(), HasSubstr("0 flagged"));
  EXPECT_THAT(compare.Output(), HasSubstr("no spread known"));
}

}  // namespace
}  // namespace azbench
