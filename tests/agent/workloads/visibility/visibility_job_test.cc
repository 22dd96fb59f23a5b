#include "agent/workloads/visibility/visibility_job.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/time/clock.h"
#include "agent/workloads/visibility/probe_clock.h"
#include "agent/workloads/visibility/visibility.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

TEST(VisibilityJobTest, PrepareTakesTheDirectoryAndIgnoresFioRuntimeKeysWithAWarning) {
  absl::StatusOr<VisibilityJob> job = PrepareVisibilityJob(
      "export", {{"probe", "export"}, {"bucket", "b"}, {"directory", "/mnt/s3"}, {"runtime", "5s"}},
      "local-1");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->directory, "/mnt/s3");
  EXPECT_EQ(job->spec.target.rel_dir, "azbench-visibility/local-1");  // keys stay mappable
  ASSERT_EQ(job->warnings.size(), 1u);
  EXPECT_THAT(job->warnings[0], HasSubstr("runtime does not apply"));
}

TEST(VisibilityJobTest, WriterAndReaderRolesShareOneDirectory) {
  absl::StatusOr<VisibilityJob> job = PrepareVisibilityJob(
      "c2c", {{"probe", "client_to_client"}, {"role", "reader"}, {"directory", "/mnt/x"}},
      "local-2");
  ASSERT_TRUE(job.ok()) << job.status();
  EXPECT_EQ(job->spec.target.rel_dir, "azbench-visibility");
}

TEST(VisibilityJobTest, AReaderThatIsItsOwnWriterIsNotCalledCrossClient) {
  testing::TempDir dir;
  const std::string mountinfo = dir.File("mountinfo");
  std::ofstream(mountinfo) << "";
  absl::StatusOr<VisibilityJob> job = PrepareVisibilityJob("c2c",
                                                           {{"probe", "client_to_client"},
                                                            {"trials", "1"},
                                                            {"poll_interval", "10ms"},
                                                            {"directory", dir.path()}},
                                                           "local-1");
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<VisibilityJobOutput> out = RunVisibilityJob(*job, nullptr, 0, {}, mountinfo);
  ASSERT_TRUE(out.ok()) << out.status();
  int notes = 0;
  for (const std::string& w : out->result.warnings) {
    notes += w.rfind("client_to_client: NOT cross-client visibility", 0) == 0;
  }
  EXPECT_EQ(notes, 1) << "the result, which the report shows, must say so";
  // A second view of the data (read_dir), or a split writer/reader, is cross-client.
  for (const auto& extra : std::vector<std::pair<std::string, std::string>>{
           {"read_dir", dir.path()}, {"role", "writer"}, {"role", "reader"}}) {
    job = PrepareVisibilityJob(
        "c2c", {{"probe", "client_to_client"}, {"directory", dir.path()}, extra}, "local-1");
    ASSERT_TRUE(job.ok()) << job.status();
    for (const std::string& w : job->warnings) {
      EXPECT_THAT(w, ::testing::Not(HasSubstr("NOT cross-client"))) << extra.first;
    }
  }
}

TEST(VisibilityJobTest, ErrorsNameTheJob) {
  absl::Status missing_dir =
      PrepareVisibilityJob("j1", {{"probe", "export"}, {"bucket", "b"}}, "").status();
  EXPECT_THAT(std::string(missing_dir.message()),
              HasSubstr("job 'j1': visibility needs a directory"));
  absl::Status bad =
      PrepareVisibilityJob("j2", {{"probe", "nope"}, {"directory", "/d"}}, "").status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.message()), HasSubstr("job 'j2': visibility option probe=nope"));
}

