#include "agent/workloads/verify_checksum.h"

#include <openssl/evp.h>

#include <array>
#include <cstring>
#include <utility>

namespace azbench {

namespace {

using Table = std::array<uint32_t, 256>;

constexpr Table MakeCrc32cTable() {
  Table t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? (c >> 1) ^ 0x82F63B78U : c >> 1;
    t[i] = c;
  }
  return t;
}

constexpr Table MakeCrc32Table() {
  Table t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i << 24;
    for (int k = 0; k < 8; ++k) c = (c & 0x80000000U) ? (c << 1) ^ 0x04C11DB7U : c << 1;
    t[i] = c;
  }
  return t;
}

constexpr Table kCrc32cTable = MakeCrc32cTable();
constexpr Table kCrc32Table = MakeCrc32Table();

uint32_t Crc32cSoftware(uint32_t crc, const uint8_t* p, size_t len) {
  while (len--) crc = kCrc32cTable[(crc ^ *p++) & 0xff] ^ (crc >> 8);
  return crc;
}

__attribute__((target("sse4.2"))) uint32_t Crc32cHardware(uint32_t crc, const uint8_t* p,
                                                          size_t len) {
  uint64_t c = crc;
  while (len >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    c = __builtin_ia32_crc32di(c, word);
    p += 8;
    len -= 8;
  }
  auto c32 = static_cast<uint32_t>(c);
  while (len--) c32 = __builtin_ia32_crc32qi(c32, *p++);
  return c32;
}

const bool kHaveSse42 = __builtin_cpu_supports("sse4.2");

uint32_t Rotl(uint32_t x, int r) { return (x << r) | (x >> (32 - r)); }
uint32_t Read32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;  // little-endian hosts only, as the header's fields
}

void Digest(const EVP_MD* md, const void* data, size_t len, uint8_t* out) {
  unsigned int n = 0;
  EVP_Digest(data, len, out, &n, md, nullptr);
}

}  // namespace

uint32_t FioCrc32c(const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  return kHaveSse42 ? Crc32cHardware(~0U, p, len) : Crc32cSoftware(~0U, p, len);
}

uint32_t FioCrc32(const void* data, size_t len) {
  const auto* p = static_cast<const uint8_t*>(data);
  uint32_t crc = 0;
  while (len--) crc = (crc << 8) ^ kCrc32Table[((crc >> 24) ^ *p++) & 0xff];
  return crc;
}

uint32_t Xxh32(const void* data, size_t len, uint32_t seed) {
  constexpr uint32_t kP1 = 2654435761U, kP2 = 2246822519U, kP3 = 3266489917U, kP4 = 668265263U,
                     kP5 = 374761393U;
  const auto* p = static_cast<const uint8_t*>(data);
  const uint8_t* end = p + len;
  uint32_t h;
  if (len >= 16) {
    uint32_t v1 = seed + kP1 + kP2, v2 = seed + kP2, v3 = seed, v4 = seed - kP1;
    const uint8_t* limit = end - 16;
    do {
      v1 = Rotl(v1 + Read32(p) * kP2, 13) * kP1;
      v2 = Rotl(v2 + Read32(p + 4) * kP2, 13) * kP1;
      v3 = Rotl(v3 + Read32(p + 8) * kP2, 13) * kP1;
      v4 = Rotl(v4 + Read32(p + 12) * kP2, 13) * kP1;
      p += 16;
    } while (p <= limit);
    h = Rotl(v1, 1) + Rotl(v2, 7) + Rotl(v3, 12) + Rotl(v4, 18);
  } else {
    h = seed + kP5;
  }
  h += static_cast<uint32_t>(len);
  for (; p + 4 <= end; p += 4) h = Rotl(h + Read32(p) * kP3, 17) * kP4;
  for (; p < end; ++p) h = Rotl(h + *p * kP5, 11) * kP1;
  h ^= h >> 15;
  h *= kP2;
  h ^= h >> 13;
  h *= kP3;
  h ^= h >> 16;
  return h;
}

size_t VerifyChecksumFieldBytes(VerifyType type) {
  switch (type) {
    case VerifyType::kMd5:
      return 16;
    case VerifyType::kCrc32:
    case VerifyType::kCrc32c:
    case VerifyType::kXxhash:
      return 4;
    case VerifyType::kSha1:
      return 20;
    case VerifyType::kSha256:
      return 64;
    case VerifyType::kSha512:
      return 128;
    default:
      return 0;
  }
}

size_t VerifyChecksumBytes(VerifyType type) {
  switch (type) {
    case VerifyType::kSha256:
      return 32;
    case VerifyType::kSha512:
      return 64;
    default:
      return VerifyChecksumFieldBytes(type);
  }
}

void ComputeVerifyChecksum(VerifyType type, const void* data, size_t len, uint8_t* out) {
  uint32_t word = 0;
  switch (type) {
    case VerifyType::kCrc32c:
      word = FioCrc32c(data, len);
      break;
    case VerifyType::kCrc32:
      word = FioCrc32(data, len);
      break;
    case VerifyType::kXxhash:
      word = Xxh32(data, len, 1);
      break;
    case VerifyType::kMd5:
      Digest(EVP_md5(), data, len, out);
      return;
    case VerifyType::kSha1:
      Digest(EVP_sha1(), data, len, out);
      // fio keeps sha1's five words in host order.
      for (int i = 0; i < 5; ++i) {
        std::swap(out[4 * i], out[4 * i + 3]);
        std::swap(out[4 * i + 1], out[4 * i + 2]);
      }
      return;
    case VerifyType::kSha256:
      Digest(EVP_sha256(), data, len, out);
      return;
    case VerifyType::kSha512:
      Digest(EVP_sha512(), data, len, out);
      return;
    default:
      return;
  }
  std::memcpy(out, &word, 4);
}

}  // namespace azbench
