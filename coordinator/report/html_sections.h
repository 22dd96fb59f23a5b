// The sections of the HTML report (html_report.h), each appended to `out` and each defined in its
// own file: html_campaign_section (campaign, fleet, targets), html_placement_section,
// html_cell_section (one workload x matrix cell), html_sweep_section, html_scaling_section and
// html_visibility_section, html_verify_section. A section with nothing to show appends nothing.
// Internal to the HTML report.
#ifndef AZBENCH_COORDINATOR_REPORT_HTML_SECTIONS_H_
#define AZBENCH_COORDINATOR_REPORT_HTML_SECTIONS_H_

#include <cstddef>
#include <string>
#include <vector>

#include "coordinator/report/html_report.h"
#include "coordinator/report/report_input.h"
#include "coordinator/report/scaling_rows.h"

namespace azbench::html_internal {

// Campaign: file, times, repeats, matrix; the fleet; the targets with their mounts.
void CampaignSection(const ReportInput& input, const HtmlReportContext& context, std::string& out);

// Placement: one row per agent x target, one column per distinct fact name.
void PlacementSection(const std::vector<PlacementEvidenceRow>& placement, std::string& out);

// One workload and matrix cell (id "cell-<index>"): comparison table, notes, large_stream passes,
// latency percentile charts and throughput over time.
void CellSection(const ReportInput& input, const HtmlReportContext& context,
                 const std::vector<ScenarioFigures>& figures, const ReportCell& cell, size_t index,
                 std::string& out);

// Sweeps: throughput and p99 against every swept job-option axis.
void SweepSection(const std::vector<ReportCell>& cells, std::string& out);

// Scaling: aggregate throughput and efficiency against the agent count (scaling_rows.h).
void ScalingSection(const std::vector<ScalingRow>& rows, std::string& out);

// Visibility probes: latency per probe and reader.
void VisibilitySection(const ReportInput& input, const std::vector<ReportCell>& cells,
                       const std::vector<ScenarioFigures>& figures, std::string& out);

// Verify: each agent's blocks checked, mismatches and first offsets (verify_rows.h).
void VerifySection(const ReportInput& input, std::string& out);

}  // namespace azbench::html_internal

#endif  // AZBENCH_COORDINATOR_REPORT_HTML_SECTIONS_H_
