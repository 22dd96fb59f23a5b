// Reading a whole (small) file, with errors that keep the errno-derived code (NotFound for a
// missing file) and name what the file was for: "cannot open campaign file 'x.yaml': No such
// file...".
#ifndef AZBENCH_COMMON_FILE_UTIL_H_
#define AZBENCH_COMMON_FILE_UTIL_H_

#include <string>

#include "absl/status/statusor.h"

namespace azbench {

absl::StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what);

}  // namespace azbench

#endif  // AZBENCH_COMMON_FILE_UTIL_H_
