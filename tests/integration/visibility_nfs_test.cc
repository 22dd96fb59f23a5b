// The client_to_client visibility probe on an NFS export through libnfs (no kernel mount), against
// a real NFS server (tests/testing/nfs_server_fixture.h): writer and reader in one process, and
// the writer and reader halves on connections of their own joined on one clock, with every read
// method; what the writer leaves is in the exported directory until the probe (or the workload's
// cleanup) removes it; the family's paths carry the server, so an agent whose allowed_nfs_servers
// does not list it refuses the job. Skipped without root.
#include <filesystem>
#include <memory>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/time/clock.h"
#include "agent/confinement/job_confinement.h"
#include "agent/workloads/family.h"
#include "agent/workloads/visibility/probe_store.h"
#include "agent/workloads/visibility/visibility.h"
#include "agent/workloads/visibility/visibility_family.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/nfs_server_fixture.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::NfsServerFixture;
using testing::StatusIs;

int CountFiles(const std::string& dir) {
  std::error_code ec;
  int n = 0;
  for (const auto& e : fs::directory_iterator(dir, ec)) n += e.is_regular_file() ? 1 : 0;
  return n;
}

ClientToClientOptions Options(const NfsServerFixture& nfs, VisibilityReadMethod method) {
  ClientToClientOptions o;
  o.nfs_url = nfs.Url();
  o.write_dir = "/vis/probe";  // made by the writer, over NFS
  o.read_dir = "/vis/probe";
  o.name_prefix = "run-c2c";
  o.read_method = method;
  o.schedule = {4, absl::Milliseconds(50), absl::Milliseconds(5), absl::Seconds(5)};
  return o;
}

class VisibilityNfsTest : public ::testing::TestWithParam<VisibilityReadMethod> {};

TEST_P(VisibilityNfsTest, LocalProbeSeesEveryTrialThroughLibnfsAndRemovesItsFiles) {
  NfsServerFixture nfs;
  if (nfs.unsupported()) GTEST_SKIP() << nfs.error();
  ASSERT_TRUE(nfs.ok()) << nfs.error();
  RealProbeClock clock;
  absl::StatusOr<VisibilityResult> r = RunClientToClientProbe(Options(nfs, GetParam()), clock);
  ASSERT_TRUE(r.ok()) << r.status() << "\n" << nfs.Log();
  EXPECT_EQ(r->visible_count(), 4);
  EXPECT_EQ(r->failed_count(), 0);
  for (const TrialOutcome& t : r->trials) {
    EXPECT_GE(t.latency, absl::ZeroDuration());
    EXPECT_EQ(t.poll_errors, 0) << t.error;
  }
  EXPECT_TRUE(fs::is_directory(nfs.export_dir() + "/vis/probe"));
  EXPECT_EQ(CountFiles(nfs.export_dir() + "/vis/probe"), 0);
}

TEST_P(VisibilityNfsTest, WriterAndReaderHalvesOnTheirOwnConnectionsJoinOnOneClock) {
  NfsServerFixture nfs;
  if (nfs.unsupported()) GTEST_SKIP() << nfs.error();
  ASSERT_TRUE(nfs.ok()) << nfs.error();
  ClientToClientOptions o = Options(nfs, GetParam());
  o.write.rename_into_place = true;
  RealProbeClock writer_clock, reader_clock;
  // The reader starts before the writer made the directory: not visible yet, then seen.
  const absl::Time start = absl::Now() + absl::Milliseconds(300);
  absl::StatusOr<std::vector<TrialOutcome>> reader = absl::InternalError("not run");
  std::thread reading([&] { reader = RunClientToClientReader(o, start, reader_clock); });
  absl::StatusOr<std::vector<TrialOutcome>> writer =
      RunClientToClientWriter(o, start, writer_clock);
  reading.join();
  ASSERT_TRUE(writer.ok()) << writer.status() << "\n" << nfs.Log();
  ASSERT_TRUE(reader.ok()) << reader.status();
  absl::StatusOr<VisibilityResult> joined =
      JoinClientToClient(*writer, *reader, absl::ZeroDuration(), o.schedule.poll_interval);
  ASSERT_TRUE(joined.ok()) << joined.status();
  EXPECT_EQ(joined->visible_count(), 4);
  for (const TrialOutcome& t : joined->trials) {
    // No client cache: seen within a few polls of the write returning.
    EXPECT_LT(t.latency, absl::Seconds(1)) << t.index;
    EXPECT_EQ(t.poll_errors, 0) << t.error;
  }
  // The writer's files stay for the readers (the workload removes them at cleanup); no temporary
  // file of the rename is left.
  EXPECT_EQ(CountFiles(nfs.export_dir() + "/vis/probe"), 4);
  absl::StatusOr<std::unique_ptr<ProbeStore>> store =
      MakeNfsProbeStore(o.nfs_url, o.write_dir, false);
  ASSERT_TRUE(store.ok()) << store.status();
  for (int i = 1; i <= 4; ++i) EXPECT_TRUE((*store)->Unlink("run-c2c-" + std::to_string(i)).ok());
  EXPECT_EQ(CountFiles(nfs.export_dir() + "/vis/probe"), 0);
}

