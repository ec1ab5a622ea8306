// The explain result as text: a summary line first, then each break location (file:line in
// function, the source line), its reason and the hint under it; then the two views. Every
// count is a field of the result (graph_break_count, graph_count, the skipped_frames list:
// one entry per frame), the fields every other rendering reads.
#include <fmt/format.h>

#include "explain/json.hpp"
#include "explain/render.hpp"
#include "report/format.hpp"

namespace tct::explain {
namespace {

using core::base_name;
using report::markdown_cell;

std::string plural(int n, const char* one, const char* many) { return fmt::format("{} {}", n, n == 1 ? one : many); }
std::string plural(std::size_t n, const char* one, const char* many) { return plural(static_cast<int>(n), one, many); }

std::string target_name(const ExplainResult& r) {
  if (r.target.given()) return r.target.view.spec.empty() ? "?" : r.target.view.spec;
  return r.target.raw.is_string() ? r.target.raw.get<std::string>() : "?";
}

// "explain alone says 3 graph breaks" where torch._dynamo.explain's own figures differ from
// the compiled run's ("" when they agree or the headline already is explain's).
std::string explain_aside(const ExplainResult& r) {
  if (!r.explain_view || r.counts_from != CountsFrom::CompiledRun) return "";
  const ExplainView& v = *r.explain_view;
  if (v.frame_skipped) return "torch._dynamo.explain alone: no graph, graph_break_count -1";
  int b = v.graph_break_count.value_or(0), g = v.graph_count;
  bool breaks_differ = b != r.graph_break_count, graphs_differ = g != r.graph_count;
  if (!breaks_differ && !graphs_differ) return "";
  if (!graphs_differ) return "explain alone says " + plural(b, "graph break", "graph breaks");
  return fmt::format("explain alone says {} in {}", plural(b, "graph break", "graph breaks"),
                     plural(g, "graph", "graphs"));
}

// "Net.forward at model.py:26, MoE.forward at model.py:12"
std::string skipped_names(const std::vector<SkippedFrame>& skipped) {
  std::string out;
  for (const auto& f : skipped) out += (out.empty() ? "" : ", ") + f.title;
  return out;
}

// "print / logging 3, other 1 (together 4 graph breaks)": the kinds' counts, the sum written
// out when there is more than one kind so that it reads against the headline.
std::string kinds_line(const ExplainResult& r) {
  std::string kinds;
  int total = 0;
  for (const auto& k : r.kinds) {
    kinds += (kinds.empty() ? "" : ", ") + fmt::format("{} {}", core::kind_label(k.kind), k.count);
    total += k.count;
  }
  if (r.kinds.size() > 1) kinds += fmt::format(" (together {})", plural(total, "graph break", "graph breaks"));
  return kinds;
}

// The parts that run eagerly besides the skipped frames (which have their own lines).
std::vector<core::EagerPart> eager_besides_skips(const ExplainResult& r) {
  std::vector<core::EagerPart> out;
  for (const auto& p : r.eager_parts)
    if (p.cause != core::EagerCause::SkippedFrame) out.push_back(p);
  return out;
}

}  // namespace

std::string summary(const ExplainResult& r) {
  const int breaks = r.graph_break_count, graphs = r.graph_count;
  std::string s;
  if (r.verdict == Verdict::FrameSkipped && !r.skipped_frames.empty()) {
    const SkippedFrame& f = r.skipped_frames[0];
    const std::size_t n = r.skipped_frames.size();
    s = fmt::format(
        "torch.compile SKIPPED {} ({}) and ran {} eagerly: nothing of {} is compiled ({}, after a [{}] "
        "break at line {})",
        plural(n, "frame", "frames"), skipped_names(r.skipped_frames), n == 1 ? "it" : "them", n == 1 ? "it" : "them",
        f.skip_reason, core::to_string(f.kind), f.break_line);
    s += fmt::format("; {} in {} elsewhere. Breaks after the skip point are not visible until it is fixed",
                     plural(breaks, "graph break", "graph breaks"), plural(graphs, "graph", "graphs"));
  } else if (graphs == 0 && !r.capturable() && !r.explain_view) {
    // An older document: explain's -1, before the frame was named.
    s = "explain captured no graph: dynamo skipped the code (a break it could not resume from); not capturable "
        "as one graph";
  } else {
    s = fmt::format("{} in {}; ", plural(breaks, "graph break", "graph breaks"), plural(graphs, "graph", "graphs"));
    if (r.capturable())
      s += graphs == 0 ? "no graph captured (no tensor operations traced)"
                       : "capturable as one graph (fullgraph=True would work)";
    else s += "not capturable as one graph";
    if (const auto eager = eager_besides_skips(r); !eager.empty())
      s += ": " + core::describe(eager[0]) + (eager.size() > 1 ? fmt::format(" (and {} more)", eager.size() - 1) : "");
  }
  if (std::string aside = explain_aside(r); !aside.empty()) s += " (" + aside + ")";
  return s;
}

std::string answer(const ExplainResult& r) {
  const std::size_t skipped = r.skipped_frames.size(), eager = eager_besides_skips(r).size();
  return fmt::format("{} in {} graph(s){}{}", r.graph_break_count, r.graph_count,
                     skipped ? fmt::format(", {} frame(s) skipped (run eagerly)", skipped) : "",
                     eager ? fmt::format(", {} part(s) run eagerly", eager) : "");
}

std::string text(const ExplainResult& r) {
  std::string out = fmt::format("tct explain {}", target_name(r));
  if (!r.torch_version.empty()) out += fmt::format(" (torch {})", r.torch_version);
  out += "\n";
  if (!r.finished) return out + "  (the audit did not finish)\n";
  out += summary(r) + "\n";
  std::string per;
  for (const auto& g : r.ops_per_graph) per += (per.empty() ? "" : ", ") + std::to_string(g.op_count);
  out += fmt::format("  {} traced{}", plural(r.op_count, "op", "ops"), per.empty() ? "" : " (per graph: " + per + ")");
  if (r.guard_count) out += fmt::format(", {}", plural(*r.guard_count, "guard", "guards"));
  out += "\n";

  if (!r.groups.empty()) {
    out += "\nWhere (most frequent first):\n";
    int i = 0;
    for (const auto& g : r.groups) {
      ++i;
      std::string count = g.count > 1 ? fmt::format("  x{}", g.count) : "";
      out += fmt::format("{:>3}. {}:{} in {}  [{}]{}\n", i, g.where.file, g.where.line, g.where.function,
                         core::to_string(g.kind), count);
      if (!g.where.source.empty()) out += fmt::format("       {}\n", g.where.source);
      if (g.call_sites.size() > 1) {  // one place reached from several lines: the count is theirs together
        std::string where;
        for (const auto& c : g.call_sites)
          where += (where.empty() ? "" : ", ") + fmt::format("{}:{}", c.function, c.line);
        out += fmt::format("       called from {} places: {}\n", g.call_sites.size(), where);
      } else {
        for (auto it = g.callers.rbegin(); it != g.callers.rend(); ++it)  // innermost caller first
          out += fmt::format("       called from {}:{} in {}: {}\n", it->file, it->line, it->function, it->source);
      }
      out += fmt::format("     reason: {}\n", g.reason);
      out += fmt::format("     why:    {}\n", g.hint.text);
      out += fmt::format("     fix:    {}\n", g.hint.fix);
      if (const auto words = core::fix_words(g.hint.terms); !words.empty())
        out += fmt::format("             {}\n", words);
      if (!g.hint.url.empty())
        out += fmt::format("     docs:   {}{}\n", g.hint.url, g.registry_id.empty() ? "" : " (" + g.registry_id + ")");
      if (g.seen_by_logged && !g.seen_by_explain) out += "     (seen only in the logged compiled run)\n";
    }
    out += fmt::format("\nBy kind: {}\n", kinds_line(r));
  }

  for (const auto& f : r.skipped_frames) {
    out += fmt::format(
        "\nSKIPPED FRAME: {} at {}:{} runs eagerly (fell back to eager).\n  why:    {}\n  caused "
        "by:  the [{}] break at {}:{}: {}\n",
        f.qualname, f.file, f.line, f.skip_reason, core::to_string(f.kind), base_name(f.break_file), f.break_line,
        f.reason);
    if (!f.hint.fix.empty()) out += fmt::format("  fix:    {}\n", core::fix_with_terms(f.hint.fix, f.hint.terms));
    out += "  fix that break first; breaks after it appear only then (rerun tct explain).\n";
  }

  for (const auto& p : eager_besides_skips(r)) {
    out += fmt::format("\nRUNS EAGERLY: {}.\n  caused by: the [{}] break at {}:{}: {}\n", core::describe(p),
                       core::to_string(p.kind), base_name(p.file), p.from_line, p.reason);
    if (p.cause == core::EagerCause::RestOfFrame)
      out +=
          "  why:    Dynamo cannot resume after this break: it compiles up to the last line before it and skips the "
          "rest of the function (torch counts no graph break for it)\n";
    if (!p.hint.fix.empty()) {
      out += fmt::format("  fix:    {}\n", p.hint.fix);
      if (const auto words = core::fix_words(p.hint.terms); !words.empty()) out += fmt::format("          {}\n", words);
    }
  }

  if (r.logged) {
    const CompiledRun& lg = *r.logged;
    // The same fields as the headline: the run's own list of records is not counted here.
    bool from_run = r.counts_from != CountsFrom::Explain;  // older documents: the run's counts too
    std::string counted = from_run
                              ? fmt::format("{} at {}, ", plural(r.graph_break_count, "graph break", "graph breaks"),
                                            plural(r.groups.size(), "location", "locations"))
                              : std::string();
    out +=
        fmt::format("\nLogged compiled run (backend={}, {}): {}{}, {} skipped", lg.backend,
                    plural(lg.calls, "call", "calls"), counted, plural(lg.recompiles.size(), "recompile", "recompiles"),
                    plural(r.skipped_frames.size(), "frame", "frames"));
    if (r.disagreements.empty()) out += "; agrees with explain\n";
    else {
      out += "; differs from explain:\n";
      for (const auto& d : r.disagreements) out += fmt::format("  - {}\n", d.message);
    }
    for (const auto& rc : lg.recompiles) {
      out += fmt::format("  recompile of {} at {}:{}  [{}]\n", rc.function, rc.file, rc.line, core::to_string(rc.kind));
      for (const auto& g : rc.guard_failures) out += fmt::format("       guard failed: {}\n", g);
      out += fmt::format("     fix:    {}\n", core::fix_with_terms(rc.hint.fix, rc.hint.terms));
    }
  }
  if (r.gate)
    out += fmt::format("\nGate --max-graph-breaks {}: {}{}\n", r.gate->max_graph_breaks,
                       r.gate->passed ? "passed" : "FAILED",
                       !r.skipped_frames.empty()     ? " (a frame dynamo skipped fails any limit)"
                       : r.rest_of_frame_parts() > 0 ? " (a frame whose rest runs eagerly fails any limit)"
                                                     : "");
  return out;
}

std::string markdown(const ExplainResult& r) {
  std::string out;
  if (!r.finished) return fmt::format("Target `{}`: the audit did not finish.\n", target_name(r));
  out += fmt::format("**{}** (`{}`", summary(r), target_name(r));
  if (!r.torch_version.empty()) out += fmt::format(", torch {}", r.torch_version);
  out += fmt::format("; {})\n\n", plural(r.op_count, "op", "ops"));
  if (!r.groups.empty()) {
    out += "| # | Location | Code | Kind | Count | Fix |\n| --- | --- | --- | --- | --- | --- |\n";
    int i = 0;
    for (const auto& g : r.groups) {
      std::string fix = markdown_cell(core::fix_with_terms(g.hint.fix, g.hint.terms));
      if (!g.hint.url.empty()) fix += fmt::format(" ([docs]({}))", g.hint.url);
      out += fmt::format("| {} | `{}:{}` in `{}` | `{}` | {} | {} | {} |\n", ++i,
                         markdown_cell(base_name(g.where.file)), g.where.line, markdown_cell(g.where.function),
                         markdown_cell(g.where.source), core::to_string(g.kind), g.count, fix);
    }
    out += "\n<details><summary>Reasons</summary>\n\n";
    i = 0;
    for (const auto& g : r.groups)
      out += fmt::format("{}. `{}:{}`: {}\n", ++i, markdown_cell(g.where.file), g.where.line, markdown_cell(g.reason));
    out += "\n</details>\n";
    out += fmt::format("\nBy kind: {}\n", kinds_line(r));
  }
  if (!r.skipped_frames.empty()) {
    out += fmt::format("\n**Frames torch.compile skipped ({}; they run eagerly):**\n\n", r.skipped_frames.size());
    for (const auto& f : r.skipped_frames)
      out += fmt::format(
          "- `{}`: {}, after the [{}] break at `{}:{}` ({}){}\n", markdown_cell(f.title), markdown_cell(f.skip_reason),
          core::to_string(f.kind), markdown_cell(base_name(f.break_file)), f.break_line, markdown_cell(f.reason),
          !f.hint.fix.empty() ? ". Fix: " + markdown_cell(core::fix_with_terms(f.hint.fix, f.hint.terms)) : "");
  }
  if (const auto eager = eager_besides_skips(r); !eager.empty()) {
    out += "\n**Runs eagerly on every call:**\n\n";
    for (const auto& p : eager)
      out += fmt::format(
          "- {} (the [{}] break at `{}:{}`: {}){}\n", markdown_cell(core::describe(p)), core::to_string(p.kind),
          markdown_cell(base_name(p.file)), p.from_line, markdown_cell(p.reason),
          p.hint.fix.empty() ? "" : ". Fix: " + markdown_cell(core::fix_with_terms(p.hint.fix, p.hint.terms)));
  }
  if (!r.disagreements.empty()) {
    out += "\nThe logged compiled run differs from explain:\n\n";
    for (const auto& d : r.disagreements) out += fmt::format("- {}\n", markdown_cell(d.message));
  }
  if (r.gate)
    out += fmt::format("\nGate `--max-graph-breaks {}`: **{}**\n", r.gate->max_graph_breaks,
                       r.gate->passed ? "passed" : "failed");
  return out + "\n";
}

}  // namespace tct::explain
