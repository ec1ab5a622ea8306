#include "report/svg.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

namespace tct::report::svg {
namespace {

bool finite(double v) { return std::isfinite(v); }

std::string num(double v) { return fmt::format("{:.1f}", v); }

std::string default_format(double v) { return fmt::format("{:g}", v); }

// A value -> pixel mapping on one axis.
struct Scale {
  double lo = 0, hi = 1;
  bool log = false;
  double px0 = 0, px1 = 1;
  double operator()(double v) const {
    double a = log ? std::log10(std::max(v, 1e-300)) : v;
    double l = log ? std::log10(lo) : lo;
    double h = log ? std::log10(hi) : hi;
    if (h == l) return (px0 + px1) / 2;
    return px0 + (a - l) / (h - l) * (px1 - px0);
  }
};

double nice_step(double raw) {
  if (!(raw > 0)) return 1;
  double p = std::pow(10.0, std::floor(std::log10(raw)));
  double f = raw / p;
  double n = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
  return n * p;
}

// The data range of an axis, widened to round numbers, honouring fixed min/max.
std::pair<double, double> domain(const Axis& axis, std::vector<double> values) {
  values.erase(
      std::remove_if(values.begin(), values.end(), [&](double v) { return !finite(v) || (axis.log && v <= 0); }),
      values.end());
  double lo = values.empty() ? (axis.log ? 1 : 0) : *std::min_element(values.begin(), values.end());
  double hi = values.empty() ? (axis.log ? 10 : 1) : *std::max_element(values.begin(), values.end());
  if (axis.include_zero && !axis.log) lo = std::min(lo, 0.0);
  if (finite(axis.min)) lo = axis.min;
  if (finite(axis.max)) hi = axis.max;
  if (axis.log) {
    if (hi <= lo) hi = lo * 10;
    // Widen to the 1-2-5 marks around the data.
    auto down = [](double v) {
      double p = std::pow(10.0, std::floor(std::log10(v)));
      for (double m : {5.0, 2.0, 1.0})
        if (m * p <= v * (1 + 1e-9)) return m * p;
      return p;
    };
    auto up = [](double v) {
      double p = std::pow(10.0, std::floor(std::log10(v)));
      for (double m : {1.0, 2.0, 5.0, 10.0})
        if (m * p >= v * (1 - 1e-9)) return m * p;
      return 10 * p;
    };
    if (!finite(axis.min)) lo = down(lo);
    if (!finite(axis.max)) hi = up(hi);
    return {lo, hi};
  }
  if (hi == lo) {
    double pad = lo == 0 ? 1 : std::fabs(lo) * 0.1;
    lo -= pad;
    hi += pad;
  }
  double step = nice_step((hi - lo) / 5);
  if (!finite(axis.min)) lo = std::floor(lo / step) * step;
  if (!finite(axis.max)) hi = std::ceil(hi / step) * step;
  return {lo, hi};
}

std::string fmt_tick(const Axis& axis, double v) { return axis.format ? axis.format(v) : default_format(v); }

std::string open_svg(const std::string& title, int w, int h) {
  return fmt::format(
      R"(<svg class="chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {} {}" width="{}" height="{}" role="img" aria-label="{}"><title>{}</title>)",
      w, h, w, h, escape_xml(title), escape_xml(title));
}

// Vertical grid lines and tick labels of a horizontal value axis at y = `base`.
std::string x_value_axis(const Axis& axis, const Scale& sx, double top, double base, int width) {
  std::string out;
  for (double t : ticks(sx.lo, sx.hi, axis.log)) {
    double x = sx(t);
    out += fmt::format(R"(<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>)", num(x), num(top), num(x), num(base));
    out += fmt::format(R"(<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>)", num(x), num(base + 14),
                       escape_xml(fmt_tick(axis, t)));
  }
  out += fmt::format(R"(<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>)", num(sx.px0), num(base), num(sx.px1),
                     num(base));
  if (!axis.label.empty())
    out += fmt::format(R"(<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>)",
                       num((sx.px0 + sx.px1) / 2), num(std::min<double>(base + 30, base + 30)), escape_xml(axis.label));
  (void)width;
  return out;
}

std::string tip(const std::string& text) { return text.empty() ? "" : "<title>" + escape_xml(text) + "</title>"; }

}  // namespace

std::string escape_xml(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 16);
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default:
        // Control characters other than tab/newline are not allowed in XML 1.0.
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r') out += "\xEF\xBF\xBD";
        else out += c;
    }
  }
  return out;
}

