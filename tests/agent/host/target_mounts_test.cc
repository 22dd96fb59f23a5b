#include "agent/host/target_mounts.h"

#include <filesystem>

#include "agent/host/mounts.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/dependencies.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using ::testing::Pair;

std::string Fixture(const std::string& name) {
  return (std::filesystem::path(testing::kSourceDir) / "tests/agent/testdata" / name).string();
}

class TargetMountsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto mounts = ReadMounts(Fixture("mountinfo-study-a.txt"));
    ASSERT_TRUE(mounts.ok()) << mounts.status();
    mounts_ = *mounts;
  }
  TargetMount Describe(const std::string& path) {
    return DescribeTargetMount(mounts_, path, resolver_);
  }
  std::vector<MountEntry> mounts_;
  StaticResolver resolver_{{
      {"fs-0123456789abcdef0.fsx.ap-northeast-1.amazonaws.com", {"10.0.1.77"}},
      {"fs-0abc.efs.ap-northeast-1.amazonaws.com", {"10.0.2.200"}},
      {"10.0.1.9", {"10.0.1.9"}},
      {"fd00::5", {"fd00::5"}},
  }};
};

TEST_F(TargetMountsTest, Nfs41WithAddrAndClientaddrAndTheOptionsThatChangeResults) {
  const TargetMount m = Describe("/mnt/fsx/azbench/run1");
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.mount.mount_point, "/mnt/fsx");
  EXPECT_EQ(m.mount.fstype, "nfs4");
  EXPECT_EQ(m.mount.server, "fs-0123456789abcdef0.fsx.ap-northeast-1.amazonaws.com");
  EXPECT_EQ(m.mount.export_path, "/fsx");
  EXPECT_EQ(m.addr, "10.0.1.77");
  EXPECT_EQ(m.client_addr, "10.0.2.15");
  EXPECT_THAT(m.server_addresses, ElementsAre("10.0.1.77"));
  EXPECT_THAT(m.result_options,
              ElementsAre(Pair("hard", ""), Pair("nconnect", "4"), Pair("proto", "tcp"),
                          Pair("retrans", "2"), Pair("rsize", "1048576"), Pair("timeo", "600"),
                          Pair("vers", "4.1"), Pair("wsize", "1048576")));
}

TEST_F(TargetMountsTest, EfsThroughTheTlsTunnelKeepsLoopbackAddrAndResolvesTheRealServer) {
  const TargetMount m = Describe("/mnt/efs");
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.addr, "127.0.0.1") << "efs-utils' stunnel: the kernel talks to localhost";
  EXPECT_THAT(m.server_addresses, ElementsAre("10.0.2.200"));
  EXPECT_EQ(m.result_options.count("noresvport"), 1u);
}

TEST_F(TargetMountsTest, AttributeCacheOptionsAreReported) {
  const TargetMount m = Describe("/mnt/efs-direct/x");
  EXPECT_EQ(m.result_options.at("actimeo"), "1");
  EXPECT_EQ(m.result_options.at("lookupcache"), "pos");
  const TargetMount v3 = Describe("/mnt/nfs3");
  EXPECT_EQ(v3.result_options.at("vers"), "3");
  EXPECT_EQ(v3.result_options.at("proto"), "udp");
  EXPECT_EQ(v3.result_options.count("soft"), 1u);
  EXPECT_EQ(v3.result_options.count("noac"), 1u);
  EXPECT_EQ(v3.mount.export_path, "/export/data");
}

TEST_F(TargetMountsTest, LustreServerIsTheFirstNidAddress) {
  const TargetMount m = Describe("/mnt/lustre/dir");
  EXPECT_EQ(m.mount.fstype, "lustre");
  EXPECT_EQ(m.mount.server, "10.0.1.9");
  EXPECT_EQ(m.mount.export_path, "/abcdefgh");
  EXPECT_THAT(m.server_addresses, ElementsAre("10.0.1.9"));
  EXPECT_EQ(m.result_options.count("flock"), 1u);
}

