// fio's exitall and exit_what through `azbench-agent run`, beside fio 3.33 on the same job file:
// the same jobs run, and the same ones are cut short or never start. A job is cut short when it
// did fewer I/Os than its size or number_ios asks for.
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/dependencies.h"
#include "tests/testing/fio_json.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using nlohmann::json;
using testing::Subprocess;
using testing::TempDir;

constexpr auto kTimeout = std::chrono::seconds(60);

// `quick` ends after 10 I/Os (about 0.1 s) with exit_what=`what`. `paced` alone would take 100 s;
// `other` (its own reporting group) ends by itself after 20 I/Os (0.2 s) unless ended first;
// `later` (the next stonewall group) does its 1024 I/Os at once.
std::string JobFile(const std::string& what) {
  return absl::StrCat(
      "[global]\nioengine=null\nbs=4k\nsize=4m\nexitall=1\n"
      "[quick]\nrw=read\nrate_iops=100\nnumber_ios=10\nexit_what=",
      what,
      "\n[paced]\nrw=read\nrate_iops=10\n"
      "[other]\nnew_group\nrw=read\nrate_iops=100\nnumber_ios=20\n"
      "[later]\nstonewall\nrw=read\n");
}

// Read I/Os per job name; a job that is not in the output did none.
std::map<std::string, uint64_t> ReadIos(const json& doc) {
  std::map<std::string, uint64_t> ios = {{"quick", 0}, {"paced", 0}, {"other", 0}, {"later", 0}};
  if (!doc.is_object() || !doc.contains("jobs")) return ios;
  for (const json& job : doc["jobs"]) {
    ios[job.value("jobname", "")] += job["read"].value("total_ios", uint64_t{0});
  }
  return ios;
}

class FioExitTest : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      GTEST_SKIP() << missing;
    }
  }

  std::map<std::string, uint64_t> Run(const std::vector<std::string>& command,
                                      const std::string& tool) {
    const std::string job_file = dir_.File(tool + ".fio");
    std::ofstream(job_file) << JobFile(GetParam());
    std::vector<std::string> argv = command;
    argv.push_back("--output-format=json");
    argv.push_back("--output=" + dir_.File(tool + ".json"));
    argv.push_back(job_file);
    Subprocess p(argv, dir_.File(tool + ".txt"));
    EXPECT_EQ(p.Wait(kTimeout), 0) << p.Output();
    return ReadIos(testing::LoadFioJson(dir_.File(tool + ".json")));
  }

  TempDir dir_{testing::kDiskBase};
};

TEST_P(FioExitTest, TheSameJobsAreCutShortAsInFio) {
  const std::map<std::string, uint64_t> fio = Run({testing::kFioBinary}, "fio");
  const std::map<std::string, uint64_t> az = Run({AZBENCH_AGENT_BIN, "run"}, "azbench");
  const std::map<std::string, uint64_t> full = {
      {"quick", 10}, {"paced", 1024}, {"other", 20}, {"later", 1024}};
  for (const auto& [name, ios] : full) {
    SCOPED_TRACE(name);
    EXPECT_EQ(az.at(name) == ios, fio.at(name) == ios)
        << "azbench " << az.at(name) << " I/Os, fio " << fio.at(name) << " of " << ios;
    EXPECT_EQ(az.at(name) == 0, fio.at(name) == 0)
        << "azbench " << az.at(name) << " I/Os, fio " << fio.at(name);
  }
  // What fio 3.33 does, so that a change in both is noticed.
  EXPECT_EQ(az.at("quick"), 10u);
  EXPECT_LT(az.at("paced"), 1024u);
  const std::string what = GetParam();
  EXPECT_EQ(az.at("other") == 20, what == "group");
  EXPECT_EQ(az.at("later"), what == "all" ? 0u : 1024u);
}

INSTANTIATE_TEST_SUITE_P(ExitWhat, FioExitTest, ::testing::Values("group", "stonewall", "all"));

}  // namespace
}  // namespace azbench
