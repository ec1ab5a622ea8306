// The explain and diff sections of the HTML report: graph breaks grouped by location in
// the user's code, each with its reason, source line, fix and documentation link; then
// every break's full text. Reasons, file names and source lines are escaped (they come
// from the user's code and from torch).
#include <fmt/format.h>

#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::report::html {
namespace {

std::string location(const json& g) {
  std::string file = str(g, "file");
  if (file.empty()) return "<span class=\"muted\">(unknown location)</span>";
  std::string s = "<span class=\"loc\">" + esc(file);
  if (!str(g, "line").empty()) s += ":" + esc(str(g, "line"));
  s += "</span>";
  if (!str(g, "function").empty()) s += " <span class=\"muted\">in</span> <code>" + esc(str(g, "function")) + "</code>";
  return s;
}

std::string hint_html(const json& h) {
  if (!h.is_object()) return "<span class=\"muted\">no hint</span>";
  std::string out;
  if (!str(h, "fix").empty()) out += "<strong>Fix:</strong> " + esc(str(h, "fix"));
  if (!str(h, "text").empty()) out += (out.empty() ? "" : "<br>") + std::string("<span class=\"muted\">") + esc(str(h, "text")) + "</span>";
  if (!str(h, "url").empty()) out += (out.empty() ? "" : "<br>") + link(str(h, "url"), "documentation");
  return out;
}

std::string kind_label(const json& explain, const std::string& kind) {
  for (const auto& k : arr_at(explain, "kinds"))
    if (str(k, "kind") == kind && !str(k, "label").empty()) return str(k, "label");
  return kind;
}

std::string group_row_html(const json& explain, const json& g, size_t i) {
  std::string where = location(g);
  if (!str(g, "source").empty()) where += "<code class=\"src\">" + esc(str(g, "source")) + "</code>";
  const json& callers = arr_at(g, "callers");
  if (!callers.empty()) {
    where += "<details><summary>called from</summary>";
    for (const auto& c : callers) where += "<div>" + location(c) + "</div>";
    where += "</details>";
  }
  std::string kind = str(g, "kind");
  return fmt::format(R"(<tr><td class="num">{}</td><td>{}</td><td><span class="pill">{}</span><br>{}</td><td class="num">{}</td><td>{}</td></tr>)",
                     i + 1, where, esc(kind_label(explain, kind)), esc(str(g, "reason")), esc(str(g, "count", "1")),
                     hint_html(g.value("hint", json())));
}

// "MoE.forward at model.py:12" (an older document has no title: built from its fields).
std::string skipped_title(const json& f) {
  if (!str(f, "title").empty()) return str(f, "title");
  std::string file = str(f, "file");
  if (auto slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return str(f, "function") + " at " + file + ":" + str(f, "line");
}

// One row per skipped frame: which frame, why dynamo gave up, the break that caused it and
// its fix.
std::string skipped_table(const json& skipped) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : skipped) {
    std::string cause = "<span class=\"pill\">" + esc(str(f, "kind")) + "</span> " + esc(str(f, "reason")) +
                        " <span class=\"loc\">" + esc(str(f, "break_file")) + ":" + esc(str(f, "break_line")) + "</span>";
    rows.push_back({"<code>" + esc(skipped_title(f)) + "</code>", esc(str(f, "skip_reason")), cause,
                    hint_html(f.value("hint", json()))});
  }
  return table({"Frame (runs eagerly)", "Why dynamo gave up", "Caused by", "What to change"}, rows);
}

std::string brief_list(const json& items, const char* cls) {
  if (items.empty()) return "<p class=\"muted\">none</p>";
  std::string out = "<ul class=\"" + std::string(cls) + "\">";
  for (const auto& it : items) {
    const json& g = it.contains("after") && it["after"].is_object() ? it["after"] : it;
    out += "<li>" + location(g) + " <span class=\"pill\">" + esc(str(g, "kind")) + "</span> " + esc(str(g, "reason"));
    if (!str(g, "source").empty()) out += "<code class=\"src\">" + esc(str(g, "source")) + "</code>";
    if (it.contains("matched_by"))
      out += "<span class=\"muted\">" +
             esc(fmt::format("matched by {}; line moved {}, count changed {}", str(it, "matched_by"), str(it, "line_shift", "0"),
                             str(it, "count_delta", "0"))) +
             "</span>";
    out += "</li>";
  }
  return out + "</ul>";
}

}  // namespace

