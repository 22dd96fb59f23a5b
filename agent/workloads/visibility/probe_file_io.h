// File helpers shared by the visibility probes: errno-naming errors, full writes, directory
// creation and path joining (files are opened and read through probe_dir.h).
#ifndef AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_FILE_IO_H_
#define AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_FILE_IO_H_

#include <string>
#include <string_view>

#include "absl/status/statusor.h"

namespace azbench {

// `call` and `path` in the message; PermissionDenied for EACCES/EPERM, Internal otherwise. Reads
// errno, so call it right after the failing call.
absl::Status ErrnoError(const std::string& call, const std::string& path);
absl::Status WriteAll(int fd, std::string_view data, const std::string& path);
absl::Status MakeDirs(const std::string& dir);
// a + "/" + b without doubling a trailing '/'; b alone when a is empty.
std::string JoinPath(const std::string& a, const std::string& b);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_VISIBILITY_PROBE_FILE_IO_H_
