#include "agent/workloads/metadata/metadata.h"

#include <sys/stat.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <string>
#include <thread>

#include "common/clock.h"
#include "gtest/gtest.h"
#include "tests/testing/phase_log.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using testing::kTmpfsBase;
using testing::TempDir;

MetadataSpec Spec(const std::string& dir, uint64_t files, int dirs, int numjobs) {
  MetadataSpec spec;
  spec.name = "md";
  spec.directory = dir;
  spec.files = files;
  spec.dirs = dirs;
  spec.numjobs = numjobs;
  return spec;
}

std::vector<JobResult> RunOk(MetadataJob& job, const RunControl& control = RunControl{}) {
  absl::StatusOr<std::vector<JobResult>> results = job.Run(control);
  EXPECT_TRUE(results.ok()) << results.status();
  return results.ok() ? std::move(*results) : std::vector<JobResult>{};
}

size_t EntriesUnder(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::recursive_directory_iterator(dir)) ++n;
  return n;
}

size_t FilesIn(const std::string& dir) {
  size_t n = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
  return n;
}

TEST(MetadataTest, EveryPhaseCountsExactlyOneOpPerFileOfEveryClone) {
  TempDir dir(kTmpfsBase);
  ASSERT_TRUE(dir.ok());
  MetadataSpec spec = Spec(dir.path(), 50, 4, 2);
  spec.write_bytes = 3000;
  spec.read_bytes = 1000;
  absl::StatusOr<std::unique_ptr<MetadataJob>> job = MetadataJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  std::vector<JobResult> results = RunOk(**job);
  ASSERT_EQ(results.size(), 6u);
  const std::vector<std::pair<std::string, OpKind>> expected = {
      {"md.create", OpKind::kCreate}, {"md.stat", OpKind::kStat},
      {"md.open", OpKind::kOpen},     {"md.read", OpKind::kRead},
      {"md.rename", OpKind::kRename}, {"md.delete", OpKind::kUnlink}};
  for (size_t i = 0; i < expected.size(); ++i) {
    const JobResult& r = results[i];
    EXPECT_EQ(r.name, expected[i].first);
    EXPECT_EQ(r.clones, 2);
    EXPECT_EQ(r.cpu.threads, 2u) << r.name << ": each clone thread's CPU is measured";
    const OpStats* stats = r.Find(expected[i].second);
    ASSERT_NE(stats, nullptr) << r.name;
    EXPECT_EQ(stats->ops, 100u) << r.name;
    EXPECT_EQ(r.depth.level[0], 100u) << r.name << ": sync ops, all at depth 1";
    EXPECT_EQ(stats->errors, 0u) << r.name << ": " << r.error_message;
    EXPECT_EQ(stats->lat.count(), 100u) << r.name;
    int kinds = 0;
    for (const auto& k : r.by_kind) kinds += k ? 1 : 0;
    EXPECT_EQ(kinds, 1) << r.name << " carries only its own op kind";
  }
  EXPECT_EQ(results[0].Find(OpKind::kCreate)->bytes, 100u * 3000u);
  EXPECT_EQ(results[3].Find(OpKind::kRead)->bytes, 100u * 1000u);
  EXPECT_EQ(results[1].Find(OpKind::kStat)->bytes, 0u);
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_EQ(EntriesUnder(dir.path()), 0u) << "delete removed the files, cleanup the directories";
}

TEST(MetadataTest, UniqueTreesSpreadFilesRoundRobinOverTheDirectories) {
  TempDir dir(kTmpfsBase);
  MetadataSpec spec = Spec(dir.path(), 10, 3, 1);
  spec.phases = {MetadataPhase::kCreate};
  auto job = MetadataJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  RunOk(**job);
  const std::string tree = dir.path() + "/md.md/a0.c0";
  EXPECT_EQ(FilesIn(tree + "/d0"), 4u);  // files 0, 3, 6, 9
  EXPECT_EQ(FilesIn(tree + "/d1"), 3u);
  EXPECT_EQ(FilesIn(tree + "/d2"), 3u);
  struct stat st;
  ASSERT_EQ(stat((*job)->FilePath(0, 0, 9, false).c_str(), &st), 0);
  EXPECT_EQ(static_cast<uint64_t>(st.st_size), spec.write_bytes);
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_EQ(EntriesUnder(dir.path()), 0u);
}