std::vector<double> ticks(double lo, double hi, bool log, int target) {
  std::vector<double> out;
  if (!finite(lo) || !finite(hi) || hi < lo) return out;
  if (log) {
    if (lo <= 0) return out;
    int d0 = static_cast<int>(std::floor(std::log10(lo) + 1e-9));
    int d1 = static_cast<int>(std::ceil(std::log10(hi) - 1e-9));
    int decades = d1 - d0;
    std::vector<double> mults = decades <= 1   ? std::vector<double>{1, 2, 5}
                                : decades <= 3 ? std::vector<double>{1, 3}
                                               : std::vector<double>{1};
    int every = decades > 8 ? 2 : 1;
    for (int d = d0; d <= d1; ++d) {
      if ((d - d0) % every) continue;
      for (double m : mults) {
        double v = m * std::pow(10.0, d);
        if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) out.push_back(v);
      }
    }
    return out;
  }
  double step = nice_step((hi - lo) / std::max(1, target));
  for (double v = std::ceil(lo / step - 1e-9) * step; v <= hi + step * 1e-9; v += step)
    out.push_back(std::fabs(v) < step * 1e-9 ? 0 : v);
  return out;
}

std::string line_chart(const LineChart& c) {
  const double left = 78, right = 16, top = 34, bottom = 46;
  const double W = c.width, H = c.height;
  std::vector<double> xs, ys;
  for (const auto& s : c.series)
    for (const auto& p : s.points) {
      xs.push_back(p.x);
      ys.push_back(p.y);
      ys.push_back(p.low);
      ys.push_back(p.high);
    }
  for (const auto& l : c.hlines) ys.push_back(l.value);
  for (const auto& l : c.vlines) xs.push_back(l.value);

  const bool categorical = !c.x.categories.empty();
  Scale sx{0, 1, c.x.log, left, W - right};
  if (categorical) {
    double n = static_cast<double>(c.x.categories.size());
    sx = Scale{-0.5, n - 0.5, false, left, W - right};
  } else {
    auto [lo, hi] = domain(c.x, xs);
    sx = Scale{lo, hi, c.x.log, left, W - right};
  }
  auto [ylo, yhi] = domain(c.y, ys);
  Scale sy{ylo, yhi, c.y.log, H - bottom, top};

  std::string out = open_svg(c.title, c.width, c.height);
  // y grid and ticks
  for (double t : ticks(ylo, yhi, c.y.log)) {
    double y = sy(t);
    out += fmt::format(R"(<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>)", num(left), num(y), num(W - right),
                       num(y));
    out += fmt::format(R"(<text class="tick" x="{}" y="{}" text-anchor="end">{}</text>)", num(left - 6), num(y + 4),
                       escape_xml(fmt_tick(c.y, t)));
  }
  if (!c.y.label.empty())
    out += fmt::format(
        R"x(<text class="axis-label" transform="translate(14 {}) rotate(-90)" text-anchor="middle">{}</text>)x",
        num((top + H - bottom) / 2), escape_xml(c.y.label));
  // x axis
  if (categorical) {
    for (size_t i = 0; i < c.x.categories.size(); ++i) {
      double x = sx(static_cast<double>(i));
      out += fmt::format(R"(<line class="grid" x1="{}" y1="{}" x2="{}" y2="{}"/>)", num(x), num(top), num(x),
                         num(H - bottom));
      out += fmt::format(R"(<text class="tick" x="{}" y="{}" text-anchor="middle">{}</text>)", num(x),
                         num(H - bottom + 14), escape_xml(c.x.categories[i]));
    }
    out += fmt::format(R"(<line class="axis" x1="{}" y1="{}" x2="{}" y2="{}"/>)", num(left), num(H - bottom),
                       num(W - right), num(H - bottom));
    if (!c.x.label.empty())
      out += fmt::format(R"(<text class="axis-label" x="{}" y="{}" text-anchor="middle">{}</text>)",
                         num((left + W - right) / 2), num(H - bottom + 32), escape_xml(c.x.label));
  } else {
    out += x_value_axis(c.x, sx, top, H - bottom, c.width);
  }
  auto inside_y = [&](double v) { return finite(v) && (!c.y.log || v > 0); };
  auto inside_x = [&](double v) { return finite(v) && (!c.x.log || v > 0); };

  // reference lines under the data
  for (const auto& l : c.hlines) {
    if (!inside_y(l.value)) continue;
    double y = sy(l.value);
    out += fmt::format(
        R"(<g class="refline {}"><line x1="{}" y1="{}" x2="{}" y2="{}"/><text x="{}" y="{}" text-anchor="{}">{}</text></g>)",
        escape_xml(l.css_class), num(left), num(y), num(W - right), num(y),
        num(l.label_left ? left + 4 : W - right - 4), num(y - 4), l.label_left ? "start" : "end", escape_xml(l.label));
  }
  for (const auto& l : c.vlines) {
    if (!inside_x(l.value)) continue;
    double x = sx(l.value);
    out +=
        fmt::format(R"(<g class="refline {}"><line x1="{}" y1="{}" x2="{}" y2="{}"/><text x="{}" y="{}">{}</text></g>)",
                    escape_xml(l.css_class), num(x), num(top), num(x), num(H - bottom), num(x + 4), num(top + 10),
                    escape_xml(l.label));
  }
  // series
  for (const auto& s : c.series) {
    out += fmt::format(R"(<g class="series {}">)", escape_xml(s.css_class));
    if (s.band) {
      std::string upper, lower;
      for (const auto& p : s.points)
        if (inside_x(p.x) && inside_y(p.low) && inside_y(p.high)) {
          upper += num(sx(p.x)) + "," + num(sy(p.high)) + " ";
          lower = num(sx(p.x)) + "," + num(sy(p.low)) + " " + lower;
        }
      if (!upper.empty()) out += fmt::format(R"(<polygon class="band" points="{}{}"/>)", upper, lower);
      // A band of one point is a vertical bar.
      for (const auto& p : s.points)
        if (s.points.size() == 1 && inside_y(p.low) && inside_y(p.high))
          out += fmt::format(R"(<rect class="band" x="{}" y="{}" width="12" height="{}"/>)", num(sx(p.x) - 6),
                             num(sy(p.high)), num(std::max(1.0, sy(p.low) - sy(p.high))));
    }
    if (s.line) {
      std::string pts;
      for (const auto& p : s.points)
        if (inside_x(p.x) && inside_y(p.y)) pts += num(sx(p.x)) + "," + num(sy(p.y)) + " ";
      if (!pts.empty()) out += fmt::format(R"(<polyline class="line" points="{}"/>)", pts);
    }
    for (const auto& p : s.points) {
      if (!inside_x(p.x)) continue;
      double x = sx(p.x);
      if (!s.band && inside_y(p.low) && inside_y(p.high))
        out += fmt::format(R"(<path class="errbar" d="M{0} {1}V{2}M{3} {1}H{4}M{3} {2}H{4}"/>)", num(x), num(sy(p.low)),
                           num(sy(p.high)), num(x - 4), num(x + 4));
      if (s.markers && inside_y(p.y))
        out += fmt::format(R"(<circle class="marker" cx="{}" cy="{}" r="3">{}</circle>)", num(x), num(sy(p.y)),
                           tip(p.tip));
      else if (s.band && !p.tip.empty() && inside_y(p.high))
        out += fmt::format(R"(<circle class="hover" cx="{}" cy="{}" r="6">{}</circle>)", num(x), num(sy(p.high)),
                           tip(p.tip));
    }
    out += "</g>";
  }
  // legend, top left, one entry per named series
  double lx = left;
  for (const auto& s : c.series) {
    if (s.name.empty()) continue;
    out += fmt::format(
        R"(<g class="legend series {}"><rect x="{}" y="10" width="12" height="12"/><text x="{}" y="20">{}</text></g>)",
        escape_xml(s.css_class), num(lx), num(lx + 16), escape_xml(s.name));
    lx += 30 + 7.0 * static_cast<double>(s.name.size());
  }
  return out + "</svg>";
}

