// Jobs stay jobs: a scenario whose workload holds several jobs (a fio job file with stonewalled
// groups, say 1m sequential write, then 4k random read) is reported as one unit per job, never as
// one sum over jobs of different block sizes and directions. A unit merges the job's results over
// agents and numjobs clones only. With `group_reporting`, fio reports a reporting group as one
// entry, and so does azbench: the jobs of a group whose jobs set it form one unit, named after the
// group's first job.
//
// Each unit is a ScenarioResult of its own: the scenario with `job=<unit name>` added to its matrix
// values (so every report format gives it its own cell, and `compare` matches it by that name),
// "/job=<unit name>" added to its key, and only that unit's results. A scenario with a single unit
// is left as it is. A failed or skipped scenario is listed under each of its units. A result named
// "<job>.<anything>" (a large_stream job's passes, a metadata job's phases) belongs to the job; one
// that names no job of a several-job scenario is a unit of its own.
//
// Example:
//   ReportInput input = MakeReportInput(name, agents, SplitIntoReportedJobs(std::move(results)),
//                                       keep);
#ifndef AZBENCH_COORDINATOR_REPORT_JOB_UNITS_H_
#define AZBENCH_COORDINATOR_REPORT_JOB_UNITS_H_

#include <string>
#include <vector>

#include "coordinator/scenario.h"

namespace azbench {

// The matrix-value name a unit adds to its scenario's parameters.
inline constexpr char kJobParameter[] = "job";

// The unit each of `scenario.jobs` belongs to (unit names, parallel to scenario.jobs).
std::vector<std::string> ReportedJobUnits(const Scenario& scenario);

std::vector<ScenarioResult> SplitIntoReportedJobs(std::vector<ScenarioResult> scenarios);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_JOB_UNITS_H_
