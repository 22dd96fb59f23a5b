#include "agent/workloads/visibility/visibility_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cerrno>
#include <cstdlib>
#include <thread>

#include "agent/workloads/visibility/visibility_result.h"
#include "tests/testing/s3_sync_fixture.h"
#include "tests/testing/s3rver_fixture.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(ParseVisibilityOptionsTest, StudyDDefaultsPerProbe) {
  absl::StatusOr<VisibilitySpec> exp =
      ParseVisibilityOptions({{"probe", "export"}, {"bucket", "b"}});
  ASSERT_TRUE(exp.ok()) << exp.status();
  EXPECT_EQ(exp->schedule.trials, 20);
  EXPECT_EQ(exp->schedule.spacing, absl::Seconds(5));
  EXPECT_EQ(exp->schedule.poll_interval, absl::Milliseconds(500));
  absl::StatusOr<VisibilitySpec> imp =
      ParseVisibilityOptions({{"probe", "import"}, {"bucket", "b"}});
  ASSERT_TRUE(imp.ok());
  EXPECT_EQ(imp->schedule.spacing, absl::Seconds(3));
  EXPECT_EQ(imp->schedule.poll_interval, absl::Milliseconds(200));
  absl::StatusOr<VisibilitySpec> app =
      ParseVisibilityOptions({{"probe", "append"}, {"bucket", "b"}});
  EXPECT_EQ(app->append_interval, absl::Seconds(5));
  EXPECT_EQ(app->append_duration, absl::Seconds(115));
  absl::StatusOr<VisibilitySpec> con =
      ParseVisibilityOptions({{"probe", "conflict"}, {"bucket", "b"}});
  EXPECT_EQ(con->put_delay, absl::Seconds(10));
  EXPECT_EQ(con->lost_found_pattern, ".s3files-lost+found-*");
}

TEST(ParseVisibilityOptionsTest, OverridesAndS3Settings) {
  absl::StatusOr<VisibilitySpec> s = ParseVisibilityOptions({{"probe", "client_to_client"},
                                                             {"trials", "3"},
                                                             {"poll_interval", "50ms"},
                                                             {"read_method", "readdir"},
                                                             {"fsync", "0"},
                                                             {"rename_into_place", "yes"},
                                                             {"size", "8k"}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->schedule.trials, 3);
  EXPECT_EQ(s->schedule.poll_interval, absl::Milliseconds(50));
  EXPECT_EQ(s->read_method, VisibilityReadMethod::kReaddir);
  EXPECT_FALSE(s->write.fsync);
  EXPECT_TRUE(s->write.rename_into_place);
  EXPECT_EQ(s->write.size_bytes, 8192u);
  absl::StatusOr<VisibilitySpec> e = ParseVisibilityOptions({{"probe", "export"},
                                                             {"bucket", "b"},
                                                             {"s3_endpoint", "http://127.0.0.1:1"},
                                                             {"s3_path_style", "true"},
                                                             {"s3_region", "eu-west-1"}});
  ASSERT_TRUE(e.ok()) << e.status();
  EXPECT_EQ(e->s3.endpoint, "http://127.0.0.1:1");
  EXPECT_TRUE(e->s3.path_style);
  EXPECT_EQ(e->s3.region, "eu-west-1");
}

TEST(ParseVisibilityOptionsTest, AnOptionTheProbeWouldIgnoreIsRefused) {
  absl::StatusOr<VisibilitySpec> s =
      ParseVisibilityOptions({{"probe", "append"}, {"bucket", "b"}, {"trials", "5"}});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.status().message()),
              HasSubstr("option trials does not apply to probe append"));
  s = ParseVisibilityOptions(
      {{"probe", "conflict"}, {"bucket", "b"}, {"put_delay", "3s"}, {"timeout", "2s"}});
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("put_delay=3s: must be less than"));
}

TEST(ParseVisibilityOptionsTest, ErrorsNameTheOptionAndWhatIsAllowed) {
  EXPECT_THAT(std::string(ParseVisibilityOptions({}).status().message()), HasSubstr("probe"));
  EXPECT_THAT(std::string(ParseVisibilityOptions({{"probe", "x"}}).status().message()),
              HasSubstr("allowed are client_to_client, export"));
  EXPECT_THAT(std::string(ParseVisibilityOptions({{"probe", "export"}}).status().message()),
              HasSubstr("needs option bucket"));
  EXPECT_THAT(std::string(ParseVisibilityOptions({{"probe", "client_to_client"}, {"pol", "1s"}})
                              .status()
                              .message()),
              HasSubstr("'pol' is unknown"));
  EXPECT_THAT(
      std::string(ParseVisibilityOptions({{"probe", "client_to_client"}, {"poll_interval", "0s"}})
                      .status()
                      .message()),
      HasSubstr("poll_interval=0s: must be > 0"));
  EXPECT_THAT(
      std::string(ParseVisibilityOptions({{"probe", "client_to_client"}, {"read_method", "ls"}})
                      .status()
                      .message()),
      HasSubstr("read_method=ls"));
}

