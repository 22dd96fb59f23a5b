// The HTML report's visibility probes section: latency per probe and reader, with join notes.
#include "coordinator/report/html_sections.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "common/units.h"
#include "coordinator/report/html_common.h"
#include "coordinator/report/probe_percentiles.h"

namespace azbench::html_internal {

// Visibility probes: latency per probe (job name) and reader (agent), from the op kind `probe`.
// Extension point: when probes gain their own result fields, render them here.
void VisibilitySection(const ReportInput& input, const std::vector<ReportCell>& cells,
                       const std::vector<ScenarioFigures>& figures, std::string& out) {
  std::string body;
  for (const ReportCell& cell : cells) {
    for (const TargetColumn& column : cell.targets) {
      if (column.Find(OpKind::kProbe) == nullptr) continue;
      std::vector<size_t> used =
          input.keep == KeepPolicy::kAll
              ? column.repeats
              : std::vector<size_t>{ShownRepeat(column, input.keep, figures)};
      // probe -> reader -> merged histogram, trials that never became visible, the reader's
      // mount line; in order of first appearance. A reader whose every trial timed out is listed.
      struct Reader {
        Histogram h;
        uint64_t not_visible = 0;
        std::string mount;
        std::vector<int> repeats;  // the repeats the reader has results in, in order
        // client_to_client readers: what the latency counts from, each distinct note with the
        // repeats that gave it (each repeat joins on its own and says so).
        std::vector<std::pair<std::string, std::vector<int>>> join_notes;
      };
      std::vector<std::pair<std::string, std::vector<std::pair<std::string, Reader>>>> probes;
      for (size_t i : used) {
        for (const AgentJobResult& r : input.scenarios[i].results) {
          const OpStats* stats = r.result.Find(OpKind::kProbe);
          if (stats == nullptr || stats->lat.count() + stats->errors == 0) continue;
          auto p = std::find_if(probes.begin(), probes.end(),
                                [&](const auto& e) { return e.first == r.result.name; });
          if (p == probes.end()) p = probes.insert(probes.end(), {r.result.name, {}});
          auto reader = std::find_if(p->second.begin(), p->second.end(),
                                     [&](const auto& e) { return e.first == r.agent_id; });
          if (reader == p->second.end()) {
            reader = p->second.insert(p->second.end(), {r.agent_id, Reader()});
          }
          Reader& data = reader->second;
          data.h.Merge(stats->lat);
          data.not_visible += stats->errors;
          const int repeat = input.scenarios[i].scenario.repeat;
          if (std::find(data.repeats.begin(), data.repeats.end(), repeat) == data.repeats.end()) {
            data.repeats.push_back(repeat);
          }
          for (const std::string& w : r.result.warnings) {
            if (w.rfind("mount ", 0) == 0) data.mount = w.substr(6);
            if (w.rfind("client_to_client: ", 0) != 0) continue;
            const std::string note = w.substr(18);
            auto same = std::find_if(data.join_notes.begin(), data.join_notes.end(),
                                     [&](const auto& n) { return n.first == note; });
            if (same == data.join_notes.end()) {
              same = data.join_notes.insert(data.join_notes.end(), {note, {}});
            }
            if (std::find(same->second.begin(), same->second.end(), repeat) == same->second.end()) {
              same->second.push_back(repeat);
            }
          }
        }
      }
      for (const auto& [probe, readers] : probes) {
        absl::StrAppend(&body, "<h3>", Esc(CellTitle(cell)), ", ", Esc(column.target), ": probe ",
                        Esc(probe), "</h3>");
        body +=
            "<div class=\"table-wrap\"><table><thead><tr><th>reader</th><th>samples</th>"
            "<th>p50</th><th>p90</th><th>p99</th><th>max</th><th>timed out or failed</th>"
            "<th>mount</th></tr></thead><tbody>";
        uint64_t most = 0;
        for (const auto& [reader, data] : readers) {
          const Histogram& h = data.h;
          most = std::max(most, h.count());
          absl::StrAppend(&body, "<tr><td>", Esc(reader), "</td><td class=\"num\">", h.count(),
                          "</td>");
          // Over the trials that ended: the timed-out ones reach a percentile as ">= timeout".
          const ProbeTrials trials = ProbeTrialsOf(input, used, reader);
          for (double p : {50.0, 90.0, 99.0, 100.0}) {
            absl::StrAppend(&body, "<td class=\"num\">", Esc(FormatProbePercentile(h, trials, p)),
                            "</td>");
          }
          absl::StrAppend(&body, "<td class=\"num\">", data.not_visible, "</td><td>",
                          Esc(data.mount.empty() ? "-" : data.mount), "</td></tr>");
        }
        body +=
            "</tbody></table></div><p class=\"note\">p50/p90/p99/max are over every trial that "
            "ended, visible or timed out: a timed-out trial is only known to exceed the timeout, "
            "so "
            "a percentile the timed-out trials reach reads &gt;= the timeout.</p>";
        for (const auto& [reader, data] : readers) {
          // One note that held for every repeat is said once; otherwise each note names its
          // repeats ("agent-2, repeats 1, 3: ...").
          const bool one_for_all = data.join_notes.size() == 1 &&
                                   data.join_notes[0].second.size() == data.repeats.size();
          for (const auto& [note, repeats] : data.join_notes) {
            const std::string which =
                one_for_all ? ""
                            : absl::StrCat(repeats.size() == 1 ? ", repeat " : ", repeats ",
                                           absl::StrJoin(repeats, ", "));
            absl::StrAppend(&body, "<p class=\"note\">", Esc(reader), Esc(which), ": ", Esc(note),
                            "</p>");
          }
        }
        body += "<div class=\"charts\">";
        LineChart chart = PercentileChart(absl::StrCat(column.target, ": ", probe, " latency"));
        for (const auto& [reader, data] : readers) {
          if (data.h.count() > 0) {
            chart.series.push_back(PercentileSeries(reader, data.h, NinesFor(most)));
          }
        }
        Figure(chart, "One line per reader: the time until the reader saw the change.", body);
        body += "</div>";
      }
    }
  }
  if (body.empty()) return;
  absl::StrAppend(&out, "<section id=\"visibility\"><h2>Visibility probes</h2>", body,
                  "</section>");
}

}  // namespace azbench::html_internal
