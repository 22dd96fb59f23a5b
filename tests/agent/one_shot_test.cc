// `azbench-agent run`'s arguments: the exit code of a bad one (2, a usage error, for every family,
// before anything runs). In process:
// RunOneShotCommand returns what the binary exits with.
#include "agent/one_shot.h"

#include <filesystem>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::HasSubstr;

class OneShotArgsTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }
  // The command's exit code; its stderr in `*errors`.
  static int Command(const std::vector<std::string>& args, std::string* errors) {
    ::testing::internal::CaptureStderr();
    const int code = RunOneShotCommand(args);
    *errors = ::testing::internal::GetCapturedStderr();
    return code;
  }
  bool DirectoryIsEmpty() const { return std::filesystem::is_empty(dir_.path()); }
  testing::TempDir dir_;
};

// A family's bad option or name exits 2 before anything runs, as a bad fio option does (it was 1,
// found only when the run was prepared).
TEST_F(OneShotArgsTest, ABadOptionOfAnyFamilyIsAUsageErrorBeforeAnythingRuns) {
  std::string errors;
  const std::string directory = "--directory=" + dir_.path();
  EXPECT_EQ(Command({"--workload=metadata", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  EXPECT_EQ(Command({"--workload=metadata", directory, "--name=a/b"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("job name 'a/b' contains '/'"));
  EXPECT_EQ(Command({"--workload=large_stream", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  EXPECT_EQ(Command({"--workload=small_files", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  // block_io's options, for comparison: the same exit code.
  EXPECT_EQ(Command({"--name=x", "--rw=read", "--size=64k", directory, "--bogus=1"}, &errors), 2);
  EXPECT_THAT(errors, HasSubstr("bogus"));
  EXPECT_TRUE(DirectoryIsEmpty()) << "nothing ran";
}

TEST_F(OneShotArgsTest, ValidFamilyOptionsPassTheCheck) {
  EXPECT_TRUE(ValidateFamilyJobArgs("metadata", {"--directory=" + dir_.path(), "--name=md"}).ok());
  EXPECT_THAT(ValidateFamilyJobArgs("metadata", {"--directory=" + dir_.path(), "--name=.."}),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("job name '..'")));
}

}  // namespace
}  // namespace azbench
