// A small S3 client on libcurl with libcurl's built-in SigV4 signing (CURLOPT_AWS_SIGV4); the
// payload's SHA-256 goes in x-amz-content-sha256 and a session token in x-amz-security-token.
// Region, endpoint override (S3-compatible servers, e.g. "http://127.0.0.1:4568") and path-style
// addressing are settings. Every call is synchronous, uses its own curl handle and is safe to call
// from several threads at once. Errors are mapped by s3_error.h (403 names the credential source,
// 404 the bucket/key, a wrong region the bucket's real region); a connection failure is
// Unavailable naming the endpoint.
//
//   S3Client s3({.region = "us-east-1"}, MakeDefaultCredentialsChain({}));
//   ASSIGN_OR_RETURN(ObjectInfo info, s3.HeadObject("bucket", "dir/file"));
#ifndef AZBENCH_AGENT_S3_S3_CLIENT_H_
#define AZBENCH_AGENT_S3_S3_CLIENT_H_

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "agent/s3/credentials.h"
#include "agent/s3/s3_error.h"

namespace azbench::s3 {

struct S3ClientOptions {
  std::string region = "us-east-1";
  // Empty: https://s3.<region>.amazonaws.com. Otherwise scheme://host[:port] of an S3-compatible
  // server.
  std::string endpoint{};
  // true: <endpoint>/<bucket>/<key>; false: virtual-hosted <bucket>.<host>/<key>.
  bool path_style = false;
  absl::Duration connect_timeout = absl::Seconds(5);
  absl::Duration request_timeout = absl::Seconds(60);
};

struct ObjectInfo {
  uint64_t size_bytes = 0;
  std::string etag;  // without the surrounding quotes
  std::string last_modified;
  std::string version_id;  // empty when the bucket is not versioned
};

struct ObjectSummary {
  std::string key;
  uint64_t size_bytes = 0;
  std::string etag;
  std::string last_modified;
};

struct ObjectVersion {
  std::string key;
  std::string version_id;
  bool is_latest = false;
  bool is_delete_marker = false;
  uint64_t size_bytes = 0;
  std::string etag;
  std::string last_modified;
};

class S3Client {
 public:
  S3Client(S3ClientOptions options, std::shared_ptr<CredentialsProvider> credentials);

  absl::Status CreateBucket(const std::string& bucket);
  // Returns the new object's ETag (unquoted).
  absl::StatusOr<std::string> PutObject(const std::string& bucket, const std::string& key,
                                        const std::string& body);
  absl::StatusOr<ObjectInfo> HeadObject(const std::string& bucket, const std::string& key);
  absl::StatusOr<std::string> GetObject(const std::string& bucket, const std::string& key);
  absl::Status DeleteObject(const std::string& bucket, const std::string& key);
  // Deletes one version of `key` for good (a versioned bucket keeps every version, and
  // DeleteObject only adds a delete marker); "null" is the version of an unversioned object.
  absl::Status DeleteObjectVersion(const std::string& bucket, const std::string& key,
                                   const std::string& version_id);
  // All pages.
  absl::StatusOr<std::vector<ObjectSummary>> ListObjectsV2(const std::string& bucket,
                                                           const std::string& prefix);
  // All pages. Unimplemented when the server does not support versioning listings.
  absl::StatusOr<std::vector<ObjectVersion>> ListObjectVersions(const std::string& bucket,
                                                                const std::string& prefix);

  // The URL a request for bucket/key (and a query string) goes to; public for tests.
  std::string UrlFor(const std::string& bucket, const std::string& key,
                     const std::string& query) const;
  const S3ClientOptions& options() const { return options_; }

 private:
  struct Answer {
    long status = 0;
    std::map<std::string, std::string> headers;  // lower-case names
    std::string body;
  };
  // Sends one signed request; a non-2xx answer becomes the mapped error.
  absl::StatusOr<Answer> Send(const std::string& method, const std::string& operation,
                              const std::string& bucket, const std::string& key,
                              const std::string& query, const std::string& body);

  S3ClientOptions options_;
  std::shared_ptr<CredentialsProvider> credentials_;
};

// RFC 3986 percent-encoding as SigV4 wants it: unreserved characters stay, '/' stays when
// `keep_slash`, everything else becomes %XX (upper-case hex).
std::string UriEncode(const std::string& text, bool keep_slash);

// Parses a ListBucketResult / ListVersionsResult page; `next_token` receives the continuation
// token or next key/version markers ("" when the listing is complete).
std::vector<ObjectSummary> ParseListObjectsV2(const std::string& xml, std::string* next_token);
std::vector<ObjectVersion> ParseListObjectVersions(const std::string& xml,
                                                   std::string* next_key_marker,
                                                   std::string* next_version_marker);

}  // namespace azbench::s3

#endif  // AZBENCH_AGENT_S3_S3_CLIENT_H_
