// Reading and writing a whole (small) file.
//
// Reading a whole (small) file, with errors that keep the errno-derived code (NotFound for a
// missing file) and name what the file was for: "cannot open campaign file 'x.yaml': No such
// file...". Only regular files up to kMaxWholeFileBytes are read: a device (/dev/zero), a FIFO or a
// directory named where a campaign, job file or config belongs is an InvalidArgument, not a hang.
#ifndef AZBENCH_COMMON_FILE_UTIL_H_
#define AZBENCH_COMMON_FILE_UTIL_H_

#include <cstdint>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace azbench {

inline constexpr uint64_t kMaxWholeFileBytes = 64ULL << 20;

absl::StatusOr<std::string> ReadWholeFile(const std::string& path, const std::string& what);

// The text of a file meant to be read as lines (a fio job file, a hosts file), without a UTF-8
// byte order mark at its start; InvalidArgument naming the file, the line and the byte when it
// holds a control character other than tab, LF, VT, FF and CR (a binary file named by mistake),
// instead of that file's bytes echoed in a later error.
absl::StatusOr<absl::string_view> TextLines(absl::string_view contents, const std::string& path,
                                            const std::string& what);

// Writes `contents` as the whole of `path`: into a new hidden file beside it (random name, the
// replaced file's mode, fsync'ed), renamed over `path` once complete, so a failed write (a full
// disk) leaves an earlier file as it was and no reader sees half a file. A symbolic link is
// followed (its target is replaced, the link stays). Never replaced: a device or FIFO (written),
// one of this process's descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N: written to the
// descriptor itself, after stdio is flushed), a file in a directory where no temporary file may
// be made (written in place, space reserved first, truncated after). Errors: InvalidArgument for
// a directory; otherwise the errno's code, with "cannot write <what> '<path>': <errno text>".
absl::Status WriteWholeFile(const std::string& path, const std::string& contents,
                            const std::string& what);

}  // namespace azbench

#endif  // AZBENCH_COMMON_FILE_UTIL_H_
