// The notes under a report cell's comparison table, as the Markdown and HTML reports list them:
// for each target, in scenario order over its shown and failed repeats,
//   - a scenario that did not complete: "<status>: <key>[: <detail>][: <skip reason>]" and each
//     lost agent "; lost <agent> at +<s>s (<reason>)" (seconds after the scenario's first start, or
//     its planned start);
//   - every distinct warning of the target's jobs, once: "warning (<target>): <warning>".
//   - when its jobs counted continue_on_error errors (report_input.h, over the kept repeats), as
//     a warning: "errors (<target>): total_err=<n>, first_error=<errno> <ErrnoText>".
//
// Example:
//   for (const CellNote& note : BuildCellNotes(input, figures, cell)) out += note.text;
#ifndef AZBENCH_COORDINATOR_REPORT_CELL_NOTES_H_
#define AZBENCH_COORDINATOR_REPORT_CELL_NOTES_H_

#include <string>
#include <vector>

#include "coordinator/report/report_input.h"

namespace azbench {

struct CellNote {
  bool warning = false;                               // else a scenario status note
  ScenarioStatus status = ScenarioStatus::kComplete;  // of the scenario, for a status note
  std::string text;                                   // unescaped
};

std::vector<CellNote> BuildCellNotes(const ReportInput& input,
                                     const std::vector<ScenarioFigures>& figures,
                                     const ReportCell& cell);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_CELL_NOTES_H_
