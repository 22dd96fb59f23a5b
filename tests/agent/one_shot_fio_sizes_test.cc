// Sizes from existing files and directory lists, side by side with the real fio 3.33: the same job
// file through fio and through `azbench-agent run` (in process), compared by each job's bytes and
// by the files each creates. fio's examples/butterfly.fio relies on size taken from its file.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "agent/one_shot.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tests/testing/dependencies.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

class OneShotFioSizesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      FAIL() << missing;
    }
  }

  // Each job's {read bytes, write bytes} from fio's JSON document in `text`.
  static std::map<std::string, std::pair<uint64_t, uint64_t>> JobBytes(const std::string& text) {
    std::map<std::string, std::pair<uint64_t, uint64_t>> bytes;
    const size_t start = text.find('{');
    if (start == std::string::npos) return bytes;
    const nlohmann::json doc = nlohmann::json::parse(text.substr(start), nullptr, false);
    if (doc.is_discarded() || !doc.contains("jobs")) return bytes;
    for (const nlohmann::json& job : doc["jobs"]) {
      bytes[job["jobname"].get<std::string>()] = {job["read"]["io_bytes"].get<uint64_t>(),
                                                  job["write"]["io_bytes"].get<uint64_t>()};
    }
    return bytes;
  }

  // Runs `job_text` through fio (tool 0) or azbench-agent run (tool 1): each job's bytes.
  std::map<std::string, std::pair<uint64_t, uint64_t>> Run(int tool, const std::string& job_text) {
    const std::string job = dir_.File(tool == 0 ? "fio.fio" : "azbench.fio");
    std::ofstream(job) << job_text;
    if (tool == 0) {
      testing::Subprocess fio({testing::kFioBinary, "--output-format=json", job},
                              dir_.File("fio-output.txt"));
      EXPECT_EQ(fio.Wait(std::chrono::seconds(60)), 0) << fio.Output();
      return JobBytes(fio.Output());
    }
    ::testing::internal::CaptureStdout();
    const int code = RunOneShotCommand({"--output-format=json", job});
    const std::string out = ::testing::internal::GetCapturedStdout();
    EXPECT_EQ(code, 0) << out;
    return JobBytes(out);
  }

  // A file of `bytes` with data in it.
  std::string ExistingFile(const std::string& name, uint64_t bytes) {
    const std::string path = dir_.File(name);
    std::ofstream(path) << std::string(bytes, 'x');
    return path;
  }

  testing::TempDir dir_;
};

// butterfly.fio as fio ships it (its file is ours), and with its size=50% and offset=50% lines
// uncommented.
TEST_F(OneShotFioSizesTest, ButterflyTakesItsSizeFromTheFileAsFio) {
  const std::string file = ExistingFile("testfile", 1 << 20);
  for (const std::string extra : {"", "size=50%\n"}) {
    const std::string job = "[global]\nfilename=" + file + "\nbs=4k\n" + extra +
                            "[forward]\nrw=read\nflow=2\n[backward]\nrw=read:-8k\nflow=2\n" +
                            (extra.empty() ? "" : "offset=50%\n");
    const auto fio = Run(0, job);
    const auto azbench = Run(1, job);
    ASSERT_EQ(fio.size(), 2u) << job;
    EXPECT_EQ(azbench, fio) << job;
  }
}

TEST_F(OneShotFioSizesTest, PercentagesOfAnExistingFileAreFios) {
  const std::string file = ExistingFile("data", 1 << 20);
  const std::string job = "[global]\nfilename=" + file +
                          "\nbs=4k\nrw=read\n[whole]\n[third]\nsize=30%\n[tail]\noffset=10%\n"
                          "[half-io]\nio_size=50%\n[quarter]\noffset=25%\nsize=50%\n";
  const auto fio = Run(0, job);
  ASSERT_EQ(fio.size(), 5u);
  EXPECT_EQ(Run(1, job), fio);
}

TEST_F(OneShotFioSizesTest, DirectoryListsPlaceFilesAsFio) {
  auto files_under = [](const std::string& root) {
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(root)) {
      if (entry.is_regular_file()) {
        names.push_back(std::filesystem::relative(entry.path(), root).string());
      }
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  std::vector<std::string> listings[2];
  for (int tool = 0; tool < 2; ++tool) {
    const std::string root = dir_.File(tool == 0 ? "fio" : "azbench");
    for (const char* sub : {"", "/d1", "/d2", "/d:3"})
      std::filesystem::create_directory(root + sub);
    const std::string job = "[global]\nrw=write\nbs=4k\nsize=8k\ndirectory=" + root +
                            "/d1:" + root + "/d2:" + root + "/d\\:3\n[j]\nnumjobs=4\nnrfiles=2\n" +
                            "[k]\nfilename=a:b\n";
    EXPECT_EQ(Run(tool, job).size(), 2u);
    listings[tool] = files_under(root);
  }
  EXPECT_EQ(listings[1], listings[0]);
  EXPECT_THAT(listings[1], ::testing::Contains("d:3/j.2.1"));
}

}  // namespace
}  // namespace azbench
