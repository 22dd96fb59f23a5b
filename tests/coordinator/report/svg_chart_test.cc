#include "coordinator/report/svg_chart.h"

#include <cmath>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace azbench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;

// The mantissa of a positive step: 1, 2 or 5 for a nice one.
double Mantissa(double step) {
  const double m = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  return std::round(m * 1000) / 1000;
}

TEST(NiceLinearTicksTest, CoverTheRangeWithStepsOfOneTwoOrFiveTimesAPowerOfTen) {
  EXPECT_THAT(NiceLinearTicks(0, 87, 6), ElementsAre(0, 20, 40, 60, 80, 100));
  EXPECT_THAT(NiceLinearTicks(0.13, 0.61, 6), ElementsAre(0, 0.2, 0.4, 0.6, 0.8));
  EXPECT_THAT(NiceLinearTicks(-0.1, 0.1, 2), ElementsAre(-0.1, 0, 0.1));
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> exponent(-6, 9), frac(0, 1);
  for (int i = 0; i < 2000; ++i) {
    const double scale = std::pow(10.0, exponent(rng));
    const double lo = frac(rng) * scale, hi = lo + frac(rng) * scale + scale * 1e-3;
    const int max_ticks = 2 + i % 9;
    const std::vector<double> ticks = NiceLinearTicks(lo, hi, max_ticks);
    ASSERT_GE(ticks.size(), 2u);
    ASSERT_LE(static_cast<int>(ticks.size()), std::max(max_ticks, 3)) << lo << ".." << hi;
    EXPECT_LE(ticks.front(), lo * (1 + 1e-9));
    EXPECT_GE(ticks.back(), hi * (1 - 1e-9));
    const double step = ticks[1] - ticks[0];
    EXPECT_THAT((std::set<double>{1, 2, 5, 10}), ::testing::Contains(Mantissa(step)))
        << "step " << step;
    for (size_t t = 1; t < ticks.size(); ++t) {
      EXPECT_NEAR(ticks[t] - ticks[t - 1], step, step * 1e-6);
    }
  }
}

TEST(NiceLinearTicksTest, AnEmptyRangeGetsAWidthAroundItsValue) {
  const std::vector<double> ticks = NiceLinearTicks(5, 5, 6);
  EXPECT_LT(ticks.front(), 5);
  EXPECT_GT(ticks.back(), 5);
}

TEST(LogTicksTest, DecadesCoverTheRangeAndShortRangesGetTwoAndFive) {
  EXPECT_THAT(LogTicks(3e3, 2e7), ElementsAre(1e3, 1e4, 1e5, 1e6, 1e7, 1e8));
  EXPECT_THAT(LogTicks(150, 900), ElementsAre(100, 200, 500, 1000));
  EXPECT_THAT(LogTicks(1000, 1000), ElementsAre(1000, 2000, 5000, 10000));
}

TEST(NinesTicksTest, AreZeroThenNinetyAndEachFurtherNine) {
  EXPECT_THAT(NinesTicks(99.99), ElementsAre(0, 90, 99, 99.9, 99.99));
  EXPECT_THAT(NinesTicks(99), ElementsAre(0, 90, 99));
}

TEST(ScaleTest, LinearMapsTheDomainEndsToThePixelEnds) {
  const Scale s(AxisKind::kLinear, 0, 200, 50, 450);
  EXPECT_DOUBLE_EQ(*s.ToPixel(0), 50);
  EXPECT_DOUBLE_EQ(*s.ToPixel(200), 450);
  EXPECT_DOUBLE_EQ(*s.ToPixel(50), 150);
  // A y axis runs from the bottom pixel up.
  const Scale y(AxisKind::kLinear, 0, 10, 300, 20);
  EXPECT_DOUBLE_EQ(*y.ToPixel(10), 20);
}

TEST(ScaleTest, LogSpacesDecadesEquallyAndCannotDrawZeroOrLess) {
  const Scale s(AxisKind::kLog10, 1e3, 1e6, 0, 300);
  EXPECT_NEAR(*s.ToPixel(1e3), 0, 1e-9);
  EXPECT_NEAR(*s.ToPixel(1e4), 100, 1e-9);
  EXPECT_NEAR(*s.ToPixel(1e5), 200, 1e-9);
  EXPECT_NEAR(*s.ToPixel(std::sqrt(1e3 * 1e4)), 50, 1e-9);
  EXPECT_FALSE(s.ToPixel(0).has_value());
  EXPECT_FALSE(s.ToPixel(-5).has_value());
  EXPECT_FALSE(s.ToPixel(std::nan("")).has_value());
}

