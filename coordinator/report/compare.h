// `azbench compare a.db b.db`: the scenarios two results databases have in common, side by side,
// with deltas and ratios, and a difference flagged only when it is larger than the run-to-run
// spread the repeats showed.
//
// Matching: a scenario of A matches one of B when workload, matrix values (Scenario::parameters,
// compared as text) and target name are equal. Figures on each side follow that side's `keep`
// (report_input.h), or the `keep` given to the command for both.
//
// Metrics, per op kind both sides did: IOPS, MiB/s (when bytes moved), mean latency, p50, p99,
// p99.9 (from the merged histograms). delta = B - A; ratio = B / A (none when A is 0).
//
// The flagging rule (the README quotes it): for each metric, the per-repeat values of each side
// (each repeat's own figure, not the kept one) span a range [min, max].
//   - Either side with fewer than 2 repeats with data: "no spread known"; nothing is flagged.
//   - Both sides with >= 2 repeats and the two ranges disjoint (max_A < min_B or max_B < min_A):
//     flagged, "B better" or "B worse" (higher is better for IOPS and MiB/s, lower for latency).
//   - Otherwise (the ranges overlap): "within spread".
// Visibility probes (op `probe`): latency counts the trials that timed out, as every report does
// (report/probe_percentiles.h), so a figure they reach is only a lower bound (shown ">= x"). A
// lower bound can still decide: B is better when all of B's values are exact and below every one
// of A's (A's true values are at least their bounds), worse when all of A's are exact and below
// every one of B's; otherwise, with a bound involved, "lower bounds only" and nothing is flagged.
// Disjoint min..max ranges is deliberately conservative: it makes no assumption about the
// distribution of repeat results, needs no k, and a flagged difference is one no repeat of either
// run contradicts. With 2 repeats on each side it errs towards "within spread".
//
// Example:
//   ASSIGN_OR_RETURN(StoredReport a, LoadStoredReport("a.db", std::nullopt));
//   ASSIGN_OR_RETURN(StoredReport b, LoadStoredReport("b.db", std::nullopt));
//   std::cout << RenderComparisonText(CompareReports(a.input, b.input));
#ifndef AZBENCH_COORDINATOR_REPORT_COMPARE_H_
#define AZBENCH_COORDINATOR_REPORT_COMPARE_H_

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "coordinator/report/report_input.h"
#include "coordinator/store/store.h"

namespace azbench {

struct StoredReport {
  CampaignRecord campaign;
  ReportInput input;
};

// Opens an existing results database and loads everything reports need. `keep` overrides the
// stored campaign's. Errors: as Store::OpenExisting and the Load* calls (NotFound when the file is
// missing, FailedPrecondition when it is not an azbench database).
absl::StatusOr<StoredReport> LoadStoredReport(const std::string& path,
                                              std::optional<KeepPolicy> keep,
                                              JobView view = JobView::kPerJob);

enum class CompareVerdict { kNoSpreadKnown, kWithinSpread, kBetter, kWorse, kLowerBoundsOnly };
// "no spread known", "within spread", "B better", "B worse", "lower bounds only"
const char* CompareVerdictName(CompareVerdict verdict);

struct MetricComparison {
  std::string metric;  // "read IOPS", "read p99", ...
  bool higher_is_better = true;
  bool latency = false;  // values in ns
  double a = 0, b = 0;   // the kept figures
  // Visibility probes: the kept figure, or one of the repeats' values, is only a lower bound.
  bool a_lower_bound = false, b_lower_bound = false;
  bool a_repeats_bounded = false, b_repeats_bounded = false;
  std::vector<double> a_repeats, b_repeats;
  double delta = 0;             // b - a
  std::optional<double> ratio;  // b / a, when a != 0
  CompareVerdict verdict = CompareVerdict::kNoSpreadKnown;
};

struct ScenarioComparison {
  std::string workload;
  std::vector<std::pair<std::string, std::string>> parameters;
  std::string target;
  std::vector<MetricComparison> metrics;
  // A side's kept figures come from a partial repeat (TargetColumn::partial): its values are shown
  // "<value> (partial)", as the reports mark a partial target.
  bool a_partial = false, b_partial = false;
  // Each side's scenarios of this cell and target that did not complete (partial ones among the
  // repeats, failed and skipped ones), each as the reports' status note (cell_notes.h):
  // "partial: <key>[: <detail>]; lost <agent> at +<s>s (<reason>)". Shown under the table as
  // "A partial: ..." / "B failed: ...".
  std::vector<std::string> a_notes, b_notes;
};

struct Comparison {
  std::string a_name, b_name;  // campaign names
  std::vector<ScenarioComparison> matched;
  // "workload (params) target"; when the other side has the cell and target with no data (every
  // scenario failed or skipped), followed by " (B: failed: <key>: <detail>)" (its status notes).
  std::vector<std::string> only_a, only_b;
};

// The verdict of the rule above for the per-repeat values of each side; `a_lower_bounds`: some of
// A's values are only lower bounds (the true value is at least the number), likewise for B.
CompareVerdict Judge(const std::vector<double>& a_repeats, const std::vector<double>& b_repeats,
                     bool higher_is_better, bool a_lower_bounds = false,
                     bool b_lower_bounds = false);

Comparison CompareReports(const ReportInput& a, const ReportInput& b);
std::string RenderComparisonText(const Comparison& comparison);
std::string RenderComparisonMarkdown(const Comparison& comparison);

// The flagged differences that are regressions (verdict "B worse", so beyond the spread rule
// above): lower IOPS or MiB/s, or higher mean, p50, p99 or p99.9 latency in B than in A. One line
// each, "randread (iodepth=16) efs: read p99 1.2 ms -> 2.5 ms", a partial side's figure followed by
// " (partial)" as in the table. `azbench compare
// --fail-on-regression` exits 1 when this is not empty.
std::vector<std::string> Regressions(const Comparison& comparison);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_COMPARE_H_
