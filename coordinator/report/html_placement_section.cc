// The HTML report's placement section, and the stored placement evidence as its rows
// (PlacementEvidenceRows, html_report.h).
#include "coordinator/report/html_sections.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "coordinator/report/html_common.h"
#include "coordinator/report/placement_report.h"

namespace azbench {

namespace html_internal {

void PlacementSection(const std::vector<PlacementEvidenceRow>& placement, std::string& out) {
  if (placement.empty()) return;
  std::vector<std::string> fact_names;
  for (const PlacementEvidenceRow& r : placement) {
    for (const auto& [k, v] : r.facts) {
      if (std::find(fact_names.begin(), fact_names.end(), k) == fact_names.end()) {
        fact_names.push_back(k);
      }
    }
  }
  out +=
      "<section id=\"placement\"><h2>Placement</h2><div class=\"table-wrap\"><table><thead><tr>"
      "<th>agent</th><th>target</th><th>placement</th>";
  for (const std::string& k : fact_names) absl::StrAppend(&out, "<th>", Esc(k), "</th>");
  out += "</tr></thead><tbody>";
  for (const PlacementEvidenceRow& r : placement) {
    absl::StrAppend(&out, "<tr><td>", Esc(r.agent_id), "</td><td>", Esc(r.target), "</td><td>",
                    Esc(r.placement), "</td>");
    for (const std::string& k : fact_names) {
      std::string value = "-";
      for (const auto& [fk, fv] : r.facts) {
        if (fk == k) value = fv;
      }
      absl::StrAppend(&out, "<td>", Esc(value), "</td>");
    }
    out += "</tr>";
  }
  out += "</tbody></table></div>";
  out +=
      "<p class=\"note\">How each agent was placed relative to each target: the agent's AZ and "
      "where it came from (config or the instance metadata service), the server address the "
      "mount is connected to and how it was found, the subnet (and its AZ) that address is in, "
      "and the mount with its options. same-az / cross-az is decided from these; unknown means "
      "they did not decide it (the reason says why).</p></section>";
}

}  // namespace html_internal

std::vector<PlacementEvidenceRow> PlacementEvidenceRows(const ReportInput& input) {
  auto with_source = [](const std::string& value, const std::string& source) {
    if (value.empty()) return std::string("-");
    return source.empty() ? value : absl::StrCat(value, " (", source, ")");
  };
  std::vector<PlacementEvidenceRow> rows;
  for (const PlacementEvidence* e : DistinctPlacementEvidence(input)) {
    std::string agent_az = e->agent_az;
    if (!e->agent_az_id.empty() && e->agent_az_id != e->agent_az) {
      agent_az = absl::StrCat(agent_az, "/", e->agent_az_id);
    }
    rows.push_back(PlacementEvidenceRow{
        e->agent_id,
        e->target,
        std::string(PlacementName(e->placement)),
        {{"agent AZ (source)", with_source(agent_az, e->az_source)},
         {"server address (how found)", with_source(e->server_address, e->address_source)},
         {"subnet (source)", with_source(e->subnet, e->subnet_source)},
         {"server AZ (source)", with_source(e->server_az, e->server_az_source)},
         {"mount and options", e->mount.empty() ? "-" : e->mount},
         {"reason", e->reason.empty() ? "-" : e->reason}}});
  }
  return rows;
}

}  // namespace azbench
