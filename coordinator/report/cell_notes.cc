#include "coordinator/report/cell_notes.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "common/errno_text.h"

namespace azbench {

namespace {

std::string RelativeSeconds(int64_t at_ns, int64_t origin_ns) {
  if (origin_ns == 0 || at_ns == 0) return "";
  return absl::StrFormat(" at +%.1fs", static_cast<double>(at_ns - origin_ns) / 1e9);
}

}  // namespace

std::vector<CellNote> BuildCellNotes(const ReportInput& input,
                                     const std::vector<ScenarioFigures>& figures,
                                     const ReportCell& cell) {
  std::vector<CellNote> notes;
  std::set<std::string> warnings_seen;
  for (const TargetColumn& column : cell.targets) {
    std::vector<size_t> listed = column.repeats;
    listed.insert(listed.end(), column.failed.begin(), column.failed.end());
    std::sort(listed.begin(), listed.end());
    for (size_t i : listed) {
      const ScenarioResult& r = input.scenarios[i];
      const int64_t origin =
          figures[i].first_start_ns != 0 ? figures[i].first_start_ns : r.planned_start_realtime_ns;
      if (r.status != ScenarioStatus::kComplete) {
        std::string note = absl::StrCat(ScenarioStatusName(r.status), ": ", r.scenario.key);
        if (!r.status_detail.empty()) absl::StrAppend(&note, ": ", r.status_detail);
        if (r.scenario.skipped && !r.scenario.skip_reason.empty() &&
            r.scenario.skip_reason != r.status_detail) {
          absl::StrAppend(&note, ": ", r.scenario.skip_reason);
        }
        for (const LostAgent& lost : r.lost) {
          absl::StrAppend(&note, "; lost ", lost.agent_id,
                          RelativeSeconds(lost.lost_at_realtime_ns, origin),
                          lost.reason.empty() ? "" : absl::StrCat(" (", lost.reason, ")"));
        }
        notes.push_back(CellNote{false, r.status, std::move(note)});
      }
      for (const AgentJobResult& job : r.results) {
        for (const std::string& warning : job.result.warnings) {
          if (warnings_seen.insert(absl::StrCat(column.target, "\n", warning)).second) {
            notes.push_back(
                CellNote{true, r.status, absl::StrCat("warning (", column.target, "): ", warning)});
          }
        }
      }
    }
    if (column.total_err > 0) {
      notes.push_back(CellNote{
          true, ScenarioStatus::kComplete,
          absl::StrCat("errors (", column.target, "): total_err=", column.total_err,
                       ", first_error=", column.first_error, " ", ErrnoText(column.first_error))});
    }
  }
  return notes;
}

}  // namespace azbench
