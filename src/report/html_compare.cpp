// The compare section of the HTML report: the verdict and the before/after table,
// regressions first (the order the section holds).
#include <fmt/format.h>

#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::report::html {
namespace {

std::string speedup(const json& side) {
  if (!side.is_object()) return "<span class=\"muted\">-</span>";
  std::string status = str(side, "status");
  if (status == "failed") return "<span class=\"bad\">failed (" + esc(str(side, "error_kind", "?")) + ")</span>";
  if (status == "not_run") return "<span class=\"muted\">not run</span>";
  std::string out = esc(format_speedup_interval(obj_at(side, "speedup")));
  if (status == "mismatch") out += " <span class=\"warn\">(outputs differ)</span>";
  return out;
}

std::string both(const json& item, const char* key, bool duration) {
  auto one = [&](const json& side) {
    const json& v = side.is_object() && side.contains(key) ? side[key] : json();
    if (!v.is_number()) return std::string("-");
    return duration ? format_duration_ns(v.get<double>()) : text_of(v);
  };
  std::string b = one(item.value("baseline", json())), c = one(item.value("current", json()));
  return esc(b == c ? b : b + " → " + c);
}

}  // namespace

std::string section_compare(const json& doc) {
  const json& cmp = obj_at(doc, "compare");
  if (cmp.empty()) return "";
  bool passed = cmp.value("passed", false);
  std::string out = R"(<section id="compare"><h2>Compare</h2>)";
  out += fmt::format(R"(<p><span class="pill {}">{}</span> baseline <span class="loc">{}</span>, current <span class="loc">{}</span>; gate: a confident drop over {:.1f}%</p>)",
                     passed ? "good" : "bad", passed ? "pass" : "fail", esc(str(obj_at(cmp, "baseline"), "path")),
                     esc(str(obj_at(cmp, "current"), "path")), num(cmp, "max_regression") * 100);
  std::vector<std::vector<std::string>> rows;
  for (const auto& i : arr_at(cmp, "items")) {
    std::string change = str(i, "change");
    std::string tone = i.value("gate_failed", false) || change == "regression" ? "bad"
                       : change == "improvement" || change == "fixed"       ? "good"
                                                                             : "";
    rows.push_back({"<span class=\"loc\">" + esc(str(i, "id")) + "</span>",
                    fmt::format(R"(<span class="pill {}">{}</span>)", tone, esc(change)), speedup(i.value("baseline", json())),
                    speedup(i.value("current", json())), esc(format_change_interval(obj_at(i, "ratio"))), both(i, "graph_breaks", false),
                    both(i, "compile_ns", true)});
  }
  out += table({"Entry", "Change", "Speedup before", "Speedup after", "Ratio [95% CI]", "Graph breaks", "Compile"}, rows, "rows");
  return out + "<p class=\"muted\">A change is a regression or improvement only when the 95% interval of after/before "
               "excludes 1.</p></section>";
}

}  // namespace tct::report::html
