#include "agent/runner.h"

#include <filesystem>

#include "gtest/gtest.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::TempDir;

class CountingSink : public RunEventSink {
 public:
  bool OnStarted(int64_t) override { return true; }
  bool OnProgress(int64_t, uint64_t, uint64_t, int) override {
    ++progress;
    return progress <= break_after_progress;
  }
  bool OnInterval(const std::string&, int, const IntervalStats&) override { return true; }
  bool OnOpLog(const std::string&, int, const std::vector<OpRecord>&) override { return true; }
  bool OnResult(const JobResult&) override {
    ++results;
    return true;
  }
  bool OnFinished(int64_t, bool c) override {
    cancelled = c;
    return true;
  }
  int progress = 0;
  int results = 0;
  int break_after_progress = 1 << 30;
  bool cancelled = false;
};

std::vector<JobRequest> Jobs(const std::string& dir, const std::string& runtime) {
  JobRequest job;
  job.name = "r";
  job.options = {{"rw", "randread"}, {"size", "1m"},      {"directory", dir},
                 {"iodepth", "4"},   {"time_based", "1"}, {"runtime", runtime}};
  return {job};
}

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::recursive_directory_iterator(dir)) ++n;
  return n;
}

TEST(RunnerTest, PrepareReportsWarningsAndRunHonoursTheRequestedProgressInterval) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  auto outcome = runner.Prepare("a", Jobs(dir.path(), "400ms"), 1'000'000'000);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  ASSERT_EQ(outcome->warnings.size(), 1u);
  EXPECT_NE(outcome->warnings[0].find("iodepth=4 has no effect"), std::string::npos);
  CountingSink sink;
  ASSERT_TRUE(runner.Run("a", 0, sink, /*progress_interval_ns=*/20'000'000).ok());
  // 400 ms at one report per 20 ms; the default (250 ms) would give at most 2.
  EXPECT_GE(sink.progress, 5);
  EXPECT_EQ(sink.results, 1);
  ASSERT_TRUE(runner.Cleanup("a", /*remove_files=*/true).ok());
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

TEST(RunnerTest, ABrokenSinkCancelsTheRunAndRemovesItsFiles) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  ASSERT_TRUE(runner.Prepare("b", Jobs(dir.path(), "1h"), 1'000'000'000).ok());
  EXPECT_GT(FilesIn(dir.path()), 0u);
  CountingSink sink;
  sink.break_after_progress = 2;
  absl::Status status = runner.Run("b", 0, sink, 20'000'000);
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled) << status;
  EXPECT_EQ(FilesIn(dir.path()), 0u) << "the lease broke: nobody will call Cleanup";
  EXPECT_EQ(runner.Cleanup("b", true).status().code(), absl::StatusCode::kNotFound);
}

TEST(RunnerTest, AnUnknownOptionIsRefusedNamingTheJobAndOption) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  std::vector<JobRequest> jobs = Jobs(dir.path(), "1s");
  jobs[0].options.push_back({"exec_prerun", "rm -rf /"});
  auto outcome = runner.Prepare("c", jobs, 1'000'000'000);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(outcome.status().message().find("job 'r'"), std::string::npos);
  EXPECT_NE(outcome.status().message().find("exec_prerun"), std::string::npos);
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

}  // namespace
}  // namespace azbench
