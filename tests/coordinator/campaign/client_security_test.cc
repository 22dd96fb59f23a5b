// The coordinator's side of transport security: settings checks, flags over the campaign's
// fleet.tls, plaintext refused for remote agents, and the campaign's fleet.tls / token_file keys.
#include "coordinator/fleet/client_security.h"

#include "absl/strings/str_cat.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/fleet/agent_client.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

TEST(ClientSecurityTest, CertificateAndKeyGoTogetherAndEverythingNeedsACa) {
  EXPECT_TRUE(ValidateClientSecurity({}, "flags").ok());
  EXPECT_TRUE(ValidateClientSecurity({.ca_file = "ca.crt"}, "flags").ok());
  absl::Status half = ValidateClientSecurity({.ca_file = "ca.crt", .cert_file = "c.crt"}, "flags");
  EXPECT_EQ(half.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(half.message()), HasSubstr("go together"));
  absl::Status no_ca = ValidateClientSecurity({.token_file = "token"}, "fleet.tls");
  EXPECT_THAT(std::string(no_ca.message()), HasSubstr("fleet.tls: a certificate, token"));
}

TEST(ClientSecurityTest, FlagsOverrideTheCampaignFieldByField) {
  const ClientSecurity merged = MergeClientSecurity(
      {.ca_file = "a.crt", .cert_file = "c.crt", .key_file = "c.key", .server_name = "agent"},
      {.ca_file = "b.crt", .token_file = "t"});
  EXPECT_EQ(merged.ca_file, "b.crt");
  EXPECT_EQ(merged.cert_file, "c.crt");
  EXPECT_EQ(merged.token_file, "t");
  EXPECT_EQ(merged.server_name, "agent");
}

TEST(ClientSecurityTest, PlaintextOnlyToLoopbackAgents) {
  EXPECT_TRUE(MakeAgentClient("127.0.0.1:7480", {}).ok());
  absl::StatusOr<std::unique_ptr<AgentClient>> remote = MakeAgentClient("10.0.1.5:7480", {});
  ASSERT_EQ(remote.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(remote.status().message()), HasSubstr("10.0.1.5:7480"));
  EXPECT_THAT(std::string(remote.status().message()), HasSubstr("--tls-ca"));
  absl::StatusOr<std::unique_ptr<AgentClient>> missing =
      MakeAgentClient("10.0.1.5:7480", {.ca_file = "/nonexistent/ca.crt"});
  EXPECT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
}

constexpr char kRest[] =
    "targets:\n  - {name: t, path: /mnt/t}\nworkloads:\n  - name: w\n    options: {rw: read, "
    "size: 1m}\n";

TEST(ClientSecurityTest, CampaignFleetTlsIsParsedRelativeToTheFile) {
  absl::StatusOr<Campaign> c = ParseCampaign(
      absl::StrCat("name: c\nfleet:\n  hosts: [10.0.1.5]\n  tls: {ca_file: certs/ca.crt, "
                   "cert_file: /abs/c.crt, key_file: certs/c.key, server_name: agent-x}\n"
                   "  token_file: token\n",
                   kRest),
      "/campaigns/c.yaml");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->fleet.security.ca_file, "/campaigns/certs/ca.crt");
  EXPECT_EQ(c->fleet.security.cert_file, "/abs/c.crt");
  EXPECT_EQ(c->fleet.security.key_file, "/campaigns/certs/c.key");
  EXPECT_EQ(c->fleet.security.server_name, "agent-x");
  EXPECT_EQ(c->fleet.security.token_file, "/campaigns/token");
}

TEST(ClientSecurityTest, CampaignFleetTlsErrorsNameTheKey) {
  absl::StatusOr<Campaign> local = ParseCampaign(
      absl::StrCat("name: c\nfleet:\n  local: {agents: 1}\n  tls: {ca_file: ca.crt}\n", kRest),
      "c.yaml");
  EXPECT_THAT(std::string(local.status().message()), HasSubstr("the local fleet talks plaintext"));
  absl::StatusOr<Campaign> unknown = ParseCampaign(
      absl::StrCat("name: c\nfleet:\n  hosts: [h]\n  tls: {ca: ca.crt}\n", kRest), "c.yaml");
  EXPECT_THAT(std::string(unknown.status().message()), HasSubstr("ca"));
  EXPECT_FALSE(unknown.ok());
  absl::StatusOr<Campaign> half = ParseCampaign(
      absl::StrCat("name: c\nfleet:\n  hosts: [h]\n  tls: {ca_file: a, cert_file: b}\n", kRest),
      "c.yaml");
  EXPECT_THAT(std::string(half.status().message()), HasSubstr("go together"));
}

}  // namespace
}  // namespace azbench
