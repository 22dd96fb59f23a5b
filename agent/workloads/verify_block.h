// fio's verify format of a written block, byte for byte as fio 3.33 writes it, and its check.
//
// Every verify interval (fio's verify_interval, by default the write size) of a block starts with
// a 40-byte header, then the checksum field of the verify type (agent/workloads/verify_checksum.h),
// then data. The checksum covers the interval's bytes after the field; the header's own crc32c
// covers its first 36 bytes. Fields, at their byte offsets, in host order (little-endian):
//   0 magic 0xacca (u16), 2 verify type (u16, fio's number), 4 interval length (u32),
//   8 seed (u64), 16 the interval's offset in the file (u64), 24 time s (u32), 28 time ns (u32),
//   32 thread (u16), 34 numberio (u16: the write's number in its job, modulo 2^16),
//   36 crc32c of bytes 0..35 (u32).
// verify_offset swaps the header and checksum field with the bytes that many bytes further in.
// verify_pattern fills the block with the pattern before the headers go in (verify=pattern: no
// header, only the pattern).
//
//   ASSIGN_OR_RETURN(VerifyFormat format, VerifyFormat::ForJob(spec));
//   FillVerifyBlock(format, buf, len, offset, VerifyStamp{...});
#ifndef AZBENCH_AGENT_WORKLOADS_VERIFY_BLOCK_H_
#define AZBENCH_AGENT_WORKLOADS_VERIFY_BLOCK_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_spec.h"

namespace azbench {

inline constexpr uint16_t kVerifyMagic = 0xacca;
inline constexpr uint32_t kVerifyHeaderBytes = 40;

struct VerifyFormat {
  VerifyType type = VerifyType::kNone;
  uint32_t interval_bytes = 0;  // resolved as fio does (ForJob)
  uint32_t header_offset_bytes = 0;
  std::string pattern;
  bool unaligned_sizes = false;  // bs_unaligned: one header per I/O, whatever its size
  uint16_t thread = 1;

  // The format of `spec`'s blocks. The interval is fio's: verify_interval, at most the smallest
  // write (or read) size, and a divisor of the write sizes (else their gcd). InvalidArgument when
  // the header does not fit in an interval (naming verify_interval, verify_offset and the sizes).
  static absl::StatusOr<VerifyFormat> ForJob(const JobSpec& spec);
  // Header plus checksum field; 0 for verify=pattern, which writes no header.
  uint32_t HeaderBytes() const;
  // The stride of the headers in an I/O of `len` bytes (fio's get_hdr_inc).
  uint32_t Stride(uint32_t len) const;
};

// What one write's headers carry besides its offset.
struct VerifyStamp {
  uint64_t seed = 0;
  uint16_t numberio = 0;
  uint64_t time_ns = 0;
};

// Writes the format into the `len` bytes at `buf` that go to `offset_bytes`: the pattern if any,
// then each interval's header and checksum. Nothing for verify=null.
void FillVerifyBlock(const VerifyFormat& format, uint8_t* buf, uint32_t len, uint64_t offset_bytes,
                     const VerifyStamp& stamp);

// What the reader knows about the block it checks (a write job reading back its own writes);
// a read job checks neither.
struct VerifyExpect {
  bool check_seed = false;
  uint64_t seed = 0;
  bool check_numberio = false;
  uint16_t numberio = 0;
};

// One interval that failed its check: where it lies and, when its header was good, what the
// header says about the write (from which the written bytes can be made again).
struct VerifyBadInterval {
  uint32_t at_bytes = 0;      // its start in the block
  uint32_t length_bytes = 0;  // its bytes in the block
  uint64_t offset_bytes = 0;  // its offset in the file
  bool bad_header = false;
  VerifyStamp stamp;  // the header's seed, numberio and time; zero with a bad header or none
};

struct VerifyBlockResult {
  int bad_intervals = 0;
  std::vector<uint64_t> bad_offsets;         // file offsets of the bad intervals, in order
  std::vector<VerifyBadInterval> intervals;  // the bad intervals, in order
  std::string message;                       // the first failure, as fio words it
};

// Checks the `len` bytes read at `offset_bytes` of `path`, interval by interval, as fio's
// verify_io_u: a bad header ends the check; a bad checksum or pattern is counted and the next
// interval checked, unless `stop_at_first` (verify_fatal). `buf` is changed (verify_offset's
// swap is undone in place).
VerifyBlockResult CheckVerifyBlock(const VerifyFormat& format, uint8_t* buf, uint32_t len,
                                   uint64_t offset_bytes, std::string_view path,
                                   const VerifyExpect& expect, bool stop_at_first);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VERIFY_BLOCK_H_
