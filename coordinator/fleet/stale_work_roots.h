// Work roots that a killed coordinator left behind.
//
// A coordinator that dies by SIGKILL (or with the machine) cannot remove its local fleet's work
// root, which may hold gigabytes of job files. Each root therefore carries an `owner` file naming
// the process that made it: "<pid> <start time>", the start time being field 22 of
// /proc/<pid>/stat, so that a later process that reuses the pid is not taken for the owner. The
// next local fleet removes the roots whose owner is gone.
//
//   RETURN_IF_ERROR(WriteOwnerFile(root));                      // right after mkdtemp
//   for (const std::string& gone : RemoveStaleWorkRoots("/var/tmp", "azbench-local-fleet-")) ...
#ifndef AZBENCH_COORDINATOR_FLEET_STALE_WORK_ROOTS_H_
#define AZBENCH_COORDINATOR_FLEET_STALE_WORK_ROOTS_H_

#include <sys/types.h>

#include <optional>
#include <string>
#include <vector>

#include "absl/status/status.h"

namespace azbench {

// The start time of process `pid` (clock ticks since boot), or nullopt when it does not exist.
std::optional<unsigned long long> ProcessStartTime(pid_t pid);

// Writes `<root>/owner` for the calling process.
absl::Status WriteOwnerFile(const std::string& root);

// Removes every directory `<parent>/<prefix>*` whose owner file names a process that no longer
// exists (or a different process with the same pid). Directories without a readable owner file,
// and those whose owner still runs, are left alone. Returns the removed paths.
std::vector<std::string> RemoveStaleWorkRoots(const std::string& parent, const std::string& prefix);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_FLEET_STALE_WORK_ROOTS_H_
