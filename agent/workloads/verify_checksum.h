// The checksums of fio's verify, computed as fio 3.33 stores them in a block's checksum field, so
// that azbench and fio check each other's files (agent/workloads/verify_block.h).
//
//   std::array<uint8_t, kMaxVerifyChecksumBytes> sum;
//   ComputeVerifyChecksum(VerifyType::kCrc32c, data, len, sum.data());
//
// Where fio's are standard digests they are computed by OpenSSL's EVP (md5; sha1 with each 32-bit
// word in host order, as fio keeps them). fio 3.33's sha256 and sha512 fields are not the
// standard digests (sha256 keeps the low byte of each state word; sha512 keeps its last input
// block, never finished): azbench writes the standard digest in the same field, so neither tool
// verifies the other's sha256 or sha512 files.
#ifndef AZBENCH_AGENT_WORKLOADS_VERIFY_CHECKSUM_H_
#define AZBENCH_AGENT_WORKLOADS_VERIFY_CHECKSUM_H_

#include <cstddef>
#include <cstdint>

#include "common/job_spec.h"

namespace azbench {

inline constexpr size_t kMaxVerifyChecksumBytes = 128;  // sha512's field

// fio's crc32c: Castagnoli, initial value ~0, no final inversion (SSE4.2 where the CPU has it).
uint32_t FioCrc32c(const void* data, size_t len);
// fio's crc32: polynomial 0x04C11DB7 most significant bit first, initial value 0, no inversion.
uint32_t FioCrc32(const void* data, size_t len);
// XXH32 (fio seeds it with 1).
uint32_t Xxh32(const void* data, size_t len, uint32_t seed);

// The bytes fio reserves for `type`'s checksum after the header (0: none, meta, pattern, null).
size_t VerifyChecksumFieldBytes(VerifyType type);
// How many of them hold the checksum and are compared (sha256: 32 of 64).
size_t VerifyChecksumBytes(VerifyType type);
// Writes VerifyChecksumBytes(type) bytes of `data`'s checksum to `out`.
void ComputeVerifyChecksum(VerifyType type, const void* data, size_t len, uint8_t* out);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VERIFY_CHECKSUM_H_