TEST(ScaleTest, TheNinesAxisSpacesNinetyNinetyNineAndNinetyNinePointNineEqually) {
  const Scale s(AxisKind::kNines, 0, 99.99, 0, 400);
  EXPECT_NEAR(*s.ToPixel(0), 0, 1e-9);
  EXPECT_NEAR(*s.ToPixel(90), 100, 1e-9);
  EXPECT_NEAR(*s.ToPixel(99), 200, 1e-9);
  EXPECT_NEAR(*s.ToPixel(99.9), 300, 1e-9);
  EXPECT_NEAR(*s.ToPixel(99.99), 400, 1e-6);
  // The median sits at -log10(0.5) = 0.301 of the first step.
  EXPECT_NEAR(*s.ToPixel(50), 100 * std::log10(2.0), 1e-9);
  // p = 100 cannot be drawn at infinity: it is clamped to the axis end region.
  EXPECT_TRUE(std::isfinite(*s.ToPixel(100)));
}

TEST(ThinTickLabelsTest, KeptLabelsNeverOverlapAndTheEndsAreKept) {
  std::vector<Tick> ticks;
  for (int i = 0; i <= 100; ++i) {
    ticks.push_back(Tick{static_cast<double>(i), 10.0 + i * 4.0, std::to_string(i * 1000), false});
  }
  ThinTickLabels(ticks, 12, /*horizontal=*/true);
  EXPECT_EQ(ticks.front().label, "0");
  EXPECT_EQ(ticks.back().label, "100000");
  std::vector<Box> kept;
  for (const Tick& t : ticks) {
    if (t.label.empty()) continue;
    const double w = TextWidth(t.label, 12);
    kept.push_back(Box{t.px - w / 2, 0, w, 14.4});
  }
  EXPECT_GT(kept.size(), 3u);
  EXPECT_LT(kept.size(), ticks.size());
  for (size_t i = 0; i < kept.size(); ++i) {
    for (size_t j = i + 1; j < kept.size(); ++j) {
      EXPECT_FALSE(kept[i].Overlaps(kept[j])) << i << " " << j;
    }
  }
}

TEST(ThinTickLabelsTest, MajorTicksWinOverMinorOnes) {
  // Decades are major; 2 and 5 are minor and squeezed in between.
  std::vector<Tick> ticks = {{100, 0, "100ns", true},   {200, 9, "200ns", false},
                             {500, 21, "500ns", false}, {1000, 30, "1µs", true},
                             {2000, 39, "2µs", false},  {5000, 51, "5µs", false},
                             {10000, 60, "10µs", true}};
  ThinTickLabels(ticks, 12, /*horizontal=*/false);
  EXPECT_EQ(ticks[0].label, "100ns");
  EXPECT_EQ(ticks[3].label, "1µs");
  EXPECT_EQ(ticks[6].label, "10µs");
  EXPECT_EQ(ticks[1].label, "");
  EXPECT_EQ(ticks[2].label, "");
}

LineChart LatencyChart() {
  LineChart chart;
  chart.title = "read latency";
  chart.x = MakeAxis("percentile", AxisKind::kNines, FormatPercentileLabel);
  chart.y = MakeAxis("latency", AxisKind::kLog10, FormatLatencyNsShort);
  chart.series.push_back({"efs", {{0, 1500}, {50, 2100}, {99, 9e5}, {99.9, 2.1e6}}});
  chart.series.push_back({"fsx <openzfs> & co", {{0, 800}, {99.9, 1e6}}});
  return chart;
}

TEST(LayoutLineChartTest, ALogAxisIsWidenedToWholeDecadesAndTheNinesAxisToTheNextNine) {
  const ChartLayout layout = LayoutLineChart(LatencyChart());
  EXPECT_DOUBLE_EQ(layout.y.lo(), 100);
  EXPECT_DOUBLE_EQ(layout.y.hi(), 1e7);
  EXPECT_DOUBLE_EQ(layout.x.lo(), 0);
  EXPECT_DOUBLE_EQ(layout.x.hi(), 99.9);
  std::vector<std::string> labels;
  for (const Tick& t : layout.x_ticks) labels.push_back(t.label);
  EXPECT_THAT(labels, ElementsAre("0", "90", "99", "99.9"));
  labels.clear();
  for (const Tick& t : layout.y_ticks) labels.push_back(t.label);
  EXPECT_THAT(labels, ElementsAre("100ns", "1µs", "10µs", "100µs", "1ms", "10ms"));
}

