// What is mounted where: /proc/self/mountinfo parsed into entries, and the mount that holds a path.
// The mountinfo source is a parameter so tests can give fixture text.
#ifndef AZBENCH_AGENT_HOST_MOUNTS_H_
#define AZBENCH_AGENT_HOST_MOUNTS_H_

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

struct MountEntry {
  std::string mount_point;
  std::string fstype;
  std::string source;  // e.g. "fs-123.efs.us-east-1.amazonaws.com:/"
  std::string server;  // the part of `source` before ':/' for network file systems
  std::string export_path;
  std::map<std::string, std::string> options;  // mount and super options; flags map to ""
};

// Parses mountinfo text (proc(5) format). Errors: InvalidArgument naming the line that has too few
// fields or lacks the " - " separator.
absl::StatusOr<std::vector<MountEntry>> ParseMountInfo(const std::string& text);

// The entry whose mount point is the longest prefix of `path` (path components, not characters).
std::optional<MountEntry> FindMountFor(const std::vector<MountEntry>& mounts,
                                       const std::string& path);

// Reads and parses `mountinfo_path` (default /proc/self/mountinfo).
absl::StatusOr<std::vector<MountEntry>> ReadMounts(
    const std::string& mountinfo_path = "/proc/self/mountinfo");

}  // namespace azbench

#endif  // AZBENCH_AGENT_HOST_MOUNTS_H_
