#include "report/format.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

namespace tct::report {

std::string format_duration(Nanoseconds d) { return format_duration_ns(d.count()); }

std::string format_duration_ns(double ns) {
  if (!std::isfinite(ns)) return "n/a";
  const double a = std::fabs(ns);
  // Each unit up to 999.5 of it: three significant figures of 999.6 ms would print "1e+03 ms".
  if (a < 999.5) return fmt::format("{:.0f} ns", ns);
  if (a < 999.5e3) return fmt::format("{:.3g} us", ns / 1e3);
  if (a < 999.5e6) return fmt::format("{:.3g} ms", ns / 1e6);
  if (a < 999.5e9) return fmt::format("{:.3g} s", ns / 1e9);
  return fmt::format("{:.0f} s", ns / 1e9);  // suite totals: "1860 s", not "1.86e+03 s"
}

std::string format_bytes(double b) {
  if (!std::isfinite(b)) return "n/a";
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  double v = b;
  while (std::fabs(v) >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return u == 0 ? fmt::format("{:.0f} B", v) : fmt::format("{:.1f} {}", v, units[u]);
}

std::string format_ratio(double r) {
  if (!std::isfinite(r)) return "n/a";
  return fmt::format("{:.2f}x", r);
}

std::string format_percent(double f) {
  if (!std::isfinite(f)) return "n/a";
  return fmt::format("{:.1f}%", f * 100);
}

std::string format_speedup_interval(const nlohmann::json& s) {
  return format_speedup_interval(
      stats::Interval{number_or_nan(s, "estimate"), number_or_nan(s, "low"), number_or_nan(s, "high")});
}

std::string format_speedup_interval(const stats::Interval& s) {
  if (!std::isfinite(s.estimate)) return "n/a";
  if (!std::isfinite(s.low) || !std::isfinite(s.high)) return format_ratio(s.estimate) + " [interval n/a]";
  return fmt::format("{} [{:.2f}, {:.2f}]", format_ratio(s.estimate), s.low, s.high);
}

std::string format_change_interval(const nlohmann::json& r) {
  return format_change_interval(
      stats::Interval{number_or_nan(r, "estimate"), number_or_nan(r, "low"), number_or_nan(r, "high")});
}

std::string format_change_interval(const stats::Interval& r) {
  auto pct = [](double x) { return fmt::format("{:+.1f}%", (x - 1) * 100); };
  if (!std::isfinite(r.estimate)) return "n/a";
  if (!std::isfinite(r.low) || !std::isfinite(r.high)) return pct(r.estimate) + " [interval n/a]";
  return fmt::format("{} [{}, {}]", pct(r.estimate), pct(r.low), pct(r.high));
}

std::string short_path(const std::string& path) {
  if (path.empty() || path[0] != '/') return path;
  size_t cut = path.size();
  for (int parts = 0; parts < 3 && cut != std::string::npos && cut > 0; ++parts) cut = path.rfind('/', cut - 1);
  return cut == std::string::npos || cut == 0 ? path : "…" + path.substr(cut);
}

std::string json_text(const nlohmann::json& v) {
  if (v.is_null()) return "";
  if (v.is_string()) return v.get<std::string>();
  return v.dump();
}

size_t display_width(const std::string& text) {
  // Characters, not bytes: UTF-8 continuation bytes (10xxxxxx) start no character.
  return static_cast<size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

std::string Table::str(const std::string& indent) const {
  std::vector<size_t> width;
  for (const auto& row : rows_)
    for (size_t i = 0; i < row.size(); ++i) {
      if (width.size() <= i) width.push_back(0);
      width[i] = std::max(width[i], display_width(row[i]));
    }
  std::string out;
  for (const auto& row : rows_) {
    std::string line = indent;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(width[i] - display_width(row[i]) + 2, ' ');
    }
    while (!line.empty() && line.back() == ' ') line.pop_back();
    out += line + "\n";
  }
  return out;
}

std::string markdown_cell(const std::string& text) {
  std::string s;
  for (char c : text) {
    if (c == '|') s += "\\|";
    else if (c == '\n') s += ' ';
    else s += c;
  }
  return s;
}

std::string Table::markdown() const {
  std::string out;
  for (size_t r = 0; r < rows_.size(); ++r) {
    out += "|";
    for (const auto& cell : rows_[r]) {
      // Appended piece by piece: `" " + std::string&&` trips a GCC 12 -Wrestrict false positive.
      out += ' ';
      out += markdown_cell(cell);
      out += " |";
    }
    out += "\n";
    if (r == 0) {
      out += "|";
      for (size_t i = 0; i < rows_[0].size(); ++i) out += " --- |";
      out += "\n";
    }
  }
  return out;
}

}  // namespace tct::report
