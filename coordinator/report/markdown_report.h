// Markdown report in the style of the field studies (reference/articles.md, study B): one table per
// workload and matrix cell, one row per metric, one column per target, and a "fastest" column.
//
// Rows, per op kind the cell did (prefixed "read ", "write ", ... when it did more than one):
//   IOPS, MiB/s (when bytes moved), IOPS / MiB/s stonewall (when a scenario ran on several agents),
//   mean lat, p50, p90, p99, p99.9, max (total latency, from the merged histogram), mean slat and
//   mean clat (when the engine separated them), errors (when any); then agents and start skew.
//   IOPS and MiB/s are full figures (merge.h rule 3), as fio's group_reporting prints them.
// "fastest": the best target and its ratio to the runner-up, "efs 4.5x" (higher is better for IOPS
// and MiB/s, lower for latencies); "-" with fewer than two targets; no ratio when the runner-up's
// value is 0 (or the best latency is 0).
// Repeats follow the campaign's keep (report_input.h); with several repeats, IOPS and MiB/s cells
// add "[min-max]" over repeats. A target whose shown figures include a partial repeat is headed
// "name (partial)"; every partial, failed or skipped scenario is listed under its table with the
// reason and lost agents, and every distinct job warning (e.g. buffered I/O on a small file) too.
// A large_stream cell adds a "MiB/s per pass" table under its comparison table: per target, kept
// repeat and agent the MiB/s of each pass and their mean, plus an "all agents" row with two or
// more agents (stream_passes.h).
// Campaigns with a `nodes` / `nodes_per_az` axis end with a "## Scaling" section (scaling_rows.h).
#ifndef AZBENCH_COORDINATOR_REPORT_MARKDOWN_REPORT_H_
#define AZBENCH_COORDINATOR_REPORT_MARKDOWN_REPORT_H_

#include <string>

#include "coordinator/report/report_input.h"

namespace azbench {

std::string RenderMarkdownReport(const ReportInput& input);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_MARKDOWN_REPORT_H_