TEST(VisibilityJobTest, RunRecordsTheMountOptionsAndTheProbeHistogram) {
  testing::TempDir dir;
  // A mountinfo fixture whose entry holds the temp dir, with NFS-like options.
  const std::string mountinfo = dir.File("mountinfo");
  std::ofstream(mountinfo) << "36 1 0:40 / " << dir.path()
                           << " rw,relatime shared:1 - nfs4 fs-1.example:/ rw,vers=4.2,noac\n";
  absl::StatusOr<VisibilityJob> job = PrepareVisibilityJob("c2c",
                                                           {{"probe", "client_to_client"},
                                                            {"trials", "3"},
                                                            {"spacing", "0s"},
                                                            {"poll_interval", "10ms"},
                                                            {"directory", dir.path()}},
                                                           "local-1");
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<VisibilityJobOutput> out = RunVisibilityJob(*job, nullptr, 0, {}, mountinfo);
  ASSERT_TRUE(out.ok()) << out.status();
  EXPECT_EQ(out->result.name, "c2c");
  const OpStats* probe = out->result.Find(OpKind::kProbe);
  ASSERT_NE(probe, nullptr);
  EXPECT_EQ(probe->ops, 3u);
  EXPECT_EQ(out->records.size(), 3u);
  bool mount_recorded = false;
  for (const std::string& w : out->result.warnings) {
    mount_recorded = mount_recorded || (w.find("nfs4 fs-1.example:/") != std::string::npos &&
                                        w.find("noac") != std::string::npos);
  }
  EXPECT_TRUE(mount_recorded);
  EXPECT_GT(out->result.end_realtime_ns, out->result.start_realtime_ns);
}

// A client_to_client reader's directory is made by the writer, on another client, perhaps after
// the reader prepared (and over NFS this client may see it late): missing then means "not
// visible yet", looked for again on each poll -- a missing component, and a symlink appearing
// there later is refused (a poll error), never followed.
VisibilityJob PreparedReader(const std::string& directory) {
  absl::StatusOr<VisibilityJob> job = PrepareVisibilityJob("c2c",
                                                           {{"probe", "client_to_client"},
                                                            {"role", "reader"},
                                                            {"run_id", "r1"},
                                                            {"trials", "1"},
                                                            {"read_method", "readdir"},
                                                            {"poll_interval", "10ms"},
                                                            {"timeout", "3s"},
                                                            {"directory", directory}},
                                                           "local-2");
  EXPECT_TRUE(job.ok()) << job.status();
  return job.ok() ? *std::move(job) : VisibilityJob();
}

TEST(VisibilityJobTest, AReaderWhoseDirectoryDoesNotExistYetSeesTheFileOnceItIsMade) {
  testing::TempDir dir;
  const std::string mountinfo = dir.File("mountinfo");
  std::ofstream(mountinfo) << "";
  const std::string shared = dir.File("export/run-1");  // neither component exists yet
  VisibilityJob job = PreparedReader(shared);
  const absl::Status opened = OpenVisibilityDirs(job, {});
  ASSERT_TRUE(opened.ok()) << opened;
  std::atomic<int64_t> made_ns{0};
  std::thread writer([&] {
    absl::SleepFor(absl::Milliseconds(200));
    made_ns = absl::ToUnixNanos(absl::Now());  // the probe's clock: realtime
    std::filesystem::create_directories(shared);
    std::ofstream(shared + "/r1-c2c-1") << "x";
  });
  absl::StatusOr<VisibilityJobOutput> out = RunVisibilityJob(job, nullptr, 0, {}, mountinfo);
  writer.join();
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->probe.trials.size(), 1u);
  const TrialOutcome& trial = out->probe.trials[0];
  EXPECT_EQ(trial.state, TrialState::kVisible) << trial.error;
  EXPECT_EQ(trial.poll_errors, 0);
  // Seen only once it existed (order, not timing: the writer thread may run late).
  EXPECT_GE(trial.visible_at, absl::FromUnixNanos(made_ns.load()));
}

TEST(VisibilityJobTest, ASymlinkAppearingWhereTheReadersDirectoryGoesIsRefused) {
  testing::TempDir dir;
  const std::string mountinfo = dir.File("mountinfo");
  std::ofstream(mountinfo) << "";
  std::filesystem::create_directories(dir.File("outside"));
  std::ofstream(dir.File("outside/r1-c2c-1")) << "x";
  std::filesystem::create_directories(dir.File("export"));
  const std::string shared = dir.File("export/run-1");
  VisibilityJob job = PreparedReader(shared);
  job.spec.schedule.timeout = absl::Milliseconds(500);
  const absl::Status opened = OpenVisibilityDirs(job, {});
  ASSERT_TRUE(opened.ok()) << opened;
  // Planted after the directories were opened (Prepare), before the trial polls.
  std::filesystem::create_directory_symlink(dir.File("outside"), shared);
  absl::StatusOr<VisibilityJobOutput> out = RunVisibilityJob(job, nullptr, 0, {}, mountinfo);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->probe.trials.size(), 1u);
  const TrialOutcome& trial = out->probe.trials[0];
  EXPECT_NE(trial.state, TrialState::kVisible);
  EXPECT_GT(trial.poll_errors, 0);
  EXPECT_THAT(trial.error, HasSubstr("is a symlink"));
}

