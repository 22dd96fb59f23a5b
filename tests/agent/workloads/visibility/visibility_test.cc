// Visibility probes end to end: real files, a real S3-protocol server (s3rver) and the test-only
// fixtures with known delays. Each latency must land within the probe's resolution of the delay:
// never below the configured delay (less 50 ms), and seen at most the poll interval plus a slack
// (0.6 s: poll round trips on a loaded 2-core machine) after the instant the fixture actually made
// it visible (the fixtures record it: their own scan tick and S3 calls run late under load, which
// is the fixture's lateness, not the probe's error).
#include "agent/workloads/visibility/visibility.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <thread>

#include "agent/s3/payload_hash.h"
#include "agent/workloads/visibility/probe_cleanup.h"
#include "agent/workloads/visibility/probe_content.h"
#include "tests/testing/fake_s3_server.h"
#include "tests/testing/s3_sync_fixture.h"
#include "tests/testing/s3rver_fixture.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

constexpr char kBucket[] = "vis-bucket";
const absl::Duration kSlack = absl::Milliseconds(600);

// When the fixture made trial i visible (nullopt: never).
using MadeVisibleAt = std::function<std::optional<absl::Time>(int trial)>;

void ExpectWithinResolution(const VisibilityResult& r, absl::Duration delay,
                            const MadeVisibleAt& made_visible_at) {
  for (const TrialOutcome& t : r.trials) {
    ASSERT_EQ(t.state, TrialState::kVisible) << r.probe << " trial " << t.index << ": " << t.error;
    EXPECT_GE(t.latency, delay - absl::Milliseconds(50)) << r.probe << " trial " << t.index;
    const std::optional<absl::Time> made_visible = made_visible_at(t.index);
    ASSERT_TRUE(made_visible.has_value()) << r.probe << " trial " << t.index;
    EXPECT_LE(t.visible_at, *made_visible + r.resolution + kSlack)
        << r.probe << " trial " << t.index << " seen "
        << absl::FormatDuration(t.visible_at - *made_visible) << " after it was made visible";
    std::cout << r.probe << " trial " << t.index << ": latency " << absl::FormatDuration(t.latency)
              << " (configured " << absl::FormatDuration(delay) << ", made visible after "
              << absl::FormatDuration(*made_visible - t.started) << ", resolution "
              << absl::FormatDuration(r.resolution) << ")\n";
  }
}

ProbeDir OpenDir(const std::string& path) {
  absl::StatusOr<ProbeDir> dir = ProbeDir::Open(path, "directory");
  EXPECT_TRUE(dir.ok()) << dir.status();
  return dir.ok() ? *dir : ProbeDir();
}

TEST(CheckProbeVisibleTest, EachMethodSeesWhatItShould) {
  testing::TempDir dir;
  RealProbeClock clock;
  const ProbeDir d = OpenDir(dir.path());
  const std::string path = dir.File("p");
  for (auto m : {VisibilityReadMethod::kStat, VisibilityReadMethod::kOpenRead,
                 VisibilityReadMethod::kReaddir}) {
    EXPECT_FALSE(*CheckProbeVisible(d, "p", 5, 256, m)) << VisibilityReadMethodName(m);
  }
  int fd = -1;
  ASSERT_TRUE(WriteProbeFile(d, "p", 5, {.size_bytes = 256}, clock, &fd).ok());
  EXPECT_EQ(fd, -1);
  EXPECT_TRUE(*CheckProbeVisible(d, "p", 5, 256, VisibilityReadMethod::kStat));
  EXPECT_TRUE(*CheckProbeVisible(d, "p", 5, 256, VisibilityReadMethod::kOpenRead));
  EXPECT_TRUE(*CheckProbeVisible(d, "p", 5, 256, VisibilityReadMethod::kReaddir));
  // An older trial's content is not the expected content.
  EXPECT_FALSE(*CheckProbeVisible(d, "p", 6, 256, VisibilityReadMethod::kOpenRead));
  // A partly written file is not visible to open+read, nor to stat (size differs).
  std::ofstream(path, std::ios::trunc) << MakeProbeContent(5, 256).substr(0, 100);
  EXPECT_FALSE(*CheckProbeVisible(d, "p", 5, 256, VisibilityReadMethod::kOpenRead));
  EXPECT_FALSE(*CheckProbeVisible(d, "p", 5, 256, VisibilityReadMethod::kStat));
}

