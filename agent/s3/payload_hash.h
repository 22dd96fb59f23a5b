// Digests of request payloads through OpenSSL's EVP (no hand-written crypto): SHA-256 for SigV4's
// x-amz-content-sha256 header, MD5 to predict a single-part upload's ETag.
#ifndef AZBENCH_AGENT_S3_PAYLOAD_HASH_H_
#define AZBENCH_AGENT_S3_PAYLOAD_HASH_H_

#include <string>
#include <string_view>

namespace azbench::s3 {

// Lower-case hex digests.
std::string Sha256Hex(std::string_view data);
std::string Md5Hex(std::string_view data);

}  // namespace azbench::s3

#endif  // AZBENCH_AGENT_S3_PAYLOAD_HASH_H_
