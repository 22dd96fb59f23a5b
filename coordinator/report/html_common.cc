#include "coordinator/report/html_common.h"

#include <algorithm>
#include <cmath>

#include "absl/strings/str_cat.h"
#include "absl/time/time.h"

namespace azbench::html_internal {

namespace {

double PrimaryFigure(const ScenarioFigures& f) {
  return f.TotalBytes() > 0 ? f.TotalFullBytesPerSecond() : f.TotalFullIops();
}

}  // namespace

std::string Esc(const std::string& text) { return EscapeXml(text); }

std::string FormatUtc(int64_t ns) {
  if (ns == 0) return "-";
  return absl::FormatTime("%Y-%m-%d %H:%M:%S UTC", absl::FromUnixNanos(ns), absl::UTCTimeZone());
}

std::string CellTitle(const ReportCell& cell) {
  const std::string parameters = ParametersText(cell.parameters);
  return parameters.empty() ? cell.workload : absl::StrCat(cell.workload, " (", parameters, ")");
}

size_t ShownRepeat(const TargetColumn& column, KeepPolicy keep,
                   const std::vector<ScenarioFigures>& figures) {
  if (keep == KeepPolicy::kMedian) {
    std::vector<size_t> ranked = column.repeats;
    std::stable_sort(ranked.begin(), ranked.end(), [&](size_t a, size_t b) {
      return PrimaryFigure(figures[a]) < PrimaryFigure(figures[b]);
    });
    return ranked[(ranked.size() - 1) / 2];
  }
  return column.repeats.back();
}

LineChart PercentileChart(const std::string& title) {
  LineChart chart;
  chart.title = title;
  chart.x = MakeAxis("percentile (log scale of 1 - p)", AxisKind::kNines, FormatPercentileLabel);
  chart.y = MakeAxis("latency", AxisKind::kLog10, FormatLatencyNsShort);
  chart.markers = false;
  return chart;
}

ChartSeries PercentileSeries(const std::string& name, const Histogram& h, int nines) {
  ChartSeries series{name, {}};
  if (h.count() == 0) return series;
  for (int i = 0; i <= nines * 20; ++i) {
    const double p = 100.0 * (1.0 - std::pow(10.0, -i / 20.0));
    series.points.emplace_back(p, static_cast<double>(h.Percentile(p)));
  }
  return series;
}

int NinesFor(uint64_t count) {
  const int n =
      count > 0 ? static_cast<int>(std::floor(std::log10(static_cast<double>(count)))) : 2;
  return std::clamp(n, 2, 4);
}

void Figure(const LineChart& chart, const std::string& caption, std::string& out) {
  absl::StrAppend(&out, "<figure>", RenderLineChart(chart));
  if (!caption.empty()) absl::StrAppend(&out, "<figcaption>", Esc(caption), "</figcaption>");
  out += "</figure>";
}

}  // namespace azbench::html_internal
