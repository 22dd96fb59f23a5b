// fio's placement of a job's threads: the CPUs they may run on (cpus_allowed, cpumask,
// cpus_allowed_policy), their nice value (nice) and their I/O priority (prio, prioclass).
// agent/workloads/thread_placement.h applies it to each clone thread as it starts.
#ifndef AZBENCH_COMMON_THREAD_PLACEMENT_H_
#define AZBENCH_COMMON_THREAD_PLACEMENT_H_

#include <optional>
#include <string_view>
#include <vector>

#include "absl/status/statusor.h"

namespace azbench {

struct ThreadPlacementSpec {
  // CPU numbers in ascending order; empty: the clone keeps the agent's affinity.
  std::vector<int> cpus;
  // cpus_allowed_policy=split: clone n runs on the (n mod count)th CPU of `cpus` alone (fio's
  // fio_cpus_split); shared: every clone may run on all of them.
  bool split = false;
  // Added to the thread's nice value as fio's nice(2) call does; 0 leaves it.
  int nice = 0;
  // ioprio_set(2) of the thread when either is set: level 0..7, class 0..3 (0 means best effort,
  // as fio), the level 0 when only the class is given.
  std::optional<int> ioprio_level;
  std::optional<int> ioprio_class;

  bool operator==(const ThreadPlacementSpec&) const = default;
};

// fio's cpus_allowed: "0-3,6" (CPU numbers and ranges, comma separated). Each CPU must be below
// `cpu_count` (the CPUs the host has configured). InvalidArgument saying what is allowed.
absl::StatusOr<std::vector<int>> ParseCpuList(std::string_view text, int cpu_count);

// fio's cpumask: a number whose bit n allows CPU n (e.g. 0x3 or 3 for CPUs 0 and 1).
absl::StatusOr<std::vector<int>> ParseCpuMask(std::string_view text, int cpu_count);

// The host's configured CPUs (sysconf(_SC_NPROCESSORS_CONF)), as fio's limit for both.
int ConfiguredCpuCount();

}  // namespace azbench

#endif  // AZBENCH_COMMON_THREAD_PLACEMENT_H_