TEST(WriteProbeFileTest, RenameIntoPlaceAndKeepOpenLeaveNoTemporaryBehind) {
  testing::TempDir dir;
  RealProbeClock clock;
  const ProbeDir d = OpenDir(dir.path());
  int fd = -1;
  ASSERT_TRUE(
      WriteProbeFile(d, "r", 9,
                     {.fsync = false, .close = false, .rename_into_place = true, .size_bytes = 128},
                     clock, &fd)
          .ok());
  EXPECT_GE(fd, 0);
  close(fd);
  EXPECT_TRUE(*CheckProbeVisible(d, "r", 9, 128, VisibilityReadMethod::kOpenRead));
  EXPECT_FALSE(std::filesystem::exists(dir.File(".r.azbench-tmp")));
  EXPECT_EQ(WriteProbeFile(d, "no/such/dir/x", 1, {}, clock, &fd).status().code(),
            absl::StatusCode::kInvalidArgument)
      << "a probe file name is one component";
}

TEST(ParseVisibilityReadMethodTest, NamesAllowedValues) {
  EXPECT_EQ(*ParseVisibilityReadMethod("readdir"), VisibilityReadMethod::kReaddir);
  EXPECT_THAT(std::string(ParseVisibilityReadMethod("ls").status().message()),
              HasSubstr("stat, open_read, readdir"));
}

TEST(ClientToClientProbeTest, SameDirectoryIsVisibleAtFirstPoll) {
  testing::TempDir dir;
  RealProbeClock clock;
  ClientToClientOptions o;
  o.write_dir = o.read_dir = dir.path();
  o.schedule = {3, absl::Milliseconds(100), absl::Milliseconds(50), absl::Seconds(5)};
  absl::StatusOr<VisibilityResult> r = RunClientToClientProbe(o, clock);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->visible_count(), 3);
  for (const TrialOutcome& t : r->trials) EXPECT_EQ(t.polls, 1);
  EXPECT_TRUE(std::filesystem::is_empty(dir.path()));  // probe files removed
}

TEST(ClientToClientProbeTest, KnownInjectedDelayIsMeasuredForEveryReadMethod) {
  const absl::Duration delay = absl::Milliseconds(800);
  for (auto method : {VisibilityReadMethod::kStat, VisibilityReadMethod::kOpenRead,
                      VisibilityReadMethod::kReaddir}) {
    testing::TempDir writer(testing::kTmpfsBase), reader(testing::kTmpfsBase);
    testing::DelayedMirrorFixture mirror(writer.path(), reader.path(), delay);
    RealProbeClock clock;
    ClientToClientOptions o;
    o.write_dir = writer.path();
    o.read_dir = reader.path();
    o.read_method = method;
    o.write.rename_into_place = true;
    o.schedule = {2, absl::Milliseconds(300), absl::Milliseconds(100), absl::Seconds(10)};
    absl::StatusOr<VisibilityResult> r = RunClientToClientProbe(o, clock);
    ASSERT_TRUE(r.ok()) << r.status();
    EXPECT_EQ(r->resolution, absl::Milliseconds(100));
    ExpectWithinResolution(*r, delay, [&](int i) {
      return mirror.MirroredAt(absl::StrCat(o.name_prefix, "-", o.first_sequence + i));
    });
  }
}

TEST(ClientToClientProbeTest, NeverVisibleTrialsAreCountedAsTimedOut) {
  testing::TempDir writer(testing::kTmpfsBase), reader(testing::kTmpfsBase);
  RealProbeClock clock;
  ClientToClientOptions o;
  o.write_dir = writer.path();
  o.read_dir = reader.path();  // nothing mirrors: never visible
  o.schedule = {2, absl::Milliseconds(50), absl::Milliseconds(50), absl::Milliseconds(200)};
  absl::StatusOr<VisibilityResult> r = RunClientToClientProbe(o, clock);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->trials.size(), 2u);
  EXPECT_EQ(r->timed_out_count(), 2);
}

