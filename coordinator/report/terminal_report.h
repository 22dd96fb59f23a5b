// Terminal summary for the end of `azbench run`: one aligned plain-text table, a row per workload x
// matrix cell x target x op kind (repeats combined by the campaign's keep, report_input.h), columns
// workload, parameters, target, op, IOPS, MiB/s, mean, p99, max (total latency), errors, agents and
// a note (repeat count, "partial"); for large_stream workloads, a table of MiB/s per pass per agent
// and for all agents with the mean (stream_passes.h); for `nodes` / `nodes_per_az` axes, the
// scaling table (scaling_rows.h: aggregate, stonewall, p99, per-agent spread, start skew,
// efficiency); then one line per partial, failed or skipped scenario with its
// reason and lost agents, and a count line. No colours, no terminal control: it can be piped.
#ifndef AZBENCH_COORDINATOR_REPORT_TERMINAL_REPORT_H_
#define AZBENCH_COORDINATOR_REPORT_TERMINAL_REPORT_H_

#include <string>

#include "coordinator/report/report_input.h"

namespace azbench {

std::string RenderTerminalReport(const ReportInput& input);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_TERMINAL_REPORT_H_
