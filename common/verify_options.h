// fio's verify options: parsing of `verify` and `verify_pattern`, and the checks across them that
// ValidateJobSpec runs. What the options do is agent/workloads/verify_block.h's.
#ifndef AZBENCH_COMMON_VERIFY_OPTIONS_H_
#define AZBENCH_COMMON_VERIFY_OPTIONS_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "common/job_spec.h"

namespace azbench {

// fio's names: md5, crc32c, crc32c-intel, crc32, sha1, sha256, sha512, xxhash, meta, pattern,
// null, 0. InvalidArgument naming the allowed ones; the types fio has and azbench does not (crc64,
// crc16, crc7, sha3-*) are refused with that reason.
absl::Status SetVerify(JobSpec& job, std::string_view value);

// fio's pattern syntax: 0x hex digits (bytes in the order written), a decimal number (its bytes,
// least significant first, as fio), or a string in double quotes; several may follow each other
// with nothing between them. InvalidArgument for anything else (fio's %o offset format is refused).
absl::StatusOr<std::string> ParseVerifyPattern(std::string_view value);

// The verify options together: a job that mixes reads and writes, verify=pattern without
// verify_pattern, verify_only or verify_backlog without writes. OK when verify is off.
absl::Status ValidateVerifyOptions(const JobSpec& job);

}  // namespace azbench

#endif  // AZBENCH_COMMON_VERIFY_OPTIONS_H_
