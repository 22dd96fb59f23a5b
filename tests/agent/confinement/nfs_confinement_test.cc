// The NFS side of job confinement: an ioengine=nfs job reaches only the servers in
// allowed_nfs_servers; its paths are beneath the export, so none of the local checks applies.
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "agent/confinement/job_confinement.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/status_matchers.h"

namespace azbench {
namespace {

using ::azbench::testing::StatusIs;
using ::testing::AllOf;
using ::testing::HasSubstr;

JobPolicy PolicyWith(std::vector<std::string> servers) {
  JobPolicy policy;
  policy.allowed_roots = {"/nonexistent-root-for-nfs-test"};
  policy.allowed_nfs_servers = std::move(servers);
  return policy;
}

absl::Status Confine(const std::string& server, const JobPolicy& policy, JobPaths* out = nullptr,
                     const std::string& directory = "data") {
  JobPaths paths;
  paths.directory = directory;
  paths.nfs_server = server;
  absl::Status status =
      ConfineJob("j", {.files = 1, .bytes = 1 << 20, .files_formula = ""}, paths, policy, "agent-1")
          .status();
  if (out != nullptr) *out = paths;
  return status;
}

TEST(NfsConfinementTest, ServersInsideTheListedAddressesAndBlocksAreAllowed) {
  const JobPolicy policy = PolicyWith({"10.0.12.7", "10.1.0.0/16", "fd00::/8"});
  EXPECT_TRUE(Confine("10.0.12.7", policy).ok());
  EXPECT_TRUE(Confine("10.1.255.3", policy).ok());
  EXPECT_TRUE(Confine("fd00::5", policy).ok());
  EXPECT_TRUE(Confine("10.9.9.9", PolicyWith({"0.0.0.0/0"})).ok());
}

TEST(NfsConfinementTest, OtherServersAreRefusedNamingTheServerAndTheList) {
  const JobPolicy policy = PolicyWith({"10.0.12.7", "10.1.0.0/16"});
  for (const std::string server : {"10.0.12.8", "10.2.0.1", "fe80::1", "127.0.0.1"}) {
    EXPECT_THAT(Confine(server, policy),
                StatusIs(absl::StatusCode::kPermissionDenied,
                         AllOf(HasSubstr("job 'j'"), HasSubstr("NFS server " + server),
                               HasSubstr("outside allowed_nfs_servers (10.0.12.7, 10.1.0.0/16)"))))
        << server;
  }
}

TEST(NfsConfinementTest, AHostNameIsRefusedSinceItCouldResolveElsewhereLater) {
  EXPECT_THAT(Confine("fs.example.com", PolicyWith({"0.0.0.0/0"})),
              StatusIs(absl::StatusCode::kPermissionDenied,
                       HasSubstr("'fs.example.com' is not an address")));
}

TEST(NfsConfinementTest, NoListRefusesEveryNfsJob) {
  EXPECT_THAT(Confine("10.0.12.7", PolicyWith({})),
              StatusIs(absl::StatusCode::kFailedPrecondition,
                       HasSubstr("no allowed_nfs_servers configured")));
}

TEST(NfsConfinementTest, PathsStayBeneathTheExportWithTheAgentSubdirectoryAppended) {
  JobPaths paths;
  ASSERT_TRUE(Confine("10.0.12.7", PolicyWith({"10.0.12.7"}), &paths, "data/").ok());
  EXPECT_EQ(paths.directory, "data/agent-1");  // not made absolute, not opened locally
}

TEST(NfsConfinementTest, TheLimitsStillApply) {
  JobPolicy policy = PolicyWith({"10.0.12.7"});
  policy.limits.max_job_size_bytes = 1024;
  EXPECT_THAT(Confine("10.0.12.7", policy),
              StatusIs(absl::StatusCode::kResourceExhausted, HasSubstr("limits.max_job_size")));
}

TEST(NfsConfinementTest, RulesAreAddressesOrCidrBlocks) {
  EXPECT_TRUE(ParseNfsServerRule("10.0.0.0/8").ok());
  EXPECT_TRUE(ParseNfsServerRule("::1").ok());
  EXPECT_THAT(ParseNfsServerRule("10.0.0.0/"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("prefix length")));
  EXPECT_THAT(ParseNfsServerRule("fd00::/129"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("0..128")));
  EXPECT_THAT(ParseNfsServerRule("server"),
              StatusIs(absl::StatusCode::kInvalidArgument, HasSubstr("host names are not")));
}

}  // namespace
}  // namespace azbench
