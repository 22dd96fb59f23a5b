// `azbench-agent run` (one-shot mode) as a user runs it: a bad output path is found before any I/O,
// and results already measured are never lost to a file that cannot be written afterwards (the
// output file, the op log). Also the agent's usage errors, and the environment `serve` and
// `check-config` refuse. The real agent binary on tmpfs.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/subprocess.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;
using testing::ScopedMount;
using testing::Subprocess;
using testing::TempDir;

constexpr std::chrono::seconds kTimeout(60);

class OneShotTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(dir_.ok()); }
  // Runs the agent with `args`; its exit code, stdout and stderr in `output`.
  int Agent(std::vector<std::string> args, std::string* output) {
    args.insert(args.begin(), AZBENCH_AGENT_BIN);
    Subprocess agent(args, dir_.File("agent.out"));
    const int code = agent.Wait(kTimeout);
    *output = agent.Output();
    return code;
  }
  // A small write job on this test's tmpfs directory.
  std::vector<std::string> Job() const {
    return {"run",     "--name=w",   "--rw=write",
            "--bs=4k", "--size=64k", "--filename=" + dir_.File("data")};
  }
  TempDir dir_{testing::kTmpfsBase};
};

TEST_F(OneShotTest, AnOutputPathThatCannotBeWrittenIsRefusedBeforeAnyIo) {
  std::string output;
  std::vector<std::string> args = Job();
  args.push_back("--output=" + dir_.File("no/such/dir/r.json"));
  EXPECT_EQ(Agent(args, &output), 2);
  EXPECT_THAT(output, HasSubstr("directory '" + dir_.File("no/such/dir") + "' does not exist"));
  args.back() = "--output=" + dir_.path();
  EXPECT_EQ(Agent(args, &output), 2);
  EXPECT_THAT(output, HasSubstr("is a directory"));
  EXPECT_FALSE(std::filesystem::exists(dir_.File("data"))) << "nothing ran";
}

TEST_F(OneShotTest, ResultsThatCannotBeWrittenToTheOutputFileGoToStdout) {
  // The output's directory exists but is read-only: found only when writing, after the run.
  ScopedMount ro("tmpfs", "1m", "ro");
  if (!ro.mounted()) GTEST_SKIP() << "cannot mount tmpfs: " << ro.error();
  std::string output;
  std::vector<std::string> args = Job();
  args.push_back("--output=" + ro.path() + "/r.txt");
  EXPECT_EQ(Agent(args, &output), 1);
  EXPECT_THAT(output, HasSubstr("cannot write output '" + ro.path() + "/r.txt'"));
  EXPECT_THAT(output, HasSubstr("Read-only file system"));
  EXPECT_THAT(output, HasSubstr("the results follow on stdout"));
  EXPECT_THAT(output, HasSubstr("write: IOPS=")) << "the measured results are printed";
}

TEST_F(OneShotTest, AnOpLogThatCannotBeWrittenIsAWarningBesideTheResults) {
  // op_log goes to the working directory, here a read-only file system.
  ScopedMount ro("tmpfs", "1m", "ro");
  if (!ro.mounted()) GTEST_SKIP() << "cannot mount tmpfs: " << ro.error();
  std::string command = "cd '" + ro.path() + "' && exec '" + AZBENCH_AGENT_BIN + "'";
  for (const std::string& a : Job()) command += " '" + a + "'";
  command += " --op_log=1 --output-format=json";
  Subprocess agent({"/bin/sh", "-c", command}, dir_.File("agent.out"));
  EXPECT_EQ(agent.Wait(kTimeout), 1) << "the op log asked for was not written";
  const std::string output = agent.Output();
  EXPECT_THAT(
      output,
      HasSubstr(
          "w: op_log not complete: cannot create op log 'w.oplog.csv.gz': Read-only file system"));
  EXPECT_THAT(output, HasSubstr("\"jobs\"")) << "the JSON results are printed";
}

