#include "agent/s3/credentials.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sys/stat.h>

#include <fstream>
#include <map>

#include "agent/s3/default_credentials.h"
#include "agent/s3/profile_credentials.h"
#include "agent/s3/role_credentials.h"
#include "tests/testing/temp_dir.h"

namespace azbench::s3 {
namespace {

using ::testing::HasSubstr;

EnvLookup MapEnv(std::map<std::string, std::string> vars) {
  return [vars = std::move(vars)](const std::string& name) -> std::optional<std::string> {
    auto it = vars.find(name);
    if (it == vars.end()) return std::nullopt;
    return it->second;
  };
}

// Fake instance metadata: one role whose document is settable; counts requests.
class FakeMetadata : public MetadataSource {
 public:
  absl::StatusOr<std::string> Get(const std::string& path) override {
    ++requests;
    if (!reachable) return absl::UnavailableError("metadata unreachable");
    if (path == kSecurityCredentialsPath) return role.empty() ? "" : role + "\n";
    if (path == std::string(kSecurityCredentialsPath) + role) return document;
    return absl::NotFoundError("404 " + path);
  }
  static std::string Document(const std::string& key, const std::string& expiration) {
    return R"({"Code":"Success","Type":"AWS-HMAC","AccessKeyId":")" + key +
           R"(","SecretAccessKey":"s","Token":"tok","Expiration":")" + expiration + R"("})";
  }
  std::string role = "web-role";
  std::string document;
  bool reachable = true;
  int requests = 0;
};

absl::Time At(const std::string& rfc3339) {
  absl::Time t;
  std::string err;
  EXPECT_TRUE(absl::ParseTime(absl::RFC3339_full, rfc3339, &t, &err)) << err;
  return t;
}

TEST(EnvCredentialsTest, ReadsKeySecretAndToken) {
  EnvCredentialsProvider env(MapEnv({{"AWS_ACCESS_KEY_ID", "AKID"},
                                     {"AWS_SECRET_ACCESS_KEY", "sec"},
                                     {"AWS_SESSION_TOKEN", "t"}}));
  absl::StatusOr<Credentials> c = env.Get();
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->access_key_id, "AKID");
  EXPECT_EQ(c->secret_access_key, "sec");
  EXPECT_EQ(c->session_token, "t");
  EXPECT_THAT(c->source, HasSubstr("environment"));
}

TEST(EnvCredentialsTest, UnsetIsNotFoundAndHalfSetIsInvalid) {
  EXPECT_EQ(EnvCredentialsProvider(MapEnv({})).Get().status().code(), absl::StatusCode::kNotFound);
  absl::Status half = EnvCredentialsProvider(MapEnv({{"AWS_ACCESS_KEY_ID", "A"}})).Get().status();
  EXPECT_EQ(half.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(half.message()), HasSubstr("AWS_SECRET_ACCESS_KEY is not"));
}

TEST(ProfileCredentialsTest, ParsesNamedProfileAmongOthers) {
  const std::string text =
      "# comment\n[default]\naws_access_key_id = D\naws_secret_access_key = DS\n\n"
      "[profile prod]\naws_access_key_id=P\naws_secret_access_key=PS\naws_session_token=PT\n";
  absl::StatusOr<Credentials> c = ParseProfileCredentials(text, "creds", "prod");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->access_key_id, "P");
  EXPECT_EQ(c->session_token, "PT");
  EXPECT_EQ(c->source, "shared credentials file creds [profile prod]");
  EXPECT_EQ(ParseProfileCredentials(text, "creds", "default")->access_key_id, "D");
}

TEST(ProfileCredentialsTest, ErrorsNameFileAndLine) {
  absl::Status bad = ParseProfileCredentials("[a]\nnot a pair\n", "f.ini", "a").status();
  EXPECT_EQ(bad.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(bad.message()), HasSubstr("f.ini:2"));
  absl::Status missing =
      ParseProfileCredentials("\n[a]\naws_access_key_id=x\n", "f.ini", "a").status();
  EXPECT_THAT(std::string(missing.message()), HasSubstr("f.ini:2: profile [a] lacks aws_secret"));
  EXPECT_EQ(ParseProfileCredentials("[a]\n", "f.ini", "b").status().code(),
            absl::StatusCode::kNotFound);
}

TEST(ProfileCredentialsTest, FileAndProfileComeFromTheEnvironment) {
  testing::TempDir dir;
  const std::string file = dir.File("credentials");
  std::ofstream(file) << "[ci]\naws_access_key_id=CI\naws_secret_access_key=CS\n";
  ProfileCredentialsProvider p(
      MapEnv({{"AWS_SHARED_CREDENTIALS_FILE", file}, {"AWS_PROFILE", "ci"}}));
  absl::StatusOr<Credentials> c = p.Get();
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->access_key_id, "CI");
  EXPECT_THAT(c->source, HasSubstr(file));
  // A chosen profile that is absent is an error, not a silent fall-through to the next source.
  ProfileCredentialsProvider wrong(
      MapEnv({{"AWS_SHARED_CREDENTIALS_FILE", file}, {"AWS_PROFILE", "nope"}}));
  EXPECT_EQ(wrong.Get().status().code(), absl::StatusCode::kInvalidArgument);
  // The implicit default profile in a missing file is simply "not here".
  ProfileCredentialsProvider none(MapEnv({{"HOME", dir.File("no-home")}}));
  EXPECT_EQ(none.Get().status().code(), absl::StatusCode::kNotFound);
  // A FIFO named as the file is refused at once (a plain open would wait for a writer).
  const std::string fifo = dir.File("credentials.fifo");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ProfileCredentialsProvider pipe(MapEnv({{"AWS_SHARED_CREDENTIALS_FILE", fifo}}));
  absl::StatusOr<Credentials> refused = pipe.Get();
  EXPECT_EQ(refused.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(refused.status().message(), HasSubstr("is not a regular file"));
}

