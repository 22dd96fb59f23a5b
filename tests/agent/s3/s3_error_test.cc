#include "agent/s3/s3_error.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace azbench::s3 {
namespace {

using ::testing::HasSubstr;

S3RequestContext Context() {
  return {"GetObject",
          "my-bucket",
          "dir/key",
          "us-east-1",
          "https://s3.us-east-1.amazonaws.com",
          "shared credentials file /root/.aws/credentials [profile prod]",
          "AKIAEXAMPLE"};
}

std::string Message(const absl::Status& s) { return std::string(s.message()); }

TEST(S3ErrorTest, ForbiddenNamesCredentialSourceAndKeyId) {
  absl::Status s = MapS3Error(
      403, {}, "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>",
      Context());
  EXPECT_EQ(s.code(), absl::StatusCode::kPermissionDenied);
  EXPECT_THAT(Message(s), HasSubstr("[profile prod]"));
  EXPECT_THAT(Message(s), HasSubstr("AKIAEXAMPLE"));
  EXPECT_THAT(Message(s), HasSubstr("AccessDenied: Access Denied"));
}

TEST(S3ErrorTest, NotFoundDistinguishesBucketKeyAndBodylessHead) {
  EXPECT_THAT(Message(MapS3Error(404, {}, "<Error><Code>NoSuchBucket</Code></Error>", Context())),
              HasSubstr("bucket 'my-bucket' does not exist"));
  EXPECT_THAT(Message(MapS3Error(404, {}, "<Error><Code>NoSuchKey</Code></Error>", Context())),
              HasSubstr("key 'dir/key' does not exist in bucket 'my-bucket'"));
  absl::Status head = MapS3Error(404, {}, "", Context());
  EXPECT_EQ(head.code(), absl::StatusCode::kNotFound);
  EXPECT_THAT(Message(head), HasSubstr("bucket 'my-bucket' key 'dir/key' not found"));
}

TEST(S3ErrorTest, RedirectNamesTheRegionFromTheHeader) {
  absl::Status s = MapS3Error(301, {{"x-amz-bucket-region", "eu-central-1"}}, "", Context());
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(s), HasSubstr("is in region eu-central-1"));
  EXPECT_THAT(Message(s), HasSubstr("configured for region us-east-1"));
}

TEST(S3ErrorTest, RedirectNamesTheRegionFromTheBody) {
  absl::Status s =
      MapS3Error(400, {},
                 "<Error><Code>AuthorizationHeaderMalformed</Code><Message>wrong region</Message>"
                 "<Region>ap-south-1</Region></Error>",
                 Context());
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(s), HasSubstr("set the S3 region to ap-south-1"));
}

TEST(S3ErrorTest, RedirectWithoutRegionStillSaysWrongRegion) {
  absl::Status s = MapS3Error(
      301, {},
      "<Error><Code>PermanentRedirect</Code><Endpoint>b.s3.amazonaws.com</Endpoint></Error>",
      Context());
  EXPECT_EQ(s.code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(Message(s), HasSubstr("b.s3.amazonaws.com"));
}

TEST(S3ErrorTest, ServerErrorsAreUnavailableAndNotImplementedIsUnimplemented) {
  EXPECT_EQ(MapS3Error(503, {}, "<Error><Code>SlowDown</Code></Error>", Context()).code(),
            absl::StatusCode::kUnavailable);
  EXPECT_EQ(MapS3Error(501, {}, "", Context()).code(), absl::StatusCode::kUnimplemented);
}

TEST(S3ErrorTest, XmlTagTextDecodesEntities) {
  EXPECT_EQ(XmlTagText("<a><Key>x &amp; &lt;y&gt;</Key></a>", "Key"), "x & <y>");
  EXPECT_EQ(XmlTagText("<a></a>", "Key"), "");
}

}  // namespace
}  // namespace azbench::s3
