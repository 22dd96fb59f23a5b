// `azbench-agent run`'s arguments: the exit code of a bad one (2, a usage error, for every family,
// before anything runs) and the command's single-valued flags given twice. In process:
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
  // A visibility probe runs with a warning that runtime does not apply, as an agent's Prepare
  // does; an unknown option is still refused.
  EXPECT_TRUE(ValidateFamilyJobArgs("visibility", {"--directory=" + dir_.path(),
                                                   "--probe=client_to_client", "--runtime=5s"})
                  .ok());
  EXPECT_FALSE(ValidateFamilyJobArgs("visibility", {"--directory=" + dir_.path(),
                                                    "--probe=client_to_client", "--bogus=1"})
                   .ok());
}

// The command's own flags take one value: a second one is refused, naming the flag and both
// arguments (the last one used to win silently). fio's options keep fio's rule (the last counts).
TEST_F(OneShotArgsTest, ASingleValuedFlagGivenTwiceIsRefused) {
  // In the test's directory: the old code ran it with the last of each flag.
  const std::vector<std::string> job = {"--name=x", "--rw=read", "--size=64k",
                                        "--directory=" + dir_.path()};
  const std::string a = "--output=" + dir_.path() + "/a.json";
  const std::string b = "--output=" + dir_.path() + "/b.json";
  struct Case {
    std::vector<std::string> flags;
    std::string message;
  };
  for (const Case& c : std::vector<Case>{
           {{a, b}, "--output is given twice ('" + a + "' and '" + b + "'): give it once"},
           {{"--output-format=json", "--output-format=normal"}, "--output-format is given twice"},
           {{"--interval=1s", "--interval=2s"}, "--interval is given twice"},
           {{"--unlink", "--unlink=false"}, "--unlink is given twice"},
           {{"--workload=metadata", "--workload=large_stream"}, "--workload is given twice"}}) {
    SCOPED_TRACE(c.message);
    std::vector<std::string> args = job;
    args.insert(args.end(), c.flags.begin(), c.flags.end());
    EXPECT_THAT(ParseOneShotArgs(args).status(),
                StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr(c.message)));
    std::string errors;
    EXPECT_EQ(Command(args, &errors), 2);
    EXPECT_THAT(errors, HasSubstr(c.message));
  }
  // --output and --output-format are different flags; a repeated fio option is fio's business.
  std::vector<std::string> args = job;
  args.insert(args.end(), {a, "--output-format=json", "--bs=4k", "--bs=8k"});
  absl::StatusOr<OneShotOptions> options = ParseOneShotArgs(args);
  ASSERT_TRUE(options.ok()) << options.status();
  EXPECT_EQ(options->output_path, dir_.path() + "/a.json");
  EXPECT_EQ(options->output_format, "json");
  EXPECT_TRUE(DirectoryIsEmpty());
}

}  // namespace
}  // namespace azbench
