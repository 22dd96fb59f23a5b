// The scaling table: for every workload, set of other matrix values and target, one row per agent
// count of the `nodes` / `nodes_per_az` axes. Built from the report cells (report_input.h, so
// `keep` applies exactly as in every other table); the Markdown, CSV, JSON and HTML reports all
// render these rows, so they never disagree.
//
// Per row (figures of the kept repeats, report_input.h):
//   agents            the agents that ran (the largest count over the kept repeats)
//   full / stonewall  aggregate MiB/s and IOPS of the data ops of every kind but fsync, over the
//                     scenario's windows (merge.h rules 3, 4 and 8; TargetColumn::io_*)
//   op, p50/p99/p99.9 the op kind with the most ops and its merged latency percentiles (rule 1)
//   fairness          min, max and coefficient of variation (population) over agents of each
//                     agent's own aggregate: the same figure as `full`, over that agent's results
//                     alone (its data ops of every kind but fsync / its own window [first start,
//                     last end], merge.h rules 3 and 8), the mean over the kept repeats the agent
//                     ran in; MiB/s (IOPS when the group moves no bytes). With one agent, min = max
//                     = full.
//   start_skew        the largest start skew over the kept repeats (rule 2)
//   efficiency        aggregate(N) / (N x aggregate(1)), aggregate = full MiB/s (IOPS when no
//                     bytes moved), aggregate(1) from the row of the same group with one agent;
//                     absent ("no N=1 run") when the group has none. stonewall_efficiency likewise
//                     from stonewall figures (absent when either stonewall window is empty).
// Rows come grouped, groups in plan order, rows by agent count then axis value.
//
// Example:
//   for (const ScalingRow& row : BuildScalingRows(input, cells)) ...
#ifndef AZBENCH_COORDINATOR_REPORT_SCALING_ROWS_H_
#define AZBENCH_COORDINATOR_REPORT_SCALING_ROWS_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/op_kind.h"
#include "coordinator/merge.h"
#include "coordinator/report/report_input.h"

namespace azbench {

struct ScalingRow {
  std::string workload;
  std::string where;  // the other matrix values, "iodepth=16" ("" when none)
  std::string target;
  std::string nodes;  // the axis values as written: "nodes=all", "nodes_per_az=2, nodes=3"
  int agents = 0;
  bool moves_bytes = false;  // the group moved bytes: efficiency and fairness use MiB/s
  bool partial = false;
  double full_mib_s = 0;
  double full_iops = 0;
  double stonewall_mib_s = 0;
  double stonewall_iops = 0;
  bool stonewall_valid = false;
  OpKind op = OpKind::kRead;
  bool has_latency = false;
  uint64_t p50_ns = 0;
  uint64_t p99_ns = 0;
  uint64_t p999_ns = 0;
  Spread fairness;  // per-agent MiB/s (or IOPS), see above
  int64_t start_skew_ns = 0;
  std::optional<double> efficiency;            // fraction: 1.0 = linear
  std::optional<double> stonewall_efficiency;  // fraction
};

// True when a cell has a `nodes` or `nodes_per_az` value.
bool IsScalingCell(const ReportCell& cell);

// The rows of every scaling cell; fairness figures are computed per agent from `input`.
std::vector<ScalingRow> BuildScalingRows(const ReportInput& input,
                                         const std::vector<ReportCell>& cells);

// "## Scaling" with one table per group; "" when there are no rows.
std::string RenderScalingMarkdown(const std::vector<ScalingRow>& rows);

// Header plus one line per row: workload, where, target, nodes, agents, full_mib_s, full_iops,
// stonewall_mib_s, stonewall_iops, op, p50_us, p99_us, p99_9_us, fairness_unit (MiB/s or IOPS),
// fairness_min, fairness_max, fairness_cv, start_skew_us, efficiency, stonewall_efficiency
// (efficiencies as fractions; empty when there is no N=1 run).
std::string RenderScalingCsv(const std::vector<ScalingRow>& rows);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_SCALING_ROWS_H_
