// The renderings of tct job --shape-fixes: a table of the fixes against the default, then one
// line per fix with the code to write and what it gives up. They format; shape_fixes.cpp decides.
#include <cmath>

#include <fmt/format.h>

#include "job/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::job {
namespace {

using report::format_duration;
using report::format_duration_ns;

// The verdict in the fix's words (stats::describe speaks of compiled against eager).
std::string_view verdict_words(stats::SpeedupVerdict v) {
  switch (v) {
    case stats::SpeedupVerdict::Faster: return "the fix is faster";
    case stats::SpeedupVerdict::Slower: return "the fix is slower";
    case stats::SpeedupVerdict::NoClearDifference: return "no clear difference";
    case stats::SpeedupVerdict::Inconclusive: return "inconclusive (the interval holds 1 and is too wide to tell)";
    case stats::SpeedupVerdict::NotMeasured: return "not measured";
  }
  return "";
}

// "1.25x [1.10, 1.42]: the fix is faster" (the default's total over the fix's).
std::string speedup_text(const ShapeFixResult& x) {
  const auto& iv = x.speedup;
  if (!std::isfinite(iv.estimate)) return "n/a";
  if (!std::isfinite(iv.low) || !std::isfinite(iv.high))
    return fmt::format("{:.2f}x (one round: no interval to decide by)", iv.estimate);
  return fmt::format("{:.2f}x [{:.2f}, {:.2f}]: {}", iv.estimate, iv.low, iv.high, verdict_words(x.verdict));
}

std::string varied_text(const ShapeFixes& s) {
  std::string out;
  for (const auto& v : s.varied)
    out += fmt::format("{}{} dim {} of {}: {} sizes, {} to {}{}", out.empty() ? "" : "; ", v.input, v.dim, v.site_name,
                       v.sizes, v.min, v.max,
                       v.recompiles ? fmt::format(", {} recompile{}", v.recompiles, v.recompiles == 1 ? "" : "s") : "");
  return out.empty() ? "no dimension varied" : out;
}

std::string api_text(const ShapeApi& a) {
  return fmt::format("torch {}: mark_dynamic {}, mark_unbacked {}, shape spec {}", a.torch.empty() ? "?" : a.torch,
                     a.mark_dynamic.empty() ? "none" : a.mark_dynamic,
                     a.mark_unbacked.empty() ? "none" : a.mark_unbacked,
                     a.spec_keyword.empty() ? "none" : "torch.compile(" + a.spec_keyword + "=...)");
}

const ModeResult* mode_of(const JobResult& r, const std::string& label) { return r.find(label); }

std::vector<std::string> row_of(const JobResult& r, const ShapeFixResult& x) {
  if (!x.not_run.empty()) return {std::string(to_string(x.fix)), "", "", "", "", "did not run: " + x.not_run};
  const ModeResult* m = mode_of(r, x.mode);
  if (m == nullptr || !m->ok()) return {std::string(to_string(x.fix)), "", "", "", "", "failed"};
  return {std::string(to_string(x.fix)), std::to_string(x.recompiles), format_duration(x.compile_time),
          total_text(x.steady),          total_text(x.total),          speedup_text(x)};
}

}  // namespace

std::string shape_fixes_text(const JobResult& r, bool md) {
  if (!r.shape_fixes) return "";
  const ShapeFixes& s = *r.shape_fixes;
  std::string out = md ? "\n#### Shape fixes\n\n" : "\nshape fixes, each run on the job's own inputs:\n";
  out += fmt::format("{}shapes the job used (read in one earlier compiled run, not timed): {}\n", md ? "- " : "",
                     varied_text(s));
  out += fmt::format("{}{}\n", md ? "- " : "", api_text(s.api));
  if (md) out += "\n";
  report::Table t({"fix", "recompiles", "compile", "steady per call", "total", "speed vs default"});
  // The default first: the mode every fix is compared with.
  if (!s.fixes.empty())
    if (const ModeResult* base = mode_of(r, s.fixes.front().baseline); base && base->ok()) {
      int recompiles = 0;
      double compile = 0;
      const SiteSummary* busiest = nullptr;
      for (const auto& site : base->sites) {
        recompiles += site.recompiles;
        if (measured(site.compile_time)) compile += site.compile_time.count();
        if (busiest == nullptr || site.key == r.anchor) busiest = &site;
      }
      t.add({"default (" + base->spec.label() + ")", std::to_string(recompiles), format_duration(Nanoseconds(compile)),
             busiest ? total_text(busiest->steady) : "n/a", total_text(base->total), "1"});
    }
  for (const auto& x : s.fixes) t.add(row_of(r, x));
  out += md ? t.markdown() : t.str();
  if (md) out += "\n";
  for (const auto& x : s.fixes) {
    if (!x.not_run.empty()) continue;
    if (x.code.empty()) {
      out += fmt::format("{}{}: no code: {}\n", md ? "- " : "  ", to_string(x.fix),
                         !x.errors.empty()   ? "not applied (" + x.errors.front() + ")"
                         : x.applied.empty() ? "the bootstrap applied it to no site"
                                             : "its runs failed or changed the job's output");
      continue;
    }
    for (const auto& c : x.code) {
      std::string imports;
      for (const auto& i : c.imports) imports += fmt::format("{}`{}`", imports.empty() ? "" : ", ", i);
      out += fmt::format("{}{}: write `{}` {}{}; gives up: {}\n", md ? "- " : "  ", to_string(x.fix), c.code, c.where,
                         imports.empty() ? "" : ", after " + imports, x.gives_up);
    }
  }
  out += fmt::format(
      "{}speed vs default: the default's total over the fix's, paired by round (above 1: the fix is "
      "faster); a fix's code is given only where it ran, every run finished and its output matched\n",
      md ? "\n" : "");
  return out;
}

std::string shape_fixes_html(const JobResult& r) {
  using report::html::esc;
  if (!r.shape_fixes) return "";
  const ShapeFixes& s = *r.shape_fixes;
  std::string out =
      "<h3>Shape fixes</h3><p>" + esc("Shapes the job used: " + varied_text(s)) + ". " + esc(api_text(s.api)) + ".</p>";
  std::vector<std::vector<std::string>> rows;
  for (const auto& x : s.fixes) {
    std::vector<std::string> row;
    for (const auto& cell : row_of(r, x)) row.push_back(esc(cell));
    std::string code;
    for (const auto& c : x.code) {
      for (const auto& i : c.imports) code += "<code>" + esc(i) + "</code><br>";
      code += "<code>" + esc(c.code) + "</code> " + esc(c.where) + "<br>";
    }
    row.push_back(code);
    row.push_back(x.not_run.empty() ? esc(x.gives_up) : "");
    rows.push_back(std::move(row));
  }
  out += report::html::table({"Fix", "Recompiles", "Compile", "Steady per call", "Total",
                              "Speed vs default (default's total / the fix's)", "Code to write", "Gives up"},
                             rows);
  return out;
}

}  // namespace tct::job
