#include "agent/server/transport_security.h"

#include "gmock/gmock.h"
#include "gtest/gtest.h"

#include <fstream>

#include "absl/strings/match.h"
#include "tests/testing/temp_dir.h"

namespace azbench {
namespace {

using ::testing::HasSubstr;

class TransportSecurityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(dir_.ok());
    // The mode is chosen from the settings; the PEM text is only read here (gRPC parses it when
    // the port is bound, which the integration tests do with real certificates).
    for (const char* name : {"agent.crt", "agent.key", "ca.crt"}) {
      std::ofstream(dir_.File(name)) << "-----BEGIN X-----\n-----END X-----\n";
    }
    std::ofstream(dir_.File("token")) << "  s3cret-token \nsecond line ignored\n";
    std::ofstream(dir_.File("empty-token")) << "\n";
  }
  AgentSettings Tls(bool with_ca) {
    AgentSettings s;
    s.tls.cert_file = dir_.File("agent.crt");
    s.tls.key_file = dir_.File("agent.key");
    if (with_ca) s.tls.ca_file = dir_.File("ca.crt");
    return s;
  }
  testing::TempDir dir_;
};

TEST_F(TransportSecurityTest, NothingConfiguredRefusesToStartAndSaysWhatToSet) {
  absl::StatusOr<ServerSecurity> s = MakeServerSecurity(AgentSettings{}, "0.0.0.0:7480");
  ASSERT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("no transport security configured"));
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("azbench certs init"));
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("insecure_loopback_only"));
}

TEST_F(TransportSecurityTest, PlaintextIsAllowedOnlyOnLoopback) {
  AgentSettings s;
  s.insecure_loopback_only = true;
  EXPECT_TRUE(MakeServerSecurity(s, "127.0.0.1:0").ok());
  EXPECT_TRUE(MakeServerSecurity(s, "[::1]:7480").ok());
  for (const char* listen : {"0.0.0.0:7480", "10.0.1.5:7480", "[::]:7480"}) {
    absl::StatusOr<ServerSecurity> refused = MakeServerSecurity(s, listen);
    ASSERT_EQ(refused.status().code(), absl::StatusCode::kFailedPrecondition) << listen;
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr("not a loopback address"));
    EXPECT_THAT(std::string(refused.status().message()), HasSubstr(listen));
  }
}

TEST_F(TransportSecurityTest, PlaintextCannotBeMixedWithTls) {
  AgentSettings s = Tls(true);
  s.insecure_loopback_only = true;
  EXPECT_EQ(MakeServerSecurity(s, "127.0.0.1:0").status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST_F(TransportSecurityTest, MutualTlsAndTokenModes) {
  absl::StatusOr<ServerSecurity> mtls = MakeServerSecurity(Tls(true), "0.0.0.0:7480");
  ASSERT_TRUE(mtls.ok()) << mtls.status();
  EXPECT_THAT(mtls->description, HasSubstr("mutual TLS"));

  AgentSettings token = Tls(false);
  token.token_file = dir_.File("token");
  absl::StatusOr<ServerSecurity> with_token = MakeServerSecurity(token, "0.0.0.0:7480");
  ASSERT_TRUE(with_token.ok()) << with_token.status();
  EXPECT_THAT(with_token->description, HasSubstr("bearer token"));
}

TEST_F(TransportSecurityTest, TlsThatAuthenticatesNobodyIsRefused) {
  absl::StatusOr<ServerSecurity> s = MakeServerSecurity(Tls(false), "0.0.0.0:7480");
  ASSERT_EQ(s.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(std::string(s.status().message()), HasSubstr("tls.ca_file"));
}

TEST_F(TransportSecurityTest, TokenWithoutTlsIsRefused) {
  AgentSettings s;
  s.token_file = dir_.File("token");
  absl::StatusOr<ServerSecurity> refused = MakeServerSecurity(s, "0.0.0.0:7480");
  ASSERT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(refused.status().message()), HasSubstr("needs TLS"));
}

TEST_F(TransportSecurityTest, UnreadableFilesAndEmptyTokensAreNamed) {
  AgentSettings s = Tls(true);
  s.tls.key_file = dir_.File("missing.key");
  absl::StatusOr<ServerSecurity> missing = MakeServerSecurity(s, "0.0.0.0:7480");
  ASSERT_EQ(missing.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(missing.status().message()), HasSubstr("missing.key"));

  EXPECT_EQ(ReadTokenFile(dir_.File("empty-token")).status().code(),
            absl::StatusCode::kInvalidArgument);
  absl::StatusOr<std::string> token = ReadTokenFile(dir_.File("token"));
  ASSERT_TRUE(token.ok());
  EXPECT_EQ(*token, "s3cret-token");
}

TEST(TokensEqualTest, ComparesWholeTokens) {
  EXPECT_TRUE(TokensEqual("abc123", "abc123"));
  EXPECT_FALSE(TokensEqual("abc124", "abc123"));
  EXPECT_FALSE(TokensEqual("abc12", "abc123"));
  EXPECT_FALSE(TokensEqual("abc1234", "abc123"));
  EXPECT_FALSE(TokensEqual("", "abc123"));
}

TEST(BearerTokenProcessorTest, AcceptsOnlyTheRightBearerToken) {
  BearerTokenProcessor processor("s3cret");
  auto process = [&](const std::string& header, bool with_header) {
    std::string name = "authorization";
    grpc::AuthMetadataProcessor::InputMetadata input;
    if (with_header) input.insert({grpc::string_ref(name), grpc::string_ref(header)});
    grpc::AuthMetadataProcessor::OutputMetadata consumed, response;
    return processor.Process(input, nullptr, &consumed, &response);
  };
  EXPECT_TRUE(process("Bearer s3cret", true).ok());
  const grpc::Status wrong = process("Bearer s3creT", true);
  EXPECT_EQ(wrong.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(wrong.error_message(), HasSubstr("token refused"));
  EXPECT_EQ(process("s3cret", true).error_code(), grpc::StatusCode::UNAUTHENTICATED);
  const grpc::Status missing = process("", false);
  EXPECT_EQ(missing.error_code(), grpc::StatusCode::UNAUTHENTICATED);
  EXPECT_THAT(missing.error_message(), HasSubstr("requires a bearer token"));
}

}  // namespace
}  // namespace azbench
