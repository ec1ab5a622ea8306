// The explain and diff results as sections of the HTML report: graph breaks grouped by
// location in the user's code, each with its reason, source line, fix and documentation
// link; then every break's full text. Reasons, file names and source lines are escaped
// (they come from the user's code and from torch).
#include <fmt/format.h>

#include "explain/json.hpp"
#include "explain/render.hpp"
#include "report/format.hpp"
#include "report/html_util.hpp"

namespace tct::explain {
namespace {

using report::html::Card;
using report::html::esc;
using report::html::link;

std::string location(const Frame& f) {
  if (f.file.empty()) return "<span class=\"muted\">(unknown location)</span>";
  std::string s = "<span class=\"loc\">" + esc(f.file) + ":" + std::to_string(f.line) + "</span>";
  if (!f.function.empty()) s += " <span class=\"muted\">in</span> <code>" + esc(f.function) + "</code>";
  return s;
}

std::string hint_html(const Hint& h) {
  std::string out;
  if (!h.fix.empty()) out += "<strong>Fix:</strong> " + esc(core::fix_with_terms(h.fix, h.terms));
  if (!h.text.empty())
    out += (out.empty() ? "" : "<br>") + std::string("<span class=\"muted\">") + esc(h.text) + "</span>";
  if (!h.url.empty()) out += (out.empty() ? "" : "<br>") + link(h.url, "documentation");
  return out.empty() ? "<span class=\"muted\">no hint</span>" : out;
}

// The kind's label where the groups count it, else its name (explain's own breaks may be of
// a kind the compiled run did not count).
std::string kind_label(const ExplainResult& r, BreakKind kind) {
  for (const auto& k : r.kinds)
    if (k.kind == kind) return core::kind_label(kind);
  return core::to_string(kind);
}

std::string group_row_html(const ExplainResult& r, const BreakGroup& g, size_t i) {
  std::string where = location(g.where);
  if (!g.where.source.empty()) where += "<code class=\"src\">" + esc(g.where.source) + "</code>";
  if (!g.callers.empty()) {
    where += "<details><summary>called from</summary>";
    for (const auto& c : g.callers) where += "<div>" + location(c) + "</div>";
    where += "</details>";
  }
  return fmt::format(
      R"(<tr><td class="num">{}</td><td>{}</td><td><span class="pill">{}</span><br>{}</td><td class="num">{}</td><td>{}</td></tr>)",
      i + 1, where, esc(kind_label(r, g.kind)), esc(g.reason), g.count, hint_html(g.hint));
}

// One row per skipped frame: which frame, why dynamo gave up, the break that caused it and
// its fix.
std::string skipped_table(const std::vector<SkippedFrame>& skipped) {
  std::vector<std::vector<std::string>> rows;
  for (const auto& f : skipped) {
    std::string cause = "<span class=\"pill\">" + esc(core::to_string(f.kind)) + "</span> " + esc(f.reason) +
                        " <span class=\"loc\">" + esc(f.break_file) + ":" + std::to_string(f.break_line) + "</span>";
    rows.push_back({"<code>" + esc(f.title) + "</code>", esc(f.skip_reason), cause, hint_html(f.hint)});
  }
  return report::html::table({"Frame (runs eagerly)", "Why dynamo gave up", "Caused by", "What to change"}, rows);
}

}  // namespace

std::vector<Card> html_cards(const ExplainResult& r) {
  if (!r.finished) return {};
  const int breaks = r.graph_break_count, graphs = r.graph_count;
  std::string where;
  if (!r.groups.empty()) {
    const BreakGroup& g = r.groups[0];
    std::string file = g.where.file;
    if (auto slash = file.rfind('/'); slash != std::string::npos) file = file.substr(slash + 1);
    where = "first: " + file + ":" + std::to_string(g.where.line) + " (" + kind_label(r, g.kind) + ")";
  }
  const auto& skipped = r.skipped_frames;
  if (!skipped.empty()) {
    std::string names;
    for (const auto& f : skipped) names += (names.empty() ? "" : ", ") + f.title;
    return {{"Graph breaks", skipped.size() == 1 ? "1 frame skipped" : fmt::format("{} frames skipped", skipped.size()),
             fmt::format("torch.compile skipped {} and ran {} eagerly ({}); {} graph break(s) elsewhere", names,
                         skipped.size() == 1 ? "it" : "them", skipped[0].skip_reason, breaks),
             "bad", "#explain"}};
  }
  // The tone and the words follow the verdict: no counted break is not one graph when explain
  // saw a break the compiled run did not count.
  const bool one_graph = r.capturable();
  return {{"Graph breaks", std::to_string(breaks),
           one_graph ? "the target compiles as one graph"
                     : fmt::format("{} graphs; {}", graphs, where.empty() ? "not capturable as one graph" : where),
           one_graph ? "good" : "warn", "#explain"}};
}

std::string html_section(const ExplainResult& r) {
  std::string out = R"(<section id="explain"><h2>Graph breaks: what stops torch.compile</h2>)";
  std::vector<std::pair<std::string, std::string>> items;
  const auto& skipped = r.skipped_frames;
  if (r.finished) {
    items.push_back(
        {"Graph breaks", fmt::format("<strong>{}</strong> in {} graphs", r.graph_break_count, r.graph_count)});
    if (!skipped.empty())
      items.push_back({"Skipped frames", fmt::format("<strong class=\"bad\">{}</strong>", skipped.size())});
    items.push_back({"One graph", r.capturable() ? "<span class=\"good\">yes: fullgraph=True would work</span>"
                                                 : "<span class=\"warn\">no</span>"});
    items.push_back({"Ops traced", std::to_string(r.op_count)});
    items.push_back({"Guards", r.guard_count ? std::to_string(*r.guard_count) : ""});
  }
  if (r.logged) {
    const CompiledRun& lg = *r.logged;
    // The headline's own fields: the run's list of break records is not counted here.
    std::string s = fmt::format(
        "backend {}, {} calls: {}{} recompiles, {} frames skipped", lg.backend, lg.calls,
        r.counts_from != CountsFrom::Explain ? fmt::format("{} graph breaks, ", r.graph_break_count) : std::string(),
        lg.recompiles.size(), skipped.size());
    if (lg.error && !lg.error->empty()) s += "; error: " + *lg.error;
    items.push_back({"Logged run", esc(s)});
  }
  out += report::html::facts(items);
  std::vector<core::EagerPart> eager;
  for (const auto& p : r.eager_parts)
    if (p.cause != core::EagerCause::SkippedFrame) eager.push_back(p);
  out += report::html::eager_parts(eager);
  if (!skipped.empty())
    out +=
        "<h3 class=\"bad\">Frames torch.compile skipped (they run eagerly)</h3><p>Fix the break that made Dynamo "
        "skip the frame first: breaks after the skip point are not visible until it compiles.</p>" +
        skipped_table(skipped);

  if (!r.groups.empty()) {
    out +=
        "<h3>Where, most frequent first</h3><table class=\"breaks\"><thead><tr><th class=\"num\">#</th><th>Where in "
        "your code</th>"
        "<th>Why</th><th class=\"num\">Count</th><th>What to change</th></tr></thead><tbody>";
    for (size_t i = 0; i < r.groups.size(); ++i) out += group_row_html(r, r.groups[i], i);
    out += "</tbody></table>";
    std::string kinds;
    for (const auto& k : r.kinds)
      kinds += (kinds.empty() ? "" : ", ") + esc(core::kind_label(k.kind)) + " " + std::to_string(k.count);
    out += "<p><strong>By kind:</strong> " + kinds + "</p>";
  }
  if (r.logged && !r.logged->recompiles.empty()) {
    nlohmann::json recompiles = nlohmann::json::array();
    for (const auto& rc : r.logged->recompiles) recompiles.push_back(to_json(rc));
    out += "<h3>Recompiles</h3>" + report::html::generic(recompiles);
  }
  if (!r.disagreements.empty()) {
    nlohmann::json dis = nlohmann::json::array();
    for (const auto& d : r.disagreements) dis.push_back(to_json(d));
    out +=
        "<h3>Where the two views disagree</h3><p class=\"muted\">explain() and the logged compiled run saw different "
        "breaks.</p>" +
        report::html::generic(dis);
  }
  // explain's own list (its view, not the count above: the two differ where the views do).
  if (!r.breaks.empty()) {
    out += "<details><summary>torch._dynamo.explain's break reasons, with torch's full message</summary><ol>";
    for (const auto& b : r.breaks) {
      out += "<li><span class=\"pill\">" + esc(kind_label(r, b.kind)) + "</span> ";
      for (const auto& f : b.frames) out += "<div>" + location(f) + "</div>";
      out += "<pre>" + esc(b.reason) + "</pre></li>";
    }
    out += "</ol></details>";
  }
  if (!r.ops_per_graph.empty()) {
    std::vector<std::vector<std::string>> rows;
    for (size_t i = 0; i < r.ops_per_graph.size(); ++i) {
      const GraphOps& g = r.ops_per_graph[i];
      std::string names;
      for (const auto& o : g.ops)
        names += (names.empty() ? "" : ", ") + o.name + (o.count > 1 ? " x" + std::to_string(o.count) : "");
      rows.push_back({std::to_string(i + 1), std::to_string(g.op_count), "<code>" + esc(names) + "</code>"});
    }
    out += "<details><summary>Ops per graph</summary>" + report::html::table({"Graph", "Ops", "Which"}, rows) +
           "</details>";
  }
  return out + "</section>";
}

namespace {

std::string brief_item(const DiffBreak& g) {
  std::string out =
      "<li>" + location(g.where) + " <span class=\"pill\">" + esc(core::to_string(g.kind)) + "</span> " + esc(g.reason);
  if (!g.where.source.empty()) out += "<code class=\"src\">" + esc(g.where.source) + "</code>";
  return out;
}

std::string brief_list(const std::vector<DiffBreak>& items, const char* cls) {
  if (items.empty()) return "<p class=\"muted\">none</p>";
  std::string out = "<ul class=\"" + std::string(cls) + "\">";
  for (const auto& it : items) out += brief_item(it) + "</li>";
  return out + "</ul>";
}

std::string unchanged_list(const std::vector<Unchanged>& items) {
  if (items.empty()) return "<p class=\"muted\">none</p>";
  std::string out = "<ul class=\"unchanged\">";
  for (const auto& u : items)
    out += brief_item(u.after) + "<span class=\"muted\">" +
           esc(fmt::format("matched by {}; line moved {}, count changed {}", to_string(u.matched_by), u.line_shift(),
                           u.count_delta())) +
           "</span></li>";
  return out + "</ul>";
}

}  // namespace

std::string html_section(const DiffResult& d) {
  std::string out = R"(<section id="diff"><h2>Graph breaks before and after</h2>)";
  std::vector<std::pair<std::string, std::string>> items;
  items.push_back({"Before", "<span class=\"loc\">" + esc(d.before.file) + "</span>"});
  items.push_back({"After", "<span class=\"loc\">" + esc(d.after.file) + "</span>"});
  for (const auto& [k, c] : {std::pair{"break_count", d.break_count},
                             {"frames_skipped", d.frames_skipped},
                             {"graph_count", d.graph_count},
                             {"op_count", d.op_count}})
    items.push_back({k, esc(fmt::format("{} -> {} ({:+d})", c.before, c.after, c.delta()))});
  out += report::html::facts(items);
  out += "<h3 class=\"good\">Fixed (" + std::to_string(d.fixed.size()) + ")</h3>" + brief_list(d.fixed, "fixed");
  out += "<h3 class=\"bad\">Added (" + std::to_string(d.added.size()) + ")</h3>" + brief_list(d.added, "added");
  out += "<h3>Unchanged (" + std::to_string(d.unchanged.size()) + ")</h3>" + unchanged_list(d.unchanged);
  for (const auto& [names, title] :
       {std::pair{&d.skipped_fixed, "Skipped frames that compile now"}, {&d.skipped_added, "Frames skipped now"}}) {
    if (names->empty()) continue;
    out += std::string("<h3>") + title + "</h3><ul>";
    for (const auto& n : *names) out += "<li><code>" + esc(n) + "</code></li>";
    out += "</ul>";
  }
  return out + "</section>";
}

}  // namespace tct::explain
