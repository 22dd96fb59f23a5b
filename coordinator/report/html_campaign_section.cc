// The HTML report's campaign section: campaign file and times, fleet, targets with their mounts.
#include "coordinator/report/html_sections.h"

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/units.h"
#include "coordinator/report/html_common.h"

namespace azbench::html_internal {

namespace {

// The distinct mounts of `target` in the stored placement evidence, each with the agents that
// reported it, in order of first appearance.
std::vector<std::pair<std::string, std::vector<std::string>>> TargetMounts(
    const ReportInput& input, const std::string& target) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  for (const ScenarioResult& r : input.scenarios) {
    for (const PlacementEvidence& e : r.scenario.placements) {
      if (e.target != target || e.mount.empty()) continue;
      auto it =
          std::find_if(out.begin(), out.end(), [&](const auto& m) { return m.first == e.mount; });
      if (it == out.end()) it = out.insert(out.end(), {e.mount, {}});
      if (std::find(it->second.begin(), it->second.end(), e.agent_id) == it->second.end()) {
        it->second.push_back(e.agent_id);
      }
    }
  }
  return out;
}

}  // namespace

void CampaignSection(const ReportInput& input, const HtmlReportContext& context, std::string& out) {
  out += "<section id=\"campaign\"><h2>Campaign</h2><div class=\"table-wrap\"><table>";
  auto row = [&](const std::string& k, const std::string& v) {
    absl::StrAppend(&out, "<tr><th scope=\"row\">", Esc(k), "</th><td>", Esc(v), "</td></tr>");
  };
  row("name", input.campaign_name);
  if (!context.campaign_file.empty()) row("file", context.campaign_file);
  row("started", FormatUtc(context.started_at_ns));
  row("finished", context.finished_at_ns == 0 ? "not finished" : FormatUtc(context.finished_at_ns));
  if (!context.azbench_version.empty()) row("azbench", context.azbench_version);
  if (context.campaign) {
    row("repeats", absl::StrCat(context.campaign->repeats, " (reports show: keep ",
                                std::string(KeepPolicyName(input.keep)), ")"));
    std::vector<std::string> axes;
    for (const MatrixAxis& a : context.campaign->matrix) {
      axes.push_back(absl::StrCat(a.key, ": ", absl::StrJoin(a.values, ", ")));
    }
    if (!axes.empty()) row("matrix", absl::StrJoin(axes, "; "));
  } else {
    row("repeats", absl::StrCat("keep ", std::string(KeepPolicyName(input.keep))));
  }
  out += "</table></div>";

  // Fleet.
  std::map<std::string, int> per_az, per_type;
  for (const AgentInfo& a : input.agents) {
    ++per_az[a.availability_zone.empty() ? "(unknown)" : a.availability_zone];
    ++per_type[a.instance_type.empty() ? "(unknown)" : a.instance_type];
  }
  auto counts = [](const std::map<std::string, int>& m) {
    std::vector<std::string> parts;
    for (const auto& [k, n] : m) parts.push_back(absl::StrCat(k, ": ", n));
    return absl::StrJoin(parts, ", ");
  };
  absl::StrAppend(&out, "<h3>Fleet</h3><p>", input.agents.size(),
                  input.agents.size() == 1 ? " agent" : " agents", " in ", per_az.size(),
                  per_az.size() == 1 ? " AZ" : " AZs", " (", Esc(counts(per_az)),
                  "); instance types: ", Esc(counts(per_type)), ".</p>");
  if (!input.agents.empty()) {
    out +=
        "<div class=\"table-wrap\"><table><thead><tr><th>agent</th><th>host</th><th>AZ</th>"
        "<th>AZ id</th><th>instance</th><th>version</th><th>clock offset at "
        "connect</th></tr></thead><tbody>";
    for (const AgentInfo& a : input.agents) {
      absl::StrAppend(&out, "<tr><td>", Esc(a.agent_id), "</td><td>", Esc(a.hostname), "</td><td>",
                      Esc(a.availability_zone), "</td><td>", Esc(a.availability_zone_id),
                      "</td><td>", Esc(a.instance_type), "</td><td>", Esc(a.version),
                      "</td><td class=\"num\">",
                      Esc(FormatNanos(static_cast<double>(a.clock_offset_ns))), " ± ",
                      Esc(FormatNanos(static_cast<double>(a.clock_rtt_ns) / 2)), "</td></tr>");
    }
    out += "</tbody></table></div>";
  }

  // Targets.
  out += "<h3>Targets</h3>";
  if (context.campaign) {
    out +=
        "<div class=\"table-wrap\"><table class=\"targets\"><thead><tr><th>target</th>"
        "<th>kind</th><th>path</th><th>server AZ</th><th>labels</th><th>mount and options "
        "(as the agents saw them)</th></tr></thead><tbody>";
    for (const CampaignTarget& t : context.campaign->targets) {
      std::vector<std::string> labels;
      for (const auto& [k, v] : t.labels) labels.push_back(absl::StrCat(k, "=", v));
      absl::StrAppend(&out, "<tr><td>", Esc(t.name), "</td><td>",
                      Esc(std::string(TargetKindName(t.kind))), "</td><td>", Esc(t.path),
                      "</td><td>", Esc(t.server_az.empty() ? "-" : t.server_az), "</td><td>",
                      Esc(absl::StrJoin(labels, ", ")), "</td><td class=\"mount\">");
      const std::vector<std::pair<std::string, std::vector<std::string>>> mounts =
          TargetMounts(input, t.name);
      if (mounts.empty()) out += "-";
      for (size_t i = 0; i < mounts.size(); ++i) {
        if (i > 0) out += "<br>";
        out += Esc(mounts[i].first);
        // Which agents saw it, when they did not all see the same.
        if (mounts.size() > 1) {
          absl::StrAppend(&out, " <span class=\"note\">(",
                          Esc(absl::StrJoin(mounts[i].second, ", ")), ")</span>");
        }
      }
      out += "</td></tr>";
    }
    out += "</tbody></table></div>";
    if (context.campaign_read_leniently) {
      out +=
          "<p class=\"note\">The stored campaign does not parse here (a file it names is "
          "missing); targets and matrix were read from its YAML as written.</p>";
    }
  } else {
    std::vector<std::string> names;
    for (const ScenarioResult& r : input.scenarios) {
      if (std::find(names.begin(), names.end(), r.scenario.target) == names.end()) {
        names.push_back(r.scenario.target);
      }
    }
    absl::StrAppend(&out, "<p>", Esc(absl::StrJoin(names, ", ")),
                    " <span class=\"note\">(the stored campaign could not be read: kinds "
                    "unknown)</span></p>");
  }
  out += "</section>";
}

}  // namespace azbench::html_internal