TEST(MetadataTest, SharedDirectoriesHoldTheFilesOfEveryAgentAndClone) {
  TempDir dir(kTmpfsBase);
  MetadataSpec a = Spec(dir.path(), 8, 2, 2);
  a.shared_dirs = true;
  a.phases = {MetadataPhase::kCreate};
  a.agent_count = 2;
  MetadataSpec b = a;
  b.agent_index = 1;
  auto job_a = MetadataJob::Prepare(a);
  auto job_b = MetadataJob::Prepare(b);
  ASSERT_TRUE(job_a.ok() && job_b.ok());
  RunOk(**job_a);
  RunOk(**job_b);
  // 2 agents x 2 clones x 8 files over 2 shared directories.
  EXPECT_EQ(FilesIn(dir.path() + "/md.md/d0"), 16u);
  EXPECT_EQ(FilesIn(dir.path() + "/md.md/d1"), 16u);
  ASSERT_TRUE((*job_a)->RemoveCreatedFiles().ok());
  EXPECT_EQ(FilesIn(dir.path() + "/md.md/d0"), 8u) << "b's files stay until b cleans up";
  ASSERT_TRUE((*job_b)->RemoveCreatedFiles().ok());
  EXPECT_EQ(EntriesUnder(dir.path()), 0u) << "the last agent out removes the shared directories";
}

TEST(MetadataTest, StrideStatsTheFilesAnotherAgentCreated) {
  TempDir dir(kTmpfsBase);
  MetadataSpec a = Spec(dir.path(), 20, 2, 1);
  a.agent_count = 2;
  a.phases = {MetadataPhase::kCreate};
  auto job_a = MetadataJob::Prepare(a);
  ASSERT_TRUE(job_a.ok()) << job_a.status();
  RunOk(**job_a);  // agent 0 creates its 20 files

  // Agent 1 creates its own files too, then (stride 1) stats, opens and reads agent 0's.
  MetadataSpec b = a;
  b.agent_index = 1;
  b.stride = 1;
  b.phases = {MetadataPhase::kCreate, MetadataPhase::kStat, MetadataPhase::kRead};
  auto job_b = MetadataJob::Prepare(b);
  ASSERT_TRUE(job_b.ok());
  std::vector<JobResult> rb = RunOk(**job_b);
  ASSERT_EQ(rb.size(), 3u);
  EXPECT_EQ(rb[1].Find(OpKind::kStat)->ops, 20u);
  EXPECT_EQ(rb[1].Find(OpKind::kStat)->errors, 0u);
  EXPECT_EQ(rb[2].Find(OpKind::kRead)->bytes, 20u * b.read_bytes);

  // Without agent 0's files, the same strided phases fail on every file: the stat really went to
  // agent 0's paths, not agent 1's own (which still exist).
  ASSERT_TRUE((*job_a)->RemoveCreatedFiles().ok());
  ASSERT_TRUE((*job_b)->RemoveCreatedFiles().ok());
  MetadataSpec c = b;
  auto job_c = MetadataJob::Prepare(c);
  ASSERT_TRUE(job_c.ok());
  std::vector<JobResult> rc = RunOk(**job_c);
  ASSERT_EQ(rc.size(), 3u);
  EXPECT_EQ(rc[0].Find(OpKind::kCreate)->ops, 20u);
  EXPECT_EQ(rc[1].Find(OpKind::kStat)->ops, 0u);
  EXPECT_EQ(rc[1].Find(OpKind::kStat)->errors, 20u);
  EXPECT_EQ(rc[1].error_errno, ENOENT);
  EXPECT_NE(rc[1].error_message.find("md.md/a0.c0/"), std::string::npos) << rc[1].error_message;
  ASSERT_TRUE((*job_c)->RemoveCreatedFiles().ok());
  EXPECT_EQ(EntriesUnder(dir.path()), 0u);
}

TEST(MetadataTest, StonewallStopsCreateEarlyAndLaterPhasesTouchOnlyTheCreatedFiles) {
  TempDir dir(kTmpfsBase);
  MetadataSpec spec = Spec(dir.path(), 5'000'000, 8, 1);
  spec.write_bytes = 0;
  spec.read_bytes = 0;
  spec.phases = {MetadataPhase::kCreate, MetadataPhase::kStat};
  spec.stonewall = absl::Milliseconds(30);
  auto job = MetadataJob::Prepare(spec);
  ASSERT_TRUE(job.ok());
  std::vector<JobResult> r = RunOk(**job);
  ASSERT_EQ(r.size(), 2u);
  const uint64_t created = r[0].Find(OpKind::kCreate)->ops;
  EXPECT_GT(created, 0u);
  EXPECT_LT(created, spec.files) << "5 million creates cannot finish in 30 ms";
  EXPECT_LE(r[1].Find(OpKind::kStat)->ops, created);
  EXPECT_EQ(r[1].Find(OpKind::kStat)->errors, 0u) << "stat never looks for files not created";
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_EQ(EntriesUnder(dir.path()), 0u) << "cleanup removes what the cut-short phases left";
}

TEST(MetadataTest, AwaitPhaseIsCalledBetweenPhasesAndCancellationEndsTheRun) {
  TempDir dir(kTmpfsBase);
  MetadataSpec spec = Spec(dir.path(), 5, 1, 1);
  auto job = MetadataJob::Prepare(spec);
  ASSERT_TRUE(job.ok());
  RunControl control;
  std::vector<std::string> seen;
  control.await_phase = [&](int index, const std::string& phase) -> absl::StatusOr<uint64_t> {
    EXPECT_EQ(index, static_cast<int>(seen.size()));
    seen.push_back(phase);
    if (phase == "open") return absl::CancelledError("stop");
    return 0;
  };
  std::vector<JobResult> r = RunOk(**job, control);
  EXPECT_EQ(seen, (std::vector<std::string>{"create", "stat", "open"}));
  ASSERT_EQ(r.size(), 3u) << "the phases done before the cancel are reported";
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_EQ(EntriesUnder(dir.path()), 0u);
}

