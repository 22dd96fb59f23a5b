// fio's continue_on_error and ignore_error: which I/O errors a job counts and goes on after, and
// which end it (fio's td_non_fatal_error).
//
//   RETURN_IF_ERROR(ApplyJobOption(job, "ignore_error", ",ENOSPC:EDQUOT"));
//   if (IsNonFatalError(job, ErrorTypeOf(OpKind::kWrite, ENOSPC), ENOSPC)) { /* count, go on */ }
//
// An error has a type: verify for EILSEQ (whatever the op), read for a read, write for every other
// op (fsync included), as fio's td_error_type. It is non-fatal when continue_on_error covers its
// type and its errno is in that type's ignore_error list, or in fio's default list (EIO, EILSEQ)
// when ignore_error gives none for the type.
#ifndef AZBENCH_COMMON_ERROR_POLICY_H_
#define AZBENCH_COMMON_ERROR_POLICY_H_

#include <cstdint>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"
#include "common/job_spec.h"
#include "common/op_kind.h"

namespace azbench {

// fio's error_type bits; continue_on_error is a mask of 1 << type.
enum class ErrorType { kRead = 0, kWrite = 1, kVerify = 2 };
inline constexpr int kErrorTypeCount = 3;
inline constexpr uint32_t kContinueOnNone = 0;
inline constexpr uint32_t kContinueOnAll = 0xffff;  // fio's ERROR_TYPE_ANY

// continue_on_error's words: none, read, write, io, verify, all, 0 (none), 1 (all).
// InvalidArgument listing them otherwise.
absl::StatusOr<uint32_t> ParseContinueOnError(std::string_view value);

// Sets ignore_error from fio's "READ_LIST,WRITE_LIST,VERIFY_LIST", each list ':'-separated errno
// names (EPERM to ERANGE, fio's table) or numbers (a negative one counts as its absolute value).
// A list stops at an empty entry, as fio's; a non-empty list replaces that type's list and adds
// the type to continue_on_error. InvalidArgument for an unknown name, 0, text that is no number,
// or more than three lists.
absl::Status SetIgnoreError(JobSpec& job, std::string_view value);

// fio's td_error_type.
ErrorType ErrorTypeOf(OpKind op, int errno_value);

// Whether continue_on_error covers `type`.
bool ContinuesOn(const JobSpec& job, ErrorType type);

// Whether the job counts an error of `type` and goes on (fio's td_non_fatal_error).
bool IsNonFatalError(const JobSpec& job, ErrorType type, int errno_value);

}  // namespace azbench

#endif  // AZBENCH_COMMON_ERROR_POLICY_H_
