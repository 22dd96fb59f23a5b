// What every report renders: a campaign's agents and scenario results with their merged figures,
// and the rules reports share for grouping scenarios and choosing among repeats.
//
// Grouping: a "cell" is one workload with one set of matrix values (Scenario::parameters); within a
// cell, each target's scenarios are that target's repeats. Tables have one cell each and one column
// per target, in the order they first appear in the plan.
//
// Repeats (campaign `keep`), over the repeats that produced data (status complete or partial;
// failed and skipped scenarios are listed, never averaged in):
//   - last:   the repeat with the highest repeat number.
//   - median: the repeat whose full throughput (bytes/s summed over op kinds; IOPS when it moved no
//             bytes) is the median; with an even count the lower of the two middle ones, so the
//             figures always come from one real run.
//   - all:    IOPS and MiB/s are the mean over repeats; latency figures come from the histograms of
//             all repeats merged (the pooled distribution of every op of every repeat). Stonewall
//             IOPS and MiB/s of an op kind are the mean over the repeats whose stonewall window
//             for that kind was valid (merge.h rules 4 and 7), KeptOp::stonewall_repeats of them;
//             none valid: no stonewall figure.
// With more than one repeat, reports also show the min-max range over repeats of IOPS and MiB/s.
//
// Example:
//   ReportInput input = MakeReportInput("study-b", agents, std::move(results),
//   KeepPolicy::kMedian); std::cout << RenderMarkdownReport(input);
#ifndef AZBENCH_COORDINATOR_REPORT_REPORT_INPUT_H_
#define AZBENCH_COORDINATOR_REPORT_REPORT_INPUT_H_

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/histogram.h"
#include "common/job_result.h"
#include "common/op_kind.h"
#include "coordinator/campaign/campaign.h"
#include "coordinator/merge.h"
#include "coordinator/scenario.h"

namespace azbench {

struct ReportInput {
  std::string campaign_name;
  std::vector<AgentInfo> agents;
  std::vector<ScenarioResult> scenarios;
  // Parallel to `scenarios`. Renderers compute them when this is empty (or of another size).
  std::vector<ScenarioFigures> figures;
  KeepPolicy keep = KeepPolicy::kAll;  // the campaign's `keep`
};

// How a scenario with several jobs is reported: one unit per job or reporting group
// (job_units.h), as every report format but fio-json shows it; or whole, as fio-json keeps it (one
// document per scenario holding every job).
enum class JobView { kPerJob, kWholeScenario };

// Moves the results in (split per `view`) and computes every scenario's figures.
ReportInput MakeReportInput(std::string campaign_name, std::vector<AgentInfo> agents,
                            std::vector<ScenarioResult> scenarios, KeepPolicy keep,
                            JobView view = JobView::kPerJob);

// `input.figures`, or figures computed into `storage` when they are missing.
const std::vector<ScenarioFigures>& FiguresOf(const ReportInput& input,
                                              std::vector<ScenarioFigures>& storage);

// One target's figures in one cell, after applying `keep` (see the rules above).
struct KeptOp {
  OpKind kind = OpKind::kRead;
  double iops = 0;
  double mib_s = 0;
  double stonewall_iops = 0;
  double stonewall_mib_s = 0;
  bool stonewall_valid = false;  // stonewall_repeats > 0
  int stonewall_repeats = 0;     // kept repeats whose stonewall window for this kind was valid
  uint64_t bytes = 0;
  uint64_t errors = 0;
  Histogram lat;
  Histogram slat;
  Histogram clat;
  // Over every repeat with data (min == max with one repeat).
  double iops_min = 0, iops_max = 0;
  double mib_s_min = 0, mib_s_max = 0;
};

struct TargetColumn {
  std::string target;
  std::vector<size_t> repeats;  // indices into ReportInput::scenarios with data, by repeat number
  std::vector<size_t> failed;   // failed or skipped scenarios of this target and cell
  std::vector<size_t> kept;     // the repeats `keep` selected (indices into scenarios)
  bool partial = false;         // a repeat the shown figures come from is partial
  std::vector<KeptOp> ops;      // in OpKind order
  // Data ops summed over op kinds (merge.h rule 8: fsync not counted, over the scenario's
  // window), the mean over the kept repeats; stonewall over those with a valid window.
  double io_iops = 0;
  double io_mib_s = 0;
  double stonewall_io_iops = 0;
  double stonewall_io_mib_s = 0;
  int stonewall_io_repeats = 0;  // kept repeats with a valid stonewall window
  int max_agents = 0;
  int64_t max_start_skew_ns = 0;
  // The job threads' CPU time (fio's usr/sys), summed over every agent's jobs in the kept repeats
  // (not measured when none reported it: visibility probes, results of older agents).
  CpuUsage cpu;
  // The measured ops (every kind) of the job results that measured CPU: what `cpu` was spent on.
  uint64_t cpu_ops = 0;
  // continue_on_error (merge.h rule 9) over the kept repeats: whether a job set it, the errors
  // counted, summed, and the first error of the first kept repeat (by repeat number) with one.
  bool continue_on_error = false;
  uint64_t total_err = 0;
  int first_error = 0;
  const KeptOp* Find(OpKind kind) const;
  // The job threads' user + system CPU time per measured op (every op kind) of the agents that
  // measured it, in ns; nullopt when no agent measured CPU or those agents measured no op.
  std::optional<double> CpuNanosPerOp() const;
};

struct ReportCell {
  std::string workload;
  std::vector<std::pair<std::string, std::string>> parameters;
  std::vector<TargetColumn> targets;
};

// Cells in plan order, each with its targets in plan order and `keep` applied.
std::vector<ReportCell> BuildCells(const ReportInput& input,
                                   const std::vector<ScenarioFigures>& figures);

// Number forms shared by reports: IOPS "3,025" / "26.0" / "1.25"; MiB/s "576.5" / "8.25".
std::string FormatIops(double iops);
std::string FormatMibPerSecond(double mib_s);

// "iodepth=16, nodes=2" (empty when there are no matrix values).
std::string ParametersText(const std::vector<std::pair<std::string, std::string>>& parameters);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_REPORT_INPUT_H_