TEST(ParseVisibilityOptionsTest, AKeyPrefixThatIsNotADirectoryIsRefused) {
  // "data" would make the keys "dataazbench-visibility/...", which the mount never shows.
  absl::StatusOr<VisibilitySpec> s =
      ParseVisibilityOptions({{"probe", "export"}, {"bucket", "b"}, {"key_prefix", "data"}});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.status().message()),
              HasSubstr("key_prefix=data: must be empty or end in '/'"));
  EXPECT_TRUE(
      ParseVisibilityOptions({{"probe", "export"}, {"bucket", "b"}, {"key_prefix", "data/"}}).ok());
  EXPECT_TRUE(
      ParseVisibilityOptions({{"probe", "export"}, {"bucket", "b"}, {"key_prefix", ""}}).ok());
}

TEST(ParseVisibilityOptionsTest, NfsUrlIsForClientToClientAndMustParse) {
  absl::StatusOr<VisibilitySpec> s = ParseVisibilityOptions(
      {{"probe", "client_to_client"}, {"nfs_url", "nfs://10.0.0.5/export?version=3"}});
  ASSERT_TRUE(s.ok()) << s.status();
  EXPECT_EQ(s->nfs_url, "nfs://10.0.0.5/export?version=3");
  s = ParseVisibilityOptions({{"probe", "client_to_client"}, {"nfs_url", "http://10.0.0.5/x"}});
  EXPECT_EQ(s.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.status().message()),
              AllOf(HasSubstr("nfs_url=http://10.0.0.5/x"), HasSubstr("nfs://")));
  // The S3 probes work on a mount: an NFS URL would be ignored by them, so it is refused.
  s = ParseVisibilityOptions(
      {{"probe", "export"}, {"bucket", "b"}, {"nfs_url", "nfs://10.0.0.5/export"}});
  EXPECT_THAT(std::string(s.status().message()),
              HasSubstr("option nfs_url does not apply to probe export"));
}

