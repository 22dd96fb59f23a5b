// ioengine=nfs against a real NFS server (tests/testing/nfs_server_fixture.h): block-I/O jobs lay
// out their files over NFS, read and write them through libnfs at iodepth 1 (synchronous) and 16
// (libnfs's own queue), count every op and byte, and what they write lands in the exported
// directory.
#include <sys/stat.h>

#include <memory>
#include <string>

#include "absl/status/status.h"
#include "agent/confinement/job_confinement.h"
#include "agent/workloads/block_io/block_io.h"
#include "agent/workloads/block_io/block_io_family.h"
#include "common/job_result.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/nfs_server_fixture.h"
#include "tests/testing/status_matchers.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::NfsServerFixture;
using testing::StatusIs;

constexpr uint64_t kSizeBytes = 1 << 20, kBlockBytes = 4096;

JobSpec NfsJob(const NfsServerFixture& server, const std::string& rw, int iodepth,
               const std::string& url = "") {
  JobSpec job;
  job.name = "nfsjob";
  for (const auto& [key, value] : {std::pair<std::string, std::string>{"ioengine", "nfs"},
                                   {"nfs_url", url.empty() ? server.Url() : url},
                                   {"rw", rw},
                                   {"bs", std::to_string(kBlockBytes)},
                                   {"size", std::to_string(kSizeBytes)},
                                   {"iodepth", std::to_string(iodepth)},
                                   {"directory", "data"}}) {
    EXPECT_TRUE(ApplyJobOption(job, key, value).ok()) << key;
  }
  return job;
}

uint64_t FileSize(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0 ? static_cast<uint64_t>(st.st_size) : 0;
}

// 4 KiB blocks of `data` that are all zero: a block no write reached (the layout of a write-only
// job leaves a sparse file).
int ZeroBlocks(const std::string& data) {
  int zero = 0;
  for (size_t at = 0; at + kBlockBytes <= data.size(); at += kBlockBytes) {
    if (data.find_first_not_of('\0', at) >= at + kBlockBytes) ++zero;
  }
  return zero;
}

class NfsEngineTest : public ::testing::TestWithParam<int> {};

TEST_P(NfsEngineTest, WriteJobWritesEveryBlockIntoTheExport) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job =
      BlockIoJob::Prepare(NfsJob(server, "randwrite", GetParam()));
  ASSERT_TRUE(job.ok()) << job.status() << "\n" << server.Log();
  const std::string file = server.export_dir() + "/data/nfsjob.0.0";
  ASSERT_EQ(FileSize(file), kSizeBytes);  // laid out (sparsely) over NFS, in a new directory
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_message, "");
  const OpStats* writes = result->Find(OpKind::kWrite);
  ASSERT_NE(writes, nullptr);
  EXPECT_EQ(writes->ops, kSizeBytes / kBlockBytes);
  EXPECT_EQ(writes->bytes, kSizeBytes);
  EXPECT_EQ(writes->errors, 0u);
  EXPECT_EQ(writes->lat.count(), kSizeBytes / kBlockBytes);
  // Every block, not just the size: a random write visits each block once.
  EXPECT_EQ(FileSize(file), kSizeBytes);
  EXPECT_EQ(ZeroBlocks(testing::FileContents(file)), 0);
  ASSERT_TRUE((*job)->RemoveCreatedFiles().ok());
  EXPECT_FALSE(std::filesystem::exists(file));
}

TEST_P(NfsEngineTest, ReadJobReadsTheDataItsLayoutWroteOverNfs) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job =
      BlockIoJob::Prepare(NfsJob(server, "randread", GetParam()));
  ASSERT_TRUE(job.ok()) << job.status() << "\n" << server.Log();
  const std::string file = server.export_dir() + "/data/nfsjob.0.0";
  EXPECT_EQ(ZeroBlocks(testing::FileContents(file)), 0);  // filled, for reads of data
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_message, "");
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_EQ(reads->ops, kSizeBytes / kBlockBytes);
  EXPECT_EQ(reads->bytes, kSizeBytes);
  EXPECT_EQ(reads->short_ios, 0u);
  // Deeper than 1 the requests go through libnfs's queue: submission and completion are apart.
  EXPECT_EQ(reads->clat.count(), kSizeBytes / kBlockBytes);
  // What the figures are: the server's and the network's, with no client cache between.
  EXPECT_THAT(result->warnings,
              ::testing::Contains(::testing::HasSubstr("ioengine=nfs reaches the server with no "
                                                       "kernel client")));
  EXPECT_THAT(result->warnings,
              ::testing::Not(::testing::Contains(::testing::HasSubstr("page cache, not"))));
}