TEST(ClientToClientProbeTest, WriterAndReaderHalvesJoinToTheInjectedDelay) {
  const absl::Duration delay = absl::Milliseconds(700);
  // tmpfs: the writer's fsync is instant, so the mirror's delay (from the last change)
  // starts when the write completes.
  testing::TempDir writer_dir(testing::kTmpfsBase), reader_dir(testing::kTmpfsBase);
  testing::DelayedMirrorFixture mirror(writer_dir.path(), reader_dir.path(), delay);
  ClientToClientOptions o;
  o.write_dir = writer_dir.path();
  o.read_dir = reader_dir.path();
  o.read_method = VisibilityReadMethod::kOpenRead;
  o.schedule = {3, absl::Milliseconds(300), absl::Milliseconds(100), absl::Seconds(10)};
  const absl::Time start_at = absl::Now() + absl::Milliseconds(200);
  absl::StatusOr<std::vector<TrialOutcome>> written, read;
  {
    // Two "agents": separate threads with their own clocks, as on two hosts.
    std::thread writer([&] {
      RealProbeClock clock;
      written = RunClientToClientWriter(o, start_at, clock);
    });
    RealProbeClock clock;
    read = RunClientToClientReader(o, start_at, clock);
    writer.join();
  }
  ASSERT_TRUE(written.ok()) << written.status();
  ASSERT_TRUE(read.ok()) << read.status();
  absl::StatusOr<VisibilityResult> r =
      JoinClientToClient(*written, *read, absl::ZeroDuration(), o.schedule.poll_interval);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->trials.size(), 3u);
  ExpectWithinResolution(*r, delay, [&](int i) {
    return mirror.MirroredAt(absl::StrCat(o.name_prefix, "-", o.first_sequence + i));
  });
  // A reader clock 5 s ahead of the writer's is corrected by the offset the coordinator measured.
  std::vector<TrialOutcome> shifted = *read;
  for (TrialOutcome& t : shifted) {
    t.started += absl::Seconds(5);
    t.visible_at += absl::Seconds(5);
  }
  absl::StatusOr<VisibilityResult> corrected =
      JoinClientToClient(*written, shifted, absl::Seconds(5), o.schedule.poll_interval);
  ASSERT_TRUE(corrected.ok());
  for (size_t i = 0; i < 3; ++i) EXPECT_EQ(corrected->trials[i].latency, r->trials[i].latency);
  EXPECT_FALSE(JoinClientToClient(*written, {}, absl::ZeroDuration(), absl::Seconds(1)).ok());
}

TEST(AppendProbeTest, CancellationEndsTheProbeAndKeepsWhatWasObserved) {
  testing::TempDir mount;
  // Nothing listens there: every HeadObject fails fast and is counted as a poll error.
  s3::S3Client s3({.endpoint = absl::StrCat("http://127.0.0.1:", testing::UnusedLoopbackPort()),
                   .path_style = true},
                  testing::S3rverCredentials());
  RealProbeClock clock;
  AppendProbeOptions o;
  o.target.mount_dir = mount.path();
  o.target.bucket = "b";
  o.append_interval = absl::Milliseconds(50);
  o.append_duration = absl::Seconds(10);
  o.poll_interval = absl::Milliseconds(20);
  int checks = 0;
  o.cancelled = [&] { return ++checks > 12; };
  absl::StatusOr<VisibilityResult> r = RunAppendProbe(o, s3, clock);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->trials.size(), 1u);
  EXPECT_EQ(r->trials[0].state, TrialState::kTimedOut);
  EXPECT_EQ(r->trials[0].error, "cancelled");
  EXPECT_GT(r->trials[0].poll_errors, 0);
  int appends = 0;
  for (const ProbeEvent& e : r->timeline) {
    if (e.kind != "append") continue;
    ++appends;
    EXPECT_LE(e.offset, absl::ZeroDuration());
    EXPECT_GT(e.offset, -absl::Seconds(10));
  }
  EXPECT_GE(appends, 1);
  EXPECT_LT(appends, 200);
}

class SyncProbeTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new testing::S3rverProcess(kBucket); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    if (!server_->installed()) GTEST_SKIP() << server_->error();
    ASSERT_TRUE(server_->ok()) << server_->error();
    s3_ = std::make_unique<s3::S3Client>(
        s3::S3ClientOptions{.endpoint = server_->endpoint(), .path_style = true},
        testing::S3rverCredentials());
    // Each test has its own prefix so objects of earlier tests are not imported.
    target_.mount_dir = mount_.path();
    target_.bucket = kBucket;
    target_.key_prefix =
        std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "/";
  }
  testing::S3SyncFixtureOptions SyncOptions(absl::Duration export_inactivity,
                                            absl::Duration import_delay) {
    testing::S3SyncFixtureOptions o;
    o.dir = mount_.path();
    o.bucket = kBucket;
    o.key_prefix = target_.key_prefix;
    o.export_inactivity = export_inactivity;
    o.import_delay = import_delay;
    return o;
  }
  static testing::S3rverProcess* server_;
  // tmpfs: the writer's fsync is instant, so the fixture's inactivity delay (from the file's
  // mtime) and the probe's latency (from the write's return) start together.
  testing::TempDir mount_{testing::kTmpfsBase};
  std::unique_ptr<s3::S3Client> s3_;
  S3ProbeTarget target_;
  RealProbeClock clock_;
};
testing::S3rverProcess* SyncProbeTest::server_ = nullptr;

TEST_F(SyncProbeTest, ExportLatencyMatchesTheInactivityDelay) {
  const absl::Duration delay = absl::Seconds(1);
  testing::S3SyncFixture sync(s3_.get(), SyncOptions(delay, absl::Seconds(1)));
  ExportProbeOptions o;
  o.target = target_;
  o.schedule = {3, absl::Milliseconds(400), absl::Milliseconds(200), absl::Seconds(10)};
  absl::StatusOr<VisibilityResult> r = RunExportProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->probe, "export");
  EXPECT_EQ(r->timeout, absl::Seconds(10));
  ExpectWithinResolution(*r, delay, [&](int i) {
    return sync.ExportedAt(absl::StrCat(o.target.rel_dir, "/", o.target.run_id, "-export-", i));
  });
  EXPECT_EQ(sync.last_error(), "");
}

TEST_F(SyncProbeTest, ExportWithoutSynchroniserTimesOutEveryTrial) {
  ExportProbeOptions o;
  o.target = target_;
  o.schedule = {2, absl::Milliseconds(100), absl::Milliseconds(100), absl::Milliseconds(500)};
  absl::StatusOr<VisibilityResult> r = RunExportProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->timed_out_count(), 2);
  EXPECT_EQ(r->trials[0].poll_errors, 0);  // 404 is "not yet", not an error
}

TEST_F(SyncProbeTest, ImportLatencyMatchesTheImportDelayForEachReadMethod) {
  const absl::Duration delay = absl::Milliseconds(1500);
  testing::S3SyncFixture sync(s3_.get(), SyncOptions(absl::Seconds(1), delay));
  for (auto method : {VisibilityReadMethod::kStat, VisibilityReadMethod::kOpenRead}) {
    ImportProbeOptions o;
    o.target = target_;
    o.target.run_id = VisibilityReadMethodName(method);
    o.read_method = method;
    o.schedule = {2, absl::Milliseconds(300), absl::Milliseconds(200), absl::Seconds(10)};
    absl::StatusOr<VisibilityResult> r = RunImportProbe(o, *s3_, clock_);
    ASSERT_TRUE(r.ok()) << r.status();
    ExpectWithinResolution(*r, delay, [&](int i) {
      return sync.ImportedAt(absl::StrCat(o.target.rel_dir, "/", o.target.run_id, "-import-", i));
    });
  }
  EXPECT_EQ(sync.last_error(), "");
}

