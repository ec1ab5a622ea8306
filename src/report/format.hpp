#pragma once
// Number formatting shared by every renderer, so a latency reads the same everywhere.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "stats/log_interval.hpp"
#include "core/json_number.hpp"
#include "core/units.hpp"

namespace tct::report {

std::string format_duration(Nanoseconds d);   // format_duration_ns(d.count())
std::string format_duration_ns(double ns);    // "812 ns", "12.3 us", "4.56 ms", "1.23 s"; "n/a" for NaN
std::string format_bytes(double bytes);       // "512 B", "1.5 KiB", "12.0 MiB"
std::string format_ratio(double ratio);       // "1.52x"; "n/a" for NaN
std::string format_percent(double fraction);  // 0.123 -> "12.3%"
// A speedup {estimate, low, high}: "1.52x [1.48, 1.56]"; "1.52x [interval n/a]" without
// bounds (a number is never shown as if it were certain); "n/a" without an estimate.
std::string format_speedup_interval(const nlohmann::json& speedup);
std::string format_speedup_interval(const stats::Interval& speedup);
// A ratio after/before {estimate, low, high} as a change: "-3.1% [-5.0%, -1.2%]"; the
// estimate alone "+2.0% [interval n/a]" without bounds; "n/a" without an estimate.
std::string format_change_interval(const nlohmann::json& ratio);
std::string format_change_interval(const stats::Interval& ratio);
// The last three parts of an absolute path ("…/.venv/bin/python"), anything else as it is:
// for reports that travel (Markdown, HTML), where the reader's machine is not the writer's
// and a home folder is nobody's business.
std::string short_path(const std::string& path);
// A JSON value as text: strings as they are, null as "", anything else as compact JSON.
std::string json_text(const nlohmann::json& value);
// A JSON number, or NaN when the field is null or missing (JSON has no NaN).
using core::number_or_nan;

// A suite summary's verdict counts: "3 faster, 1 slower, 1 no clear difference, 0 inconclusive"
// (documents written before no_clear_difference was counted apart omit it).

// How many characters a UTF-8 string shows (one per code point; no wide-glyph tables).
size_t display_width(const std::string& text);

// A plain aligned text table; the first row is the header. Columns align by characters.
// Text for one Markdown table cell: '|' escaped, a newline read as a space.
std::string markdown_cell(const std::string& text);

class Table {
 public:
  explicit Table(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  std::string str(const std::string& indent = "  ") const;
  std::string markdown() const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace tct::report