// The reader's directory is the writer's to make (on another client): one that does not exist when
// the reader starts is "not visible yet", looked for on each poll, until the writer makes it.
TEST(ClientToClientProbeTest, AReaderStartedBeforeItsDirectoryExistsSeesItOnceMade) {
  testing::TempDir dir;
  ClientToClientOptions o;
  o.write_dir = dir.File("made/later");
  o.read_dir = o.write_dir;
  o.read_method = VisibilityReadMethod::kOpenRead;
  o.schedule = {2, absl::Milliseconds(100), absl::Milliseconds(10), absl::Seconds(5)};
  const absl::Time start_at = absl::Now();
  absl::StatusOr<std::vector<TrialOutcome>> written, read;
  std::thread writer([&] {
    RealProbeClock clock;
    written = RunClientToClientWriter(o, start_at + absl::Milliseconds(300), clock);
  });
  RealProbeClock clock;
  read = RunClientToClientReader(o, start_at, clock);
  writer.join();
  ASSERT_TRUE(written.ok()) << written.status();
  ASSERT_TRUE(read.ok()) << read.status();
  for (const TrialOutcome& t : *read) {
    EXPECT_EQ(t.state, TrialState::kVisible) << t.error;
    EXPECT_EQ(t.poll_errors, 0) << t.error;
  }
}

// With allowed roots a reader's missing directory is looked for beneath the root it would be in;
// one outside the roots is still refused at Prepare.
TEST(VisibilityJobTest, AReadersMissingDirectoryIsStillConfinedToTheAllowedRoots) {
  testing::TempDir dir;
  const std::string root = dir.File("root");
  std::filesystem::create_directories(root);
  VisibilityJob inside = PreparedReader(root + "/later/run-1");
  const absl::Status opened = OpenVisibilityDirs(inside, {root});
  ASSERT_TRUE(opened.ok()) << opened;
  EXPECT_TRUE(inside.dirs.read_pending.valid());
  EXPECT_EQ(inside.dirs.read_pending.rest, "later/run-1");
  VisibilityJob outside = PreparedReader(dir.File("elsewhere/run-1"));
  EXPECT_FALSE(OpenVisibilityDirs(outside, {root}).ok());
}

// With the agent's allowed roots the probe's directories are opened through the sandbox: a
// directory or read_dir outside them (or leaving them through a symlink) is refused, naming the
// field; inside them the job gets them open.
TEST(VisibilityJobTest, WithAllowedRootsTheDirectoriesAreOpenedThroughTheSandbox) {
  testing::TempDir dir;
  const std::string root = dir.File("root");
  std::filesystem::create_directories(root + "/target");
  std::filesystem::create_directories(dir.File("outside"));
  std::filesystem::create_directory_symlink(dir.File("outside"), root + "/escape");
  auto open = [&](const std::string& directory, const std::string& read_dir) {
    std::vector<std::pair<std::string, std::string>> options = {{"probe", "client_to_client"},
                                                                {"directory", directory}};
    if (!read_dir.empty()) options.emplace_back("read_dir", read_dir);
    absl::StatusOr<VisibilityJob> job = PrepareVisibilityJob("c2c", options, "");
    EXPECT_TRUE(job.ok()) << job.status();
    if (!job.ok()) return std::make_pair(job.status(), VisibilityJob());
    absl::Status s = OpenVisibilityDirs(*job, {root, dir.File("no-such-root")});
    return std::make_pair(s, *std::move(job));
  };
  auto [ok, job] = open(root + "/target", root);
  ASSERT_TRUE(ok.ok()) << ok;
  EXPECT_TRUE(job.dirs.directory.valid());
  EXPECT_TRUE(job.dirs.read_dir.valid());
  for (const auto& [directory, read_dir, field] :
       {std::tuple<std::string, std::string, std::string>{dir.File("outside"), "", "directory"},
        {root + "/escape", "", "directory"},
        {root + "/target", root + "/escape", "read_dir"}}) {
    const absl::Status refused = open(directory, read_dir).first;
    EXPECT_EQ(refused.code(), absl::StatusCode::kPermissionDenied) << refused;
    EXPECT_THAT(std::string(refused.message()), HasSubstr("job 'c2c': " + field + ": "));
  }
}

}  // namespace
}  // namespace azbench
