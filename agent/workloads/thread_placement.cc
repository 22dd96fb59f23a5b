#include "agent/workloads/thread_placement.h"

#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <string>

#include "absl/strings/str_cat.h"
#include "common/errno_text.h"

namespace azbench {
namespace {

// From linux/ioprio.h, which not every libc installs.
constexpr int kIoprioWhoProcess = 1;
constexpr int kIoprioClassShift = 13;
constexpr int kIoprioClassBestEffort = 2;

absl::Status Failed(const std::string& what, int err) {
  return absl::FailedPreconditionError(absl::StrCat(what, ": ", ErrnoText(err)));
}

}  // namespace

absl::Status ApplyThreadPlacement(const ThreadPlacementSpec& spec, int clone_index) {
  if (!spec.cpus.empty()) {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (spec.split) {
      CPU_SET(spec.cpus[static_cast<size_t>(clone_index) % spec.cpus.size()], &set);
    } else {
      for (int cpu : spec.cpus) CPU_SET(cpu, &set);
    }
    // pid 0 is the calling thread, not the whole agent.
    if (sched_setaffinity(0, sizeof(set), &set) != 0) {
      return Failed(spec.split ? "cpus_allowed (split)" : "cpus_allowed", errno);
    }
  }
  if (spec.nice != 0) {
    errno = 0;
    if (nice(spec.nice) == -1 && errno != 0) {
      return Failed(absl::StrCat("nice=", spec.nice), errno);
    }
  }
  if (spec.ioprio_level.has_value() || spec.ioprio_class.has_value()) {
    const int io_class =
        spec.ioprio_class.value_or(0) == 0 ? kIoprioClassBestEffort : *spec.ioprio_class;
    const int value = (io_class << kIoprioClassShift) | spec.ioprio_level.value_or(0);
    if (syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, value) != 0) {
      return Failed(absl::StrCat("prio=", spec.ioprio_level.value_or(0), " prioclass=", io_class),
                    errno);
    }
  }
  return absl::OkStatus();
}

}  // namespace azbench
