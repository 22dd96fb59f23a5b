// Which agent binary a local fleet starts: $AZBENCH_AGENT_BIN when set, and then only that one.
#include <string>

#include "absl/status/status.h"
#include "coordinator/fleet/local_fleet.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/scoped_env.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

TEST(FindAgentBinaryTest, AnExecutableNamedByTheVariableIsTheOneUsed) {
  testing::ScopedEnv env("AZBENCH_AGENT_BIN", "/bin/true");
  absl::StatusOr<std::string> found = FindAgentBinary();
  ASSERT_TRUE(found.ok()) << found.status();
  EXPECT_EQ(*found, "/bin/true");
}

// A mistyped path is an error naming it, not a silent fall back to another agent binary.
TEST(FindAgentBinaryTest, AMissingBinaryNamedByTheVariableIsAnErrorNamingIt) {
  testing::ScopedEnv env("AZBENCH_AGENT_BIN", "/nonexistent/azbench-agent");
  absl::StatusOr<std::string> found = FindAgentBinary();
  ASSERT_FALSE(found.ok()) << "found " << *found;
  EXPECT_EQ(found.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(found.status().message()),
              HasSubstr("$AZBENCH_AGENT_BIN is '/nonexistent/azbench-agent'"));
  EXPECT_THAT(std::string(found.status().message()), HasSubstr("No such file or directory"));
}

TEST(FindAgentBinaryTest, ADirectoryNamedByTheVariableIsAnError) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  testing::ScopedEnv env("AZBENCH_AGENT_BIN", dir.path());
  absl::StatusOr<std::string> found = FindAgentBinary();
  ASSERT_FALSE(found.ok()) << "found " << *found;
  EXPECT_THAT(std::string(found.status().message()), HasSubstr("Is a directory"));
}

}  // namespace
}  // namespace azbench