TEST_F(TargetMountsTest, Ipv6ServerAndEscapedMountPoint) {
  const TargetMount m = Describe("/mnt/with space/a");
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.mount.server, "[fd00::5]");
  EXPECT_THAT(m.server_addresses, ElementsAre("fd00::5"));
  EXPECT_EQ(m.client_addr, "fd00::9");
}

TEST_F(TargetMountsTest, LocalDiskHasNoServerAndNothingToResolve) {
  const TargetMount m = Describe("/var/tmp/x");
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.mount.mount_point, "/");
  EXPECT_TRUE(m.mount.server.empty());
  EXPECT_THAT(m.server_addresses, IsEmpty());
  EXPECT_TRUE(m.resolve_error.empty());
}

TEST_F(TargetMountsTest, AnUnresolvableServerSaysWhy) {
  StaticResolver empty({});
  const TargetMount m = DescribeTargetMount(mounts_, "/mnt/fsx", empty);
  EXPECT_THAT(m.server_addresses, IsEmpty());
  EXPECT_THAT(m.resolve_error, ::testing::HasSubstr("cannot resolve"));
  EXPECT_EQ(m.addr, "10.0.1.77") << "addr= is still known";
}

TEST(SystemResolverTest, ResolvesLiteralsAndLocalhost) {
  SystemResolver resolver;
  auto literal = resolver.Resolve("198.18.3.4");
  ASSERT_TRUE(literal.ok()) << literal.status();
  EXPECT_THAT(*literal, ElementsAre("198.18.3.4"));
  auto localhost = resolver.Resolve("localhost");
  ASSERT_TRUE(localhost.ok()) << localhost.status();
  EXPECT_FALSE(localhost->empty());
}

TEST(NfsUrlTargetTest, TheUrlStandsForTheMountWithItsServerResolved) {
  StaticResolver resolver({{"nfs.lab", {"10.100.0.2", "10.101.0.2"}}});
  const TargetMount m =
      DescribeNfsUrlTarget("nfs://nfs.lab:2049/srv/export/?version=3&mountport=20048", resolver);
  ASSERT_TRUE(m.found);
  EXPECT_EQ(m.mount.fstype, "nfs-url");
  EXPECT_EQ(m.mount.source, "nfs://nfs.lab:2049/srv/export/?version=3&mountport=20048");
  EXPECT_EQ(m.mount.mount_point, "");
  EXPECT_EQ(m.mount.server, "nfs.lab");
  EXPECT_EQ(m.mount.export_path, "/srv/export");
  EXPECT_EQ(m.addr, "") << "libnfs's connection is not observed: the resolved server decides";
  EXPECT_THAT(m.server_addresses, ElementsAre("10.100.0.2", "10.101.0.2"));
  EXPECT_THAT(m.mount.options,
              ElementsAre(Pair("mountport", "20048"), Pair("nfsport", "2049"), Pair("vers", "3")));
  EXPECT_THAT(m.result_options, ElementsAre(Pair("vers", "3")));
}

TEST(NfsUrlTargetTest, AnAddressResolvesToItselfAndAnUnknownNameSaysWhy) {
  SystemResolver system;
  const TargetMount v6 = DescribeNfsUrlTarget("nfs://[fd00::5]/x?version=4", system);
  EXPECT_THAT(v6.server_addresses, ElementsAre("fd00::5"));
  EXPECT_EQ(v6.mount.options.at("vers"), "4");
  StaticResolver empty({});
  const TargetMount unknown = DescribeNfsUrlTarget("nfs://nowhere/x", empty);
  EXPECT_TRUE(unknown.found);
  EXPECT_THAT(unknown.server_addresses, IsEmpty());
  EXPECT_THAT(unknown.resolve_error, ::testing::HasSubstr("cannot resolve 'nowhere'"));
}

TEST(NfsUrlTargetTest, ABadUrlIsNotFoundWithTheReason) {
  StaticResolver empty({});
  const TargetMount bad = DescribeNfsUrlTarget("nfs://server", empty);
  EXPECT_FALSE(bad.found);
  EXPECT_THAT(bad.resolve_error, ::testing::HasSubstr("export path is missing"));
}

}  // namespace
}  // namespace azbench
