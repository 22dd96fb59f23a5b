// The one wording of an errno value, thread-safe (strerror may share a static buffer):
//
//   ErrnoText(ENOENT)    // "No such file or directory (ENOENT)"
//   ErrnoStatus(errno, "cannot read '/x'")
//                        // NotFound: "cannot read '/x': No such file or directory (ENOENT)"
//
// ErrnoStatus takes its code from absl::ErrnoToStatus (ENOENT: NotFound, EACCES: PermissionDenied,
// EEXIST: AlreadyExists, ...); its message keeps the symbolic name, which absl's leaves out and
// which people search for.
#ifndef AZBENCH_COMMON_ERRNO_TEXT_H_
#define AZBENCH_COMMON_ERRNO_TEXT_H_

#include <string>
#include <string_view>

#include "absl/status/status.h"

namespace azbench {

// "No such file or directory (ENOENT)"; "Unknown error 4242" for a value the C library does not
// know.
std::string ErrnoText(int errno_value);

// `what`: ErrnoText(errno_value), with absl::ErrnoToStatus's code. `errno_value` must not be 0
// (that would be OK).
absl::Status ErrnoStatus(int errno_value, std::string_view what);

}  // namespace azbench

#endif  // AZBENCH_COMMON_ERRNO_TEXT_H_
