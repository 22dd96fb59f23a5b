// Applies a job's ThreadPlacementSpec (common/thread_placement.h) to the calling thread, as fio's
// thread_main does for each job before its I/O: affinity, then nice, then I/O priority.
#ifndef AZBENCH_AGENT_WORKLOADS_THREAD_PLACEMENT_H_
#define AZBENCH_AGENT_WORKLOADS_THREAD_PLACEMENT_H_

#include "absl/status/status.h"
#include "common/thread_placement.h"

namespace azbench {

// Sets the calling thread's CPU affinity (the split policy picks clone `clone_index`'s CPU), adds
// `nice` to its nice value and sets its I/O priority. Does nothing for an unset spec. Errors:
// FailedPrecondition naming the option and the system's errno text (EPERM for a negative nice
// without CAP_SYS_NICE or the rt class without CAP_SYS_ADMIN; EINVAL for CPUs outside the
// agent's cpuset).
absl::Status ApplyThreadPlacement(const ThreadPlacementSpec& spec, int clone_index);

}  // namespace azbench

#endif  // AZBENCH_AGENT_WORKLOADS_THREAD_PLACEMENT_H_
