// tct run's section of the HTML report: silent fallbacks first, then per process (rank) a
// table of call sites (calls, per-call time, share of the job, compile time, breaks,
// recompiles, eager comparison), the breaks and recompiles with their fix, and divergence.
#include <cmath>

#include <fmt/format.h>

#include "stats/verdict.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"
#include "run/render.hpp"

namespace tct::report::html {

namespace {
std::string d(const json& j, const char* key) {
  return format_duration_ns(j.contains(key) && j[key].is_number() ? j[key].get<double>() : NAN);
}
}  // namespace

}  // namespace tct::report::html

namespace tct::run {

std::string html_section(const nlohmann::json& r) {
  using namespace report;
  using namespace report::html;
  if (!r.is_object()) return "";
  std::string cmd;
  for (const auto& a : arr_at(r, "command")) cmd += (cmd.empty() ? "" : " ") + json_text(a);
  std::string out = R"(<section id="run"><h2>tct run: per torch.compile call site</h2>)";
  out += facts({{"Command", "<code>" + esc(cmd) + "</code>"}, {"Exit", esc(text_or(r, "exit"))}, {"Wall time", d(r, "wall_ns")},
                {"Logs", "<code>" + esc(text_or(r, "trace_dir")) + "</code>"}});
  for (const auto& p : arr_at(r, "processes"))
    for (const auto& s : arr_at(p, "sites")) {
      for (const auto& f : run::fallbacks_of(s)) {
        const json& fr = obj_at(f, "frame");
        out += fmt::format("<h3 class=\"warn\">Silent fallback: {} ({}:{}), frame {}: {}</h3><p>{} calls since{}. Guard "
                           "that kept failing: <code>{}</code>. Fix: {}</p>",
                           esc(text_or(s, "name")), esc(short_path(text_or(obj_at(s, "site"), "file"))),
                           esc(text_or(obj_at(s, "site"), "line")), esc(text_or(fr, "function")), esc(text_or(f, "cause")),
                           esc(text_or(f, "calls_after")),
                           f["eager_calls_after"].is_number() ? ", " + esc(text_or(f, "eager_calls_after")) + " of them wholly eager" : "",
                           esc(text_or(f, "guard")), esc(text_or(f, "fix")));
      }
    }
  const json& div = arr_at(r, "divergence");
  if (!div.empty()) {
    out += "<h3 class=\"warn\">Ranks diverge</h3><ul>";
    for (const auto& v : div) out += "<li>" + esc(text_or(v, "message")) + "</li>";
    out += "</ul>";
  }
  for (const auto& p : arr_at(r, "processes")) {
    out += "<h3>" + esc(p["rank"].is_number() ? fmt::format("Rank {}", p["rank"].get<int>()) : "Process " + text_or(p, "pid")) + "</h3>";
    std::vector<std::vector<std::string>> rows, details;
    for (const auto& s : arr_at(p, "sites")) {
      const json& e = obj_at(s, "eager");
      std::string vs = e.empty() ? "" : fmt::format("{} [{}, {}] {}", format_ratio(number_or_nan(obj_at(e, "speedup"), "estimate")),
                                                    format_ratio(number_or_nan(obj_at(e, "speedup"), "low")),
                                                    format_ratio(number_or_nan(obj_at(e, "speedup"), "high")), stats::describe(stats::decide(number_or_nan(obj_at(e, "speedup"), "estimate"), number_or_nan(obj_at(e, "speedup"), "low"), number_or_nan(obj_at(e, "speedup"), "high"))));
      rows.push_back({esc(text_or(s, "name")), esc(short_path(text_or(obj_at(s, "site"), "file")) + ":" + text_or(obj_at(s, "site"), "line")),
                      esc(text_or(s, "calls")), esc(d(obj_at(s, "steady_calls"), "median_ns")), esc(d(obj_at(s, "steady_calls"), "p90_ns")),
                      esc(format_percent(number_or_nan(s, "job_share"))), esc(d(s, "compile_time_ns")), esc(text_or(s, "graph_breaks")),
                      esc(text_or(s, "recompiles")), esc(vs)});
      for (const auto& b : arr_at(s, "breaks"))
        details.push_back({esc(text_or(s, "name")), "graph break", esc(short_path(text_or(b, "file")) + ":" + text_or(b, "line") + " " + text_or(b, "reason")),
                           esc(text_or(b, "fix"))});
      for (const auto& g : arr_at(s, "recompile_groups"))
        details.push_back({esc(text_or(s, "name")), esc(fmt::format("recompiled {}x ({})", text_or(g, "count"), text_or(obj_at(g, "frame"), "function"))),
                           "<code>" + esc(text_or(g, "guard")) + "</code> " + esc(text_or(g, "why")), esc(text_or(g, "fix"))});
    }
    out += table({"Call site", "Where", "Calls", "Median/call", "p90/call", "Share of job", "Compile time", "Breaks",
                   "Recompiles", "vs eager"},
                  rows, "sites");
    if (!details.empty()) out += table({"Call site", "What", "Where / guard", "Fix"}, details, "details");
  }
  return out + "</section>";
}

}  // namespace tct::run
