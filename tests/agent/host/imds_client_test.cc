#include "agent/host/imds_client.h"

#include <chrono>

#include "agent/host/identity.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "tests/testing/fake_http_server.h"
#include "tests/testing/subprocess.h"

namespace azbench {
namespace {

using testing::FakeHttpServer;
using testing::FakeImdsHandler;
using ::testing::HasSubstr;
using testing::HttpRequest;
using testing::HttpResponse;

std::map<std::string, std::string> InstanceA() {
  return {
      {"placement/region", "ap-northeast-1"},
      {"placement/availability-zone", "ap-northeast-1c"},
      {"placement/availability-zone-id", "apne1-az1"},
      {"instance-id", "i-0123456789abcdef0"},
      {"instance-type", "t3.micro"},
      {"local-ipv4", "10.0.2.15"},
      {"network/interfaces/macs/0e:00:00:00:00:01/subnet-id", "subnet-1c"},
      {"network/interfaces/macs/0e:00:00:00:00:01/subnet-ipv4-cidr-block", "10.0.2.0/24"},
      {"network/interfaces/macs/0e:00:00:00:00:02/subnet-id", "subnet-1c-b"},
      {"network/interfaces/macs/0e:00:00:00:00:02/subnet-ipv4-cidr-block", "10.0.3.0/24"},
  };
}

std::unique_ptr<MetadataClient> Client(const std::string& endpoint,
                                       absl::Duration timeout = absl::Seconds(1)) {
  ImdsSettings settings;
  settings.endpoint = endpoint;
  settings.timeout = timeout;
  auto client = MakeImdsClient(settings);
  EXPECT_TRUE(client.ok()) << client.status();
  return client.ok() ? std::move(*client) : nullptr;
}

TEST(ImdsClientTest, PutsATokenWithATtlThenGetsWithItAndReusesIt) {
  FakeHttpServer server("127.0.0.1", FakeImdsHandler(InstanceA()));
  ASSERT_TRUE(server.ok()) << server.error();
  auto imds = Client(server.url());
  auto az = imds->Get("meta-data/placement/availability-zone");
  ASSERT_TRUE(az.ok()) << az.status();
  EXPECT_EQ(*az, "ap-northeast-1c");
  auto type = imds->Get("/latest/meta-data/instance-type");
  ASSERT_TRUE(type.ok()) << type.status();
  EXPECT_EQ(*type, "t3.micro");
  const std::vector<HttpRequest> requests = server.requests();
  ASSERT_EQ(requests.size(), 3u) << "one token PUT, two GETs";
  EXPECT_EQ(requests[0].method, "PUT");
  EXPECT_EQ(requests[0].path, "/latest/api/token");
  EXPECT_EQ(requests[0].headers.at("x-aws-ec2-metadata-token-ttl-seconds"), "21600");
  EXPECT_EQ(requests[1].headers.at("x-aws-ec2-metadata-token"), "fake-imds-token");
  EXPECT_EQ(requests[2].path, "/latest/meta-data/instance-type");
}

TEST(ImdsClientTest, AnExpiredTokenIsFetchedAgainOnce) {
  int puts = 0;
  FakeHttpServer server("127.0.0.1", [&puts](const HttpRequest& r) {
    if (r.method == "PUT") return HttpResponse{200, "token-" + std::to_string(++puts)};
    // Only the second token is accepted: the first "expired".
    if (r.headers.count("x-aws-ec2-metadata-token") &&
        r.headers.at("x-aws-ec2-metadata-token") == "token-2") {
      return HttpResponse{200, "i-1"};
    }
    return HttpResponse{401};
  });
  ASSERT_TRUE(server.ok());
  auto imds = Client(server.url());
  auto id = imds->Get("meta-data/instance-id");
  ASSERT_TRUE(id.ok()) << id.status();
  EXPECT_EQ(*id, "i-1");
  EXPECT_EQ(puts, 2);
}

TEST(ImdsClientTest, MissingPathIsNotFoundAndOtherStatusesAreNamed) {
  FakeHttpServer server("127.0.0.1", [](const HttpRequest& r) {
    if (r.method == "PUT") return HttpResponse{200, "t"};
    if (r.path == "/latest/meta-data/boom") return HttpResponse{500};
    return HttpResponse{404};
  });
  ASSERT_TRUE(server.ok());
  auto imds = Client(server.url());
  EXPECT_TRUE(absl::IsNotFound(imds->Get("meta-data/nothing").status()));
  auto boom = imds->Get("meta-data/boom");
  EXPECT_TRUE(absl::IsInternal(boom.status())) << boom.status();
  EXPECT_THAT(std::string(boom.status().message()), HasSubstr("HTTP 500"));
}

TEST(ImdsClientTest, NobodyListeningMeansNotOnEc2) {
  const int port = testing::UnusedLoopbackPort();
  auto imds = Client("http://127.0.0.1:" + std::to_string(port));
  auto az = imds->Get("meta-data/placement/availability-zone");
  EXPECT_TRUE(absl::IsUnavailable(az.status())) << az.status();
  EXPECT_THAT(std::string(az.status().message()), HasSubstr("not on EC2"));
}

TEST(ImdsClientTest, ASlowServiceTimesOutAsNotOnEc2) {
  FakeHttpServer server("127.0.0.1", [](const HttpRequest&) {
    HttpResponse r{200, "late"};
    r.delay = std::chrono::milliseconds(1500);
    return r;
  });
  ASSERT_TRUE(server.ok());
  auto imds = Client(server.url(), absl::Milliseconds(200));
  auto az = imds->Get("meta-data/placement/availability-zone");
  EXPECT_TRUE(absl::IsUnavailable(az.status())) << az.status();
  EXPECT_THAT(std::string(az.status().message()), HasSubstr("200 ms"));
}

TEST(ImdsClientTest, ARefusedTokenRequestMeansNotOnEc2) {
  FakeHttpServer server("127.0.0.1", [](const HttpRequest&) { return HttpResponse{403}; });
  ASSERT_TRUE(server.ok());
  auto az = Client(server.url())->Get("meta-data/placement/availability-zone");
  EXPECT_TRUE(absl::IsUnavailable(az.status())) << az.status();
  EXPECT_THAT(std::string(az.status().message()), HasSubstr("HTTP 403"));
}

TEST(ImdsClientTest, DisabledContactsNothing) {
  FakeHttpServer server("127.0.0.1", FakeImdsHandler(InstanceA()));
  ASSERT_TRUE(server.ok());
  ImdsSettings settings;
  settings.endpoint = server.url();
  settings.disabled = true;
  auto imds = MakeImdsClient(settings);
  ASSERT_TRUE(imds.ok());
  EXPECT_TRUE(absl::IsFailedPrecondition((*imds)->Get("meta-data/instance-id").status()));
  EXPECT_TRUE(server.requests().empty());
}

TEST(ImdsClientTest, ABadEndpointIsRefused) {
  ImdsSettings settings;
  settings.endpoint = "169.254.169.254";
  EXPECT_TRUE(absl::IsInvalidArgument(MakeImdsClient(settings).status()));
}

TEST(IdentityTest, EverythingComesFromImdsWhenNothingIsPinned) {
  FakeHttpServer server("127.0.0.1", FakeImdsHandler(InstanceA()));
  ASSERT_TRUE(server.ok());
  auto imds = Client(server.url());
  AgentIdentity pinned;
  pinned.agent_id = "a1";
  const IdentityDiscovery found = DiscoverIdentity(imds.get(), pinned);
  ASSERT_TRUE(found.imds_status.ok()) << found.imds_status;
  const AgentIdentity& id = found.identity;
  EXPECT_EQ(id.agent_id, "a1");
  EXPECT_EQ(id.region, "ap-northeast-1");
  EXPECT_EQ(id.availability_zone, "ap-northeast-1c");
  EXPECT_EQ(id.availability_zone_id, "apne1-az1");
  EXPECT_EQ(id.instance_id, "i-0123456789abcdef0");
  EXPECT_EQ(id.instance_type, "t3.micro");
  EXPECT_EQ(id.local_ipv4, "10.0.2.15");
  EXPECT_EQ(id.az_source, "imds");
  ASSERT_EQ(id.subnets.size(), 2u);
  EXPECT_EQ(id.subnets[0].mac, "0e:00:00:00:00:01");
  EXPECT_EQ(id.subnets[0].subnet_id, "subnet-1c");
  EXPECT_EQ(id.subnets[0].cidr, "10.0.2.0/24");
  EXPECT_EQ(id.subnets[1].cidr, "10.0.3.0/24");
}

TEST(IdentityTest, APinnedAzWinsAndTheContradictionIsNoted) {
  FakeHttpServer server("127.0.0.1", FakeImdsHandler(InstanceA()));
  ASSERT_TRUE(server.ok());
  auto imds = Client(server.url());
  AgentIdentity pinned;
  pinned.availability_zone = "ap-northeast-1a";
  const IdentityDiscovery found = DiscoverIdentity(imds.get(), pinned);
  EXPECT_EQ(found.identity.availability_zone, "ap-northeast-1a");
  EXPECT_EQ(found.identity.availability_zone_id, "") << "IMDS's id belongs to another AZ";
  EXPECT_EQ(found.identity.az_source, "config");
  EXPECT_EQ(found.identity.instance_id, "i-0123456789abcdef0") << "the rest still comes from IMDS";
  bool noted = false;
  for (const auto& n : found.notes) noted = noted || n.find("ap-northeast-1c") != std::string::npos;
  EXPECT_TRUE(noted);
}

TEST(IdentityTest, NotOnEc2KeepsThePinnedIdentityAndSaysWhy) {
  const int port = testing::UnusedLoopbackPort();
  auto imds = Client("http://127.0.0.1:" + std::to_string(port));
  AgentIdentity none;
  IdentityDiscovery found = DiscoverIdentity(imds.get(), none);
  EXPECT_TRUE(absl::IsUnavailable(found.imds_status));
  EXPECT_EQ(found.identity.az_source, "none");
  EXPECT_TRUE(found.identity.availability_zone.empty());
  AgentIdentity pinned;
  pinned.availability_zone_id = "use1-az4";
  found = DiscoverIdentity(nullptr, pinned);
  EXPECT_EQ(found.identity.az_source, "config");
  EXPECT_EQ(found.identity.availability_zone_id, "use1-az4");
}

}  // namespace
}  // namespace azbench
