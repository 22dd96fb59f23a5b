#include "agent/s3/payload_hash.h"

#include <openssl/evp.h>

namespace azbench::s3 {
namespace {

std::string DigestHex(const EVP_MD* md, std::string_view data) {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  EVP_Digest(data.data(), data.size(), digest, &length, md, nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    hex.push_back(kHex[digest[i] >> 4]);
    hex.push_back(kHex[digest[i] & 0xf]);
  }
  return hex;
}

}  // namespace

std::string Sha256Hex(std::string_view data) { return DigestHex(EVP_sha256(), data); }
std::string Md5Hex(std::string_view data) { return DigestHex(EVP_md5(), data); }

}  // namespace azbench::s3