INSTANTIATE_TEST_SUITE_P(ReadMethods, VisibilityNfsTest,
                         ::testing::Values(VisibilityReadMethod::kStat,
                                           VisibilityReadMethod::kOpenRead,
                                           VisibilityReadMethod::kReaddir),
                         [](const auto& info) { return VisibilityReadMethodName(info.param); });

TEST(VisibilityNfsVersionTest, NfsV4WritesTheProbeInWritesLibnfsCanEncode) {
  NfsServerFixture nfs;
  if (nfs.unsupported()) GTEST_SKIP() << nfs.error();
  ASSERT_TRUE(nfs.ok()) << nfs.error();
  ClientToClientOptions o = Options(nfs, VisibilityReadMethod::kOpenRead);
  o.nfs_url = nfs.Url("", 4);
  o.write.size_bytes = 8192;  // more than one NFSv4 WRITE of libnfs 4.0
  RealProbeClock clock;
  absl::StatusOr<VisibilityResult> r = RunClientToClientProbe(o, clock);
  ASSERT_TRUE(r.ok()) << r.status() << "\n" << nfs.Log();
  EXPECT_EQ(r->visible_count(), 4) << r->trials[0].error;
  for (const TrialOutcome& t : r->trials) EXPECT_EQ(t.poll_errors, 0) << t.error;
}

TEST(VisibilityNfsSafetyTest, ASymlinkUnderAProbeNameIsRefusedNotFollowed) {
  NfsServerFixture nfs;
  if (nfs.unsupported()) GTEST_SKIP() << nfs.error();
  ASSERT_TRUE(nfs.ok()) << nfs.error();
  fs::create_directories(nfs.export_dir() + "/vis");
  fs::create_symlink("/etc/hostname", nfs.export_dir() + "/vis/run-c2c-1");
  absl::StatusOr<std::unique_ptr<ProbeStore>> store = MakeNfsProbeStore(nfs.Url(), "/vis", false);
  ASSERT_TRUE(store.ok()) << store.status();
  EXPECT_THAT((*store)->Visible("run-c2c-1", 1, 4096, VisibilityReadMethod::kOpenRead),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("symlink")));
  RealProbeClock clock;
  EXPECT_THAT((*store)->Write("run-c2c-1", 1, ProbeWriteOptions{}, clock),
              StatusIs(absl::StatusCode::kPermissionDenied, HasSubstr("symlink")));
  EXPECT_TRUE(fs::is_symlink(nfs.export_dir() + "/vis/run-c2c-1"));
}

// The family states the server of its nfs_url, so the agent's policy refuses a server it does not
// allow, as it does for ioengine=nfs (no fixture needed: nothing is reached).
TEST(VisibilityNfsPolicyTest, AServerOutsideAllowedNfsServersIsRefused) {
  JobRequest request;
  request.name = "c2c";
  request.workload = "visibility";
  request.options = {{"probe", "client_to_client"},
                     {"directory", "/vis"},
                     {"nfs_url", "nfs://10.9.9.9/export?version=3"}};
  absl::StatusOr<std::unique_ptr<ParsedJob>> job = VisibilityFamily().Parse(request, {});
  ASSERT_TRUE(job.ok()) << job.status();
  JobPolicy policy;
  policy.allowed_roots = {"/tmp"};
  policy.allowed_nfs_servers = {"10.1.0.0/16"};
  for (const JobPathSet& set : (*job)->Paths()) {
    ASSERT_EQ(set.paths->nfs_server, "10.9.9.9");
    absl::StatusOr<ConfinedJob> confined =
        ConfineJob("c2c", JobFootprint{}, *set.paths, policy, "agent-1");
    EXPECT_THAT(confined, StatusIs(absl::StatusCode::kPermissionDenied,
                                   HasSubstr("outside allowed_nfs_servers")));
  }
  policy.allowed_nfs_servers.clear();
  for (const JobPathSet& set : (*job)->Paths()) {
    EXPECT_THAT(ConfineJob("c2c", JobFootprint{}, *set.paths, policy, ""),
                StatusIs(absl::StatusCode::kFailedPrecondition,
                         HasSubstr("no allowed_nfs_servers configured")));
  }
}

}  // namespace
}  // namespace azbench