std::string box_plot(const BoxPlot& p) {
  const double label_w = 170, right = 20, top = 10, row_h = 36, bottom = 46;
  const double W = p.width;
  const double H = top + row_h * static_cast<double>(p.boxes.size()) + bottom;
  // A robust axis: the whiskers and the samples' p1..p99, never min and max. One outlier on a
  // shared machine would otherwise stretch the axis until every box is a couple of pixels
  // wide; what lies beyond is marked at the edge instead.
  std::vector<double> values;
  for (const auto& b : p.boxes) {
    for (double v : {b.p05, b.p25, b.median, b.p75, b.p95}) values.push_back(v);
    std::vector<double> s = b.samples;
    s.erase(std::remove_if(s.begin(), s.end(), [](double v) { return !finite(v); }), s.end());
    std::sort(s.begin(), s.end());
    if (!s.empty())
      for (double q : {0.01, 0.99}) values.push_back(s[static_cast<size_t>(q * static_cast<double>(s.size() - 1))]);
  }
  auto [lo, hi] = domain(p.x, values);
  Scale sx{lo, hi, p.x.log, label_w, W - right};
  auto inside = [&](double v) { return v >= lo && v <= hi; };
  std::string out = open_svg(p.title, p.width, static_cast<int>(H));
  out += x_value_axis(p.x, sx, top, H - bottom, p.width);
  auto ok = [&](double v) { return finite(v) && (!p.x.log || v > 0); };
  for (size_t i = 0; i < p.boxes.size(); ++i) {
    const Box& b = p.boxes[i];
    double cy = top + row_h * (static_cast<double>(i) + 0.5);
    out += fmt::format(R"(<g class="series {}"><text class="row-label" x="{}" y="{}" text-anchor="end">{}</text>)",
                       escape_xml(b.css_class), num(label_w - 8), num(cy + 4), escape_xml(b.label));
    // raw samples: a faint strip, deterministic vertical jitter so the file is reproducible
    size_t k = 0;
    size_t stride = std::max<size_t>(1, b.samples.size() / 400);
    for (size_t j = 0; j < b.samples.size(); j += stride, ++k)
      if (ok(b.samples[j]) && inside(b.samples[j]))
        out += fmt::format(R"(<circle class="sample" cx="{}" cy="{}" r="1.5"/>)", num(sx(b.samples[j])),
                           num(cy - 12 + static_cast<double>((k * 7919) % 25)));
    size_t below = 0, above = 0;
    for (double v : b.samples) {
      if (ok(v) && v < lo) ++below;
      if (ok(v) && v > hi) ++above;
    }
    if (ok(b.p05) && ok(b.p95))
      out += fmt::format(R"(<path class="whisker" d="M{0} {1}H{2}M{0} {3}V{4}M{2} {3}V{4}"/>)", num(sx(b.p05)), num(cy),
                         num(sx(b.p95)), num(cy - 6), num(cy + 6));
    if (ok(b.p25) && ok(b.p75)) {
      std::string t =
          "p25 " + fmt_tick(p.x, b.p25) + ", median " + fmt_tick(p.x, b.median) + ", p75 " + fmt_tick(p.x, b.p75);
      out += fmt::format(R"(<rect class="box" x="{}" y="{}" width="{}" height="20">{}</rect>)", num(sx(b.p25)),
                         num(cy - 10), num(std::max(1.0, sx(b.p75) - sx(b.p25))), tip(t));
    }
    if (ok(b.median))
      out += fmt::format(R"(<line class="median" x1="{0}" y1="{1}" x2="{0}" y2="{2}"/>)", num(sx(b.median)),
                         num(cy - 12), num(cy + 12));
    for (double v : {b.min, b.max}) {
      if (!ok(v)) continue;
      const std::string what = (v == b.min ? "min " : "max ") + fmt_tick(p.x, v);
      if (inside(v)) {
        out += fmt::format(R"(<circle class="extreme" cx="{}" cy="{}" r="2.5">{}</circle>)", num(sx(v)), num(cy),
                           tip(what));
        continue;
      }
      // Off the axis: an arrowhead at the edge, pointing the way the outlier lies.
      const bool right_edge = v > hi;
      const size_t n = right_edge ? above : below;
      const double x = right_edge ? W - right : label_w, d = right_edge ? 7 : -7;
      out += fmt::format(R"(<path class="outlier-edge" d="M{} {}L{} {}L{} {}Z">{}</path>)", num(x - d), num(cy - 6),
                         num(x), num(cy), num(x - d), num(cy + 6),
                         tip(what + " (off the axis" + (n > 0 ? fmt::format(", {} sample(s) beyond", n) : "") + ")"));
    }
    out += "</g>";
  }
  return out + "</svg>";
}

