// The trace section of the HTML report: divergence first, then per rank its figures, the
// graph breaks grouped (with the fix), recompiles with the guard that failed, skipped frames.
#include <fmt/format.h>

#include "report/html_util.hpp"

namespace tct::report::html {

std::string section_trace(const json& doc) {
  if (!doc.contains("trace") || !doc["trace"].is_object()) return "";
  const json& t = doc["trace"];
  std::string out = R"(<section id="trace"><h2>TORCH_TRACE: what torch.compile did</h2>)";
  const json& ranks = arr_at(t, "ranks");
  const json& div = arr_at(t, "divergence");
  if (ranks.size() > 1) {
    if (div.empty()) out += "<p class=\"good\">All ranks compiled alike.</p>";
    else {
      out += "<h3 class=\"warn\">Ranks diverge (a known cause of collective hangs)</h3><ul>";
      for (const auto& d : div) out += "<li>" + esc(str(d, "message")) + "</li>";
      out += "</ul>";
    }
  }
  for (size_t i = 0; i < ranks.size(); ++i) {
    const json& r = ranks[i];
    std::string title = r["rank"].is_number() ? fmt::format("Rank {}", r["rank"].get<int>()) : fmt::format("Log {}", i);
    out += "<h3>" + esc(title) + "</h3>";
    out += facts({{"Compiles", esc(str(r, "compile_count"))}, {"Graphs", esc(str(r, "graph_count"))},
                  {"Graph breaks", esc(str(r, "graph_break_count"))},
                  {"Recompiles", std::to_string(arr_at(r, "recompiles").size())},
                  {"Skipped frames", std::to_string(arr_at(r, "skipped_frames").size())},
                  {"Compiles without a compile id (AOT)", std::to_string(arr_at(r, "compiles_without_id").size())},
                  {"torch._dynamo.reset() seen", esc(str(r, "dynamo_resets"))},
                  {"Cache", esc(obj_at(r, "cache").dump())}, {"Compile time (ns)", esc(obj_at(r, "compile_time_ns").dump())}});
    std::vector<std::vector<std::string>> rows;
    for (const auto& g : arr_at(r, "graph_breaks"))
      rows.push_back({esc(str(g, "file") + ":" + str(g, "line")), esc(str(g, "kind")), esc(str(g, "count")),
                      esc(str(g, "reason")), esc(str(obj_at(g, "hint"), "fix"))});
    if (!rows.empty()) out += table({"Where", "Kind", "Count", "Reason", "Fix"}, rows, "breaks");
    const json& rc = arr_at(r, "recompiles");
    if (!rc.empty()) out += "<h4>Recompiles</h4>" + generic(rc);
    const json& sk = arr_at(r, "skipped_frames");
    if (!sk.empty()) out += "<h4>Skipped frames (ran eagerly)</h4>" + generic(sk);
    const json& uf = arr_at(r, "compiles_without_id");
    if (!uf.empty()) out += "<h4>Compiles without a compile id</h4>" + generic(uf);
    const json& fl = arr_at(r, "failures");
    if (!fl.empty()) out += "<h4>Failures and restarts</h4>" + generic(fl);
  }
  return out + "</section>";
}

}  // namespace tct::report::html
