// The S3 client against a real S3-protocol server (s3rver) on loopback.
#include "agent/s3/s3_client.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <thread>

#include "agent/s3/default_credentials.h"
#include "agent/s3/payload_hash.h"
#include "tests/testing/s3rver_fixture.h"

namespace azbench::s3 {
namespace {

using ::testing::HasSubstr;

constexpr char kBucket[] = "azbench-test";

// The object's body, or "<error: ...>" so a failure shows in the comparison instead of aborting.
std::string BodyOf(S3Client& s3, const std::string& bucket, const std::string& key) {
  absl::StatusOr<std::string> got = s3.GetObject(bucket, key);
  return got.ok() ? *got : absl::StrCat("<error: ", got.status().message(), ">");
}

class S3ClientTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { server_ = new testing::S3rverProcess(kBucket); }
  static void TearDownTestSuite() {
    delete server_;
    server_ = nullptr;
  }
  void SetUp() override {
    if (!server_->installed()) GTEST_SKIP() << server_->error();
    ASSERT_TRUE(server_->ok()) << server_->error();
  }
  S3Client Client() {
    return S3Client({.region = "us-east-1", .endpoint = server_->endpoint(), .path_style = true},
                    testing::S3rverCredentials());
  }
  static testing::S3rverProcess* server_;
};
testing::S3rverProcess* S3ClientTest::server_ = nullptr;

TEST_F(S3ClientTest, PutHeadGetDeleteRoundTrip) {
  S3Client s3 = Client();
  const std::string body = "sequence 7 checksum abc\n";
  absl::StatusOr<std::string> etag = s3.PutObject(kBucket, "dir/round trip+1.txt", body);
  ASSERT_TRUE(etag.ok()) << etag.status();
  EXPECT_EQ(*etag, Md5Hex(body));

  absl::StatusOr<ObjectInfo> info = s3.HeadObject(kBucket, "dir/round trip+1.txt");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->size_bytes, body.size());
  EXPECT_EQ(info->etag, Md5Hex(body));

  absl::StatusOr<std::string> got = s3.GetObject(kBucket, "dir/round trip+1.txt");
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_EQ(*got, body);

  ASSERT_TRUE(s3.DeleteObject(kBucket, "dir/round trip+1.txt").ok());
  absl::StatusOr<ObjectInfo> gone = s3.HeadObject(kBucket, "dir/round trip+1.txt");
  EXPECT_EQ(gone.status().code(), absl::StatusCode::kNotFound);
}

TEST_F(S3ClientTest, OverwriteChangesEtagAndSize) {
  S3Client s3 = Client();
  ASSERT_TRUE(s3.PutObject(kBucket, "overwrite", "one").ok());
  ASSERT_TRUE(s3.PutObject(kBucket, "overwrite", "three").ok());
  absl::StatusOr<ObjectInfo> info = s3.HeadObject(kBucket, "overwrite");
  ASSERT_TRUE(info.ok()) << info.status();
  EXPECT_EQ(info->size_bytes, 5u);
  EXPECT_EQ(info->etag, Md5Hex("three"));
}

TEST_F(S3ClientTest, EmptyAndBinaryBodiesSurvive) {
  S3Client s3 = Client();
  std::string binary(70'000, '\0');
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 31);
  ASSERT_TRUE(s3.PutObject(kBucket, "empty", "").ok());
  ASSERT_TRUE(s3.PutObject(kBucket, "binary", binary).ok());
  EXPECT_EQ(BodyOf(s3, kBucket, "empty"), "");
  EXPECT_EQ(BodyOf(s3, kBucket, "binary"), binary);
}

TEST_F(S3ClientTest, ListObjectsV2ReturnsKeysUnderPrefixWithSizes) {
  S3Client s3 = Client();
  ASSERT_TRUE(s3.PutObject(kBucket, "list/a", "1").ok());
  ASSERT_TRUE(s3.PutObject(kBucket, "list/b", "22").ok());
  ASSERT_TRUE(s3.PutObject(kBucket, "other/c", "333").ok());
  absl::StatusOr<std::vector<ObjectSummary>> list = s3.ListObjectsV2(kBucket, "list/");
  ASSERT_TRUE(list.ok()) << list.status();
  ASSERT_EQ(list->size(), 2u);
  EXPECT_EQ((*list)[0].key, "list/a");
  EXPECT_EQ((*list)[0].size_bytes, 1u);
  EXPECT_EQ((*list)[1].key, "list/b");
  EXPECT_EQ((*list)[1].etag, Md5Hex("22"));
}

TEST_F(S3ClientTest, MissingKeyIsNotFoundNamingBucketAndKey) {
  S3Client s3 = Client();
  absl::StatusOr<std::string> got = s3.GetObject(kBucket, "no/such/key");
  ASSERT_EQ(got.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(got.status().message()), HasSubstr("key 'no/such/key'"));
  EXPECT_THAT(std::string(got.status().message()), HasSubstr(kBucket));
}

