// The HTML report's verify section: each agent's data-verification result (verify_rows.h).
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "coordinator/report/html_common.h"
#include "coordinator/report/html_sections.h"
#include "coordinator/report/verify_rows.h"

namespace azbench::html_internal {

void VerifySection(const ReportInput& input, std::string& out) {
  const std::vector<VerifyRow> rows = BuildVerifyRows(input);
  if (rows.empty()) return;
  std::string table =
      "<div class=\"table-wrap\"><table><thead><tr><th>workload</th><th>parameters</th><th>"
      "target</th><th>repeat</th><th>job</th><th>agent</th><th>AZ</th><th>role</th><th>blocks"
      "</th><th>mismatches</th><th>first offsets</th></tr></thead><tbody>";
  for (const VerifyRow& row : rows) {
    const Scenario& s = input.scenarios[row.scenario].scenario;
    absl::StrAppend(&table, "<tr><td>", Esc(s.workload), "</td><td>",
                    Esc(ParametersText(s.parameters)), "</td><td>", Esc(s.target), "</td><td>",
                    s.repeat, "</td><td>", Esc(row.job), "</td><td>", Esc(row.agent_id),
                    "</td><td>", Esc(row.az), "</td><td>", row.role, "</td><td>",
                    row.blocks_verified, "</td><td>", row.mismatches, "</td><td>",
                    Esc(VerifyOffsetsText(row)), "</td></tr>");
  }
  table += "</tbody></table></div>";
  absl::StrAppend(&out,
                  "<section id=\"verify\"><h2>Verify</h2><p>Blocks each agent read back and "
                  "checked, verify intervals that failed and the first offsets (bytes into the "
                  "file).</p>",
                  table, "</section>");
}

}  // namespace azbench::html_internal
