#include "coordinator/report/svg_chart.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"

namespace azbench {

namespace {

constexpr double kMaxNinesPercentile = 99.9999;

// Dash patterns, combined with the palette so series differ in more than colour.
constexpr std::array<const char*, 5> kDashes = {"", "7 3", "2 3", "9 3 2 3", "4 2"};

std::string Num(double v) {
  // Two decimals are plenty at SVG scale and keep the output small and stable.
  std::string s = absl::StrFormat("%.2f", v);
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string DefaultFormat(double v) { return absl::StrFormat("%g", v); }

// Removes floating noise from computed tick values (0.30000000000000004 -> 0.3).
double Snap(double v, double step) {
  const double snapped = std::round(v / step) * step;
  if (std::fabs(snapped) < step * 1e-9) return 0;
  // Round to the step's decimals: 3 x 0.2 is 0.6000000000000001, 6 / 10 is 0.6.
  const int decimals = static_cast<int>(std::ceil(-std::log10(step) - 1e-9)) + 1;
  if (decimals <= 0 || decimals > 15) return snapped;
  const double scale = std::pow(10.0, decimals);
  return std::round(snapped * scale) / scale;
}

double NinesTransform(double p) {
  const double clamped = std::clamp(p, 0.0, kMaxNinesPercentile);
  return -std::log10(1.0 - clamped / 100.0);
}

}  // namespace

Scale::Scale(AxisKind kind, double lo, double hi, double px_lo, double px_hi)
    : kind_(kind), lo_(lo), hi_(hi), px_lo_(px_lo), px_hi_(px_hi) {
  t_lo_ = Transform(lo);
  t_hi_ = Transform(hi);
  if (!std::isfinite(t_lo_) || !std::isfinite(t_hi_) || t_hi_ == t_lo_) {
    t_lo_ = std::isfinite(t_lo_) ? t_lo_ : 0;
    t_hi_ = t_lo_ + 1;
  }
}

double Scale::Transform(double value) const {
  switch (kind_) {
    case AxisKind::kLinear:
      return value;
    case AxisKind::kLog10:
      return std::log10(value);
    case AxisKind::kLog2:
      return std::log2(value);
    case AxisKind::kNines:
      return NinesTransform(value);
  }
  return value;
}

std::optional<double> Scale::ToPixel(double value) const {
  if (std::isnan(value)) return std::nullopt;
  if ((kind_ == AxisKind::kLog10 || kind_ == AxisKind::kLog2) && value <= 0) return std::nullopt;
  const double t = Transform(value);
  if (!std::isfinite(t)) return std::nullopt;
  return px_lo_ + (t - t_lo_) / (t_hi_ - t_lo_) * (px_hi_ - px_lo_);
}

std::vector<double> NiceLinearTicks(double lo, double hi, int max_ticks) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0, 1};
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) {
    const double pad = lo == 0 ? 1 : std::fabs(lo) * 0.5;
    lo -= pad;
    hi += pad;
  }
  const double range = hi - lo;
  double step = 0;
  const double base = std::pow(10.0, std::floor(std::log10(range / (max_ticks - 1))));
  // 1, 2, 5, 10, 20, 50, ... x base until the ticks fit (a range straddling a tick needs 3).
  for (int i = 0; i < 60; ++i) {
    step = std::array<double, 3>{1, 2, 5}[i % 3] * std::pow(10.0, i / 3) * base;
    const double first = std::floor(lo / step) * step;
    const double last = std::ceil(hi / step) * step;
    if (std::llround((last - first) / step) + 1 <= std::max(max_ticks, 3)) break;
  }
  std::vector<double> ticks;
  const double first = std::floor(lo / step + 1e-9) * step;
  const double last = std::ceil(hi / step - 1e-9) * step;
  for (double v = first; v <= last + step * 1e-6; v += step) ticks.push_back(Snap(v, step));
  return ticks;
}

std::vector<double> LogTicks(double lo, double hi) {
  if (!(lo > 0) || !(hi > 0)) return {1, 10};
  if (hi < lo) std::swap(lo, hi);
  int k_lo = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
  int k_hi = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
  if (k_hi == k_lo) ++k_hi;
  const bool minor = k_hi - k_lo < 3;
  std::vector<double> ticks;
  for (int k = k_lo; k <= k_hi; ++k) {
    const double decade = std::pow(10.0, k);
    ticks.push_back(decade);
    if (minor && k < k_hi) {
      ticks.push_back(2 * decade);
      ticks.push_back(5 * decade);
    }
  }
  return ticks;
}