TEST_F(SyncProbeTest, AppendVersionAppearsInactivityDelayAfterLastAppend) {
  // 2 s: appends 300 ms apart (on the thread that also polls S3) never leave that much idle time,
  // even when a poll stalls under load.
  const absl::Duration delay = absl::Seconds(2);
  testing::S3SyncFixture sync(s3_.get(), SyncOptions(delay, absl::Seconds(1)));
  AppendProbeOptions o;
  o.target = target_;
  o.append_interval = absl::Milliseconds(300);
  o.append_duration = absl::Milliseconds(1200);  // 5 appends, each sooner than the delay
  o.poll_interval = absl::Milliseconds(200);
  o.timeout = absl::Seconds(10);
  absl::StatusOr<VisibilityResult> r = RunAppendProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->trials.size(), 1u);
  ExpectWithinResolution(*r, delay, [&](int) {
    return sync.ExportedAt(absl::StrCat(o.target.rel_dir, "/", o.target.run_id, "-append"));
  });
  int appends = 0, versions_before_last_append = 0;
  for (const ProbeEvent& e : r->timeline) {
    appends += e.kind == "append";
    if (e.kind == "s3_version" && e.offset < absl::ZeroDuration()) ++versions_before_last_append;
  }
  EXPECT_EQ(appends, 5);
  // Appends 300 ms apart never leave 2 s of inactivity: nothing is exported before the last one.
  EXPECT_EQ(versions_before_last_append, 0);
  EXPECT_EQ(r->timeline.back().kind, "versions");
}

TEST_F(SyncProbeTest, ConflictS3WinsAndTheFileSystemCopyGoesToLostAndFound) {
  const absl::Duration import_delay = absl::Seconds(1);
  // The FS write is never idle long enough to export before S3's version arrives.
  testing::S3SyncFixture sync(s3_.get(), SyncOptions(absl::Seconds(5), import_delay));
  ConflictProbeOptions o;
  o.target = target_;
  o.put_delay = absl::Milliseconds(500);
  o.poll_interval = absl::Milliseconds(200);
  o.timeout = absl::Seconds(10);
  o.lost_found_pattern = ".s3files-lost+found-*";
  absl::StatusOr<VisibilityResult> r = RunConflictProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->trials.size(), 1u);
  ExpectWithinResolution(*r, import_delay, [&](int i) {
    return sync.ImportedAt(absl::StrCat(o.target.rel_dir, "/", o.target.run_id, "-conflict-", i));
  });
  EXPECT_EQ(r->trials[0].error, "");
  std::vector<std::string> fs_states;
  std::string lost_found;
  for (const ProbeEvent& e : r->timeline) {
    if (e.kind == "fs_content") fs_states.push_back(e.detail);
    if (e.kind == "lost_found") lost_found = e.detail;
  }
  EXPECT_THAT(fs_states, ::testing::ElementsAre("seq=1", "seq=2"));
  EXPECT_THAT(lost_found, HasSubstr(".s3files-lost+found-fixture/"));
  EXPECT_THAT(lost_found, HasSubstr("seq=1"));  // the FS version is kept there
}

TEST_F(SyncProbeTest, ConflictWithoutLostAndFoundSaysSo) {
  testing::S3SyncFixture sync(s3_.get(), SyncOptions(absl::Seconds(5), absl::Milliseconds(300)));
  ConflictProbeOptions o;
  o.target = target_;
  o.put_delay = absl::Milliseconds(200);
  o.poll_interval = absl::Milliseconds(100);
  o.timeout = absl::Seconds(5);                 // S3's version is imported ~0.5 s after the PUT
  o.lost_found_pattern = "lost+found-other-*";  // the fixture's directory does not match
  absl::StatusOr<VisibilityResult> r = RunConflictProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->trials[0].state, TrialState::kVisible);
  EXPECT_THAT(r->trials[0].error, HasSubstr("no copy in a lost+found directory"));
}

// ---- a versioned bucket (s3rver has no versioning: an in-memory fake stands in) ----------------

class VersionedBucketTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(server_.ok());
    s3_ = std::make_unique<s3::S3Client>(
        s3::S3ClientOptions{.endpoint = server_.url(), .path_style = true},
        testing::S3rverCredentials());
    target_.mount_dir = mount_.path();
    target_.bucket = server_.bucket();
    target_.key_prefix = "p/";
    target_.rel_dir = "d";
    target_.run_id = "r";
  }
  testing::FakeS3Server server_;
  testing::TempDir mount_;
  std::unique_ptr<s3::S3Client> s3_;
  S3ProbeTarget target_;
  RealProbeClock clock_;
};

TEST_F(VersionedBucketTest, EveryS3ProbeRefusesAKeyPrefixThatIsNotADirectory) {
  target_.key_prefix = "p";  // keys would be "pd/r-...", the mount shows "p/d/r-..."
  ExportProbeOptions e;
  e.target = target_;
  e.schedule = {1, absl::ZeroDuration(), absl::Milliseconds(10), absl::Milliseconds(50)};
  EXPECT_EQ(RunExportProbe(e, *s3_, clock_).status().code(), absl::StatusCode::kInvalidArgument);
  ImportProbeOptions i;
  i.target = target_;
  i.schedule = e.schedule;
  EXPECT_EQ(RunImportProbe(i, *s3_, clock_).status().code(), absl::StatusCode::kInvalidArgument);
  AppendProbeOptions a;
  a.target = target_;
  EXPECT_EQ(RunAppendProbe(a, *s3_, clock_).status().code(), absl::StatusCode::kInvalidArgument);
  ConflictProbeOptions c;
  c.target = target_;
  EXPECT_EQ(RunConflictProbe(c, *s3_, clock_).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(server_.versions("pd/r-export-0").empty());
}

TEST_F(VersionedBucketTest, AConflictWhosePutWouldComeAfterItsTimeoutIsRefused) {
  ConflictProbeOptions c;
  c.target = target_;
  c.put_delay = absl::Milliseconds(200);
  c.timeout = absl::Milliseconds(200);  // counted from the FS write: no PutObject would be made
  EXPECT_EQ(RunConflictProbe(c, *s3_, clock_).status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(server_.versions("p/d/r-conflict-0").empty());
}

TEST_F(VersionedBucketTest, AppendIsVisibleWhenSizeAndETagMatchWhateverTheVersionId) {
  // The final content is in the bucket before the probe ends its appends: the first poll after
  // the last append must see it, although HeadObject also answers an x-amz-version-id.
  AppendProbeOptions o;
  o.target = target_;
  o.append_interval = absl::Milliseconds(50);
  o.append_duration = absl::Milliseconds(100);  // 3 appends
  o.append_bytes = 64;
  o.poll_interval = absl::Milliseconds(20);
  o.timeout = absl::Seconds(2);
  std::string final_content;
  for (uint64_t seq = 1; seq <= 3; ++seq) final_content += MakeProbeContent(seq, 64);
  server_.Put("p/d/r-append", final_content);
  absl::StatusOr<VisibilityResult> r = RunAppendProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->trials.size(), 1u);
  EXPECT_EQ(r->trials[0].state, TrialState::kVisible) << r->trials[0].error;
  // The version id stays in the timeline.
  bool version_noted = false;
  for (const ProbeEvent& e : r->timeline) {
    version_noted = version_noted ||
                    (e.kind == "s3_version" && e.detail.find(" version=v") != std::string::npos);
  }
  EXPECT_TRUE(version_noted);
}

// ETags that are not the content's MD5: SSE-KMS (32 hex digits, but not the MD5) and multipart
// ("<hash>-<parts>"). The object is in the bucket before the probe writes its file.
ExportProbeOptions OneExportTrial(const S3ProbeTarget& target) {
  ExportProbeOptions o;
  o.target = target;
  o.schedule = {1, absl::ZeroDuration(), absl::Milliseconds(20), absl::Milliseconds(300)};
  o.size_bytes = 1024;
  return o;
}

TEST(ExportETagTest, AnSseKmsETagIsSettledByTheContent) {
  testing::FakeS3Server server(
      {.etag = [](const std::string& body) { return s3::Md5Hex("kms:" + body); }});
  ASSERT_TRUE(server.ok());
  s3::S3Client s3({.endpoint = server.url(), .path_style = true}, testing::S3rverCredentials());
  testing::TempDir mount;
  S3ProbeTarget target{mount.path(), server.bucket(), "p/", "d", "r", {}};
  server.Put("p/d/r-export-0", MakeProbeContent(1, 1024));
  RealProbeClock clock;
  absl::StatusOr<VisibilityResult> r = RunExportProbe(OneExportTrial(target), s3, clock);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->trials[0].state, TrialState::kVisible) << r->trials[0].error;
}

