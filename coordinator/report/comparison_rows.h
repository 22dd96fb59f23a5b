// The rows of a per-cell comparison table (one column per target), independent of the output
// format: the same rows and "fastest" rule as the Markdown report (markdown_report.h), which the
// HTML report renders as an HTML table.
//
// Rows, per op kind the cell did (prefixed "read ", "write ", ... when it did more than one): IOPS,
// MiB/s (when bytes moved), IOPS / MiB/s stonewall (when a scenario ran on several agents), mean
// lat, p50, p90, p99, p99.9, max, mean slat and mean clat (when the engine separated them), errors
// (when any); then, when any target's agents measured it, client CPU (the job threads' user and
// system time as a share of their measured time, fio's usr_cpu / sys_cpu over every thread of every
// agent) and client CPU/op (user + system time over the ops of every kind); then agents and start
// skew. With several repeats, IOPS and MiB/s texts add
// "[min-max]" over repeats.
//
// Example:
//   for (const ComparisonRow& row : BuildComparisonRows(columns)) {
//     auto [best, text] = FastestTarget(names, row.values, row.higher_is_better);
//   }
#ifndef AZBENCH_COORDINATOR_REPORT_COMPARISON_ROWS_H_
#define AZBENCH_COORDINATOR_REPORT_COMPARISON_ROWS_H_

#include <string>
#include <utility>
#include <vector>

#include "common/op_kind.h"
#include "coordinator/report/report_input.h"

namespace azbench {

struct ComparisonValue {
  bool present = false;
  double number = 0;  // what "fastest" compares
  std::string text;   // what the table shows
};

struct ComparisonRow {
  std::string label;
  bool compare = true;  // has a "fastest" entry
  bool higher_is_better = true;
  std::vector<ComparisonValue> values;  // one per column, in column order
};

// Op kinds any column did, in OpKind order.
std::vector<OpKind> OpKindsOf(const std::vector<const TargetColumn*>& columns);

// With `input` (the report's), the `probe` op kind's percentiles and max count the trials that
// timed out (probe_percentiles.h): a percentile they reach reads ">= <timeout>" and compares as
// the timeout, a lower bound.
std::vector<ComparisonRow> BuildComparisonRows(const std::vector<const TargetColumn*>& columns,
                                               const ReportInput* input = nullptr);

// The best of `values` and its ratio to the runner-up: {index of the best, "efs 4.5x"}. Higher is
// better for throughput, lower for latency. {-1, "-"} with fewer than two values present,
// {-1, "tie (a, b)"} when the two best are equal; no ratio when the runner-up's value is 0 (or the
// best latency is 0).
std::pair<int, std::string> FastestTarget(const std::vector<std::string>& names,
                                          const std::vector<ComparisonValue>& values,
                                          bool higher_is_better);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_COMPARISON_ROWS_H_