std::vector<double> NinesTicks(double max_percentile) {
  std::vector<double> ticks = {0};
  double p = 90;
  while (p <= max_percentile + 1e-9 && p <= kMaxNinesPercentile + 1e-9) {
    ticks.push_back(p);
    p = 100 - (100 - p) / 10;
  }
  return ticks;
}

bool Box::Overlaps(const Box& other, double gap) const {
  return x < other.x + other.width + gap && other.x < x + width + gap &&
         y < other.y + other.height + gap && other.y < y + height + gap;
}

double TextWidth(std::string_view text, double font_px) {
  // Count code points, not bytes ("µs" is three bytes, two characters).
  size_t chars = 0;
  for (unsigned char c : text) chars += (c & 0xC0) != 0x80;
  return 0.64 * font_px * static_cast<double>(chars);
}

void ThinTickLabels(std::vector<Tick>& ticks, double font_px, bool horizontal, double gap_px) {
  auto box = [&](const Tick& t) {
    const double w = TextWidth(t.label, font_px), h = 1.2 * font_px;
    return horizontal ? Box{t.px - w / 2, 0, w, h} : Box{0, t.px - h / 2, w, h};
  };
  // Priority: the ends, then major ticks, then the rest in axis order.
  std::vector<size_t> order;
  if (!ticks.empty()) {
    order.push_back(0);
    if (ticks.size() > 1) order.push_back(ticks.size() - 1);
  }
  for (size_t i = 1; i + 1 < ticks.size(); ++i) {
    if (ticks[i].major) order.push_back(i);
  }
  for (size_t i = 1; i + 1 < ticks.size(); ++i) {
    if (!ticks[i].major) order.push_back(i);
  }
  std::vector<Box> kept;
  for (size_t i : order) {
    Tick& t = ticks[i];
    if (t.label.empty()) continue;
    const Box b = box(t);
    bool clash = false;
    for (const Box& k : kept) clash = clash || b.Overlaps(k, gap_px);
    if (clash) {
      t.label.clear();
    } else {
      kept.push_back(b);
    }
  }
}