TEST(ExportETagTest, AMultipartETagOfTheRightSizeButOtherContentIsNotVisible) {
  testing::FakeS3Server server(
      {.etag = [](const std::string& body) { return s3::Md5Hex(body) + "-2"; }});
  ASSERT_TRUE(server.ok());
  s3::S3Client s3({.endpoint = server.url(), .path_style = true}, testing::S3rverCredentials());
  testing::TempDir mount;
  S3ProbeTarget target{mount.path(), server.bucket(), "p/", "d", "r", {}};
  server.Put("p/d/r-export-0", MakeProbeContent(7, 1024));  // an other trial's content
  RealProbeClock clock;
  absl::StatusOr<VisibilityResult> r = RunExportProbe(OneExportTrial(target), s3, clock);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->trials[0].state, TrialState::kTimedOut);
  // ... and the same ETag form with the trial's own content is.
  server.Put("p/d/r-export-0", MakeProbeContent(1, 1024));
  r = RunExportProbe(OneExportTrial(target), s3, clock);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->trials[0].state, TrialState::kVisible) << r->trials[0].error;
}

// ---- cleanup: a probe removes its files, objects and directories however it ends ----------------

size_t RegularFilesUnder(const std::string& dir) {
  size_t n = 0;
  std::error_code ec;
  for (auto it = std::filesystem::recursive_directory_iterator(dir, ec);
       it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
    n += it->is_regular_file(ec);
  }
  return n;
}

TEST_F(SyncProbeTest, ACancelledExportRemovesItsFilesItsObjectsAndItsDirectory) {
  // No synchroniser: the "exported" objects of trials 0 and 1 are put beforehand (with other
  // content, so they never match) and must go with the probe's files when it is cancelled.
  target_.run_id = "cancelled";
  for (int trial : {0, 1}) {
    ASSERT_TRUE(s3_->PutObject(kBucket,
                               absl::StrCat(target_.key_prefix, target_.rel_dir,
                                            "/cancelled-export-", trial),
                               "stale")
                    .ok());
  }
  ExportProbeOptions o;
  o.target = target_;
  o.schedule = {5, absl::Milliseconds(100), absl::Milliseconds(20), absl::Seconds(10)};
  // Cancelled once trial 1 was written (an event, not an instant: under load trial 1 may start
  // late): trials 0 and 1 are pending then and end timed out, the rest never start.
  const std::filesystem::path trial_1 =
      std::filesystem::path(mount_.path()) / target_.rel_dir / "cancelled-export-1";
  o.cancelled = [&] { return std::filesystem::exists(trial_1); };
  absl::StatusOr<VisibilityResult> r = RunExportProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_EQ(r->visible_count(), 0);
  EXPECT_GE(r->timed_out_count(), 2);
  EXPECT_EQ(r->cleanup_failures, "");
  EXPECT_EQ(RegularFilesUnder(mount_.path()), 0u);
  EXPECT_FALSE(std::filesystem::exists(std::filesystem::path(mount_.path()) / target_.rel_dir));
  absl::StatusOr<std::vector<s3::ObjectSummary>> objects =
      s3_->ListObjectsV2(kBucket, target_.key_prefix);
  ASSERT_TRUE(objects.ok()) << objects.status();
  EXPECT_TRUE(objects->empty()) << objects->front().key;
}

TEST_F(SyncProbeTest, AConflictWhosePutFailsLeavesNoFileBehind) {
  ConflictProbeOptions o;
  o.target = target_;
  o.target.bucket = "no-such-bucket";  // PutObject fails: the trial fails
  o.put_delay = absl::Milliseconds(10);
  o.poll_interval = absl::Milliseconds(10);
  o.timeout = absl::Seconds(5);
  absl::StatusOr<VisibilityResult> r = RunConflictProbe(o, *s3_, clock_);
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_EQ(r->trials.size(), 1u);
  EXPECT_EQ(r->trials[0].state, TrialState::kFailed);
  EXPECT_EQ(RegularFilesUnder(mount_.path()), 0u);
}

