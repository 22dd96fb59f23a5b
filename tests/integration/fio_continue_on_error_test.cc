// fio's continue_on_error and ignore_error through `azbench-agent run`, beside fio 3.33 on the same
// job file: a sequential write of 4 MiB into a sparse file on a 1 MiB tmpfs, whose writes past the
// first MiB fail with ENOSPC. Both tools count the same errors, do the same writes, report the same
// error, total_err and first_error, and exit alike. Needs root (mount); skipped otherwise.
#include <sys/mount.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
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

// A 1 MiB tmpfs, unmounted when the test ends.
class TinyTmpfs {
 public:
  explicit TinyTmpfs(const std::string& path) : path_(path) {
    std::filesystem::create_directories(path_);
    if (mount("tmpfs", path_.c_str(), "tmpfs", 0, "size=1m") == 0) {
      mounted_ = true;
    } else {
      error_ = std::strerror(errno);
    }
  }
  ~TinyTmpfs() {
    if (mounted_) umount2(path_.c_str(), MNT_DETACH);
  }
  TinyTmpfs(const TinyTmpfs&) = delete;
  TinyTmpfs& operator=(const TinyTmpfs&) = delete;
  bool mounted() const { return mounted_; }
  const std::string& error() const { return error_; }

 private:
  std::string path_;
  bool mounted_ = false;
  std::string error_;
};

struct Case {
  const char* name;
  const char* options;  // the job's error options
  int exit_code;        // fio's: 0 when every error was let pass
};

struct Outcome {
  int exit_code = -1;
  json job;
};

class FioContinueOnErrorTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    if (std::string missing = testing::MissingDependency("fio", testing::kFioBinary);
        !missing.empty()) {
      GTEST_SKIP() << missing;
    }
    if (!tmpfs_.mounted()) GTEST_SKIP() << "cannot mount a tmpfs: " << tmpfs_.error();
  }

  Outcome Run(const std::vector<std::string>& command, const std::string& tool) {
    std::filesystem::remove(dir_.File("tiny/file"));
    const std::string job_file = dir_.File(tool + ".fio");
    std::ofstream(job_file) << "[enospc]\nfilename=" << dir_.File("tiny/file")
                            << "\nrw=write\nbs=64k\nsize=4m\n"
                            << GetParam().options << "\n";
    std::vector<std::string> argv = command;
    argv.push_back("--output-format=json");
    argv.push_back("--output=" + dir_.File(tool + ".json"));
    argv.push_back(job_file);
    Subprocess p(argv, dir_.File(tool + ".txt"));
    Outcome out;
    out.exit_code = p.Wait(kTimeout);
    const json doc = testing::LoadFioJson(dir_.File(tool + ".json"));
    EXPECT_TRUE(doc.contains("jobs")) << tool << ": " << p.Output();
    if (doc.contains("jobs") && !doc["jobs"].empty()) out.job = doc["jobs"][0];
    std::filesystem::remove(dir_.File("tiny/file"));
    return out;
  }

  TempDir dir_{testing::kDiskBase};
  TinyTmpfs tmpfs_{dir_.File("tiny")};
};

TEST_P(FioContinueOnErrorTest, ErrorsAreCountedAndTheJobGoesOnAsInFio) {
  const Outcome fio = Run({testing::kFioBinary}, "fio");
  const Outcome az = Run({AZBENCH_AGENT_BIN, "run"}, "azbench");
  ASSERT_TRUE(fio.job.is_object() && az.job.is_object());
  EXPECT_EQ(fio.exit_code, GetParam().exit_code) << "fio 3.33 itself";
  EXPECT_EQ(az.exit_code, fio.exit_code);
  EXPECT_EQ(az.job.value("error", -1), fio.job.value("error", -2));
  EXPECT_EQ(az.job.contains("total_err"), fio.job.contains("total_err"));
  EXPECT_EQ(az.job.value("total_err", -1), fio.job.value("total_err", -1));
  EXPECT_EQ(az.job.value("first_error", -1), fio.job.value("first_error", -1));
  EXPECT_EQ(az.job["write"].value("io_bytes", -1), fio.job["write"].value("io_bytes", -2))
      << "the writes that succeeded";
  EXPECT_EQ(az.job["write"].value("total_ios", -1), fio.job["write"].value("total_ios", -2))
      << "the writes, failed ones included";
}

INSTANTIATE_TEST_SUITE_P(
    Options, FioContinueOnErrorTest,
    ::testing::Values(Case{"Default", "", 1}, Case{"IgnoreEnospc", "ignore_error=,ENOSPC", 0},
                      Case{"IgnoreByNumber", "continue_on_error=write\nignore_error=EIO,28", 0},
                      Case{"AllButNotEnospc", "continue_on_error=all", 1},
                      Case{"ReadOnly", "continue_on_error=read", 1},
                      Case{"NoneAfterIgnore", "ignore_error=,ENOSPC\ncontinue_on_error=none", 1}),
    [](const ::testing::TestParamInfo<Case>& info) { return std::string(info.param.name); });

}  // namespace
}  // namespace azbench
