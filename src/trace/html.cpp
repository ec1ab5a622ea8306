// The trace section of the HTML report: divergence first, then per rank its figures, the
// graph breaks grouped (with the fix), recompiles with the guard that failed, skipped frames.
#include <fmt/format.h>

#include "report/html_util.hpp"
#include "trace/json.hpp"
#include "trace/render.hpp"

namespace tct::trace {
namespace {

using report::html::esc;
using report::html::generic;

}  // namespace

std::string html_section(const TraceResult& t) {
  std::string out = R"(<section id="trace"><h2>TORCH_TRACE: what torch.compile did</h2>)";
  if (t.ranks.size() > 1) {
    if (!t.ranks_diverge()) out += "<p class=\"good\">All ranks compiled alike.</p>";
    else {
      out += "<h3 class=\"warn\">Ranks diverge (a known cause of collective hangs)</h3><ul>";
      for (const auto& d : t.divergence) out += "<li>" + esc(d.message) + "</li>";
      out += "</ul>";
    }
  }
  for (size_t i = 0; i < t.ranks.size(); ++i) {
    const Rank& r = t.ranks[i];
    std::string title = r.rank ? fmt::format("Rank {}", *r.rank) : fmt::format("Log {}", i);
    out += "<h3>" + esc(title) + "</h3>";
    nlohmann::json compile_time = nlohmann::json::object();
    for (const auto& [p, ns] : r.compile_time) compile_time[p] = ns.count();
    out += report::html::facts({{"Compiles", std::to_string(r.compiles.size())},
                                {"Graphs", std::to_string(r.graph_count)},
                                {"Graph breaks", std::to_string(r.graph_break_count)},
                                {"Recompiles", std::to_string(r.recompiles.size())},
                                {"Skipped frames", std::to_string(r.skipped_frames.size())},
                                {"Compiles without a compile id (AOT)", std::to_string(r.compiles_without_id.size())},
                                {"torch._dynamo.reset() seen", std::to_string(r.dynamo_resets)},
                                {"Cache", esc(nlohmann::json(r.cache).dump())},
                                {"Compile time (ns)", esc(compile_time.dump())}});
    std::vector<std::vector<std::string>> rows;
    for (const auto& g : r.graph_breaks)
      rows.push_back({esc(g.file + ":" + std::to_string(g.line)), esc(core::to_string(g.kind)), std::to_string(g.count),
                      esc(g.reason), esc(core::fix_with_terms(g.hint.fix, g.hint.terms))});
    if (!rows.empty()) out += report::html::table({"Where", "Kind", "Count", "Reason", "Fix"}, rows, "breaks");
    if (!r.recompiles.empty()) out += "<h4>Recompiles</h4>" + generic(to_json_list(r.recompiles));
    if (!r.skipped_frames.empty())
      out += "<h4>Skipped frames (ran eagerly)</h4>" + generic(to_json_list(r.skipped_frames));
    out += report::html::eager_parts(r.eager_parts);
    if (!r.compiles_without_id.empty())
      out += "<h4>Compiles without a compile id</h4>" + generic(to_json_list(r.compiles_without_id));
    if (!r.failures.empty()) out += "<h4>Failures and restarts</h4>" + generic(to_json_list(r.failures));
    if (r.read.damaged() > 0)
      out += "<h4 class=\"warn\">Damaged (skipped)</h4>" + generic(to_json_list(r.read.damaged_at));
    if (r.read.edited > 0)
      out += fmt::format("<h4>Note: {} payload(s) edited after they were written: MD5 differs (read as they are)</h4>",
                         r.read.edited) +
             generic(to_json_list(r.read.edited_at));
  }
  return out + "</section>";
}

}  // namespace tct::trace
