// Line charts as inline SVG for the HTML report: scales, tick choice, layout, legend and label
// collision avoidance. Pure geometry and text; no I/O.
//
// Scales map a data value to a pixel coordinate:
//   - linear:  px = px0 + (v - lo) / (hi - lo) * (px1 - px0). The domain is widened to "nice"
//              tick bounds (steps of 1, 2 or 5 x 10^k), and to 0 when `include_zero`.
//   - log10:   px linear in log10(v); the domain is widened to whole decades. Values <= 0 are not
//              drawn (a line breaks there).
//   - log2:    px linear in log2(v) (block sizes, queue depths); the domain is the data range.
//   - nines:   a percentile axis: px linear in -log10(1 - p/100), so 0, 90, 99, 99.9 and 99.99 are
//              equally spaced (the tail of a latency distribution gets as much room as its body).
//              Values are percentiles in [0, 100); p >= 100 is clamped to the axis end.
// Ticks: linear: nice steps, at most `max_ticks` of them; log10: every decade (labelled), with 2
// and 5 per decade added when the domain spans fewer than three decades; nines: 0, 90, 99, ... up
// to the axis end; log2 or explicit: the values given (e.g. the swept iodepths). Labels never
// overlap: text width is estimated as 0.64 x font size per character (digits are 0.636 em in
// DejaVu Sans and 0.556 em in Helvetica/Arial; most lowercase letters are narrower; the browser
// test measures the real boxes), and a tick label whose box would come closer than 4 px to an
// already kept label is left out (its grid line stays). Labels are kept in priority order: axis
// ends and major ticks (decades, nines) first, then the others from low to high. Colours: the
// Okabe-Ito palette (distinguishable with the common colour-vision deficiencies), and every series
// also has its own dash pattern and marker, so a chart printed in grey still works.
//
// Example:
//   LineChart chart;
//   chart.title = "read latency";
//   chart.x = {"percentile", AxisKind::kNines, FormatPercentile};
//   chart.y = {"latency", AxisKind::kLog10, FormatLatencyNs};
//   chart.series.push_back({"efs", {{50, 1.2e6}, {99, 4.0e6}}});
//   std::string svg = RenderLineChart(chart);
#ifndef AZBENCH_COORDINATOR_REPORT_SVG_CHART_H_
#define AZBENCH_COORDINATOR_REPORT_SVG_CHART_H_

#include <array>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace azbench {

// Okabe & Ito (2008), black last.
inline constexpr std::array<const char*, 8> kChartPalette = {
    "#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442", "#000000"};

enum class AxisKind { kLinear, kLog10, kLog2, kNines };

class Scale {
 public:
  Scale() = default;
  Scale(AxisKind kind, double lo, double hi, double px_lo, double px_hi);
  AxisKind kind() const { return kind_; }
  double lo() const { return lo_; }
  double hi() const { return hi_; }
  // The pixel of `value`; nullopt when the value cannot be drawn (<= 0 on a log axis, NaN).
  std::optional<double> ToPixel(double value) const;

 private:
  double Transform(double value) const;
  AxisKind kind_ = AxisKind::kLinear;
  double lo_ = 0, hi_ = 1;
  double t_lo_ = 0, t_hi_ = 1;
  double px_lo_ = 0, px_hi_ = 1;
};

// Nice linear ticks covering [lo, hi]: the first <= lo, the last >= hi, a step of 1, 2 or 5 x 10^k,
// and at most max(3, max_ticks) ticks (a range that straddles a tick needs three). lo == hi gets
// a range around it.
std::vector<double> NiceLinearTicks(double lo, double hi, int max_ticks);
// Decades 10^k from the one <= lo to the one >= hi (lo, hi > 0); with fewer than three decades
// also 2 and 5 x 10^k inside.
std::vector<double> LogTicks(double lo, double hi);
// 0, 90, 99, 99.9, ... while <= max_percentile.
std::vector<double> NinesTicks(double max_percentile);

struct Tick {
  double value = 0;
  double px = 0;
  std::string label;  // empty when left out to avoid an overlap
  bool major = false;
};

struct Box {
  double x = 0, y = 0, width = 0, height = 0;
  bool Overlaps(const Box& other, double gap = 0) const;
};

// Estimated box of `text` at `font_px` (0.64 em per character, 1.2 em high).
double TextWidth(std::string_view text, double font_px);

// Leaves out labels so that no two kept label boxes come within `gap_px`. `horizontal`: labels
// centred on px along x (x axis); otherwise centred on px along y (y axis, one line high).
void ThinTickLabels(std::vector<Tick>& ticks, double font_px, bool horizontal, double gap_px = 4);

struct ChartAxis {
  std::string title;  // with the unit, e.g. "latency" (the formatter adds units to labels)
  AxisKind kind = AxisKind::kLinear;
  std::function<std::string(double)> format;  // tick labels; default: %g
  bool include_zero = false;                  // linear only: start at 0
  // Ticks at exactly these values (log2 or linear sweeps); empty: chosen as described above.
  std::vector<double> ticks;
  std::optional<double> min, max;  // force the domain ends
};

ChartAxis MakeAxis(std::string title, AxisKind kind,
                   std::function<std::string(double)> format = nullptr, bool include_zero = false);

struct ChartSeries {
  std::string name;
  std::vector<std::pair<double, double>> points;  // (x, y), drawn in the order given
};

struct LineChart {
  std::string title;
  ChartAxis x, y;
  std::vector<ChartSeries> series;
  double width_px = 520;
  double plot_height_px = 240;  // the plot area; the legend adds rows below
  bool markers = true;
};

struct LegendEntry {
  std::string name;
  int series = 0;  // palette / dash index
  Box box;         // swatch and text together
};

struct ChartLayout {
  double width = 0, height = 0;
  Box plot;
  Scale x, y;
  std::vector<Tick> x_ticks, y_ticks;
  std::vector<LegendEntry> legend;
  Box title_box, x_title_box, y_title_box;
};

inline constexpr double kChartFontPx = 12;
inline constexpr double kChartTitleFontPx = 14;

ChartLayout LayoutLineChart(const LineChart& chart);
// `<svg class="chart" viewBox=...>...</svg>`, scaled to its container's width; a chart without any
// drawable point says "no data" in the plot area.
std::string RenderLineChart(const LineChart& chart);

// Text escaped for XML and HTML content and attribute values.
std::string EscapeXml(std::string_view text);

// Label formats: "1.5ms", "250us", "800ns", "2s"; "99.9"; "1.2G"/"350k"/"12"; "4KiB" style.
std::string FormatLatencyNsShort(double ns);
std::string FormatPercentileLabel(double p);
std::string FormatSiShort(double value);

}  // namespace azbench

#endif  // AZBENCH_COORDINATOR_REPORT_SVG_CHART_H_
