// The agent's Describe answer (identity and target mounts) and the serve settings behind it.
#include <filesystem>
#include <fstream>

#include "agent/runner/runner.h"
#include "agent/server/serve.h"
#include "agent/server/service.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

std::string Fixture(const std::string& name) {
  return (std::filesystem::path(testing::kSourceDir) / "tests/agent/testdata" / name).string();
}

TEST(DescribeTest, AnswersIdentitySubnetsAndEveryTargetsMountEvidence) {
  Runner runner(RunnerConfig{});
  AgentIdentity identity;
  identity.agent_id = "c1";
  identity.availability_zone = "ap-northeast-1c";
  identity.availability_zone_id = "apne1-az1";
  identity.instance_id = "i-0abc";
  identity.local_ipv4 = "10.0.2.15";
  identity.subnets = {{"0e:00:00:00:00:01", "subnet-1c", "10.0.2.0/24"}};
  identity.az_source = "imds";
  auto resolver = std::make_shared<StaticResolver>(std::map<std::string, std::vector<std::string>>{
      {"fs-0123456789abcdef0.fsx.ap-northeast-1.amazonaws.com", {"10.0.1.77"}}});
  AgentService service(runner, identity, Fixture("mountinfo-study-a.txt"), resolver);
  v1::DescribeRequest request;
  request.add_target_paths("/mnt/fsx/azbench");
  request.add_target_paths("/mnt/efs/azbench");
  v1::DescribeResponse response;
  ASSERT_TRUE(service.Describe(nullptr, &request, &response).ok());
  const v1::Identity& id = response.identity();
  EXPECT_EQ(id.availability_zone_id(), "apne1-az1");
  EXPECT_EQ(id.az_source(), "imds");
  EXPECT_EQ(id.instance_id(), "i-0abc");
  EXPECT_EQ(id.local_ipv4(), "10.0.2.15");
  ASSERT_EQ(id.subnets_size(), 1);
  EXPECT_EQ(id.subnets(0).subnet_id(), "subnet-1c");
  EXPECT_EQ(id.subnets(0).cidr(), "10.0.2.0/24");
  ASSERT_EQ(response.mounts_size(), 2);
  const v1::MountInfo& fsx = response.mounts(0);
  EXPECT_EQ(fsx.target_path(), "/mnt/fsx/azbench");
  EXPECT_EQ(fsx.mount_point(), "/mnt/fsx");
  EXPECT_EQ(fsx.addr(), "10.0.1.77");
  EXPECT_EQ(fsx.client_addr(), "10.0.2.15");
  EXPECT_THAT(fsx.server_addresses(), ElementsAre("10.0.1.77"));
  EXPECT_EQ(fsx.options().at("nconnect"), "4");
  const v1::MountInfo& efs = response.mounts(1);
  EXPECT_EQ(efs.addr(), "127.0.0.1");
  EXPECT_TRUE(efs.server_addresses().empty());
  EXPECT_THAT(efs.resolve_error(), HasSubstr("cannot resolve 'fs-0abc.efs"));
}

TEST(DescribeTest, AnNfsUrlTargetIsDescribedByItsServerEvenWithoutAMountTable) {
  Runner runner(RunnerConfig{});
  AgentIdentity identity;
  identity.agent_id = "b0";
  auto resolver = std::make_shared<StaticResolver>(
      std::map<std::string, std::vector<std::string>>{{"10.100.0.2", {"10.100.0.2"}}});
  AgentService service(runner, identity, "/nonexistent/mountinfo", resolver);
  v1::DescribeRequest request;
  request.add_target_paths("nfs://10.100.0.2/srv/export?version=3&nfsport=2049");
  request.add_target_paths("/mnt/efs/azbench");
  v1::DescribeResponse response;
  ASSERT_TRUE(service.Describe(nullptr, &request, &response).ok());
  ASSERT_EQ(response.mounts_size(), 1) << "no mount table: only the URL is described";
  const v1::MountInfo& m = response.mounts(0);
  EXPECT_EQ(m.target_path(), "nfs://10.100.0.2/srv/export?version=3&nfsport=2049");
  EXPECT_EQ(m.fstype(), "nfs-url");
  EXPECT_EQ(m.server(), "10.100.0.2");
  EXPECT_EQ(m.export_path(), "/srv/export");
  EXPECT_THAT(m.server_addresses(), ElementsAre("10.100.0.2"));
  EXPECT_EQ(m.options().at("nfsport"), "2049");
}

TEST(ServeSettingsTest, ImdsAndMountinfoSettingsFromTheConfigAndFlags) {
  testing::TempDir dir;
  ASSERT_TRUE(dir.ok());
  const std::string path = dir.File("agent.yaml");
  {
    std::ofstream out(path);
    out << "agent_id: a1\nimds_endpoint: http://127.0.0.1:9\nimds: disabled\n"
           "mountinfo_path: /tmp/mi\navailability_zone_id: use1-az1\n";
  }
  absl::StatusOr<ServeConfig> config = LoadServeConfig(path);
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_EQ(config->imds_endpoint, "http://127.0.0.1:9");
  EXPECT_TRUE(config->imds_disabled);
  EXPECT_EQ(config->mountinfo_path, "/tmp/mi");
  EXPECT_EQ(config->identity.availability_zone_id, "use1-az1");

  config = ParseServeArgs({"--config", path, "--imds=enabled", "--imds-endpoint",
                           "http://127.0.0.1:10", "--mountinfo=/tmp/other"});
  ASSERT_TRUE(config.ok()) << config.status();
  EXPECT_FALSE(config->imds_disabled) << "flags override the file";
  EXPECT_EQ(config->imds_endpoint, "http://127.0.0.1:10");
  EXPECT_EQ(config->mountinfo_path, "/tmp/other");

  {
    std::ofstream out(path);
    out << "agent_id: a1\nimds: off\n";
  }
  config = LoadServeConfig(path);
  EXPECT_TRUE(absl::IsInvalidArgument(config.status()));
  EXPECT_THAT(config.status().message(), HasSubstr("agent.yaml:2"));
  EXPECT_THAT(config.status().message(), HasSubstr("enabled or disabled"));
  EXPECT_TRUE(absl::IsInvalidArgument(ParseServeArgs({"--imds", "maybe"}).status()));
}

}  // namespace
}  // namespace azbench
