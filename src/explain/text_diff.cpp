// The diff section: counts before -> after first, then breaks fixed, added, unchanged.
#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string str(const json& j, const char* key, const std::string& fallback = "") { return string_or(j, key, fallback); }
int num(const json& j, const char* key) { return int_or_zero(j, key); }

std::string change(const json& c) {
  int d = num(c, "delta");
  return fmt::format("{} -> {} ({}{})", num(c, "before"), num(c, "after"), d > 0 ? "+" : "", d);
}

std::string where(const json& b) {
  return fmt::format("{}:{} in {}  [{}]", str(b, "file"), num(b, "line"), str(b, "function"), str(b, "kind"));
}

std::string summary(const json& d) {
  return fmt::format("graph breaks {}, graphs {}, ops {}: {} fixed, {} added, {} unchanged",
                     change(d["break_count"]), change(d["graph_count"]), change(d["op_count"]),
                     d.value("fixed", json::array()).size(), d.value("added", json::array()).size(),
                     d.value("unchanged", json::array()).size());
}

}  // namespace

std::string text_diff(const json& doc) {
  const json& d = doc["diff"];
  std::string out = fmt::format("tct diff {} -> {}\n", str(d["before"], "file"), str(d["after"], "file"));
  out += summary(d) + "\n";
  if (d.contains("frames_skipped") && (num(d["frames_skipped"], "before") > 0 || num(d["frames_skipped"], "after") > 0))
    out += fmt::format("frames dynamo skipped (ran eagerly) {}\n", change(d["frames_skipped"]));
  for (const auto& [key, what] : {std::pair{"skipped_fixed", "compiles now"}, {"skipped_added", "skipped now"}})
    for (const auto& name : d.value(key, json::array()))
      if (name.is_string()) out += fmt::format("  {} {}\n", what, name.get<std::string>());
  if (d.value("skip_fixed", false))
    out += "A skipped frame is fixed: it compiles now. Breaks that appear after it were hidden behind the skip "
           "before; they are not a regression.\n";
  auto list = [&](const char* title, const json& items) {
    if (items.empty()) return;
    out += fmt::format("\n{}:\n", title);
    for (const auto& b : items) {
      out += fmt::format("  {}{}\n", where(b), num(b, "count") > 1 ? fmt::format("  x{}", num(b, "count")) : "");
      if (!str(b, "source").empty()) out += fmt::format("      {}\n", str(b, "source"));
      out += fmt::format("      reason: {}\n", str(b, "reason"));
    }
  };
  list("Fixed", d.value("fixed", json::array()));
  list("Added", d.value("added", json::array()));
  const json& same = d.value("unchanged", json::array());
  if (!same.empty()) {
    out += "\nUnchanged:\n";
    for (const auto& u : same) {
      out += fmt::format("  {}", where(u["after"]));
      int shift = num(u, "line_shift");
      if (shift != 0) out += fmt::format("  (was line {})", num(u["before"], "line"));
      int cd = num(u, "count_delta");
      if (cd != 0) out += fmt::format("  (count {} -> {})", num(u["before"], "count"), num(u["after"], "count"));
      out += "\n";
    }
  }
  if (d.value("breaks_increased", false))
    out += num(d.value("frames_skipped", json()), "delta") > 0 ? "\nA frame dynamo compiled before is skipped now.\n"
                                                              : "\nMore graph breaks after than before.\n";
  return out;
}

std::string markdown_diff(const json& doc) {
  const json& d = doc["diff"];
  std::string out = fmt::format("**{}**\n\n", summary(d));
  if (d.contains("frames_skipped") && (num(d["frames_skipped"], "before") > 0 || num(d["frames_skipped"], "after") > 0))
    out += fmt::format("Frames dynamo skipped (ran eagerly) {}\n\n", change(d["frames_skipped"]));
  auto cell = [](std::string s) {
    std::string o;
    for (char c : s) o += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
    return o;
  };
  auto base = [](const std::string& f) {
    auto s = f.find_last_of('/');
    return s == std::string::npos ? f : f.substr(s + 1);
  };
  out += "| Status | Location | Code | Kind |\n| --- | --- | --- | --- |\n";
  for (const auto& b : d.value("fixed", json::array()))
    out += fmt::format("| fixed | `{}:{}` in `{}` | `{}` | {} |\n", cell(base(str(b, "file"))), num(b, "line"),
                       cell(str(b, "function")), cell(str(b, "source")), str(b, "kind"));
  for (const auto& b : d.value("added", json::array()))
    out += fmt::format("| **added** | `{}:{}` in `{}` | `{}` | {} |\n", cell(base(str(b, "file"))), num(b, "line"),
                       cell(str(b, "function")), cell(str(b, "source")), str(b, "kind"));
  for (const auto& u : d.value("unchanged", json::array())) {
    const json& b = u["after"];
    out += fmt::format("| unchanged | `{}:{}` in `{}` | `{}` | {} |\n", cell(base(str(b, "file"))), num(b, "line"),
                       cell(str(b, "function")), cell(str(b, "source")), str(b, "kind"));
  }
  return out + "\n";
}

}  // namespace tct::report
