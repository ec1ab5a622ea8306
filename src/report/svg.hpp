#pragma once
// Charts as inline SVG strings, for the self-contained HTML report: no JavaScript library,
// no network, nothing computed but layout. Every label goes through escape_xml. Tooltips
// are SVG <title> elements (the browser shows them on hover, no script needed).
//
// Pure functions: data in, markup out. NaN values are skipped (a missing number draws
// nothing rather than a point at zero).
#include <functional>
#include <string>
#include <vector>

namespace tct::report::svg {

// & < > " ' -> entities. Safe in element content and in quoted attributes.
std::string escape_xml(const std::string& text);

struct Axis {
  std::string label;
  bool log = false;                           // log10 scale (warm-up curves: the first call is 1000x the rest)
  std::function<std::string(double)> format;  // tick labels; default: %g
  double min = 0.0 / 0.0;                     // NaN: from the data
  double max = 0.0 / 0.0;
  bool include_zero = false;
  // Categorical x axis: value i is drawn at slot i with this label (sweep points).
  std::vector<std::string> categories;
};

struct Point {
  double x = 0, y = 0;
  double low = 0.0 / 0.0, high = 0.0 / 0.0;  // error bar (NaN: none)
  std::string tip;                           // hover text
};

struct Series {
  std::string name;       // legend
  std::string css_class;  // colour: "eager", "compiled", "predicted", "measured", ...
  std::vector<Point> points;
  bool line = true;
  bool markers = true;
  bool band = false;  // draw the low..high range as a filled band instead of a line
};

struct RefLine {
  double value = 0;
  std::string label;
  std::string css_class;    // "ref", "eager", "steady"
  bool label_left = false;  // put the label at the start of the line (two close lines)
};

struct LineChart {
  std::string title;  // the <svg>'s accessible name
  Axis x, y;
  std::vector<Series> series;
  std::vector<RefLine> hlines, vlines;
  int width = 560, height = 300;
};

std::string line_chart(const LineChart& chart);

// One horizontal box per row: whiskers p05..p95, box p25..p75, median tick, min/max dots.
struct Box {
  std::string label;
  std::string css_class;
  double min = 0.0 / 0.0, p05 = 0.0 / 0.0, p25 = 0.0 / 0.0, median = 0.0 / 0.0, p75 = 0.0 / 0.0, p95 = 0.0 / 0.0,
         max = 0.0 / 0.0;
  std::vector<double> samples;  // drawn as a faint strip when present (--raw)
};

struct BoxPlot {
  std::string title;
  Axis x;
  std::vector<Box> boxes;
  int width = 560;
};

std::string box_plot(const BoxPlot& plot);

// Horizontal bars for estimates with intervals (speedup per backend/mode row), with a
// reference line (1x: as fast as eager).
struct Bar {
  std::string label;
  double value = 0.0 / 0.0, low = 0.0 / 0.0, high = 0.0 / 0.0;
  std::string css_class;  // "faster", "slower", "unsure", "failed"
  std::string tip;
  std::string annotation;  // text right of the bar ("1.52x [1.48, 1.56]")
};

struct BarChart {
  std::string title;
  Axis x;
  std::vector<Bar> bars;
  double reference = 0.0 / 0.0;
  std::string reference_label;
  int width = 1100;
};

std::string bar_chart(const BarChart& chart);

// Tick positions for [lo, hi]: "nice" steps (1, 2, 5 x 10^k) on a linear axis; powers of
// ten (and 2x, 5x when few decades) on a log axis. Exposed for tests.
std::vector<double> ticks(double lo, double hi, bool log, int target = 5);

}  // namespace tct::report::svg