TEST(VisibilityResultTest, VisibleTrialsAreHistogrammedAndTimeoutsCountedWithTheirRecords) {
  VisibilityResult r;
  r.probe = "export";
  r.resolution = absl::Milliseconds(500);
  const absl::Time t0 = absl::FromUnixSeconds(1'800'000'000);
  TrialOutcome a;
  a.index = 0;
  a.state = TrialState::kVisible;
  a.started = t0;
  a.latency = absl::Seconds(62);
  TrialOutcome b;
  b.index = 1;
  b.state = TrialState::kTimedOut;
  b.started = t0 + absl::Seconds(5);
  b.last_miss_latency = absl::Seconds(180);
  r.trials = {a, b};
  JobResult job;
  // Record starts count from the job's start (here 1 s before the first trial).
  std::vector<OpRecord> records = AddVisibilityToJobResult(r, t0 - absl::Seconds(1), &job);
  const OpStats* stats = job.Find(OpKind::kProbe);
  ASSERT_NE(stats, nullptr);
  EXPECT_EQ(stats->ops, 1u);
  EXPECT_EQ(stats->errors, 1u);
  EXPECT_EQ(stats->lat.count(), 1u);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].latency_ns, 62'000'000'000u);
  EXPECT_EQ(records[0].start_ns, 1'000'000'000u);
  EXPECT_EQ(records[1].start_ns, 6'000'000'000u);
  EXPECT_EQ(records[1].error, ETIMEDOUT);
  ASSERT_FALSE(job.warnings.empty());
  EXPECT_THAT(job.warnings[0], HasSubstr("1 of 2 trials visible, 1 timed out"));
  EXPECT_THAT(job.warnings[0], HasSubstr("resolution 500ms"));
  // No timeout stated, no line; with one, the reports can bound the timed-out trials.
  EXPECT_THAT(job.warnings, ::testing::Not(::testing::Contains(HasSubstr("not visible within"))));
  r.timeout = absl::Seconds(180);
  JobResult with_timeout;
  AddVisibilityToJobResult(r, t0, &with_timeout);
  EXPECT_THAT(with_timeout.warnings,
              ::testing::Contains("visibility export: a trial not visible within 3m is timed out"));
}

TEST(VisibilityResultTest, APollIntervalCoarseAgainstTheMedianLatencyIsWarnedOf) {
  VisibilityResult r;
  r.probe = "c2c";
  r.resolution = absl::Milliseconds(500);
  for (absl::Duration latency :
       {absl::Milliseconds(300), absl::Milliseconds(700), absl::Milliseconds(900)}) {
    TrialOutcome t;
    t.index = static_cast<int>(r.trials.size());
    t.state = TrialState::kVisible;
    t.polls = 1;
    t.latency = latency;
    r.trials.push_back(t);
  }
  JobResult job;
  AddVisibilityToJobResult(r, absl::InfinitePast(), &job);
  EXPECT_THAT(job.warnings,
              ::testing::Contains(HasSubstr("visibility c2c: the poll interval (500ms) is coarse "
                                            "against the median latency (700ms)")));
  // The effect is 60 s: 500 ms of polling is small against it.
  for (TrialOutcome& t : r.trials) t.latency += absl::Seconds(60);
  JobResult slow;
  AddVisibilityToJobResult(r, absl::InfinitePast(), &slow);
  EXPECT_THAT(slow.warnings, ::testing::Not(::testing::Contains(HasSubstr("is coarse"))));
}

TEST(VisibilityResultTest, TheResolutionIsTheLongestGapBeforeASightingNotThePollInterval) {
  // Polls every 500 ms, but slow HeadObjects and serial polling of overlapping trials left 800 ms
  // between trial 0's last miss and its first sighting; trial 1 was seen at its first poll, 300 ms
  // after its start.
  VisibilityResult r;
  r.probe = "export";
  r.resolution = absl::Milliseconds(500);
  TrialOutcome a;
  a.state = TrialState::kVisible;
  a.polls = 5;
  a.latency = absl::Milliseconds(2800);
  a.last_miss_latency = absl::Milliseconds(2000);
  TrialOutcome b;
  b.index = 1;
  b.state = TrialState::kVisible;
  b.polls = 1;
  b.latency = absl::Milliseconds(300);
  r.trials = {a, b};
  JobResult job;
  AddVisibilityToJobResult(r, absl::InfinitePast(), &job);
  ASSERT_FALSE(job.warnings.empty());
  EXPECT_THAT(job.warnings[0], HasSubstr("latency resolution 800ms (the longest gap from a "
                                         "trial's last miss to its first sighting; poll interval "
                                         "500ms)"));
}

TEST(RunVisibilityTest, ClientToClientRunsOnTheTargetDirectory) {
  testing::TempDir dir;
  RealProbeClock clock;
  absl::StatusOr<VisibilitySpec> spec = ParseVisibilityOptions({{"probe", "client_to_client"},
                                                                {"trials", "2"},
                                                                {"spacing", "0s"},
                                                                {"poll_interval", "20ms"}});
  ASSERT_TRUE(spec.ok());
  absl::StatusOr<VisibilityResult> r = RunVisibility(*spec, dir.path(), nullptr, clock, {});
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->visible_count(), 2);
}

TEST(RunVisibilityTest, WriterAndReaderRolesOnOneStartInstantGiveTheDelayByRecordDifference) {
  const absl::Duration delay = absl::Milliseconds(600);
  // tmpfs: the writer's fsync is instant, so the mirror's delay (from the last change)
  // starts when the write completes.
  testing::TempDir writer_dir(testing::kTmpfsBase), reader_dir(testing::kTmpfsBase);
  testing::DelayedMirrorFixture mirror(writer_dir.path(), reader_dir.path(), delay);
  const std::vector<std::pair<std::string, std::string>> common = {
      {"probe", "client_to_client"}, {"trials", "2"},    {"spacing", "200ms"},
      {"poll_interval", "100ms"},    {"timeout", "10s"}, {"run_id", "pair"}};
  auto with = [&](std::vector<std::pair<std::string, std::string>> extra) {
    extra.insert(extra.end(), common.begin(), common.end());
    return ParseVisibilityOptions(extra);
  };
  absl::StatusOr<VisibilitySpec> writer = with({{"role", "writer"}});
  absl::StatusOr<VisibilitySpec> reader =
      with({{"role", "reader"}, {"read_dir", reader_dir.path()}});
  ASSERT_TRUE(writer.ok() && reader.ok());
  const absl::Time start_at = absl::Now() + absl::Milliseconds(100);
  absl::StatusOr<VisibilityResult> w;
  std::thread writer_agent([&] {
    RealProbeClock clock;
    w = RunVisibility(*writer, writer_dir.path(), nullptr, clock, {}, start_at);
  });
  RealProbeClock clock;
  absl::StatusOr<VisibilityResult> r =
      RunVisibility(*reader, "/nonexistent-unused", nullptr, clock, {}, start_at);
  writer_agent.join();
  ASSERT_TRUE(w.ok()) << w.status();
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(w->probe, "client_to_client_writer");
  EXPECT_EQ(r->probe, "client_to_client_reader");
  // What the coordinator does with the two agents' raw records: reader minus writer, per trial.
  JobResult wj, rj;
  std::vector<OpRecord> wr = AddVisibilityToJobResult(*w, start_at, &wj);
  std::vector<OpRecord> rr = AddVisibilityToJobResult(*r, start_at, &rj);
  ASSERT_EQ(wr.size(), 2u);
  ASSERT_EQ(rr.size(), 2u);
  for (size_t i = 0; i < 2; ++i) {
    ASSERT_EQ(rr[i].error, 0) << "trial " << i;
    // Both halves' trial i start at the same scheduled instant.
    EXPECT_EQ(wr[i].start_ns, rr[i].start_ns) << "trial " << i;
    const absl::Duration latency = absl::Nanoseconds(static_cast<int64_t>(rr[i].latency_ns) -
                                                     static_cast<int64_t>(wr[i].latency_ns));
    EXPECT_GE(latency, delay - absl::Milliseconds(50)) << "trial " << i;
    // Seen within the poll interval (100 ms) and a slack for a loaded machine after the mirror
    // made it visible (the mirror's own lateness is not the probe's error).
    const std::optional<absl::Time> mirrored =
        mirror.MirroredAt(absl::StrCat("pair-c2c-", i + 1));  // <run_id>-c2c-<1 + trial>
    ASSERT_TRUE(mirrored.has_value()) << "trial " << i;
    const absl::Time seen =
        start_at + absl::Nanoseconds(static_cast<int64_t>(rr[i].start_ns + rr[i].latency_ns));
    EXPECT_LE(seen, *mirrored + absl::Milliseconds(100) + absl::Milliseconds(600))
        << "trial " << i << " seen " << absl::FormatDuration(seen - *mirrored)
        << " after the mirror made it visible";
  }
  EXPECT_FALSE(ParseVisibilityOptions({{"probe", "client_to_client"}, {"role", "both"}}).ok());
}

TEST(RunVisibilityTest, ExportThroughOptionsUsesEnvironmentCredentialsAndEndpoint) {
  testing::S3rverProcess server("spec-bucket");
  if (!server.installed()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  testing::TempDir mount;
  setenv("AWS_ACCESS_KEY_ID", "S3RVER", 1);
  setenv("AWS_SECRET_ACCESS_KEY", "S3RVER", 1);
  s3::S3Client fixture_client({.endpoint = server.endpoint(), .path_style = true},
                              testing::S3rverCredentials());
  testing::S3SyncFixtureOptions sync_options;
  sync_options.dir = mount.path();
  sync_options.bucket = "spec-bucket";
  sync_options.export_inactivity = absl::Milliseconds(300);
  testing::S3SyncFixture sync(&fixture_client, sync_options);
  absl::StatusOr<VisibilitySpec> spec = ParseVisibilityOptions({{"probe", "export"},
                                                                {"bucket", "spec-bucket"},
                                                                {"trials", "2"},
                                                                {"spacing", "100ms"},
                                                                {"poll_interval", "100ms"},
                                                                {"timeout", "10s"},
                                                                {"s3_endpoint", server.endpoint()},
                                                                {"s3_path_style", "1"}});
  ASSERT_TRUE(spec.ok()) << spec.status();
  RealProbeClock clock;
  absl::StatusOr<VisibilityResult> r = RunVisibility(*spec, mount.path(), nullptr, clock, {});
  unsetenv("AWS_ACCESS_KEY_ID");
  unsetenv("AWS_SECRET_ACCESS_KEY");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->visible_count(), 2) << (r->trials.empty() ? "" : r->trials[0].error);
}

}  // namespace
}  // namespace azbench
