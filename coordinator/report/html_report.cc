// The page as a whole: style, header, contents, the sections in order (html_sections.h) and the
// "how to read" footer.
#include "coordinator/report/html_report.h"

#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "coordinator/report/html_common.h"
#include "coordinator/report/html_sections.h"
#include "coordinator/report/scaling_rows.h"

namespace azbench {

namespace {

using html_internal::CellTitle;
using html_internal::Esc;

constexpr char kStyle[] = R"css(
:root{color-scheme:light}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;margin:0 auto;
  max-width:1120px;padding:12px;color:#1a1a1a;background:#fff;line-height:1.4}
h1{font-size:1.6em;margin:.4em 0}
h2{font-size:1.3em;margin:1.4em 0 .4em;border-bottom:2px solid #0072B2;padding-bottom:.2em}
h3{font-size:1.05em;margin:1em 0 .3em}
nav ul{columns:2 260px;padding-left:1.2em;margin:.3em 0}
.table-wrap{overflow-x:auto;-webkit-overflow-scrolling:touch;margin:.4em 0 .8em}
table{border-collapse:collapse;font-size:.9em}
th,td{border:1px solid #ccc;padding:.25em .5em;vertical-align:top}
th{background:#f2f5f8;text-align:left}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.best{font-weight:bold;background:#eaf4fb}
td.fastest{white-space:nowrap}
td.mount,#placement td{overflow-wrap:anywhere;min-width:12em}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,440px),1fr));gap:12px;margin:.5em 0}
figure{margin:0;min-width:0}
figcaption{font-size:.85em;color:#444}
svg.chart{width:100%;height:auto;display:block;background:#fff}
.note{color:#444;font-size:.9em}
ul.notes{font-size:.9em}
.status-partial,.status-failed,.status-skipped{color:#a33}
footer{margin-top:2em;font-size:.85em;color:#444;border-top:1px solid #ccc}
@media print{nav{display:none}body{max-width:none;padding:0}figure,table{break-inside:avoid}
  section.cell{break-before:auto}h2{break-after:avoid}.charts{display:block}
  .charts figure{margin-bottom:8px}}
)css";

constexpr char kHowToRead[] =
    "<footer><h2>How to read this report</h2><ul>"
    "<li><b>IOPS, MiB/s</b>: all ops of all agents divided by the time from the first agent's "
    "start to the last agent's end. <b>Stonewall</b>: only what happened while every agent was "
    "running.</li>"
    "<li><b>Latency</b> (mean, p50 ... max): from the histograms of all agents merged, so a "
    "percentile is the percentile of every op of the scenario (within 0.39%).</li>"
    "<li><b>fastest</b>: the best target for that row and how many times better it is than the "
    "runner-up (higher is better for throughput, lower for latency).</li>"
    "<li><b>Percentile charts</b>: the horizontal axis spreads 90, 99, 99.9, 99.99 evenly, so the "
    "right side shows the rare slow ops; the vertical axis is logarithmic.</li>"
    "<li><b>Throughput over time</b>: one line per agent; a line that starts late shows start "
    "skew, one that ends late or sags shows a straggler.</li>"
    "<li><b>[min-max]</b>: the range over repeats; which repeat is shown follows the campaign's "
    "<code>keep</code>.</li>";
// Footer items of sections only some reports have.
constexpr char kHowToReadPasses[] =
    "<li><b>MiB/s per pass</b> (large_stream, dd-like): each pass's bytes over its time, per agent "
    "and for all agents together; <b>mean</b> is the mean of the passes.</li>";
constexpr char kHowToReadPlacement[] =
    "<li><b>Placement</b>: same-az when the server address the agent's mount uses is in a subnet "
    "of the agent's AZ (or the campaign names the server's AZ), cross-az when it is in another; "
    "unknown otherwise, with the reason.</li>";

}  // namespace

std::string RenderHtmlReport(const ReportInput& input, const HtmlReportContext& context) {
  std::vector<ScenarioFigures> storage;
  const std::vector<ScenarioFigures>& figures = FiguresOf(input, storage);
  const std::vector<ReportCell> cells = BuildCells(input, figures);

  std::string out = absl::StrCat(
      "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
      "<title>azbench report: ",
      Esc(input.campaign_name), "</title><style>", kStyle, "</style></head><body>");
  int counts[4] = {0, 0, 0, 0};
  for (const ScenarioResult& r : input.scenarios) ++counts[static_cast<int>(r.status)];
  absl::StrAppend(&out, "<header><h1>azbench report: ", Esc(input.campaign_name), "</h1><p>",
                  input.scenarios.size(), " scenarios: ", counts[0], " complete, ", counts[1],
                  " partial, ", counts[2], " failed, ", counts[3], " skipped.</p></header>");

  std::string sweeps, scaling, visibility, verify;
  html_internal::SweepSection(cells, sweeps);
  html_internal::ScalingSection(BuildScalingRows(input, cells), scaling);
  html_internal::VisibilitySection(input, cells, figures, visibility);
  html_internal::VerifySection(input, verify);

  out += "<nav><h2>Contents</h2><ul><li><a href=\"#campaign\">Campaign</a></li>";
  const std::vector<PlacementEvidenceRow> placement =
      context.placement.empty() ? PlacementEvidenceRows(input) : context.placement;
  if (!placement.empty()) out += "<li><a href=\"#placement\">Placement</a></li>";
  for (size_t i = 0; i < cells.size(); ++i) {
    absl::StrAppend(&out, "<li><a href=\"#cell-", i, "\">", Esc(CellTitle(cells[i])), "</a></li>");
  }
  if (!sweeps.empty()) out += "<li><a href=\"#sweeps\">Sweeps</a></li>";
  if (!scaling.empty()) out += "<li><a href=\"#scaling\">Scaling</a></li>";
  if (!visibility.empty()) out += "<li><a href=\"#visibility\">Visibility probes</a></li>";
  if (!verify.empty()) out += "<li><a href=\"#verify\">Verify</a></li>";
  out += "</ul></nav>";

  html_internal::CampaignSection(input, context, out);
  html_internal::PlacementSection(placement, out);
  for (size_t i = 0; i < cells.size(); ++i)
    html_internal::CellSection(input, context, figures, cells[i], i, out);
  out += sweeps;
  out += scaling;
  out += visibility;
  out += verify;
  out += kHowToRead;
  if (absl::StrContains(out, "<h3>MiB/s per pass</h3>")) out += kHowToReadPasses;
  if (!placement.empty()) out += kHowToReadPlacement;
  out += "</ul></footer>";
  out += "</body></html>\n";
  return out;
}

}  // namespace azbench