namespace {

struct Domain {
  double lo = 0, hi = 1;
  std::vector<double> ticks;
  std::vector<bool> major;
};

Domain MakeDomain(const ChartAxis& axis, const std::vector<double>& values) {
  Domain d;
  double lo = std::numeric_limits<double>::infinity(), hi = -lo;
  for (double v : values) {
    if (std::isnan(v)) continue;
    if ((axis.kind == AxisKind::kLog10 || axis.kind == AxisKind::kLog2) && v <= 0) continue;
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  for (double v : axis.ticks) {
    lo = std::min(lo, v);
    hi = std::max(hi, v);
  }
  if (axis.min) lo = *axis.min;
  if (axis.max) hi = *axis.max;
  const bool empty = !(lo <= hi);
  switch (axis.kind) {
    case AxisKind::kLinear: {
      if (empty) lo = 0, hi = 1;
      if (axis.include_zero) lo = std::min(lo, 0.0), hi = std::max(hi, 0.0);
      d.ticks = axis.ticks.empty() ? NiceLinearTicks(lo, hi, 6) : axis.ticks;
      if (axis.ticks.empty()) {
        d.lo = axis.min ? *axis.min : d.ticks.front();
        d.hi = axis.max ? *axis.max : d.ticks.back();
      } else {
        d.lo = lo;
        d.hi = hi > lo ? hi : lo + 1;
      }
      break;
    }
    case AxisKind::kLog10: {
      if (empty) lo = 1, hi = 10;
      d.ticks = axis.ticks.empty() ? LogTicks(lo, hi) : axis.ticks;
      if (axis.ticks.empty()) {
        d.lo = axis.min ? *axis.min : d.ticks.front();
        d.hi = axis.max ? *axis.max : d.ticks.back();
      } else {
        d.lo = lo;
        d.hi = hi > lo ? hi : lo * 10;
      }
      break;
    }
    case AxisKind::kLog2: {
      if (empty) lo = 1, hi = 2;
      d.lo = lo;
      d.hi = hi > lo ? hi : lo * 2;
      if (axis.ticks.empty()) {
        for (double v = std::exp2(std::ceil(std::log2(d.lo) - 1e-9)); v <= d.hi * (1 + 1e-9);
             v *= 2) {
          d.ticks.push_back(v);
        }
      } else {
        d.ticks = axis.ticks;
      }
      break;
    }
    case AxisKind::kNines: {
      if (empty) hi = 99;
      hi = std::min(std::max(hi, 99.0), kMaxNinesPercentile);
      double end = 90;
      while (end < hi - 1e-9 && end < kMaxNinesPercentile) end = 100 - (100 - end) / 10;
      d.lo = axis.min ? *axis.min : 0;
      d.hi = axis.max ? *axis.max : end;
      d.ticks = axis.ticks.empty() ? NinesTicks(d.hi) : axis.ticks;
      break;
    }
  }
  for (double t : d.ticks) {
    bool major = false;
    if (axis.kind == AxisKind::kLog10) {
      const double k = std::log10(t);
      major = std::fabs(k - std::round(k)) < 1e-9;
    } else if (axis.kind == AxisKind::kNines) {
      major = true;
    }
    d.major.push_back(major);
  }
  return d;
}

std::vector<Tick> MakeTicks(const Domain& d, const Scale& scale, const ChartAxis& axis) {
  std::vector<Tick> ticks;
  for (size_t i = 0; i < d.ticks.size(); ++i) {
    const double v = d.ticks[i];
    if (v < std::min(d.lo, d.hi) - 1e-12 * std::fabs(d.lo) ||
        v > std::max(d.lo, d.hi) + 1e-12 * std::fabs(d.hi)) {
      continue;
    }
    std::optional<double> px = scale.ToPixel(v);
    if (!px) continue;
    ticks.push_back(Tick{v, *px, axis.format ? axis.format(v) : DefaultFormat(v), d.major[i]});
  }
  return ticks;
}

void Marker(int series, double x, double y, const char* colour, std::string& out) {
  switch (series % 4) {
    case 0:
      absl::StrAppend(&out, "<circle cx=\"", Num(x), "\" cy=\"", Num(y), "\" r=\"3\" fill=\"",
                      colour, "\"/>");
      break;
    case 1:
      absl::StrAppend(&out, "<rect x=\"", Num(x - 3), "\" y=\"", Num(y - 3),
                      "\" width=\"6\" height=\"6\" fill=\"", colour, "\"/>");
      break;
    case 2:
      absl::StrAppend(&out, "<path d=\"M", Num(x), " ", Num(y - 3.5), "L", Num(x + 3.5), " ",
                      Num(y + 3), "L", Num(x - 3.5), " ", Num(y + 3), "Z\" fill=\"", colour,
                      "\"/>");
      break;
    default:
      absl::StrAppend(&out, "<path d=\"M", Num(x), " ", Num(y - 4), "L", Num(x + 4), " ", Num(y),
                      "L", Num(x), " ", Num(y + 4), "L", Num(x - 4), " ", Num(y), "Z\" fill=\"",
                      colour, "\"/>");
      break;
  }
}

}  // namespace

ChartAxis MakeAxis(std::string title, AxisKind kind, std::function<std::string(double)> format,
                   bool include_zero) {
  ChartAxis axis;
  axis.title = std::move(title);
  axis.kind = kind;
  axis.format = std::move(format);
  axis.include_zero = include_zero;
  return axis;
}

ChartLayout LayoutLineChart(const LineChart& chart) {
  ChartLayout layout;
  layout.width = chart.width_px;
  std::vector<double> xs, ys;
  for (const auto& s : chart.series) {
    for (const auto& [x, y] : s.points) {
      xs.push_back(x);
      ys.push_back(y);
    }
  }
  const Domain dx = MakeDomain(chart.x, xs);
  const Domain dy = MakeDomain(chart.y, ys);

  // Margins: the y labels' widest text decides the left one.
  const double f = kChartFontPx;
  double y_label_width = 0;
  for (double v : dy.ticks) {
    y_label_width = std::max(y_label_width,
                             TextWidth(chart.y.format ? chart.y.format(v) : DefaultFormat(v), f));
  }
  double first_x_label = 0, last_x_label = 0;
  if (!dx.ticks.empty()) {
    auto width = [&](double v) {
      return TextWidth(chart.x.format ? chart.x.format(v) : DefaultFormat(v), f);
    };
    first_x_label = width(dx.ticks.front());
    last_x_label = width(dx.ticks.back());
  }
  const double top = chart.title.empty() ? 10 : kChartTitleFontPx * 1.2 + 14;
  const double left = std::max(1.2 * f + 8 + y_label_width + 6, first_x_label / 2 + 4);
  const double right = std::max(14.0, last_x_label / 2 + 4);
  const double plot_width = std::max(80.0, chart.width_px - left - right);
  layout.plot = Box{left, top, plot_width, chart.plot_height_px};
  const double plot_bottom = top + chart.plot_height_px;

  layout.x = Scale(chart.x.kind, dx.lo, dx.hi, left, left + plot_width);
  layout.y = Scale(chart.y.kind, dy.lo, dy.hi, plot_bottom, top);
  layout.x_ticks = MakeTicks(dx, layout.x, chart.x);
  layout.y_ticks = MakeTicks(dy, layout.y, chart.y);
  ThinTickLabels(layout.x_ticks, f, /*horizontal=*/true);
  ThinTickLabels(layout.y_ticks, f, /*horizontal=*/false);

  layout.title_box =
      Box{left, 4, TextWidth(chart.title, kChartTitleFontPx), kChartTitleFontPx * 1.2};
  // x labels start 8 px below the plot: clear of the lowest y label, which is centred on it.
  const double x_labels_bottom = plot_bottom + 8 + 1.2 * f;
  const double x_title_width = TextWidth(chart.x.title, f);
  layout.x_title_box =
      Box{left + plot_width / 2 - x_title_width / 2, x_labels_bottom + 4, x_title_width, 1.2 * f};
  const double y_title_width = TextWidth(chart.y.title, f);
  layout.y_title_box =
      Box{4, top + chart.plot_height_px / 2 - y_title_width / 2, 1.2 * f, y_title_width};

  // Legend: entries left to right, wrapping at the chart width.
  double lx = left, ly = layout.x_title_box.y + layout.x_title_box.height + 8;
  const double row_height = 1.2 * f + 6;
  bool any_entry = false;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const double w = 30 + TextWidth(chart.series[i].name, f);
    if (lx > left && lx + w > chart.width_px - 4) {
      lx = left;
      ly += row_height;
    }
    layout.legend.push_back(
        LegendEntry{chart.series[i].name, static_cast<int>(i), Box{lx, ly, w, 1.2 * f}});
    lx += w + 14;
    any_entry = true;
  }
  layout.height = any_entry ? ly + row_height + 2 : ly;
  return layout;
}

