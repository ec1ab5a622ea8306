#include "trace/summarize.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "core/graph_breaks.hpp"
#include "core/recompile_guard.hpp"
#include "core/user_code.hpp"
#include "trace/eager_parts.hpp"

namespace tct::trace {
namespace {

// Seconds as the section writes them: whole nanoseconds, truncated.
Nanoseconds to_ns(double seconds) { return Nanoseconds(static_cast<int64_t>(seconds * 1e9)); }

// Groups by kind and place (the file named relative to the rank's root), most frequent first.
std::vector<BreakGroup> group(const std::vector<TraceBreak>& breaks, const std::string& root) {
  std::vector<BreakGroup> out;
  std::map<std::tuple<int, std::string, int>, size_t> at;
  for (const auto& b : breaks) {
    std::string file = core::portable_path(b.file, root);
    auto key = std::make_tuple(static_cast<int>(b.kind), file, b.line);
    auto it = at.find(key);
    if (it == at.end()) {
      BreakGroup g;
      g.kind = b.kind;
      g.file = file;
      g.line = b.line;
      g.reason = b.reason;
      g.skip_reason = b.skip_reason.empty() ? "" : core::reason_headline(b.skip_reason);
      g.from_restart = true;
      g.hint = fix_of(b);
      it = at.emplace(key, out.size()).first;
      out.push_back(std::move(g));
    }
    BreakGroup& g = out[it->second];
    g.count++;
    g.frame_skipped = g.frame_skipped || b.frame_skipped;
    g.rest_only = g.rest_only || b.rest_only;
    g.from_restart = g.from_restart && b.from_restart;
    if (g.compile_ids.size() < 20 &&
        std::find(g.compile_ids.begin(), g.compile_ids.end(), b.compile_id) == g.compile_ids.end())
      g.compile_ids.push_back(b.compile_id);
  }
  std::stable_sort(out.begin(), out.end(), [](const BreakGroup& a, const BreakGroup& b) { return a.count > b.count; });
  return out;
}

// What the section says a compile without a compile id is.
std::string without_id_what(const std::string& kind) {
  return kind == "aot_inductor"
             ? "AOT Inductor (aoti_compile_and_package / aot_compile): a compiled library, no Dynamo frame"
             : "AOTAutograd outside Dynamo (torch.export's lowering, aot_function)";
}

// One group per frame and cause, from each compile's newest failed guard: a recompile counts
// (CompileSummary::recompiled), a compile the limit refused is counted apart.
std::vector<RecompileGroup> group_recompiles(const RankSummary& r, const std::string& root) {
  std::vector<RecompileGroup> out;
  std::map<std::pair<std::string, std::string>, size_t> index;  // (frame, pattern) -> group
  std::map<std::string, const CompileSummary*> named;           // frame -> a compile that names it
  for (const auto& [id, c] : r.compiles)
    if (!c.function.empty()) named.try_emplace(id.frame_str(), &c);
  for (const auto& [id, c] : r.compiles) {
    if (c.recompile_reasons.empty()) continue;
    const auto g = core::newest_guard_failure(c.recompile_reasons);
    if (!g) continue;
    const std::string frame = id.frame_str();
    auto [it, fresh] = index.try_emplace({frame, g->pattern}, out.size());
    if (fresh) {
      RecompileGroup group;
      group.frame = frame;
      if (auto n = named.find(frame); n != named.end()) {
        group.function = n->second->function;
        group.file = core::portable_path(n->second->file, root);
        group.line = n->second->line;
      }
      group.pattern = g->pattern;
      const auto& advice = core::advice_for(core::classify_guard(*g));
      group.cause = advice.name;
      group.fix = advice.fix;
      out.push_back(std::move(group));
    }
    RecompileGroup& group = out[it->second];
    if (!g->value.empty() && std::find(group.values.begin(), group.values.end(), g->value) == group.values.end())
      group.values.push_back(g->value);
    ++(c.recompiled() ? group.count : group.refused);
  }
  return out;
}

Rank summarize_rank(const RankSummary& r) {
  Rank out;
  out.rank = r.rank;
  out.files = r.files;
  out.root = rank_root(r);
  auto name = [&](const std::string& file) { return core::portable_path(file, out.root); };
  // A compile the recompile limit refused has no dynamo_start, so no function: its frame's
  // other compiles name it.
  std::map<std::string, std::string> frame_function;
  for (const auto& [id, c] : r.compiles)
    if (!c.function.empty()) frame_function.try_emplace(id.frame_str(), c.function);
  auto function_of = [&](const CompileId& id, const std::string& function) {
    if (!function.empty()) return function;
    auto it = frame_function.find(id.frame_str());
    return it == frame_function.end() ? std::string() : it->second;
  };
  out.dynamo_resets = r.resets;
  std::map<std::string, double> phase_s;  // summed in seconds, as torch logs them, then made ns once
  for (const auto& [id, c] : r.compiles) {
    out.graph_count += c.graphs;
    for (const auto& [p, s] : c.phase_s) phase_s[p] += s;
    CompileId torch_id = id;
    torch_id.resets = 0;
    torch_id.log = 0;
    Compile compile;
    compile.compile_id = id.str();
    compile.torch_compile_id = torch_id.str();
    compile.dynamo_resets = id.resets;
    compile.log = id.log;
    compile.function = c.function;
    compile.file = name(c.file);
    compile.line = c.line;
    compile.graphs = c.graphs;
    compile.graph_breaks = c.breaks;
    compile.graph_breaks_from_restarts = c.breaks_from_restarts;
    compile.op_count = c.op_count;
    compile.guard_count = c.guard_count;
    compile.attempts = c.attempts;
    for (const auto& [p, s] : c.phase_s) compile.phases[p] = to_ns(s);
    compile.cache = c.cache;
    compile.recompile_reasons = c.recompile_reasons;
    compile.restart_reasons = c.restart_reasons;
    compile.fail_type = c.fail_type;
    compile.fail_reason = c.fail_reason;
    compile.skipped = c.skipped;
    out.compiles.push_back(std::move(compile));
    if (c.recompiled()) {
      BreakKind kind = core::classify_recompile(c.recompile_reasons);
      out.recompiles.push_back({id.str(), c.function, name(c.file), c.line, c.recompile_reasons, kind,
                                core::recompile_hint(c.recompile_reasons)});
    }
    if (c.skipped) out.skipped_frames.push_back({id.str(), c.function, name(c.file), c.line, c.fail_reason});
    else if (!c.fail_type.empty())
      out.failures.push_back({id.str(), function_of(id, c.function), c.fail_type, c.fail_reason});
    if (c.attempts > 1 || !c.restart_reasons.empty())
      out.restarts.push_back({id.str(), c.function, c.attempts, c.restart_reasons});
  }
  out.recompile_groups = group_recompiles(r, out.root);
  out.graph_breaks = group(r.breaks, out.root);
  for (core::EagerPart p : eager_parts(r)) {
    p.file = name(p.file);
    out.eager_parts.push_back(std::move(p));
  }
  out.graph_break_count = r.breaks.size();
  for (const auto& [p, s] : phase_s) out.compile_time[p] = to_ns(s);
  for (const auto& u : r.unframed)
    out.compiles_without_id.push_back(
        {u.kind, without_id_what(u.kind), u.graph, u.function, name(u.file), u.line, u.record_line});
  out.cache = r.cache;
  out.record_kinds = r.kinds;
  out.read = r.stats;
  return out;
}

}  // namespace

TraceResult summarize(const std::string& path, const std::vector<RankSummary>& ranks) {
  TraceResult out;
  out.path = path;
  for (const auto& r : ranks) out.ranks.push_back(summarize_rank(r));
  out.divergence = divergence(ranks);
  out.cache_notes = cache_differences(ranks);
  return out;
}

}  // namespace tct::trace
