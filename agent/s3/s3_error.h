// Maps an S3 error answer (HTTP status, headers, XML body) to an absl::Status whose message says
// what went wrong in the user's terms: 403 names the credential source and access key used, 404
// names the bucket and key, 301/400 wrong-region answers name the bucket's real region.
#ifndef AZBENCH_AGENT_S3_S3_ERROR_H_
#define AZBENCH_AGENT_S3_S3_ERROR_H_

#include <map>
#include <string>

#include "absl/status/status.h"

namespace azbench::s3 {

// What the request was, for the message.
struct S3RequestContext {
  std::string operation;  // "PutObject", "HeadObject", ...
  std::string bucket;
  std::string key;  // empty for bucket operations
  std::string region;
  std::string endpoint;
  std::string credential_source;  // Credentials::source
  std::string access_key_id;
};

// The text of the first <tag>...</tag> in `xml` (entities decoded), or "" when absent.
std::string XmlTagText(const std::string& xml, const std::string& tag);

// Headers are keyed by lower-case name. Status codes: 403 -> PermissionDenied, 404 -> NotFound,
// 301/307 and AuthorizationHeaderMalformed with a Region -> FailedPrecondition (wrong region),
// 400 -> InvalidArgument, 409/412 -> FailedPrecondition, 501 -> Unimplemented, 5xx/503 ->
// Unavailable, anything else -> Unknown.
absl::Status MapS3Error(long http_status, const std::map<std::string, std::string>& headers,
                        const std::string& body, const S3RequestContext& context);

}  // namespace azbench::s3

#endif  // AZBENCH_AGENT_S3_S3_ERROR_H_
