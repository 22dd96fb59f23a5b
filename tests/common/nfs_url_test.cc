#include "common/nfs_url.h"

#include <string>

#include "absl/status/status.h"
#include "common/job_spec.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;

TEST(NfsUrlTest, ServerExportAndDefaultsAreRead) {
  absl::StatusOr<NfsUrl> url = ParseNfsUrl("nfs://fs-1.example.com/exports/bench/");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_EQ(url->server, "fs-1.example.com");
  EXPECT_EQ(url->export_path, "/exports/bench");
  EXPECT_EQ(url->version, 3);
  EXPECT_EQ(url->nfs_port, 0);
  EXPECT_EQ(url->mount_port, 0);
  EXPECT_EQ(url->LibnfsUrl(), "nfs://fs-1.example.com/exports/bench?version=3");
}

TEST(NfsUrlTest, PortInTheAuthorityIsTheNfsPortAndGoesToLibnfsAsNfsport) {
  absl::StatusOr<NfsUrl> url = ParseNfsUrl("nfs://10.0.0.5:2049/x?mountport=20048&version=4");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_EQ(url->server, "10.0.0.5");
  EXPECT_EQ(url->nfs_port, 2049);
  EXPECT_EQ(url->mount_port, 20048);
  EXPECT_EQ(url->version, 4);
  EXPECT_EQ(url->LibnfsUrl(), "nfs://10.0.0.5/x?version=4&nfsport=2049&mountport=20048");
}

TEST(NfsUrlTest, BracketedIpv6ServerKeepsItsBracketsOnlyInTheUrl) {
  absl::StatusOr<NfsUrl> url = ParseNfsUrl("nfs://[fd00::5]:2049/");
  ASSERT_TRUE(url.ok()) << url.status();
  EXPECT_EQ(url->server, "fd00::5");
  EXPECT_EQ(url->export_path, "/");
  EXPECT_EQ(url->LibnfsUrl(), "nfs://[fd00::5]/?version=3&nfsport=2049");
}

TEST(NfsUrlTest, MalformedUrlsAreRefusedSayingWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"http://server/x", "must start with nfs://"},
      {"nfs://server", "export path is missing"},
      {"nfs:///x", "server is missing"},
      {"nfs://user@server/x", "no user@"},
      {"nfs://server:/x", "port after ':' is empty"},
      {"nfs://server:99999/x", "not a number in 1..65535"},
      {"nfs://[fd00::5/x", "lacks its ']'"},
      {"nfs://server/x/../y", "'..' components"},
      {"nfs://server/x?version=2", "version=2 is not allowed: 3 or 4"},
      {"nfs://server/x?version=3&version=3", "'version' is repeated"},
      {"nfs://server:2049/x?nfsport=2049", "given twice"},
      {"nfs://server/x?mountport=abc", "not a port in 1..65535"},
      {"nfs://server/x?uid=0", "unknown argument 'uid'; allowed: version, nfsport, mountport"},
      {"nfs://server/x?version", "is not <arg>=<value>"},
  };
  for (const auto& [text, message] : cases) {
    EXPECT_THAT(ParseNfsUrl(text).status(), StatusIs(absl::StatusCode::kInvalidArgument,
                                                     AllOf(HasSubstr(text), HasSubstr(message))))
        << text;
  }
}

TEST(NfsUrlTest, JobOptionNfsUrlIsCheckedWhenItIsSet) {
  JobSpec job;
  EXPECT_THAT(ApplyJobOption(job, "nfs_url", "nfs://server"),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       AllOf(HasSubstr("option 'nfs_url'"), HasSubstr("export path is missing"))));
  ASSERT_TRUE(ApplyJobOption(job, "nfs_url", "nfs://server/export").ok());
  EXPECT_EQ(job.nfs_url, "nfs://server/export");
}

JobSpec NfsJob(const std::string& url, const std::string& bs) {
  JobSpec job;
  job.name = "j";
  job.size_bytes = 1 << 20;
  EXPECT_TRUE(ApplyJobOption(job, "ioengine", "nfs").ok());
  if (!url.empty()) {
    EXPECT_TRUE(ApplyJobOption(job, "nfs_url", url).ok());
  }
  EXPECT_TRUE(ApplyJobOption(job, "bs", bs).ok());
  return job;
}

TEST(NfsUrlTest, NfsEngineNeedsNfsUrlAndNfsUrlNeedsTheNfsEngine) {
  EXPECT_THAT(ValidateJobSpec(NfsJob("", "4k")), StatusIs(absl::StatusCode::kInvalidArgument,
                                                          HasSubstr("ioengine=nfs needs nfs_url")));
  JobSpec psync;
  psync.name = "j";
  psync.size_bytes = 1 << 20;
  ASSERT_TRUE(ApplyJobOption(psync, "nfs_url", "nfs://server/export").ok());
  EXPECT_THAT(ValidateJobSpec(psync),
              StatusIs(absl::StatusCode::kInvalidArgument,
                       HasSubstr("nfs_url applies only to ioengine=nfs (this job's ioengine is "
                                 "psync)")));
  EXPECT_TRUE(ValidateJobSpec(NfsJob("nfs://server/export", "1m")).ok());
}

TEST(NfsUrlTest, NfsV4TakesBlocksLargerThanOneLibnfsWriteAsV3Does) {
  // The engine splits them (agent/engines/nfs_engine.h); no bs is refused for the version.
  for (const char* bs : {"3072", "4k", "1m"}) {
    EXPECT_TRUE(ValidateJobSpec(NfsJob("nfs://server/export?version=4", bs)).ok()) << bs;
    EXPECT_TRUE(ValidateJobSpec(NfsJob("nfs://server/export?version=3", bs)).ok()) << bs;
  }
}

TEST(NfsUrlTest, DirectIoIsRefusedWithTheNfsEngine) {
  JobSpec job = NfsJob("nfs://server/export", "4k");
  ASSERT_TRUE(ApplyJobOption(job, "direct", "1").ok());
  EXPECT_THAT(ValidateJobSpec(job),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("direct=1 is not allowed")));
}

}  // namespace
}  // namespace azbench