TEST_F(OneShotTest, ABufferedRewriteOfASmallFileIsWarnedOfBesideTheResultsInTextAndJson) {
  // The trap of a time_based buffered write flushed by end_fsync alone: 64 KiB rewritten for
  // 300 ms reached the page cache, and only the last dirty pages reached storage.
  std::vector<std::string> args = Job();
  for (const char* a : {"--time_based", "--runtime=300ms", "--end_fsync=1"}) args.push_back(a);
  std::string output;
  EXPECT_EQ(Agent(args, &output), 0) << output;
  EXPECT_THAT(output, HasSubstr("write: IOPS="));
  EXPECT_THAT(output, HasSubstr("warning: buffered writes rewrote 0.1 MiB of files that fit in "
                                "this client's memory"));
  args.push_back("--output-format=json");
  EXPECT_EQ(Agent(args, &output), 0) << output;
  EXPECT_THAT(output, HasSubstr("\"warnings\""));
  EXPECT_THAT(output, HasSubstr("end_fsync flushed only the pages still dirty at the end"));
  args.push_back("--fsync=16");  // flushed as it goes: no trap
  args.erase(args.end() - 2);
  EXPECT_EQ(Agent(args, &output), 0) << output;
  EXPECT_THAT(output, ::testing::Not(HasSubstr("buffered writes")));
}

TEST_F(OneShotTest, SwitchesTakeBooleanValuesAndHelpIsTheUsage) {
  std::string output;
  std::vector<std::string> args = Job();
  // --unlink removes the files the run laid out.
  args.push_back("--unlink=true");
  EXPECT_EQ(Agent(args, &output), 0) << output;
  EXPECT_FALSE(std::filesystem::exists(dir_.File("data"))) << "--unlink=true removes it";
  args.back() = "--unlink=0";
  EXPECT_EQ(Agent(args, &output), 0) << output;
  EXPECT_TRUE(std::filesystem::exists(dir_.File("data"))) << "--unlink=0 keeps it";
  args.back() = "--unlink=maybe";
  EXPECT_EQ(Agent(args, &output), 2);
  EXPECT_THAT(output, HasSubstr("--unlink: 'maybe' is not a boolean"));

  for (const char* command : {"run", "serve", "check-config"}) {
    EXPECT_EQ(Agent({command, "--help"}, &output), 0) << command;
    EXPECT_THAT(output, HasSubstr("usage: azbench-agent"));
  }
  EXPECT_EQ(Agent({"serve", "agent.yaml"}, &output), 2);
  EXPECT_THAT(output, HasSubstr("a config file is --config FILE"));
  EXPECT_EQ(Agent({"serve", "--listen", "--agent-id", "x"}, &output), 2);
  EXPECT_THAT(output, HasSubstr("flag '--listen' needs a value"));
}

// The AWS SDKs' instance metadata variables are checked before the agent serves: a malformed one
// stops `serve` (exit 2) and fails `check-config`, naming the variable and what is allowed.
TEST_F(OneShotTest, AMalformedInstanceMetadataTimeoutStopsServeAndFailsCheckConfig) {
  const std::string config = dir_.File("agent.yaml");
  std::ofstream(config) << "listen: 127.0.0.1:0\ninsecure_loopback_only: true\nallowed_roots: ["
                        << dir_.path() << "]\nimds: disabled\n";
  auto with_env = [&](const std::string& variable, std::vector<std::string> args,
                      std::string* output) {
    args.insert(args.begin(), {"/usr/bin/env", variable, AZBENCH_AGENT_BIN});
    Subprocess agent(args, dir_.File("agent.out"));
    const int code = agent.Wait(kTimeout);
    *output = agent.Output();
    return code;
  };
  std::string output;
  EXPECT_EQ(with_env("AWS_METADATA_SERVICE_TIMEOUT=2.5", {"check-config", config}, &output), 0)
      << output;
  EXPECT_EQ(with_env("AWS_METADATA_SERVICE_TIMEOUT=1s", {"check-config", config}, &output), 1);
  EXPECT_THAT(output, HasSubstr("AWS_METADATA_SERVICE_TIMEOUT='1s': give the instance metadata "
                                "request timeout in seconds, from 0.001 to 3600"));
  EXPECT_EQ(with_env("AWS_METADATA_SERVICE_NUM_ATTEMPTS=0", {"serve", "--config", config}, &output),
            2);
  EXPECT_THAT(output, HasSubstr("azbench-agent serve: AWS_METADATA_SERVICE_NUM_ATTEMPTS='0': give "
                                "how many times an instance metadata request that got no answer is "
                                "tried, a whole number from 1 to 10"));
}

}  // namespace
}  // namespace azbench
