#include "agent/runner/runner.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <thread>

#include "absl/synchronization/notification.h"
#include "common/clock.h"

#include "gtest/gtest.h"
#include "tests/testing/phase_log.h"
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
    return !finish_fails;
  }
  int progress = 0;
  bool finish_fails = false;  // the lease is found gone only at the end
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
  ASSERT_TRUE(runner.Run("a", 0, sink, absl::Milliseconds(20)).ok());
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
  absl::Status status = runner.Run("b", 0, sink, absl::Milliseconds(20));
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled) << status;
  EXPECT_EQ(FilesIn(dir.path()), 0u) << "the lease broke: nobody will call Cleanup";
  EXPECT_EQ(runner.Cleanup("b", true).status().code(), absl::StatusCode::kNotFound);
}

TEST(RunnerTest, ACancelReachesARunningJobAtOnceWhateverTheProgressInterval) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  ASSERT_TRUE(runner.Prepare("w", Jobs(dir.path(), "60s"), 1'000'000'000).ok());
  struct StartedSink : CountingSink {
    bool OnStarted(int64_t) override {
      started.Notify();
      return true;
    }
    bool OnResult(const JobResult& r) override {
      runtime_ns = r.runtime_ns;
      return CountingSink::OnResult(r);
    }
    absl::Notification started;
    uint64_t runtime_ns = 0;
  } sink;
  std::thread cancel([&] {
    sink.started.WaitForNotification();
    runner.Cancel("w");
  });
  // No progress report falls due during the run: the cancel and the end of the run must wake the
  // run's watcher themselves (with an hour between reports, Run would not return otherwise).
  const absl::Status status = runner.Run("w", 0, sink, absl::Hours(1));
  cancel.join();
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_TRUE(sink.cancelled);
  EXPECT_EQ(sink.progress, 0);
  EXPECT_EQ(sink.results, 1) << "the cancelled job's result is kept";
  EXPECT_LT(sink.runtime_ns, 30'000'000'000u) << "the cancel ended the 60 s job";
  ASSERT_TRUE(runner.Cleanup("w", true).ok());
}

TEST(RunnerTest, ALeaseFoundGoneAtTheEndAlsoRemovesTheFiles) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  ASSERT_TRUE(runner.Prepare("e", Jobs(dir.path(), "100ms"), 1'000'000'000).ok());
  CountingSink sink;
  sink.finish_fails = true;  // the reattach grace ended just before RunFinished
  absl::Status status = runner.Run("e", 0, sink, absl::Milliseconds(20));
  EXPECT_EQ(status.code(), absl::StatusCode::kCancelled) << status;
  EXPECT_EQ(FilesIn(dir.path()), 0u) << "nobody will call Cleanup";
  EXPECT_EQ(runner.Cleanup("e", true).status().code(), absl::StatusCode::kNotFound);
}

TEST(RunnerTest, ARefusedOrUnknownOptionIsRefusedNamingTheJobAndOption) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  // A fio option azbench refuses: a bad request, not gRPC's UNIMPLEMENTED.
  std::vector<JobRequest> jobs = Jobs(dir.path(), "1s");
  jobs[0].options.push_back({"exec_prerun", "rm -rf /"});
  auto outcome = runner.Prepare("c", jobs, 1'000'000'000);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(outcome.status().message().find("job 'r'"), std::string::npos);
  EXPECT_NE(outcome.status().message().find("option 'exec_prerun' is not supported by azbench"),
            std::string::npos)
      << outcome.status();
  // A name that is no fio option at all.
  jobs = Jobs(dir.path(), "1s");
  jobs[0].options.push_back({"blocksz", "4k"});
  outcome = runner.Prepare("d", jobs, 1'000'000'000);
  ASSERT_FALSE(outcome.ok());
  EXPECT_EQ(outcome.status().code(), absl::StatusCode::kNotFound);
  EXPECT_NE(outcome.status().message().find("blocksz"), std::string::npos) << outcome.status();
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

TEST(RunnerTest, EachFamilyIsDispatchedAndReportsOneResultPerPart) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner(RunnerConfig{.agent_subdir = "agent-x"});
  std::vector<JobRequest> jobs(3);
  jobs[0].name = "md";
  jobs[0].workload = "metadata";
  jobs[0].options = {{"directory", dir.path()}, {"files", "10"}, {"dirs", "2"}};
  jobs[1].name = "sf";
  jobs[1].workload = "small_files";
  jobs[1].options = {{"directory", dir.path()}, {"filesizes", "4k:8k"}, {"files", "3"}};
  jobs[2].name = "ls";
  jobs[2].workload = "large_stream";
  jobs[2].options = {{"directory", dir.path()}, {"size", "256k"}, {"bs", "64k"}, {"passes", "2"}};
  auto outcome = runner.Prepare("f", jobs, 1'000'000'000);
  ASSERT_TRUE(outcome.ok()) << outcome.status();
  struct Names : CountingSink {
    bool OnResult(const JobResult& r) override {
      names.push_back(r.name);
      return true;
    }
    std::vector<std::string> names;
  } sink;
  ASSERT_TRUE(runner.Run("f", 0, sink).ok());
  std::sort(sink.names.begin(), sink.names.end());
  EXPECT_EQ(sink.names,
            (std::vector<std::string>{"ls.pass1", "ls.pass2", "md.create", "md.delete", "md.open",
                                      "md.read", "md.rename", "md.stat", "sf.4k.read",
                                      "sf.4k.write", "sf.8k.read", "sf.8k.write"}));
  ASSERT_TRUE(runner.Cleanup("f", true).ok());
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

TEST(RunnerTest, TheSinkGetsEachJobsProgressBeforeTheJobsStart) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  std::vector<JobRequest> jobs(2);
  jobs[0].name = "rr";
  jobs[0].options = {{"rw", "randread"}, {"size", "64k"}, {"directory", dir.path()}};
  jobs[1].name = "md";
  jobs[1].workload = "metadata";
  jobs[1].options = {{"directory", dir.path()}, {"files", "4"}, {"dirs", "1"}};
  ASSERT_TRUE(runner.Prepare("p", jobs, 1'000'000'000).ok());
  struct Progress : CountingSink {
    void OnJobsProgress(const std::vector<const JobProgress*>& jobs) override {
      seen = jobs;
      for (const JobProgress* job : jobs) {
        if (job == nullptr) continue;
        for (const auto& clone : job->clones) {
          pending_at_start &= clone->Sample().state == CloneRunState::kPending;
        }
      }
    }
    std::vector<const JobProgress*> seen;
    bool pending_at_start = true;
  } sink;
  ASSERT_TRUE(runner.Run("p", 0, sink).ok());
  ASSERT_EQ(sink.seen.size(), 2u);
  ASSERT_NE(sink.seen[0], nullptr);
  EXPECT_EQ(sink.seen[0]->profiles[0].running_char, 'r');
  EXPECT_TRUE(sink.pending_at_start);
  EXPECT_EQ(sink.seen[0]->clones[0]->Sample().state, CloneRunState::kDone);
  EXPECT_EQ(sink.seen[1], nullptr);  // metadata keeps no per-clone progress
  ASSERT_TRUE(runner.Cleanup("p", true).ok());
}

TEST(RunnerTest, AnOptionOfAnotherFamilyIsRefusedNamingTheFamilyAndTheAllowedOptions) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  JobRequest job;
  job.name = "md";
  job.workload = "metadata";
  job.options = {{"directory", dir.path()}, {"iodepth", "16"}};
  auto outcome = runner.Prepare("g", {job}, 1'000'000'000);
  ASSERT_FALSE(outcome.ok());
  EXPECT_NE(outcome.status().message().find("job 'md': option 'iodepth' is not supported by "
                                            "workload metadata; supported: name, directory"),
            std::string::npos)
      << outcome.status();
  job.workload = "mdtest";
  outcome = runner.Prepare("g", {job}, 1'000'000'000);
  EXPECT_NE(outcome.status().message().find("allowed: block_io, metadata, small_files, "
                                            "large_stream"),
            std::string::npos)
      << outcome.status();
}

// A sink that drives phases like the coordinator: it answers PhaseDone by calling Proceed after a
// pause, and records the order of events.
class DrivingSink : public CountingSink {
 public:
  // `late_ns`: each release names an instant that long ago (a Proceed that came late).
  DrivingSink(Runner& runner, std::string run_id, int64_t late_ns = 0)
      : runner_(runner), run_id_(std::move(run_id)), late_ns_(late_ns) {}
  ~DrivingSink() override {
    for (auto& t : proceeds_) t.join();
  }
  bool DrivesPhases() const override { return true; }
  bool OnPhaseDone(int index, const std::string& phase) override {
    phases.push_back(phase);
    EXPECT_EQ(index, static_cast<int>(phases.size()) - 1);
    proceeds_.emplace_back([this, index] {
      std::this_thread::sleep_for(std::chrono::milliseconds(30));
      released_at.push_back(RealtimeNanos());
      absl::StatusOr<bool> waiting =
          runner_.Proceed(run_id_, index, late_ns_ == 0 ? 0 : RealtimeNanos() - late_ns_);
      EXPECT_TRUE(waiting.ok() && *waiting) << "the run waits at the barrier it reported";
    });
    return true;
  }
  bool OnResult(const JobResult& r) override {
    starts[r.name] = r.start_realtime_ns;
    warnings[r.name] = r.warnings;
    return true;
  }
  std::vector<std::string> phases;
  std::vector<int64_t> released_at;
  std::map<std::string, int64_t> starts;
  std::map<std::string, std::vector<std::string>> warnings;

 private:
  Runner& runner_;
  std::string run_id_;
  int64_t late_ns_;
  std::vector<std::thread> proceeds_;
};

TEST(RunnerTest, APhasedJobWaitsAtEveryBarrierUntilProceed) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  JobRequest job;
  job.name = "md";
  job.workload = "metadata";
  job.options = {{"directory", dir.path()}, {"files", "5"}, {"phases", "create,stat,delete"}};
  ASSERT_TRUE(runner.Prepare("h", {job}, 1'000'000'000).ok());
  DrivingSink sink(runner, "h");
  ASSERT_TRUE(runner.Run("h", 0, sink).ok());
  EXPECT_EQ(sink.phases, (std::vector<std::string>{"create", "stat"}));
  ASSERT_EQ(sink.released_at.size(), 2u);
  // Causality, not timing: a phase starts only after its release.
  EXPECT_GE(sink.starts["md.stat"], sink.released_at[0]);
  EXPECT_GE(sink.starts["md.delete"], sink.released_at[1]);
  ASSERT_TRUE(runner.Cleanup("h", true).ok());
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

// A Proceed that reaches the agent after the instant it names starts the phase at once, and the
// phase's result says how late (agent clock, exact); one on time says nothing.
TEST(RunnerTest, APhaseReleasedAfterItsInstantStartsAtOnceAndSaysHowLate) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  JobRequest job;
  job.name = "md";
  job.workload = "metadata";
  job.options = {{"directory", dir.path()}, {"files", "5"}, {"phases", "create,stat"}};
  ASSERT_TRUE(runner.Prepare("late", {job}, 1'000'000'000).ok());
  DrivingSink sink(runner, "late", /*late_ns=*/250'000'000);
  ASSERT_TRUE(runner.Run("late", 0, sink).ok());
  ASSERT_EQ(sink.warnings.count("md.stat"), 1u);
  std::string said;
  for (const std::string& w : sink.warnings["md.stat"]) {
    if (w.find("after the instant every agent was given") != std::string::npos) said = w;
  }
  // At least the 250 ms it was late by; more when the job's thread woke later than that.
  const absl::StatusOr<absl::Duration> late = testing::PhaseStartedLateBy(said, "stat");
  ASSERT_TRUE(late.ok()) << late.status() << " in '" << said << "'";
  EXPECT_GE(*late, absl::Milliseconds(250)) << said;
  EXPECT_LT(*late, absl::Seconds(60)) << said;
  EXPECT_GE(sink.starts["md.stat"], sink.released_at[0]) << "started after its release";
  for (const std::string& w : sink.warnings["md.create"]) {
    EXPECT_EQ(w.find("after the instant"), std::string::npos) << w;
  }
  ASSERT_TRUE(runner.Cleanup("late", true).ok());
}

TEST(RunnerTest, CancelReleasesAJobWaitingAtABarrier) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  JobRequest job;
  job.name = "md";
  job.workload = "metadata";
  job.options = {{"directory", dir.path()}, {"files", "5"}};
  ASSERT_TRUE(runner.Prepare("i", {job}, 1'000'000'000).ok());
  struct NeverProceeds : CountingSink {
    bool DrivesPhases() const override { return true; }
    bool OnPhaseDone(int, const std::string&) override {
      ++done;
      return true;
    }
    std::atomic<int> done{0};
  } sink;
  std::thread cancel([&] {
    while (sink.done.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    runner.Cancel("i");
  });
  ASSERT_TRUE(runner.Run("i", 0, sink).ok());
  cancel.join();
  EXPECT_EQ(sink.done.load(), 1);
  EXPECT_EQ(sink.results, 1) << "the create phase's result is kept";
  EXPECT_TRUE(sink.cancelled);
  ASSERT_TRUE(runner.Cleanup("i", true).ok());
  EXPECT_EQ(FilesIn(dir.path()), 0u) << "cleanup removes the files the cancelled run left";
}

TEST(RunnerStartTest, AStartAnHourAheadIsRefusedNamingTheFieldAndTheLimit) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  ASSERT_TRUE(runner.Prepare("s", Jobs(dir.path(), "100ms"), 1'000'000'000).ok());
  CountingSink sink;
  const int64_t hour_ahead = RealtimeNanos() + 3'600'000'000'000;
  const absl::Status refused = runner.Run("s", hour_ahead, sink);
  EXPECT_EQ(refused.code(), absl::StatusCode::kInvalidArgument) << refused;
  EXPECT_NE(refused.message().find("start_at_agent_realtime_ns"), std::string::npos) << refused;
  EXPECT_NE(refused.message().find("at most 600 s (10 minutes) ahead"), std::string::npos)
      << refused;
  EXPECT_EQ(runner.Proceed("s", 0, hour_ahead).status().code(), absl::StatusCode::kInvalidArgument);
  // The refusal left the run prepared: it still runs.
  EXPECT_TRUE(runner.Run("s", 0, sink).ok());
  EXPECT_EQ(sink.results, 1);
  ASSERT_TRUE(runner.Cleanup("s", true).ok());
}

TEST(RunnerStartTest, ACancelBeforeTheStartInstantEndsTheRunWithNothingMeasured) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner;
  std::vector<JobRequest> jobs = Jobs(dir.path(), "1s");
  jobs.resize(4);
  jobs[1].name = "md";
  jobs[1].workload = "metadata";
  jobs[1].options = {{"directory", dir.path()}, {"files", "10"}};
  jobs[2].name = "sf";
  jobs[2].workload = "small_files";
  jobs[2].options = {{"directory", dir.path()}, {"filesizes", "4k"}, {"files", "3"}};
  jobs[3].name = "ls";
  jobs[3].workload = "large_stream";
  jobs[3].options = {{"directory", dir.path()}, {"size", "256k"}, {"bs", "64k"}};
  ASSERT_TRUE(runner.Prepare("c", jobs, 1'000'000'000).ok());
  struct OpsSink : CountingSink {
    bool OnResult(const JobResult& r) override {
      for (const auto& stats : r.by_kind) {
        if (stats != nullptr) ops += stats->ops + stats->errors;
      }
      return CountingSink::OnResult(r);
    }
    uint64_t ops = 0;
  } sink;
  // Far enough ahead that a run which waited for its start could not end before it.
  const int64_t start = RealtimeNanos() + 30'000'000'000;
  absl::Status status;
  std::atomic<bool> returned{false};
  std::thread run([&] {
    status = runner.Run("c", start, sink);
    returned.store(true);
  });
  while (!returned.load() && !runner.Cancel("c")) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  run.join();
  EXPECT_TRUE(status.ok()) << status;
  EXPECT_TRUE(sink.cancelled);
  EXPECT_EQ(sink.ops, 0u) << "a run cancelled before its start measures nothing";
  EXPECT_LT(RealtimeNanos(), start) << "the cancel ended the wait for the start instant";
  ASSERT_TRUE(runner.Cleanup("c", true).ok());
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

// A Prepare that lays out 128 MiB of data on the local disk (with fsync), so that it is still at
// work when the test, seeing its file appear, sends another request.
std::vector<JobRequest> SlowLayout(const std::string& dir) {
  JobRequest job;
  job.name = "slow";
  job.options = {{"rw", "read"}, {"size", "128m"}, {"directory", dir}};
  return {job};
}

// False when the first Prepare has not created its file within 60 s (it failed early).
bool WaitForLayoutToStart(const std::string& dir) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (!std::filesystem::exists(dir + "/slow.0.0")) {
    if (std::chrono::steady_clock::now() > deadline) return false;
    std::this_thread::sleep_for(std::chrono::microseconds(100));
  }
  return true;
}

TEST(RunnerPrepareTest, TwoConcurrentPreparesOfOneRunIdPrepareItOnceAndGiveTheSameAnswer) {
  TempDir dir(testing::kDiskBase);
  Runner runner;
  absl::StatusOr<PrepareOutcome> first = absl::UnknownError("not run");
  std::thread retry_source(
      [&] { first = runner.Prepare("p", SlowLayout(dir.path()), 1'000'000'000); });
  if (!WaitForLayoutToStart(dir.path())) {
    retry_source.join();
    FAIL() << "the first Prepare never started its layout: " << first.status();
  }
  // The coordinator's retry of a Prepare whose connection broke while the agent worked on it.
  absl::StatusOr<PrepareOutcome> second =
      runner.Prepare("p", SlowLayout(dir.path()), 1'000'000'000);
  retry_source.join();
  ASSERT_TRUE(first.ok()) << first.status();
  ASSERT_TRUE(second.ok()) << second.status();
  ASSERT_EQ(first->files.size(), 1u);
  ASSERT_EQ(second->files.size(), 1u);
  EXPECT_EQ(second->files[0].path, first->files[0].path);
  EXPECT_EQ(std::filesystem::file_size(first->files[0].path), 128u << 20) << "laid out whole";

  // Another request under the same id is refused.
  absl::StatusOr<PrepareOutcome> other = runner.Prepare("p", Jobs(dir.path(), "1s"), 1'000'000'000);
  EXPECT_EQ(other.status().code(), absl::StatusCode::kAlreadyExists) << other.status();
  EXPECT_NE(other.status().message().find("with other jobs"), std::string::npos) << other.status();

  // One run is held, and one Cleanup removes it and its file.
  ASSERT_TRUE(runner.Cleanup("p", true).ok());
  EXPECT_EQ(runner.Cleanup("p", true).status().code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

TEST(RunnerPrepareTest, ARunBeingPreparedCountsAgainstMaxConcurrentRuns) {
  TempDir dir(testing::kDiskBase);
  TempDir other_dir(testing::kTmpfsBase);
  Runner runner(RunnerConfig{.max_concurrent_runs = 1});
  absl::StatusOr<PrepareOutcome> first = absl::UnknownError("not run");
  std::thread slow([&] { first = runner.Prepare("a", SlowLayout(dir.path()), 1'000'000'000); });
  if (!WaitForLayoutToStart(dir.path())) {
    slow.join();
    FAIL() << "the first Prepare never started its layout: " << first.status();
  }
  absl::StatusOr<PrepareOutcome> second =
      runner.Prepare("b", Jobs(other_dir.path(), "1s"), 1'000'000'000);
  slow.join();
  ASSERT_TRUE(first.ok()) << first.status();
  EXPECT_EQ(second.status().code(), absl::StatusCode::kResourceExhausted) << second.status();
  EXPECT_EQ(FilesIn(other_dir.path()), 0u);
  ASSERT_TRUE(runner.Cleanup("a", true).ok());
}

TEST(RunnerPrepareTest, AFailedPrepareFreesItsRunId) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner(RunnerConfig{.max_concurrent_runs = 1});
  absl::StatusOr<PrepareOutcome> failed =
      runner.Prepare("f", Jobs(dir.path() + "/missing/deeper", "1s"), 1'000'000'000);
  ASSERT_FALSE(failed.ok());
  absl::StatusOr<PrepareOutcome> ok = runner.Prepare("f", Jobs(dir.path(), "1s"), 1'000'000'000);
  ASSERT_TRUE(ok.ok()) << ok.status();
  ASSERT_TRUE(runner.Cleanup("f", true).ok());
}

// fio's create_serialize: the jobs with 1 lay out first, in their order, then those with 0. Each
// job here fills 32 MiB, so the file laid out last was written last (its mtime is the later one).
TEST(RunnerPrepareTest, JobsWithCreateSerializeZeroLayOutAfterTheOthers) {
  TempDir dir(testing::kDiskBase);
  ASSERT_TRUE(dir.ok());
  Runner runner;
  for (const std::string serialize : {"1", "0"}) {
    SCOPED_TRACE("a: create_serialize=" + serialize);
    std::vector<JobRequest> jobs(2);
    jobs[0].name = "a";
    jobs[0].options = {{"rw", "read"},
                       {"size", "32m"},
                       {"directory", dir.path()},
                       {"create_serialize", serialize}};
    jobs[1].name = "b";
    jobs[1].options = {{"rw", "read"}, {"size", "32m"}, {"directory", dir.path()}};
    absl::StatusOr<PrepareOutcome> prepared = runner.Prepare("s", jobs, 1'000'000'000);
    ASSERT_TRUE(prepared.ok()) << prepared.status();
    const auto a = std::filesystem::last_write_time(dir.File("a.0.0"));
    const auto b = std::filesystem::last_write_time(dir.File("b.0.0"));
    if (serialize == "1") {
      EXPECT_LT(a, b) << "a is laid out first, in the jobs' order";
    } else {
      EXPECT_LT(b, a) << "b (create_serialize=1) is laid out before a";
    }
    ASSERT_TRUE(runner.Cleanup("s", true).ok());
    ASSERT_FALSE(std::filesystem::exists(dir.File("a.0.0")));
  }
}

}  // namespace
}  // namespace azbench

namespace azbench {
namespace {

TEST(RunnerLeaseTest, APreparedRunThatNeverStartsExpiresAndItsFilesAreRemoved) {
  TempDir dir(testing::kTmpfsBase);
  // No background thread: the test moves time by passing "now" to ReapExpired.
  Runner runner(
      RunnerConfig{.prepared_lease = absl::Seconds(1), .reap_interval = absl::ZeroDuration()});
  ASSERT_TRUE(runner.Prepare("p", Jobs(dir.path(), "1s"), 1'000'000'000).ok());
  ASSERT_GT(FilesIn(dir.path()), 0u);
  EXPECT_TRUE(runner.ReapExpired(MonotonicNanos()).empty()) << "the lease has not ended yet";
  // Renewed for an hour: still there two seconds later.
  ASSERT_TRUE(runner.Renew("p", absl::Hours(1)).ok());
  EXPECT_TRUE(runner.ReapExpired(MonotonicNanos() + 2'000'000'000ULL).empty());
  EXPECT_GT(FilesIn(dir.path()), 0u);
  // Past the renewed lease: forgotten, files removed, Run and Renew say so.
  EXPECT_EQ(runner.ReapExpired(MonotonicNanos() + 3601'000'000'000ULL),
            std::vector<std::string>{"p"});
  EXPECT_EQ(FilesIn(dir.path()), 0u);
  CountingSink sink;
  EXPECT_EQ(runner.Run("p", 0, sink).code(), absl::StatusCode::kNotFound);
  EXPECT_EQ(runner.Renew("p").code(), absl::StatusCode::kNotFound);
}

TEST(RunnerLeaseTest, ARunningRunNeverExpiresAndAFinishedOneWaitsForCleanupOnlyForTheLease) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner(
      RunnerConfig{.prepared_lease = absl::Seconds(1), .reap_interval = absl::ZeroDuration()});
  ASSERT_TRUE(runner.Prepare("r", Jobs(dir.path(), "300ms"), 1'000'000'000).ok());
  // The run holds in OnStarted (it is running then) until the test has tried to reap it.
  struct HeldSink : CountingSink {
    bool OnStarted(int64_t) override {
      started.Notify();
      reaped.WaitForNotification();
      return true;
    }
    absl::Notification started, reaped;
  } sink;
  std::thread run([&] { EXPECT_TRUE(runner.Run("r", 0, sink).ok()); });
  // While it runs, even a "now" far in the future reaps nothing.
  sink.started.WaitForNotification();
  EXPECT_TRUE(runner.ReapExpired(MonotonicNanos() + 3600'000'000'000ULL).empty());
  sink.reaped.Notify();
  run.join();
  // Finished and never cleaned up (the coordinator died after the run): expires like a prepared
  // one.
  EXPECT_TRUE(runner.ReapExpired(MonotonicNanos()).empty());
  EXPECT_EQ(runner.ReapExpired(MonotonicNanos() + 2'000'000'000ULL), std::vector<std::string>{"r"});
  EXPECT_EQ(FilesIn(dir.path()), 0u);
}

TEST(RunnerLeaseTest, TheBackgroundThreadReapsWithoutBeingAsked) {
  TempDir dir(testing::kTmpfsBase);
  Runner runner(RunnerConfig{.prepared_lease = absl::Milliseconds(50),
                             .reap_interval = absl::Milliseconds(10)});
  ASSERT_TRUE(runner.Prepare("t", Jobs(dir.path(), "1s"), 1'000'000'000).ok());
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
  while (FilesIn(dir.path()) > 0 && std::chrono::steady_clock::now() < deadline) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  EXPECT_EQ(FilesIn(dir.path()), 0u);
  EXPECT_EQ(runner.Renew("t").code(), absl::StatusCode::kNotFound);
}

}  // namespace
}  // namespace azbench