std::string RenderLineChart(const LineChart& chart) {
  const ChartLayout l = LayoutLineChart(chart);
  const double f = kChartFontPx;
  std::string out;
  absl::StrAppend(&out, "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 ",
                  Num(l.width), " ", Num(l.height), "\" width=\"", Num(l.width), "\" height=\"",
                  Num(l.height), "\" role=\"img\" font-family=\"sans-serif\" font-size=\"", Num(f),
                  "\"><title>", EscapeXml(chart.title), "</title>");
  const Box& p = l.plot;
  const double bottom = p.y + p.height, right = p.x + p.width;
  if (!chart.title.empty()) {
    absl::StrAppend(&out, "<text class=\"chart-title\" x=\"", Num(l.title_box.x), "\" y=\"",
                    Num(l.title_box.y + kChartTitleFontPx), "\" font-size=\"",
                    Num(kChartTitleFontPx), "\" font-weight=\"bold\">", EscapeXml(chart.title),
                    "</text>");
  }
  // Grid and ticks.
  out += "<g class=\"grid\" stroke=\"#ddd\" stroke-width=\"1\">";
  for (const Tick& t : l.x_ticks) {
    absl::StrAppend(&out, "<line x1=\"", Num(t.px), "\" y1=\"", Num(p.y), "\" x2=\"", Num(t.px),
                    "\" y2=\"", Num(bottom), "\"/>");
  }
  for (const Tick& t : l.y_ticks) {
    absl::StrAppend(&out, "<line x1=\"", Num(p.x), "\" y1=\"", Num(t.px), "\" x2=\"", Num(right),
                    "\" y2=\"", Num(t.px), "\"",
                    t.major || chart.y.kind != AxisKind::kLog10 ? "" : " stroke-dasharray=\"2 3\"",
                    "/>");
  }
  out += "</g>";
  absl::StrAppend(&out, "<rect class=\"frame\" x=\"", Num(p.x), "\" y=\"", Num(p.y), "\" width=\"",
                  Num(p.width), "\" height=\"", Num(p.height),
                  "\" fill=\"none\" stroke=\"#555\"/>");
  out += "<g class=\"tick-labels\" fill=\"#222\">";
  for (const Tick& t : l.x_ticks) {
    if (t.label.empty()) continue;
    absl::StrAppend(&out, "<text class=\"tick-label\" x=\"", Num(t.px), "\" y=\"",
                    Num(bottom + 8 + f), "\" text-anchor=\"middle\">", EscapeXml(t.label),
                    "</text>");
  }
  for (const Tick& t : l.y_ticks) {
    if (t.label.empty()) continue;
    absl::StrAppend(&out, "<text class=\"tick-label\" x=\"", Num(p.x - 6), "\" y=\"",
                    Num(t.px + 0.35 * f), "\" text-anchor=\"end\">", EscapeXml(t.label), "</text>");
  }
  out += "</g>";
  absl::StrAppend(&out, "<text class=\"axis-title\" x=\"", Num(p.x + p.width / 2), "\" y=\"",
                  Num(l.x_title_box.y + f), "\" text-anchor=\"middle\">", EscapeXml(chart.x.title),
                  "</text>");
  const double ycx = l.y_title_box.x + f, ycy = p.y + p.height / 2;
  absl::StrAppend(&out, "<text class=\"axis-title\" x=\"", Num(ycx), "\" y=\"", Num(ycy),
                  "\" text-anchor=\"middle\" transform=\"rotate(-90 ", Num(ycx), " ", Num(ycy),
                  ")\">", EscapeXml(chart.y.title), "</text>");

  // Series.
  bool drew = false;
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const char* colour = kChartPalette[i % kChartPalette.size()];
    const char* dash = kDashes[i % kDashes.size()];
    std::string path, markers;
    bool pen_down = false;
    for (const auto& [x, y] : chart.series[i].points) {
      std::optional<double> px = l.x.ToPixel(x), py = l.y.ToPixel(y);
      if (!px || !py) {
        pen_down = false;
        continue;
      }
      const double cx = std::clamp(*px, p.x, right), cy = std::clamp(*py, p.y, bottom);
      absl::StrAppend(&path, pen_down ? "L" : "M", Num(cx), " ", Num(cy));
      pen_down = true;
      drew = true;
      if (chart.markers) Marker(static_cast<int>(i), cx, cy, colour, markers);
    }
    absl::StrAppend(&out, "<g class=\"series\" data-name=\"", EscapeXml(chart.series[i].name),
                    "\">");
    if (!path.empty()) {
      absl::StrAppend(&out, "<path d=\"", path, "\" fill=\"none\" stroke=\"", colour,
                      "\" stroke-width=\"2\"",
                      *dash ? absl::StrCat(" stroke-dasharray=\"", dash, "\"") : "",
                      " stroke-linejoin=\"round\"/>");
    }
    out += markers;
    out += "</g>";
  }
  if (!drew) {
    absl::StrAppend(&out, "<text class=\"no-data\" x=\"", Num(p.x + p.width / 2), "\" y=\"",
                    Num(p.y + p.height / 2),
                    "\" text-anchor=\"middle\" fill=\"#777\">no data</text>");
  }
  // Legend.
  out += "<g class=\"legend\">";
  for (const LegendEntry& e : l.legend) {
    const char* colour = kChartPalette[e.series % kChartPalette.size()];
    const char* dash = kDashes[e.series % kDashes.size()];
    const double cy = e.box.y + e.box.height / 2;
    absl::StrAppend(&out, "<line x1=\"", Num(e.box.x), "\" y1=\"", Num(cy), "\" x2=\"",
                    Num(e.box.x + 24), "\" y2=\"", Num(cy), "\" stroke=\"", colour,
                    "\" stroke-width=\"2\"",
                    *dash ? absl::StrCat(" stroke-dasharray=\"", dash, "\"") : "", "/>");
    if (chart.markers) Marker(e.series, e.box.x + 12, cy, colour, out);
    absl::StrAppend(&out, "<text class=\"legend-label\" x=\"", Num(e.box.x + 30), "\" y=\"",
                    Num(cy + 0.35 * f), "\">", EscapeXml(e.name), "</text>");
  }
  out += "</g></svg>";
  return out;
}

std::string EscapeXml(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string FormatLatencyNsShort(double ns) {
  struct Unit {
    double scale;
    const char* suffix;
  };
  static constexpr Unit kUnits[] = {{1e9, "s"}, {1e6, "ms"}, {1e3, "µs"}, {1, "ns"}};
  for (const Unit& u : kUnits) {
    if (ns >= u.scale || u.scale == 1) return absl::StrFormat("%.3g%s", ns / u.scale, u.suffix);
  }
  return "";
}

std::string FormatPercentileLabel(double p) { return absl::StrFormat("%.10g", p); }

std::string FormatSiShort(double value) {
  const double a = std::fabs(value);
  if (a >= 1e9) return absl::StrFormat("%.3gG", value / 1e9);
  if (a >= 1e6) return absl::StrFormat("%.3gM", value / 1e6);
  if (a >= 1e3) return absl::StrFormat("%.3gk", value / 1e3);
  return absl::StrFormat("%.3g", value);
}

}  // namespace azbench
