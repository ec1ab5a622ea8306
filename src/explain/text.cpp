// The explain section: a summary line first, then each break location (file:line in
// function, the source line), its reason and the hint under it; then the two views.
#include <fmt/format.h>

#include "report/format.hpp"
#include "report/render.hpp"

namespace tct::report {
namespace {

std::string str(const json& j, const char* key, const std::string& fallback = "") { return string_or(j, key, fallback); }
int num(const json& j, const char* key) { return int_or_zero(j, key); }

std::string plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }

std::string target_name(const json& e) {
  const json& t = e.value("target", json());
  if (t.is_object()) return str(t, "spec", "?");
  return t.is_string() ? t.get<std::string>() : "?";
}

std::string base_name(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

// "explain alone says 3 graph breaks" where torch._dynamo.explain's own figures differ from
// the compiled run's ("" when they agree or the headline already is explain's).
std::string explain_aside(const json& e) {
  const json& v = e.value("explain_view", json());
  if (!v.is_object() || str(e, "counts_from") != "compiled_run") return "";
  if (v.value("frame_skipped", false)) return "torch._dynamo.explain alone: no graph, graph_break_count -1";
  int b = num(v, "graph_break_count"), g = num(v, "graph_count");
  bool breaks_differ = b != num(e, "graph_break_count"), graphs_differ = g != num(e, "graph_count");
  if (!breaks_differ && !graphs_differ) return "";
  if (!graphs_differ) return "explain alone says " + plural(b, "graph break", "graph breaks");
  return fmt::format("explain alone says {} in {}", plural(b, "graph break", "graph breaks"),
                     plural(g, "graph", "graphs"));
}

// "MoE.forward" (an older document has no qualname: the code's name).
std::string qualname_of(const json& f) { return str(f, "qualname", str(f, "function")); }

// "MoE.forward at model.py:12" (an older document has no title: built from its fields).
std::string title_of(const json& f) {
  return str(f, "title").empty() ? fmt::format("{} at {}:{}", str(f, "function"), base_name(str(f, "file")), num(f, "line"))
                                 : str(f, "title");
}

// "Net.forward at model.py:26, MoE.forward at model.py:12"
std::string skipped_names(const json& skipped) {
  std::string out;
  for (const auto& f : skipped) out += (out.empty() ? "" : ", ") + title_of(f);
  return out;
}

}  // namespace

// "3 graph breaks in 4 graphs; not capturable as one graph", or the skipped frames first.
// Every count here is a field of the section (graph_break_count, graph_count, the
// skipped_frames list: one entry per frame), the fields every other rendering reads.
std::string explain_summary(const json& e) {
  int breaks = num(e, "graph_break_count"), graphs = num(e, "graph_count");
  std::string s;
  const json& skipped = e.value("skipped_frames", json::array());
  if (!skipped.empty()) {
    const json& f = skipped[0];
    int n = static_cast<int>(skipped.size());
    s = fmt::format("torch.compile SKIPPED {} ({}) and ran {} eagerly: nothing of {} is compiled ({}, after a [{}] "
                    "break at line {})",
                    plural(n, "frame", "frames"), skipped_names(skipped), n == 1 ? "it" : "them",
                    n == 1 ? "it" : "them", str(f, "skip_reason"), str(f, "kind"), num(f, "break_line"));
    s += fmt::format("; {} in {} elsewhere. Breaks after the skip point are not visible until it is fixed",
                     plural(breaks, "graph break", "graph breaks"), plural(graphs, "graph", "graphs"));
  } else if (graphs == 0 && !e.value("capturable", false) && e.value("explain_view", json()).is_null()) {
    s = "explain captured no graph: dynamo skipped the code (a break it could not resume from); not capturable "
        "as one graph";
  } else {
    s = fmt::format("{} in {}; ", plural(breaks, "graph break", "graph breaks"), plural(graphs, "graph", "graphs"));
    if (e.value("capturable", false))
      s += graphs == 0 ? "no graph captured (no tensor operations traced)"
                       : "capturable as one graph (fullgraph=True would work)";
    else
      s += "not capturable as one graph";
  }
  if (std::string aside = explain_aside(e); !aside.empty()) s += " (" + aside + ")";
  return s;
}

namespace {

// "print / logging 3, other 1 (together 4 graph breaks)": the groups' counts by kind, the
// sum written out when there is more than one kind so that it reads against the headline.
std::string kinds_line(const json& e) {
  std::string kinds;
  int total = 0, n = 0;
  for (const auto& k : e.value("kinds", json::array())) {
    kinds += (kinds.empty() ? "" : ", ") + fmt::format("{} {}", str(k, "label"), num(k, "count"));
    total += num(k, "count"), ++n;
  }
  if (n > 1) kinds += fmt::format(" (together {})", plural(total, "graph break", "graph breaks"));
  return kinds;
}

}  // namespace

std::string text_explain(const json& doc) {
  const json& e = doc["explain"];
  std::string out = fmt::format("tct explain {}", target_name(e));
  if (!str(e, "torch_version").empty()) out += fmt::format(" (torch {})", str(e, "torch_version"));
  out += "\n";
  if (!e.contains("graph_count")) return out + "  (the audit did not finish)\n";
  out += explain_summary(e) + "\n";
  std::string per;
  for (const auto& g : e.value("ops_per_graph", json::array())) per += (per.empty() ? "" : ", ") + std::to_string(num(g, "op_count"));
  out += fmt::format("  {} traced{}", plural(num(e, "op_count"), "op", "ops"), per.empty() ? "" : " (per graph: " + per + ")");
  if (e.contains("guard_count") && e["guard_count"].is_number()) out += fmt::format(", {}", plural(num(e, "guard_count"), "guard", "guards"));
  out += "\n";

  const json& groups = e.value("groups", json::array());
  if (!groups.empty()) {
    out += "\nWhere (most frequent first):\n";
    int i = 0;
    for (const auto& g : groups) {
      ++i;
      std::string count = num(g, "count") > 1 ? fmt::format("  x{}", num(g, "count")) : "";
      out += fmt::format("{:>3}. {}:{} in {}  [{}]{}\n", i, str(g, "file"), num(g, "line"), str(g, "function"),
                         str(g, "kind"), count);
      if (!str(g, "source").empty()) out += fmt::format("       {}\n", str(g, "source"));
      const json callers = g.value("callers", json::array());
      const json sites = g.value("call_sites", json::array());
      if (sites.size() > 1) {  // one place reached from several lines: the count is theirs together
        std::string where;
        for (const auto& c : sites) where += (where.empty() ? "" : ", ") + fmt::format("{}:{}", str(c, "function"), num(c, "line"));
        out += fmt::format("       called from {} places: {}\n", sites.size(), where);
      } else {
        for (auto it = callers.rbegin(); it != callers.rend(); ++it) {  // innermost caller first
          const json& c = *it;
          out += fmt::format("       called from {}:{} in {}: {}\n", str(c, "file"), num(c, "line"), str(c, "function"),
                             str(c, "source"));
        }
      }
      out += fmt::format("     reason: {}\n", str(g, "reason"));
      const json& h = g.value("hint", json::object());
      out += fmt::format("     why:    {}\n", str(h, "text"));
      out += fmt::format("     fix:    {}\n", str(h, "fix"));
      std::string id = str(g, "registry_id");
      if (!str(h, "url").empty()) out += fmt::format("     docs:   {}{}\n", str(h, "url"), id.empty() ? "" : " (" + id + ")");
      auto views = g.value("views", json::array());
      if (views.size() == 1 && views[0] == "logged") out += "     (seen only in the logged compiled run)\n";
    }
    out += fmt::format("\nBy kind: {}\n", kinds_line(e));
  }

  for (const auto& f : e.value("skipped_frames", json::array())) {
    out += fmt::format("\nSKIPPED FRAME: {} at {}:{} runs eagerly (fell back to eager).\n  why:    {}\n  caused "
                       "by:  the [{}] break at {}:{}: {}\n",
                       qualname_of(f), str(f, "file"), num(f, "line"), str(f, "skip_reason"), str(f, "kind"),
                       base_name(str(f, "break_file")), num(f, "break_line"), str(f, "reason"));
    const json& h = f.value("hint", json());
    if (h.is_object() && !str(h, "fix").empty()) out += fmt::format("  fix:    {}\n", str(h, "fix"));
    out += "  fix that break first; breaks after it appear only then (rerun tct explain).\n";
  }

  const json& lg = e.value("logged", json());
  if (lg.is_object()) {
    // The same fields as the headline: the run's own list of records is not counted here.
    bool from_run = str(e, "counts_from") != "explain";  // older documents: the run's counts too
    std::string counted = from_run ? fmt::format("{} at {}, ", plural(num(e, "graph_break_count"), "graph break", "graph breaks"),
                                                 plural(static_cast<int>(groups.size()), "location", "locations"))
                                   : std::string();
    out += fmt::format("\nLogged compiled run (backend={}, {}): {}{}, {} skipped", str(lg, "backend", "eager"),
                       plural(num(lg, "calls"), "call", "calls"), counted,
                       plural(static_cast<int>(lg.value("recompiles", json::array()).size()), "recompile", "recompiles"),
                       plural(static_cast<int>(e.value("skipped_frames", json::array()).size()), "frame", "frames"));
    const json& dis = e.value("disagreements", json::array());
    if (dis.empty()) out += "; agrees with explain\n";
    else {
      out += "; differs from explain:\n";
      for (const auto& d : dis) out += fmt::format("  - {}\n", str(d, "message"));
    }
    for (const auto& r : lg.value("recompiles", json::array())) {
      out += fmt::format("  recompile of {} at {}:{}  [{}]\n", str(r, "function"), str(r, "file"), num(r, "line"), str(r, "kind"));
      for (const auto& g : r.value("guard_failures", json::array())) out += fmt::format("       guard failed: {}\n", g.get<std::string>());
      out += fmt::format("     fix:    {}\n", str(r.value("hint", json::object()), "fix"));
    }
  }
  const json& gate = e.value("gate", json());
  if (gate.is_object())
    out += fmt::format("\nGate --max-graph-breaks {}: {}{}\n", num(gate, "max_graph_breaks"),
                       gate.value("passed", true) ? "passed" : "FAILED",
                       num(gate, "frames_skipped") > 0 ? " (a frame dynamo skipped fails any limit)" : "");
  return out;
}

std::string markdown_explain(const json& doc) {
  const json& e = doc["explain"];
  std::string out;
  if (!e.contains("graph_count")) return fmt::format("Target `{}`: the audit did not finish.\n", target_name(e));
  out += fmt::format("**{}** (`{}`", explain_summary(e), target_name(e));
  if (!str(e, "torch_version").empty()) out += fmt::format(", torch {}", str(e, "torch_version"));
  out += fmt::format("; {})\n\n", plural(num(e, "op_count"), "op", "ops"));
  auto cell = [](std::string s) {
    std::string o;
    for (char c : s) o += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
    return o;
  };
  const json& groups = e.value("groups", json::array());
  if (!groups.empty()) {
    out += "| # | Location | Code | Kind | Count | Fix |\n| --- | --- | --- | --- | --- | --- |\n";
    int i = 0;
    for (const auto& g : groups) {
      std::string file = str(g, "file");
      auto slash = file.find_last_of('/');
      std::string base = slash == std::string::npos ? file : file.substr(slash + 1);
      const json& h = g.value("hint", json::object());
      std::string fix = cell(str(h, "fix"));
      if (!str(h, "url").empty()) fix += fmt::format(" ([docs]({}))", str(h, "url"));
      out += fmt::format("| {} | `{}:{}` in `{}` | `{}` | {} | {} | {} |\n", ++i, cell(base), num(g, "line"),
                         cell(str(g, "function")), cell(str(g, "source")), str(g, "kind"), num(g, "count"), fix);
    }
    out += "\n<details><summary>Reasons</summary>\n\n";
    i = 0;
    for (const auto& g : groups)
      out += fmt::format("{}. `{}:{}`: {}\n", ++i, cell(str(g, "file")), num(g, "line"), cell(str(g, "reason")));
    out += "\n</details>\n";
    out += fmt::format("\nBy kind: {}\n", kinds_line(e));
  }
  const json& skipped = e.value("skipped_frames", json::array());
  if (!skipped.empty()) {
    out += fmt::format("\n**Frames torch.compile skipped ({}; they run eagerly):**\n\n", skipped.size());
    for (const auto& f : skipped) {
      const json& h = f.value("hint", json());
      out += fmt::format("- `{}`: {}, after the [{}] break at `{}:{}` ({}){}\n", cell(title_of(f)),
                         cell(str(f, "skip_reason")), str(f, "kind"), cell(base_name(str(f, "break_file"))),
                         num(f, "break_line"), cell(str(f, "reason")),
                         h.is_object() && !str(h, "fix").empty() ? ". Fix: " + cell(str(h, "fix")) : "");
    }
  }
  const json& dis = e.value("disagreements", json::array());
  if (!dis.empty()) {
    out += "\nThe logged compiled run differs from explain:\n\n";
    for (const auto& d : dis) out += fmt::format("- {}\n", cell(str(d, "message")));
  }
  const json& gate = e.value("gate", json());
  if (gate.is_object())
    out += fmt::format("\nGate `--max-graph-breaks {}`: **{}**\n", num(gate, "max_graph_breaks"),
                       gate.value("passed", true) ? "passed" : "failed");
  return out + "\n";
}

}  // namespace tct::report