TEST(LayoutLineChartTest, NoTwoTextsOfAChartOverlapEvenWithManyTicksAndLongNames) {
  LineChart chart;
  chart.title = "sweep";
  chart.x = MakeAxis("block size", AxisKind::kLog2,
                     [](double v) { return std::to_string(static_cast<long long>(v)) + " bytes"; });
  chart.y = MakeAxis("MiB/s", AxisKind::kLinear, FormatSiShort, true);
  for (double v = 512; v <= 64 * 1048576.0; v *= 2) chart.x.ticks.push_back(v);
  for (int s = 0; s < 9; ++s) {
    chart.series.push_back({"a rather long target name number " + std::to_string(s),
                            {{512, 10.0 * s}, {64 * 1048576.0, 1000.0 + s}}});
  }
  const ChartLayout l = LayoutLineChart(chart);
  std::vector<Box> boxes;
  for (const Tick& t : l.x_ticks) {
    if (t.label.empty()) continue;
    const double w = TextWidth(t.label, kChartFontPx);
    boxes.push_back(Box{t.px - w / 2, l.plot.y + l.plot.height + 8, w, 1.2 * kChartFontPx});
  }
  for (const Tick& t : l.y_ticks) {
    if (t.label.empty()) continue;
    const double w = TextWidth(t.label, kChartFontPx);
    boxes.push_back(Box{l.plot.x - 6 - w, t.px - 0.6 * kChartFontPx, w, 1.2 * kChartFontPx});
  }
  for (const LegendEntry& e : l.legend) boxes.push_back(e.box);
  boxes.push_back(l.title_box);
  boxes.push_back(l.x_title_box);
  boxes.push_back(l.y_title_box);
  for (size_t i = 0; i < boxes.size(); ++i) {
    EXPECT_GE(boxes[i].x, 0) << i;
    EXPECT_LE(boxes[i].x + boxes[i].width, l.width + 0.01) << i;
    EXPECT_LE(boxes[i].y + boxes[i].height, l.height + 0.01) << i;
    for (size_t j = i + 1; j < boxes.size(); ++j) {
      EXPECT_FALSE(boxes[i].Overlaps(boxes[j])) << "boxes " << i << " and " << j;
    }
  }
  // Nine legend entries of this length cannot share one row of 520 px.
  EXPECT_GT(l.legend.back().box.y, l.legend.front().box.y);
}

TEST(RenderLineChartTest, IsAScalableSvgWithOneGroupPerSeriesAndEscapedText) {
  const std::string svg = RenderLineChart(LatencyChart());
  EXPECT_THAT(svg, HasSubstr("<svg class=\"chart\""));
  EXPECT_THAT(svg, HasSubstr("viewBox=\"0 0 "));
  EXPECT_THAT(svg, HasSubstr("<title>read latency</title>"));
  EXPECT_THAT(svg, HasSubstr("data-name=\"efs\""));
  EXPECT_THAT(svg, HasSubstr("fsx &lt;openzfs&gt; &amp; co"));
  EXPECT_THAT(svg, Not(HasSubstr("<openzfs>")));
  EXPECT_THAT(svg, Not(HasSubstr("nan")));
  EXPECT_THAT(svg, Not(HasSubstr("inf")));
  EXPECT_THAT(svg, HasSubstr(kChartPalette[0]));
  EXPECT_THAT(svg, HasSubstr(kChartPalette[1]));
  EXPECT_THAT(svg, HasSubstr("stroke-dasharray"));  // the second series is dashed
  EXPECT_THAT(svg, Not(HasSubstr("no data")));
}

TEST(RenderLineChartTest, PointsThatCannotBeDrawnBreakTheLineAndAnEmptyChartSaysSo) {
  LineChart chart;
  chart.x = MakeAxis("x", AxisKind::kLinear);
  chart.y = MakeAxis("y", AxisKind::kLog10);
  chart.series.push_back({"s", {{1, 10}, {2, 0}, {3, 100}}});
  const std::string svg = RenderLineChart(chart);
  // Two separate moves: the zero on the log axis lifts the pen.
  size_t moves = 0;
  const size_t path = svg.find("<path d=\"");
  ASSERT_NE(path, std::string::npos);
  for (size_t i = path + 9; svg[i] != '"'; ++i) moves += svg[i] == 'M';
  EXPECT_EQ(moves, 2u);

  LineChart empty;
  empty.x = MakeAxis("x", AxisKind::kLinear);
  empty.y = MakeAxis("y", AxisKind::kLog10);
  empty.series.push_back({"nothing", {}});
  EXPECT_THAT(RenderLineChart(empty), HasSubstr("no data"));
}