TEST(ProbeCleanupTest, AnEarlyReturnStillRemovesFilesAndEmptyDirectoriesButNotOthers) {
  testing::TempDir mount;
  const std::string probe_dir = mount.path() + "/azbench-visibility/agent-1";
  std::filesystem::create_directories(probe_dir);
  std::filesystem::create_directories(mount.path() + "/kept");
  std::ofstream(probe_dir + "/f1") << "x";
  std::ofstream(mount.path() + "/kept/user-file") << "x";
  {
    ProbeCleanup cleanup(nullptr, "b", OpenDir(mount.path()), "azbench-visibility/agent-1");
    cleanup.AddFile("azbench-visibility/agent-1/f1");
    cleanup.AddFile("azbench-visibility/agent-1/never-created");  // absent is fine
  }  // no Finish: the destructor cleans up
  EXPECT_FALSE(std::filesystem::exists(mount.path() + "/azbench-visibility"));
  EXPECT_TRUE(std::filesystem::exists(mount.path() + "/kept/user-file"));
}

TEST_F(VersionedBucketTest, CleanupRemovesEveryVersionOfTheProbesKeysAndNoOtherKey) {
  server_.Put("p/d/r-export-1", "first");
  server_.Put("p/d/r-export-1", "second");  // two versions of one probe key
  server_.Put("p/d/r-export-10", "not the probe's");
  {
    ProbeCleanup cleanup(s3_.get(), server_.bucket(), OpenDir(mount_.path()), "d");
    cleanup.AddKey("p/d/r-export-1");
    cleanup.AddKey("p/d/r-export-2");  // never created
    EXPECT_EQ(cleanup.Finish(), "");
  }
  EXPECT_TRUE(server_.versions("p/d/r-export-1").empty())
      << server_.versions("p/d/r-export-1").size() << " versions or delete markers left";
  EXPECT_EQ(server_.versions("p/d/r-export-10").size(), 1u);
  EXPECT_TRUE(server_.versions("p/d/r-export-2").empty());
}

// A server that ignores ?versions (answers a plain listing, so no version is listed) still gets
// the probe's objects deleted, and a key the probe never created is not touched.
TEST(ProbeCleanupTest, AServerThatListsNoVersionsStillHasTheProbesObjectsDeleted) {
  testing::FakeS3Server server(testing::FakeS3Options{.versioned = false, .lists_versions = false});
  ASSERT_TRUE(server.ok());
  s3::S3Client s3({.endpoint = server.url(), .path_style = true}, testing::S3rverCredentials());
  testing::TempDir mount;
  server.Put("p/d/r-export-1", "probe content");
  {
    ProbeCleanup cleanup(&s3, server.bucket(), OpenDir(mount.path()), "d");
    cleanup.AddKey("p/d/r-export-1");
    cleanup.AddKey("p/d/r-export-2");  // never created
    EXPECT_EQ(cleanup.Finish(), "");
  }
  EXPECT_TRUE(server.versions("p/d/r-export-1").empty()) << "the probe's object was left";
  EXPECT_TRUE(server.versions("p/d/r-export-2").empty());
}

TEST(ProbeCleanupTest, WhatCouldNotBeRemovedIsReported) {
  testing::TempDir mount;
  // Nothing listens there: DeleteObject fails.
  s3::S3Client s3({.endpoint = absl::StrCat("http://127.0.0.1:", testing::UnusedLoopbackPort()),
                   .path_style = true},
                  testing::S3rverCredentials());
  ProbeCleanup cleanup(&s3, "b", OpenDir(mount.path()), "d");
  cleanup.AddKey("d/run-export-0");
  EXPECT_THAT(cleanup.Finish(), HasSubstr("DeleteObject d/run-export-0: "));
}

}  // namespace
}  // namespace azbench