TEST(MetadataTest, MissingDirectoryIsAPreconditionError) {
  MetadataSpec spec = Spec("/var/tmp/azbench-no-such-dir/x", 5, 1, 1);
  auto job = MetadataJob::Prepare(spec);
  EXPECT_EQ(job.status().code(), absl::StatusCode::kFailedPrecondition) << job.status();
}

// The first interval's delivery (a congested coordinator stream) waits until the clone has done
// 1000 more creates. Delivered on the clone thread, as before the relay, it would wait for ever
// (here: 30 s, then the test fails); through the relay the creates go on meanwhile, and every
// interval is delivered before the phase reaches its barrier.
TEST(MetadataTest, CreatesGoOnWhileAnIntervalDeliveryIsBlocked) {
  TempDir dir(kTmpfsBase);
  MetadataSpec spec = Spec(dir.path(), 5'000'000, 8, 1);
  spec.write_bytes = 0;
  spec.read_bytes = 0;
  spec.phases = {MetadataPhase::kCreate, MetadataPhase::kDelete};
  spec.stonewall = absl::Milliseconds(300);
  auto job = MetadataJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  RunControl control;
  control.interval_ns = 50'000'000;
  bool progressed_while_blocked = false;
  std::map<std::string, int> delivered;
  int delivered_at_barrier = -1;
  control.on_interval = [&](const IntervalOrigin& origin, const IntervalStats&) {
    if (delivered[origin.result_name]++ > 0) return;
    if (origin.result_name != "md.create") return;
    const uint64_t ops_then = (*job)->ops_done();
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (std::chrono::steady_clock::now() < deadline) {
      if ((*job)->ops_done() >= ops_then + 1000) {
        progressed_while_blocked = true;
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
  };
  control.await_phase = [&](int, const std::string&) -> absl::StatusOr<uint64_t> {
    delivered_at_barrier = delivered["md.create"];
    return 0;
  };
  std::vector<JobResult> r = RunOk(**job, control);
  ASSERT_EQ(r.size(), 2u);
  EXPECT_TRUE(progressed_while_blocked) << "the clone stopped while its interval was delivered";
  EXPECT_EQ(delivered_at_barrier, static_cast<int>(r[0].intervals.size()))
      << "every interval of the create phase was delivered before its barrier";
  EXPECT_EQ(delivered["md.delete"], static_cast<int>(r[1].intervals.size()));
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_EQ(EntriesUnder(dir.path()), 0u);
}

// A barrier whose release came after the instant it names (a lost Proceed made again): the phase
// starts at once, says how late, and counts its runtime from when it started here.
TEST(MetadataTest, APhaseReleasedAfterItsInstantSaysHowLateItStarted) {
  TempDir dir(kTmpfsBase);
  MetadataSpec spec = Spec(dir.path(), 5, 1, 1);
  spec.phases = {MetadataPhase::kCreate, MetadataPhase::kStat, MetadataPhase::kDelete};
  auto job = MetadataJob::Prepare(spec);
  ASSERT_TRUE(job.ok());
  RunControl control;
  uint64_t released_at_ns = 0;
  control.await_phase = [&](int index, const std::string&) -> absl::StatusOr<uint64_t> {
    released_at_ns = MonotonicNanos();
    if (index == 0) return released_at_ns - 300'000'000;  // 300 ms late
    return 0;                                             // now: on time
  };
  std::vector<JobResult> r = RunOk(**job, control);
  ASSERT_EQ(r.size(), 3u);
  auto late_warning = [](const JobResult& result) {
    for (const std::string& w : result.warnings) {
      if (w.find("after the instant every agent was given") != std::string::npos) return w;
    }
    return std::string();
  };
  const std::string w = late_warning(r[1]);
  // At least the 300 ms it was late by; more when this thread woke later than that.
  const absl::StatusOr<absl::Duration> late = testing::PhaseStartedLateBy(w, "stat");
  ASSERT_TRUE(late.ok()) << late.status() << " in '" << w << "'";
  EXPECT_GE(*late, absl::Milliseconds(300)) << w;
  EXPECT_LT(*late, absl::Seconds(60)) << w;
  EXPECT_NE(w.find("ms after"), std::string::npos) << w;
  EXPECT_EQ(late_warning(r[0]), "");
  EXPECT_EQ(late_warning(r[2]), "") << "a release on time says nothing";
  EXPECT_LT(r[1].runtime_ns, 300'000'000u) << "the runtime counts from the actual start";
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
}

}  // namespace
}  // namespace azbench