TEST(RoleCredentialsTest, FetchesRoleDocumentThroughMetadata) {
  FakeMetadata imds;
  imds.document = FakeMetadata::Document("ASIAROLE", "2026-11-30T12:00:00Z");
  InstanceRoleCredentialsProvider role(&imds, {.now = [] { return At("2026-11-30T06:00:00Z"); }});
  absl::StatusOr<Credentials> c = role.Get();
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->access_key_id, "ASIAROLE");
  EXPECT_EQ(c->session_token, "tok");
  EXPECT_EQ(c->expiration, At("2026-11-30T12:00:00Z"));
  EXPECT_EQ(c->source, "instance role web-role (IMDSv2)");
}

TEST(RoleCredentialsTest, RefreshesOnlyWithinTheMarginBeforeExpiry) {
  FakeMetadata imds;
  imds.document = FakeMetadata::Document("KEY1", "2026-11-30T12:00:00Z");
  absl::Time now = At("2026-11-30T11:00:00Z");
  InstanceRoleCredentialsProvider role(
      &imds, {.refresh_before = absl::Minutes(5), .now = [&now] { return now; }});
  ASSERT_EQ(role.Get()->access_key_id, "KEY1");
  imds.document = FakeMetadata::Document("KEY2", "2026-11-30T18:00:00Z");
  now = At("2026-11-30T11:54:59Z");  // 5 min 1 s before expiry: cached
  EXPECT_EQ(role.Get()->access_key_id, "KEY1");
  EXPECT_EQ(role.fetch_count(), 1);
  now = At("2026-11-30T11:55:00Z");  // exactly at the margin: refresh
  EXPECT_EQ(role.Get()->access_key_id, "KEY2");
  EXPECT_EQ(role.fetch_count(), 2);
  now = At("2026-11-30T12:30:00Z");  // old expiry passed, new one far away: cached
  EXPECT_EQ(role.Get()->access_key_id, "KEY2");
  EXPECT_EQ(role.fetch_count(), 2);
}

TEST(RoleCredentialsTest, FailedRefreshKeepsValidCredentialsButNotExpiredOnes) {
  FakeMetadata imds;
  imds.document = FakeMetadata::Document("KEY1", "2026-11-30T12:00:00Z");
  absl::Time now = At("2026-11-30T11:00:00Z");
  InstanceRoleCredentialsProvider role(&imds, {.now = [&now] { return now; }});
  ASSERT_TRUE(role.Get().ok());
  imds.reachable = false;
  now = At("2026-11-30T11:58:00Z");
  EXPECT_EQ(role.Get()->access_key_id, "KEY1");
  now = At("2026-11-30T12:00:01Z");
  EXPECT_EQ(role.Get().status().code(), absl::StatusCode::kUnavailable);
}

TEST(RoleCredentialsTest, MalformedDocumentAndFailureCodeAreInvalid) {
  EXPECT_THAT(std::string(ParseRoleCredentialsDocument("{}", "r").status().message()),
              HasSubstr("lacks string field AccessKeyId"));
  EXPECT_THAT(
      std::string(ParseRoleCredentialsDocument(R"({"Code":"AssumeRoleUnauthorizedAccess"})", "r")
                      .status()
                      .message()),
      HasSubstr("Code=AssumeRoleUnauthorizedAccess"));
  FakeMetadata imds;
  imds.role = "";
  InstanceRoleCredentialsProvider role(&imds, {});
  EXPECT_EQ(role.Get().status().code(), absl::StatusCode::kNotFound);
}

TEST(DefaultChainTest, EnvironmentWinsThenProfileThenRole) {
  testing::TempDir dir;
  const std::string file = dir.File("credentials");
  std::ofstream(file) << "[default]\naws_access_key_id=FILE\naws_secret_access_key=S\n";
  FakeMetadata imds;
  imds.document = FakeMetadata::Document("ROLE", "2030-01-01T00:00:00Z");

  auto env_chain =
      MakeDefaultCredentialsChain({.env = MapEnv({{"AWS_ACCESS_KEY_ID", "ENV"},
                                                  {"AWS_SECRET_ACCESS_KEY", "S"},
                                                  {"AWS_SHARED_CREDENTIALS_FILE", file}}),
                                   .metadata = &imds});
  EXPECT_EQ(env_chain->Get()->access_key_id, "ENV");

  auto file_chain = MakeDefaultCredentialsChain(
      {.env = MapEnv({{"AWS_SHARED_CREDENTIALS_FILE", file}}), .metadata = &imds});
  EXPECT_EQ(file_chain->Get()->access_key_id, "FILE");
  EXPECT_EQ(imds.requests, 0);

  auto role_chain = MakeDefaultCredentialsChain(
      {.env = MapEnv({{"HOME", dir.File("nohome")}}), .metadata = &imds});
  absl::StatusOr<Credentials> c = role_chain->Get();
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->access_key_id, "ROLE");
}

TEST(DefaultChainTest, NothingFoundListsEverySourceTried) {
  auto chain = MakeDefaultCredentialsChain({.env = MapEnv({{"HOME", "/nonexistent-home"}})});
  absl::Status s = chain->Get().status();
  EXPECT_EQ(s.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(s.message()), HasSubstr("environment: AWS_ACCESS_KEY_ID is not set"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("/nonexistent-home/.aws/credentials"));
}

}  // namespace
}  // namespace azbench::s3
