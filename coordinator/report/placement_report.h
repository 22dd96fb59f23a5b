// The placement view (coordinator/plan/placement.h): same-AZ vs cross-AZ side by side.
//
// For every workload and set of matrix values other than `placement`, and every target measured
// with both (or either) placement: one Markdown table, one row per metric of each op kind (IOPS,
// MiB/s when bytes moved, mean, p50, p99 total latency, agents), columns same-az, cross-az and
// the ratio cross-az / same-az ("0.56x"; "-" when either side is missing or 0). A side that did
// not run says why (its skip reason). Repeats follow the campaign's keep (report_input.h).
// Then the evidence, once per agent x target (and again only if it changed between scenarios,
// e.g. after a failover): placement, the agent's AZ and its source, the server address and how
// it was found, the matching subnet and where it came from, the server's AZ, the reason, and the
// agent's mount of the target with its options (PlacementEvidence::mount; "-" when not reported).
//
// Empty when no stored scenario has a placement axis value or evidence other than `unknown` (a
// local fleet on local disks has nothing to compare).
#ifndef AZBENCH_COORDINATOR_REPORT_PLACEMENT_REPORT_H_
#define AZBENCH_COORDINATOR_REPORT_PLACEMENT_REPORT_H_

#include <string>
#include <vector>

#include "coordinator/report/report_input.h"

namespace azbench {

std::string RenderPlacementView(const ReportInput& input);

// The evidence of every scenario, once per agent x target (again only when it changed: placement,
// server address, server AZ or mount), sorted by agent then target. The placement view's evidence
// table and the HTML report's placement section list these.
std::vector<const PlacementEvidence*> DistinctPlacementEvidence(const ReportInput& input);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_PLACEMENT_REPORT_H_