TEST_P(NfsEngineTest, TimeBasedJobEndsWhenItsRuntimeIsOver) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  JobSpec spec = NfsJob(server, "randread", GetParam());
  ASSERT_TRUE(ApplyJobOption(spec, "runtime", "1s").ok());
  ASSERT_TRUE(ApplyJobOption(spec, "time_based", "1").ok());
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  // Returns at all: more than one pass over the file, then the runtime stops it.
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_message, "");
  const OpStats* reads = result->Find(OpKind::kRead);
  ASSERT_NE(reads, nullptr);
  EXPECT_GT(reads->ops, 0u);
  // Each latency is one op's, not time since the job began: with at most iodepth ops in flight,
  // the latencies add up to at most iodepth x the runtime (Little's law).
  const double summed_ns = reads->lat.mean_ns() * static_cast<double>(reads->lat.count());
  EXPECT_LE(summed_ns, static_cast<double>(GetParam()) * static_cast<double>(result->runtime_ns))
      << "mean " << reads->lat.mean_ns() << " ns over " << reads->lat.count() << " ops";
}

INSTANTIATE_TEST_SUITE_P(Iodepth, NfsEngineTest, ::testing::Values(1, 16),
                         [](const auto& info) { return "iodepth" + std::to_string(info.param); });

TEST(NfsEngineV4Test, SmallBlocksGoOverNfsV4AndAReadJobsLayoutFillsItsFile) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  JobSpec small = NfsJob(server, "write", 4, server.Url("", 4));
  ASSERT_TRUE(ApplyJobOption(small, "bs", "2k").ok());
  ASSERT_TRUE(ApplyJobOption(small, "size", "256k").ok());
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(small);
  ASSERT_TRUE(job.ok()) << job.status() << "\n" << server.Log();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_message, "");
  ASSERT_NE(result->Find(OpKind::kWrite), nullptr);
  EXPECT_EQ(result->Find(OpKind::kWrite)->bytes, 256u << 10);
  EXPECT_EQ(ZeroBlocks(testing::FileContents(server.export_dir() + "/data/nfsjob.0.0")), 0);

  // A read job's layout fills a new file over NFSv4 too.
  JobSpec read = NfsJob(server, "randread", 4, server.Url("", 4));
  ASSERT_TRUE(ApplyJobOption(read, "bs", "2k").ok());
  ASSERT_TRUE(ApplyJobOption(read, "size", "256k").ok());
  read.name = "v4read";
  job = BlockIoJob::Prepare(read);
  ASSERT_TRUE(job.ok()) << job.status() << "\n" << server.Log();
  EXPECT_EQ(ZeroBlocks(testing::FileContents(server.export_dir() + "/data/v4read.0.0")), 0);
  result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_message, "");
  ASSERT_NE(result->Find(OpKind::kRead), nullptr);
  EXPECT_EQ(result->Find(OpKind::kRead)->bytes, 256u << 10);
  EXPECT_THAT(result->warnings, ::testing::Not(::testing::Contains(HasSubstr("version=4"))));
}

// libnfs 4.0 cannot send an NFSv4 WRITE of 2 MiB nor take a READ reply of 2 MiB: the engine sends
// each block as several RPCs at once (683 WRITEs, 2 READs), in place at iodepth 1 and with both
// blocks in flight at 16, and what it wrote comes back intact.
class NfsEngineV4LargeBlockTest : public ::testing::TestWithParam<int> {};