std::string bar_chart(const BarChart& c) {
  const double label_w = 230, right = 230, top = 24, row_h = 30, bottom = 46;
  const double W = c.width;
  const double H = top + row_h * static_cast<double>(c.bars.size()) + bottom;
  std::vector<double> values;
  for (const auto& b : c.bars) {
    values.push_back(b.value);
    values.push_back(b.low);
    values.push_back(b.high);
  }
  values.push_back(c.reference);
  Axis axis = c.x;
  auto [lo, hi] = domain(axis, values);
  Scale sx{lo, hi, axis.log, label_w, W - right};
  std::string out = open_svg(c.title, c.width, static_cast<int>(H));
  out += x_value_axis(axis, sx, top, H - bottom, c.width);
  auto ok = [&](double v) { return finite(v) && (!axis.log || v > 0); };
  double base = ok(c.reference) ? sx(c.reference) : sx(lo);
  for (size_t i = 0; i < c.bars.size(); ++i) {
    const Bar& b = c.bars[i];
    double cy = top + row_h * (static_cast<double>(i) + 0.5);
    out += fmt::format(R"(<g class="bar {}"><text class="row-label" x="{}" y="{}" text-anchor="end">{}</text>)",
                       escape_xml(b.css_class), num(label_w - 8), num(cy + 4), escape_xml(b.label));
    double end_x = base;
    if (ok(b.value)) {
      double x = sx(b.value);
      out += fmt::format(R"(<rect class="fill" x="{}" y="{}" width="{}" height="16">{}</rect>)", num(std::min(x, base)),
                         num(cy - 8), num(std::max(1.0, std::fabs(x - base))), tip(b.tip));
      end_x = std::max(x, base);
    }
    if (ok(b.low) && ok(b.high)) {
      out += fmt::format(R"(<path class="errbar" d="M{0} {1}H{2}M{0} {3}V{4}M{2} {3}V{4}"/>)", num(sx(b.low)), num(cy),
                         num(sx(b.high)), num(cy - 5), num(cy + 5));
      end_x = std::max(end_x, sx(b.high));
    }
    out += fmt::format(R"(<text class="annotation" x="{}" y="{}">{}</text></g>)",
                       num(std::min(end_x + 6, W - right + 4)), num(cy + 4), escape_xml(b.annotation));
  }
  if (ok(c.reference))
    out += fmt::format(
        R"(<g class="refline ref"><line x1="{0}" y1="{1}" x2="{0}" y2="{2}"/><text x="{0}" y="{3}" text-anchor="middle">{4}</text></g>)",
        num(base), num(top - 6), num(H - bottom), num(top - 10), escape_xml(c.reference_label));
  return out + "</svg>";
}

}  // namespace tct::report::svg