std::vector<Card> cards_explain(const json& doc) {
  const json& e = obj_at(doc, "explain");
  if (e.empty() || !e.contains("graph_break_count")) return {};
  double breaks = num(e, "graph_break_count"), graphs = num(e, "graph_count");
  std::string where;
  const json& groups = arr_at(e, "groups");
  if (!groups.empty()) {
    const json& g = groups[0];
    where = "first: " + str(g, "file");
    auto slash = where.rfind('/');
    if (slash != std::string::npos) where = "first: " + where.substr(slash + 1);
    if (!str(g, "line").empty()) where += ":" + str(g, "line");
    where += " (" + kind_label(e, str(g, "kind")) + ")";
  }
  const json& skipped = arr_at(e, "skipped_frames");
  if (!skipped.empty()) {
    std::string names;
    for (const auto& f : skipped) names += (names.empty() ? "" : ", ") + skipped_title(f);
    return {{"Graph breaks", skipped.size() == 1 ? "1 frame skipped" : fmt::format("{} frames skipped", skipped.size()),
             fmt::format("torch.compile skipped {} and ran {} eagerly ({}); {:.0f} graph break(s) elsewhere", names,
                         skipped.size() == 1 ? "it" : "them", str(skipped[0], "skip_reason"), breaks),
             "bad", "#explain"}};
  }
  return {{"Graph breaks", fmt::format("{:.0f}", breaks),
           breaks == 0 ? "the target compiles as one graph"
                       : fmt::format("{:.0f} graphs; {}", graphs, where),
           breaks == 0 ? "good" : "warn", "#explain"}};
}

std::string section_explain(const json& doc) {
  if (!doc.contains("explain") || !doc["explain"].is_object()) return "";
  const json& e = doc["explain"];
  std::string out = R"(<section id="explain"><h2>Graph breaks: what stops torch.compile</h2>)";
  std::vector<std::pair<std::string, std::string>> items;
  const json& skipped = arr_at(e, "skipped_frames");
  if (e.contains("graph_break_count"))
    items.push_back({"Graph breaks", fmt::format("<strong>{}</strong> in {} graphs", esc(str(e, "graph_break_count")),
                                                 esc(str(e, "graph_count", "?")))});
  if (!skipped.empty()) items.push_back({"Skipped frames", fmt::format("<strong class=\"bad\">{}</strong>", skipped.size())});
  if (e.contains("capturable"))
    items.push_back({"One graph", e.value("capturable", false) ? "<span class=\"good\">yes: fullgraph=True would work</span>"
                                                               : "<span class=\"warn\">no</span>"});
  if (e.contains("op_count")) items.push_back({"Ops traced", esc(str(e, "op_count"))});
  if (e.contains("guard_count")) items.push_back({"Guards", esc(str(e, "guard_count"))});
  const json& logged = obj_at(e, "logged");
  if (!logged.empty()) {
    // The headline's own fields: the run's list of break records is not counted here.
    std::string s = fmt::format("backend {}, {} calls: {}{} recompiles, {} frames skipped", str(logged, "backend", "?"),
                                str(logged, "calls", "?"),
                                str(e, "counts_from") != "explain"
                                    ? fmt::format("{} graph breaks, ", str(e, "graph_break_count"))
                                    : std::string(),
                                arr_at(logged, "recompiles").size(), skipped.size());
    if (!str(logged, "error").empty()) s += "; error: " + str(logged, "error");
    items.push_back({"Logged run", esc(s)});
  }
  out += facts(items);
  if (!skipped.empty())
    out += "<h3 class=\"bad\">Frames torch.compile skipped (they run eagerly)</h3><p>Fix the break that made Dynamo "
           "skip the frame first: breaks after the skip point are not visible until it compiles.</p>" +
           skipped_table(skipped);

  const json& groups = arr_at(e, "groups");
  if (!groups.empty()) {
    out += "<h3>Where, most frequent first</h3><table class=\"breaks\"><thead><tr><th class=\"num\">#</th><th>Where in your code</th>"
           "<th>Why</th><th class=\"num\">Count</th><th>What to change</th></tr></thead><tbody>";
    for (size_t i = 0; i < groups.size(); ++i) out += group_row_html(e, groups[i], i);
    out += "</tbody></table>";
    std::string kinds;
    for (const auto& k : arr_at(e, "kinds"))
      kinds += (kinds.empty() ? "" : ", ") + esc(str(k, "label")) + " " + esc(str(k, "count"));
    out += "<p><strong>By kind:</strong> " + kinds + "</p>";
  }
  const json& recompiles = arr_at(logged, "recompiles");
  if (!recompiles.empty()) out += "<h3>Recompiles</h3>" + generic(recompiles);
  const json& dis = arr_at(e, "disagreements");
  if (!dis.empty())
    out += "<h3>Where the two views disagree</h3><p class=\"muted\">explain() and the logged compiled run saw different "
           "breaks.</p>" + generic(dis);
  // explain's own list (its view, not the count above: the two differ where the views do).
  const json& breaks = arr_at(e, "breaks");
  if (!breaks.empty()) {
    out += "<details><summary>torch._dynamo.explain's break reasons, with torch's full message</summary><ol>";
    for (const auto& b : breaks) {
      out += "<li><span class=\"pill\">" + esc(kind_label(e, str(b, "kind"))) + "</span> ";
      const json& frames = arr_at(b, "frames");
      for (const auto& f : frames) out += "<div>" + location(f) + "</div>";
      out += "<pre>" + esc(str(b, "reason")) + "</pre></li>";
    }
    out += "</ol></details>";
  }
  const json& ops = arr_at(e, "ops_per_graph");
  if (!ops.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < ops.size(); ++i) {
      const json& g = ops[i];
      std::string names;
      for (const auto& o : arr_at(g, "ops"))
        names += (names.empty() ? "" : ", ") + str(o, "name") + (num(o, "count") > 1 ? " x" + str(o, "count") : "");
      rows.push_back({std::to_string(i + 1), esc(g.is_object() ? str(g, "op_count") : text_of(g)), "<code>" + esc(names) + "</code>"});
    }
    out += "<details><summary>Ops per graph</summary>" + table({"Graph", "Ops", "Which"}, rows) + "</details>";
  }
  return out + "</section>";
}