TEST_P(NfsEngineV4LargeBlockTest, WritesAndVerifies4MiBIn2MiBBlocks) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  JobSpec spec = NfsJob(server, "write", GetParam(), server.Url("", 4));
  for (const auto& [key, value] :
       {std::pair<std::string, std::string>{"bs", "2m"}, {"size", "4m"}, {"verify", "crc32c"}}) {
    ASSERT_TRUE(ApplyJobOption(spec, key, value).ok()) << key;
  }
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status() << "\n" << server.Log();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_message, "");
  EXPECT_EQ(result->verify_failures, 0u);
  for (const OpKind kind : {OpKind::kWrite, OpKind::kRead}) {
    const OpStats* stats = result->Find(kind);
    ASSERT_NE(stats, nullptr) << OpKindName(kind);
    EXPECT_EQ(stats->ops, 2u) << OpKindName(kind);
    EXPECT_EQ(stats->bytes, 4u << 20) << OpKindName(kind);
    EXPECT_EQ(stats->short_ios, 0u) << OpKindName(kind);
    EXPECT_EQ(stats->errors, 0u) << OpKindName(kind);
  }
  // The file holds all of it, as the server has it.
  const std::string file = server.export_dir() + "/data/nfsjob.0.0";
  EXPECT_EQ(FileSize(file), 4u << 20);
  EXPECT_EQ(ZeroBlocks(testing::FileContents(file)), 0);
  EXPECT_THAT(result->warnings,
              ::testing::Contains(AllOf(HasSubstr("version=4"), HasSubstr("3072 bytes in one"))));
}

INSTANTIATE_TEST_SUITE_P(Iodepth, NfsEngineV4LargeBlockTest, ::testing::Values(1, 16),
                         [](const auto& info) { return "iodepth" + std::to_string(info.param); });

// As the serving agent runs it: confined by the policy (allowed_nfs_servers), then prepared.
TEST(NfsEngineConfinedTest, AJobRunsOnAnAllowedServerInTheAgentSubdirectoryAndIsRefusedOnOthers) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  JobPolicy policy;
  policy.allowed_nfs_servers = {"192.0.2.0/24"};
  JobSpec spec = NfsJob(server, "write", 4);
  JobPaths paths = BlockIoPaths(spec);
  EXPECT_THAT(ConfineJob(spec.name, BlockIoFootprint(spec), paths, policy, "agent-1").status(),
              StatusIs(absl::StatusCode::kPermissionDenied,
                       HasSubstr("NFS server " + server.server_address() +
                                 " is outside allowed_nfs_servers (192.0.2.0/24)")));

  policy.allowed_nfs_servers = {server.host_address() + "/24"};
  paths = BlockIoPaths(spec);
  absl::StatusOr<ConfinedJob> confined =
      ConfineJob(spec.name, BlockIoFootprint(spec), paths, policy, "agent-1");
  ASSERT_TRUE(confined.ok()) << confined.status();
  spec.directory = paths.directory;
  absl::StatusOr<std::unique_ptr<BlockIoJob>> job = BlockIoJob::Prepare(spec);
  ASSERT_TRUE(job.ok()) << job.status();
  absl::StatusOr<JobResult> result = (*job)->Run(RunControl{});
  ASSERT_TRUE(result.ok()) << result.status();
  EXPECT_EQ(result->error_message, "");
  EXPECT_EQ(FileSize(server.export_dir() + "/data/agent-1/nfsjob.0.0"), kSizeBytes);
}

TEST(NfsEngineErrorsTest, AServerThatIsNotThereFailsThePrepareNamingIt) {
  NfsServerFixture server;
  if (server.unsupported()) GTEST_SKIP() << server.error();
  ASSERT_TRUE(server.ok()) << server.error();
  // The fixture's network, a port nothing listens on.
  const std::string url =
      "nfs://" + server.server_address() + server.export_dir() + "?version=3&nfsport=1&mountport=1";
  EXPECT_THAT(BlockIoJob::Prepare(NfsJob(server, "read", 1, url)).status(),
              StatusIs(absl::StatusCode::kUnavailable, HasSubstr(server.server_address())));
}

}  // namespace
}  // namespace azbench