// Every kept tick label box, the titles and the legend entries of a layout.
std::vector<Box> TextBoxes(const ChartLayout& l) {
  std::vector<Box> boxes;
  for (const Tick& t : l.x_ticks) {
    if (t.label.empty()) continue;
    const double w = TextWidth(t.label, kChartFontPx);
    boxes.push_back(Box{t.px - w / 2, l.plot.y + l.plot.height + 8, w, 1.2 * kChartFontPx});
  }
  for (const Tick& t : l.y_ticks) {
    if (t.label.empty()) continue;
    const double w = TextWidth(t.label, kChartFontPx);
    boxes.push_back(Box{l.plot.x - 6 - w, t.px - 0.6 * kChartFontPx, w, 1.2 * kChartFontPx});
  }
  for (const LegendEntry& e : l.legend) boxes.push_back(e.box);
  boxes.push_back(l.x_title_box);
  boxes.push_back(l.y_title_box);
  return boxes;
}

TEST(LayoutLineChartTest, RandomChartsHaveFiniteCoordinatesAndNoOverlappingTexts) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> unit(0, 1);
  const AxisKind kinds[] = {AxisKind::kLinear, AxisKind::kLog10, AxisKind::kLog2};
  for (int round = 0; round < 300; ++round) {
    LineChart chart;
    chart.title = "random";
    chart.x = MakeAxis("x", round % 4 == 3 ? AxisKind::kNines : kinds[round % 3], FormatSiShort);
    chart.y = MakeAxis("y", kinds[(round / 3) % 3], FormatLatencyNsShort, round % 2 == 0);
    const double scale = std::pow(10.0, unit(rng) * 12 - 3);
    const int series = 1 + round % 6;
    for (int s = 0; s < series; ++s) {
      ChartSeries cs{"series " + std::to_string(s), {}};
      const int points = round % 7;  // includes empty series
      for (int p = 0; p < points; ++p) {
        const double x =
            chart.x.kind == AxisKind::kNines ? unit(rng) * 99.99 : 1 + unit(rng) * scale;
        cs.points.emplace_back(x, unit(rng) < 0.1 ? 0 : unit(rng) * scale);
      }
      chart.series.push_back(std::move(cs));
    }
    const ChartLayout l = LayoutLineChart(chart);
    ASSERT_TRUE(std::isfinite(l.height) && l.height > 0);
    const std::vector<Box> boxes = TextBoxes(l);
    for (size_t i = 0; i < boxes.size(); ++i) {
      for (size_t j = i + 1; j < boxes.size(); ++j) {
        ASSERT_FALSE(boxes[i].Overlaps(boxes[j])) << "round " << round << ": " << i << ", " << j;
      }
    }
    const std::string svg = RenderLineChart(chart);
    ASSERT_THAT(svg, Not(HasSubstr("nan"))) << round;
    ASSERT_THAT(svg, Not(HasSubstr("inf"))) << round;
  }
}

TEST(PaletteTest, HasEightDistinctColours) {
  std::set<std::string> colours(kChartPalette.begin(), kChartPalette.end());
  EXPECT_EQ(colours.size(), 8u);
}

TEST(FormatTest, ShortLabels) {
  EXPECT_EQ(FormatLatencyNsShort(800), "800ns");
  EXPECT_EQ(FormatLatencyNsShort(1000), "1µs");
  EXPECT_EQ(FormatLatencyNsShort(2.5e6), "2.5ms");
  EXPECT_EQ(FormatLatencyNsShort(3e9), "3s");
  EXPECT_EQ(FormatPercentileLabel(99.99), "99.99");
  EXPECT_EQ(FormatSiShort(1500), "1.5k");
  EXPECT_EQ(FormatSiShort(2e9), "2G");
  EXPECT_EQ(FormatSiShort(12), "12");
  EXPECT_EQ(EscapeXml("a<b>&\"'"), "a&lt;b&gt;&amp;&quot;&#39;");
}

}  // namespace
}  // namespace azbench