TEST_F(S3ClientTest, MissingBucketIsNotFoundNamingTheBucket) {
  S3Client s3 = Client();
  absl::StatusOr<std::string> put = s3.PutObject("no-such-bucket", "k", "x");
  ASSERT_EQ(put.status().code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(std::string(put.status().message()),
              HasSubstr("bucket 'no-such-bucket' does not exist"));
}

TEST_F(S3ClientTest, UnknownAccessKeyIsPermissionDeniedNamingTheCredentialSource) {
  S3Client s3({.endpoint = server_->endpoint(), .path_style = true},
              std::make_shared<testing::StaticCredentialsProvider>(
                  "AKIDUNKNOWN", "secret", "environment (AWS_ACCESS_KEY_ID)"));
  absl::StatusOr<std::string> put = s3.PutObject(kBucket, "denied", "x");
  ASSERT_EQ(put.status().code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(std::string(put.status().message()),
              HasSubstr("credentials from environment (AWS_ACCESS_KEY_ID)"));
  EXPECT_THAT(std::string(put.status().message()), HasSubstr("AKIDUNKNOWN"));
}

TEST_F(S3ClientTest, CreateBucketThenUseIt) {
  S3Client s3 = Client();
  ASSERT_TRUE(s3.CreateBucket("second-bucket").ok());
  ASSERT_TRUE(s3.PutObject("second-bucket", "k", "v").ok());
  EXPECT_EQ(BodyOf(s3, "second-bucket", "k"), "v");
}

TEST_F(S3ClientTest, VirtualHostedStyleWithoutResolvableHostIsUnavailableNamingEndpoint) {
  // Virtual-hosted addressing puts the bucket in the host name; "azbench-test.127.0.0.1" does
  // not resolve, so the request fails before reaching any server, with the endpoint named.
  S3Client s3(
      {.endpoint = server_->endpoint(), .path_style = false, .connect_timeout = absl::Seconds(2)},
      testing::S3rverCredentials());
  absl::StatusOr<ObjectInfo> info = s3.HeadObject(kBucket, "k");
  ASSERT_EQ(info.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(std::string(info.status().message()), HasSubstr(server_->endpoint()));
}

TEST_F(S3ClientTest, NothingListeningIsUnavailable) {
  S3Client s3({.endpoint = absl::StrCat("http://127.0.0.1:", testing::UnusedLoopbackPort()),
               .path_style = true},
              testing::S3rverCredentials());
  EXPECT_EQ(s3.HeadObject(kBucket, "k").status().code(), absl::StatusCode::kUnavailable);
}

TEST_F(S3ClientTest, OneClientServesSeveralThreadsAtOnce) {
  S3Client s3({.endpoint = server_->endpoint(), .path_style = true},
              MakeDefaultCredentialsChain(
                  {.env = [](const std::string& name) -> std::optional<std::string> {
                    if (name == "AWS_ACCESS_KEY_ID" || name == "AWS_SECRET_ACCESS_KEY") {
                      return "S3RVER";
                    }
                    return std::nullopt;
                  }}));
  std::vector<std::thread> threads;
  std::atomic<int> round_trips{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 5; ++i) {
        const std::string key = absl::StrCat("threads/", t, "/", i);
        const std::string body = absl::StrCat("thread ", t, " item ", i);
        const bool put = s3.PutObject(kBucket, key, body).ok();
        absl::StatusOr<std::string> got = s3.GetObject(kBucket, key);
        if (put && got.ok() && *got == body) ++round_trips;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(round_trips, 20);
  absl::StatusOr<std::vector<ObjectSummary>> list = s3.ListObjectsV2(kBucket, "threads/");
  ASSERT_TRUE(list.ok()) << list.status();
  EXPECT_EQ(list->size(), 20u);
}

TEST(S3ClientUrlTest, PathStyleVirtualHostedAndDefaultEndpoint) {
  auto creds = testing::S3rverCredentials();
  S3Client path({.endpoint = "http://127.0.0.1:9000/", .path_style = true}, creds);
  EXPECT_EQ(path.UrlFor("b", "a dir/x+y", ""), "http://127.0.0.1:9000/b/a%20dir/x%2By");
  S3Client vhost({.endpoint = "https://s3.example.com", .path_style = false}, creds);
  EXPECT_EQ(vhost.UrlFor("b", "k", "list-type=2"), "https://b.s3.example.com/k?list-type=2");
  S3Client aws({.region = "eu-west-1"}, creds);
  EXPECT_EQ(aws.UrlFor("b", "k", ""), "https://b.s3.eu-west-1.amazonaws.com/k");
}

TEST(S3ListParseTest, VersionsAndDeleteMarkersInDocumentOrder) {
  const std::string xml =
      "<ListVersionsResult><IsTruncated>true</IsTruncated><NextKeyMarker>k</NextKeyMarker>"
      "<NextVersionIdMarker>v0</NextVersionIdMarker>"
      "<Version><Key>k</Key><VersionId>v2</VersionId><IsLatest>true</IsLatest>"
      "<ETag>&quot;e2&quot;</ETag><Size>10</Size></Version>"
      "<DeleteMarker><Key>k</Key><VersionId>v1</VersionId><IsLatest>false</IsLatest>"
      "</DeleteMarker>"
      "<Version><Key>k</Key><VersionId>v0</VersionId><IsLatest>false</IsLatest>"
      "<ETag>\"e0\"</ETag><Size>4</Size></Version></ListVersionsResult>";
  std::string key_marker, version_marker;
  std::vector<ObjectVersion> v = ParseListObjectVersions(xml, &key_marker, &version_marker);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].version_id, "v2");
  EXPECT_TRUE(v[0].is_latest);
  EXPECT_EQ(v[0].etag, "e2");
  EXPECT_EQ(v[0].size_bytes, 10u);
  EXPECT_TRUE(v[1].is_delete_marker);
  EXPECT_EQ(v[2].etag, "e0");
  EXPECT_EQ(key_marker, "k");
  EXPECT_EQ(version_marker, "v0");
}

}  // namespace
}  // namespace azbench::s3
