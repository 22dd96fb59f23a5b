#include "coordinator/lab/lab_topology.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "coordinator/lab/imds_server.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

TEST(LabTopologyTest, EachAzHasItsOwnSubnetAndTheServerIsInTheFirst) {
  const LabTopology lab = PlanLab({.azs = 3, .agents_per_az = 2});
  ASSERT_EQ(lab.azs.size(), 3u);
  EXPECT_EQ(lab.azs[0].subnet, "10.100.0.0/24");
  EXPECT_EQ(lab.azs[2].subnet, "10.102.0.0/24");
  EXPECT_EQ(lab.azs[1].gateway, "10.101.0.1");
  EXPECT_EQ(lab.azs[1].name, "lab-1b");
  EXPECT_EQ(lab.azs[1].namespace_name, "azlab-b");
  ASSERT_EQ(lab.azs[1].agents.size(), 2u);
  EXPECT_EQ(lab.azs[1].agents[1].address, "10.101.0.11");
  EXPECT_EQ(lab.azs[1].agents[1].name, "agent-b1");
  EXPECT_EQ(lab.nfs_server_address, "10.100.0.2");
  EXPECT_EQ(lab.export_dir, std::string(kLabDefaultDir) + "/export");
}

TEST(LabTopologyTest, EveryNameFitsALinuxInterfaceNameAndCarriesThePrefix) {
  const LabTopology lab = PlanLab({.azs = kLabMaxAzs});
  for (const LabAz& az : lab.azs) {
    for (const std::string& name : {az.router_link, az.az_link, az.tun, az.namespace_name}) {
      EXPECT_LE(name.size(), 15u) << name;
      EXPECT_EQ(name.rfind(kLabPrefix, 0), 0u) << name;
    }
  }
  EXPECT_EQ(lab.router_host_link.rfind(kLabPrefix, 0), 0u);
}

TEST(LabTopologyTest, AddressesMapToTheirAzOnly) {
  const LabTopology lab = PlanLab({.azs = 3});
  EXPECT_EQ(LabAzOfAddress(lab, (10u << 24) | (101u << 16) | 10u), 1);
  EXPECT_EQ(LabAzOfAddress(lab, (10u << 24) | (103u << 16) | 10u), -1);  // no fourth AZ
  EXPECT_EQ(LabAzOfAddress(lab, (10u << 24) | (199u << 16) | 1u), -1);   // the host link
  EXPECT_EQ(LabAzOfAddress(lab, (10u << 24) | (100u << 16) | (1u << 8)), -1);
}

TEST(LabTopologyTest, OptionsOutsideTheirRangeNameTheFlag) {
  EXPECT_THAT(ValidateLabOptions({.azs = 0}).message(), HasSubstr("--azs"));
  EXPECT_THAT(ValidateLabOptions({.azs = 27}).message(), HasSubstr("--azs"));
  EXPECT_THAT(ValidateLabOptions({.agents_per_az = 0}).message(), HasSubstr("--agents-per-az"));
  EXPECT_THAT(ValidateLabOptions({.cross_az_delay = absl::Seconds(2)}).message(),
              HasSubstr("--cross-az-delay"));
  EXPECT_THAT(ValidateLabOptions({.dir = "relative"}).message(), HasSubstr("--dir"));
  EXPECT_TRUE(ValidateLabOptions({}).ok());
}

TEST(LabTopologyTest, BandwidthIsBitsPerSecondWithDecimalMultiples) {
  EXPECT_EQ(*ParseLabBandwidth("1g"), 1'000'000'000);
  EXPECT_EQ(*ParseLabBandwidth("500M"), 500'000'000);
  EXPECT_EQ(*ParseLabBandwidth("2000000"), 2'000'000);
  for (const char* bad : {"", "g", "-1g", "1t", "200g", "1.5g", "10"}) {
    absl::StatusOr<int64_t> parsed = ParseLabBandwidth(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_THAT(parsed.status().message(), HasSubstr("--cross-az-bandwidth")) << bad;
  }
}

TEST(LabTopologyTest, StateFileRoundTrips) {
  const LabOptions options{.azs = 4,
                           .agents_per_az = 3,
                           .cross_az_bandwidth_bits_per_s = 250'000'000,
                           .cross_az_delay = absl::Microseconds(1500),
                           .dir = "/var/tmp/lab-x"};
  absl::StatusOr<LabOptions> parsed = ParseLabState(FormatLabState(options));
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_EQ(FormatLabState(*parsed), FormatLabState(options));
  EXPECT_EQ(parsed->cross_az_delay, absl::Microseconds(1500));
}

TEST(LabTopologyTest, BrokenStateFilesAreRefusedNamingTheLine) {
  const std::string good = FormatLabState({});
  EXPECT_THAT(ParseLabState(good + "color=blue\n").status().message(), HasSubstr("unknown key"));
  EXPECT_THAT(ParseLabState(good + "azs=2\n").status().message(), HasSubstr("given twice"));
  EXPECT_THAT(ParseLabState("azs=three\n").status().message(), HasSubstr("line 1"));
  EXPECT_THAT(ParseLabState("azs=3\n").status().message(), HasSubstr("no agents_per_az"));
  EXPECT_THAT(ParseLabState("azs\n").status().message(), HasSubstr("key=value"));
  std::string zero = good;
  zero.replace(zero.find("azs=3"), 5, "azs=0");
  EXPECT_THAT(ParseLabState(zero).status().message(), HasSubstr("--azs"));
}

TEST(LabImdsTest, AnAgentLearnsItsAzAndSubnetWithAToken) {
  const LabTopology lab = PlanLab({.azs = 2});
  const ImdsValues values = LabImdsValues(lab, 1, 0);
  EXPECT_EQ(AnswerImds(values, "GET", "/latest/meta-data/placement/availability-zone", {}).status,
            401);
  const ImdsAnswer token = AnswerImds(values, "PUT", "/latest/api/token",
                                      {{"x-aws-ec2-metadata-token-ttl-seconds", "60"}});
  ASSERT_EQ(token.status, 200);
  const std::map<std::string, std::string> auth = {{"x-aws-ec2-metadata-token", token.body}};
  EXPECT_EQ(AnswerImds(values, "GET", "/latest/meta-data/placement/availability-zone", auth).body,
            "lab-1b");
  const ImdsAnswer macs =
      AnswerImds(values, "GET", "/latest/meta-data/network/interfaces/macs/", auth);
  ASSERT_EQ(macs.status, 200);
  EXPECT_EQ(macs.body, "0e:00:00:00:01:00/");
  EXPECT_EQ(AnswerImds(values, "GET",
                       "/latest/meta-data/network/interfaces/macs/0e:00:00:00:01:00/"
                       "subnet-ipv4-cidr-block",
                       auth)
                .body,
            "10.101.0.0/24");
  EXPECT_EQ(AnswerImds(values, "GET", "/latest/meta-data/nothing", auth).status, 404);
}

}  // namespace
}  // namespace azbench