std::string section_diff(const json& doc) {
  if (!doc.contains("diff") || !doc["diff"].is_object()) return "";
  const json& d = doc["diff"];
  std::string out = R"(<section id="diff"><h2>Graph breaks before and after</h2>)";
  std::vector<std::pair<std::string, std::string>> items;
  items.push_back({"Before", "<span class=\"loc\">" + esc(str(obj_at(d, "before"), "file")) + "</span>"});
  items.push_back({"After", "<span class=\"loc\">" + esc(str(obj_at(d, "after"), "file")) + "</span>"});
  for (const char* k : {"break_count", "frames_skipped", "graph_count", "op_count"}) {
    const json& c = obj_at(d, k);
    if (c.empty()) continue;
    double delta = num(c, "delta");
    items.push_back({k, esc(fmt::format("{} -> {} ({:+g})", str(c, "before"), str(c, "after"), delta))});
  }
  out += facts(items);
  out += "<h3 class=\"good\">Fixed (" + std::to_string(arr_at(d, "fixed").size()) + ")</h3>" + brief_list(arr_at(d, "fixed"), "fixed");
  out += "<h3 class=\"bad\">Added (" + std::to_string(arr_at(d, "added").size()) + ")</h3>" + brief_list(arr_at(d, "added"), "added");
  out += "<h3>Unchanged (" + std::to_string(arr_at(d, "unchanged").size()) + ")</h3>" +
         brief_list(arr_at(d, "unchanged"), "unchanged");
  for (const auto& [key, title] : {std::pair{"skipped_fixed", "Skipped frames that compile now"},
                                   {"skipped_added", "Frames skipped now"}}) {
    const json& names = arr_at(d, key);
    if (names.empty()) continue;
    out += std::string("<h3>") + title + "</h3><ul>";
    for (const auto& n : names) out += "<li><code>" + esc(text_of(n)) + "</code></li>";
    out += "</ul>";
  }
  return out + "</section>";
}

}  // namespace tct::report::html
