#include "explain/audit.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "explain/json.hpp"
#include "trace/eager_parts.hpp"

namespace tct::explain {

// What explain's audit reads of the shared analysis: kinds, hints, reasons, user code.
using namespace core;
using trace::RankSummary;
using trace::TraceBreak;

namespace {

// The user's frames of a break's stack (the agent sends them all, outermost first).
std::vector<Frame> parse_frames(const std::vector<reply::StackFrame>& frames, const CodeDirs& dirs) {
  std::vector<Frame> out;
  for (const auto& f : frames)
    if (is_user_file(f.file, dirs)) out.push_back({f.file, f.line, f.function, f.source});
  return out;
}

// Every frame of a break's stack, a library's too.
std::vector<Frame> all_frames(const std::vector<reply::StackFrame>& frames) {
  std::vector<Frame> out;
  for (const auto& f : frames) out.push_back({f.file, f.line, f.function, ""});
  return out;
}

// A break's registry entry: the reason's own explanation and hints (specific: they name the
// function and argument types) first, the registry entry's templates ("{fn.__name__}") only
// where the reason has none. None when the reason names no registry id.
std::optional<Registry> registry_for(const std::string& reason, const reply::Registry& registry) {
  core::ReasonParts parts = core::split_reason(reason);
  std::string id = core::registry_id_of(reason);
  if (id.empty()) return std::nullopt;
  const auto found = registry.find(id);
  const reply::RegistryEntry* entry = found != registry.end() && found->second ? &*found->second : nullptr;
  Registry out{id, entry && entry->gb_type ? *entry->gb_type : parts.headline,
               !parts.explanation.empty() ? parts.explanation
               : entry                    ? entry->explanation.value_or("")
                                          : "",
               parts.hints, parts.url};
  if (out.hints.empty() && entry) {
    // Registry hints are sentence fragments of one or more hints; join them.
    std::string joined;
    for (const auto& h : entry->hints) joined += h;
    if (!joined.empty()) out.hints.push_back(joined);
  }
  return out;
}

// The registry's words as core::hint_for takes them: the object it documents, or null.
json hint_words(const std::optional<Registry>& r) {
  if (!r) return nullptr;
  return {{"explanation", r->explanation}, {"hints", r->hints}, {"url", r->url}};
}

// A break classified from its own text: for a skipped frame that is the break that started
// it (the print), not the loop message that followed. frames: the user's; stack: every frame
// torch gave (a library's too: the fix of a break inside DDP or transformers reads them).
Break make_break(const std::string& reason, std::vector<Frame> frames, const reply::Registry& registry,
                 const std::vector<Frame>& stack = {}, const std::string& file = "") {
  Break b;
  b.reason = reason;
  b.kind = core::classify_reason(reason);
  b.registry = registry_for(reason, registry);
  b.frames = std::move(frames);
  const std::string at = !file.empty()       ? file
                         : !stack.empty()    ? stack.back().file
                         : !b.frames.empty() ? b.frames.back().file
                                             : std::string();
  b.hint = hint_for(core::break_site(b.kind, at, stack, reason), hint_words(b.registry));
  return b;
}

// One of explain's break_reasons (the agent's raw facts).
Break explain_break(const reply::BreakReason& raw, const reply::Registry& registry, const CodeDirs& dirs) {
  return make_break(raw.reason, parse_frames(raw.frames, dirs), registry, all_frames(raw.frames));
}

// "Dynamo produced 4 graphs with 3 graph break and 6 ops" (torch 2.0's explanation).
void parse_explanation_counts(const std::string& text, std::optional<int>& graphs, std::optional<int>& breaks,
                              std::optional<int>& ops) {
  static const std::regex g(R"((\d+)\s+graphs?)"), b(R"((\d+)\s+graph\s+breaks?)"), o(R"((\d+)\s+ops?\b)");
  std::smatch m;
  if (std::regex_search(text, m, b)) breaks = std::stoi(m[1]);
  // "graphs" must not be the "graph break" number: search for "N graph(s) with".
  static const std::regex gw(R"((\d+)\s+graphs?\s+with)");
  if (std::regex_search(text, m, gw)) graphs = std::stoi(m[1]);
  else if (std::regex_search(text, m, g)) graphs = std::stoi(m[1]);
  if (std::regex_search(text, m, o)) ops = std::stoi(m[1]);
}

std::string loc_key(const std::string& file, int line) { return file + ":" + std::to_string(line); }

// "MoE.forward at model.py:22": the qualified name and where the frame's code starts.
std::string frame_title(const RunSkip& f) {
  return fmt::format("{} at {}:{}", f.qualname, core::base_name(f.file), f.line);
}

// The result's entry of a frame the compiled run skipped: named by its qualified name, its
// cause's kind, place, reason and fix (catalog's "other" when torch logged no break).
explain::SkippedFrame skipped_entry(const RunSkip& f) {
  const RunBreak& c = f.cause;
  explain::SkippedFrame out;
  out.function = f.name;
  out.qualname = f.qualname;
  out.title = frame_title(f);
  out.file = f.file;
  out.line = f.line;
  out.break_file = c.file;
  out.break_line = c.line;
  out.kind = f.cause_known ? c.brk.kind : BreakKind::Other;
  out.registry_id = c.brk.registry ? c.brk.registry->id : "";
  out.reason = f.cause_known ? core::reason_headline(c.brk.reason) : std::string("(torch logged no break)");
  out.skip_reason = c.skip_reason.empty() ? std::string("dynamo could not resume after this break")
                                          : core::reason_headline(c.skip_reason);
  out.skip_reason_full = c.skip_reason;
  out.hint = f.cause_known ? c.brk.hint : catalog_hint(BreakKind::Other);
  return out;
}

// The compile id of a break without its attempt ("0/1_2" -> "0/1"): restarts of one
// frame's compile are one compile.
std::string compile_key(const std::string& id) {
  size_t slash = id.rfind('/'), under = id.rfind('_');
  return under != std::string::npos && (slash == std::string::npos || under > slash) ? id.substr(0, under) : id;
}

// (file, first line, co_name) -> co_qualname, from the agent's code_names.
std::map<std::tuple<std::string, int, std::string>, std::string> qualnames(
    const std::vector<reply::CodeName>& code_names) {
  std::map<std::tuple<std::string, int, std::string>, std::string> out;
  for (const auto& c : code_names)
    if (c.qualname) out[{c.file, c.line, c.name}] = *c.qualname;
  return out;
}

}  // namespace

ExplainModel parse_explain(const reply::Explain& facts, const reply::Registry& registry, const CodeDirs& dirs) {
  ExplainModel m;
  m.form = facts.form;
  m.ops_per_graph = facts.ops_per_graph;
  for (const auto& b : facts.break_reasons) m.breaks.push_back(explain_break(b, registry, dirs));
  int ops_sum = 0;
  for (const auto& g : m.ops_per_graph) ops_sum += static_cast<int>(g.size());
  if (m.form == "tuple") {
    std::optional<int> graphs, breaks, ops;
    parse_explanation_counts(facts.explanation, graphs, breaks, ops);
    const int listed_graphs = facts.graphs.value_or(-1);
    m.graph_count = graphs.value_or(listed_graphs >= 0 ? listed_graphs : static_cast<int>(m.ops_per_graph.size()));
    // torch 2.0 reports graph_count - 1 as the break count; that is what it printed.
    m.graph_break_count = breaks.value_or(std::max(0, m.graph_count - 1));
    m.op_count = ops.value_or(ops_sum);
    if (facts.out_guards) m.guard_count = static_cast<int>(facts.out_guards->size());
  } else {
    m.graph_count = facts.graph_count.value_or(static_cast<int>(m.ops_per_graph.size()));
    m.graph_break_count = facts.graph_break_count.value_or(static_cast<int>(m.breaks.size()));
    m.op_count = facts.op_count.value_or(ops_sum);
    m.guard_count = facts.guard_count;
  }
  return m;
}

LoggedModel logged_from_trace(const reply::Logged& logged, const RankSummary& trace, const reply::Registry& registry,
                              const CodeDirs& dirs) {
  LoggedModel m;
  m.ran = true;
  m.calls = logged.calls;
  m.error = logged.error.value_or("");
  if (logged.share_pairs) m.graph_share = explain::graph_share_of(*logged.share_pairs);
  // The trace keeps a record's text and traceback once per place and text: a repeat borrows
  // them from the first record it repeats (a record with its own words has its own).
  std::map<std::tuple<int, std::string, int, size_t>, const TraceBreak*> first;
  for (const auto& tb : trace.breaks) {
    auto key = std::make_tuple(static_cast<int>(tb.kind), tb.file, tb.line, tb.text_hash);
    const TraceBreak& full = *first.try_emplace(key, &tb).first->second;
    RunBreak lb;
    std::vector<Frame> frames;
    for (const auto& f : full.frames)
      if (is_user_file(f.file, dirs)) frames.push_back(f);
    lb.brk = make_break(full.reason_full, std::move(frames), registry, full.frames, tb.file);
    lb.frame_skipped = tb.frame_skipped;
    lb.rest_only = tb.rest_only;
    lb.skip_reason = full.skip_reason;
    lb.file = tb.file;
    lb.line = tb.line;
    lb.duplicate = tb.duplicate;
    lb.compile_id = tb.compile_id;
    lb.user_file = is_user_file(tb.file, dirs);
    // The break is where torch says it is: make sure the innermost frame is that spot.
    if (lb.user_file &&
        (lb.brk.frames.empty() || lb.brk.frames.back().file != lb.file || lb.brk.frames.back().line != lb.line))
      lb.brk.frames.push_back({lb.file, lb.line, "?", ""});
    if (!lb.frame_skipped) ++m.graph_breaks;
    m.breaks.push_back(std::move(lb));
  }
  // Skipped frames: one per compiled frame dynamo gave up on (not one per break record:
  // two frames skipped at the same break, as an inlined loop and its caller are, are two),
  // each named by its code's qualified name.
  auto names = qualnames(logged.code_names);
  std::set<std::tuple<std::string, int, std::string>> seen_frames;
  int graphs = 0;
  for (const auto& [id, c] : trace.compiles) {
    graphs += c.graphs;
    ++m.frames_total;
    if (!c.skipped && c.fail_type.empty()) ++m.frames_ok;
    // Dynamo fell back to eager for the frame: it gave up after a break (skipped), or its
    // compile failed (fail_type; without suppress_errors the run would have raised) --
    // what torch's counters["frames"] count as total - ok.
    if ((c.skipped || !c.fail_type.empty()) && seen_frames.emplace(c.file, c.line, c.function).second) {
      RunSkip f;
      f.name = c.function, f.file = c.file, f.line = c.line;
      auto q = names.find({c.file, c.line, c.function});
      f.qualname = q != names.end() ? q->second : c.function;
      std::string key = id.str();
      for (const auto& b : m.breaks)
        if (b.frame_skipped && !b.rest_only && compile_key(b.compile_id) == key) {
          f.cause = b;
          f.cause_known = true;
          break;
        }
      if (!f.cause_known && !c.fail_reason.empty()) {
        // Dynamo gave up without a break record: its compile's failure says why.
        f.cause.brk = make_break(c.fail_reason, {}, registry);
        f.cause_known = true;
      }
      m.skipped.push_back(std::move(f));
    }
    if (c.recompile_reasons.empty()) continue;
    RunRecompile r{c.function, c.file, c.line, {}, BreakKind::Other};
    // Each reason: the failed guard on its first line, then torch's source attribution.
    for (const auto& reason : c.recompile_reasons) r.guard_failures.push_back(reason.substr(0, reason.find('\n')));
    r.kind = core::classify_recompile(r.guard_failures);
    m.recompiles.push_back(std::move(r));
  }
  m.unique_graphs = graphs;
  m.warnings = logged.warnings;
  return m;
}

std::vector<std::string> registry_ids(const RankSummary* trace, const reply::Explain& explain_facts) {
  std::set<std::string> ids;
  if (trace)
    for (const auto& b : trace->breaks)
      if (std::string id = core::registry_id_of(b.reason_full); !id.empty()) ids.insert(id);
  for (const auto& b : explain_facts.break_reasons)
    if (std::string id = core::registry_id_of(b.reason); !id.empty()) ids.insert(id);
  return {ids.begin(), ids.end()};
}

namespace {

// The break's immediate caller joins its group's call sites, once per place.
void add_call_site(Group& g, const Break& b) {
  if (b.frames.size() < 2) return;
  const Frame& c = b.frames[b.frames.size() - 2];
  for (const auto& s : g.call_sites)
    if (s.file == c.file && s.line == c.line) return;
  g.call_sites.push_back(c);
}

}  // namespace

std::vector<Group> group_breaks(const std::vector<Break>& breaks) {
  std::vector<Group> groups;
  std::map<std::tuple<int, std::string, int>, size_t> index;
  for (const auto& b : breaks) {
    Frame where = b.frames.empty() ? Frame{"<unknown>", 0, "?", ""} : b.frames.back();
    auto key = std::make_tuple(static_cast<int>(b.kind), where.file, where.line);
    auto it = index.find(key);
    if (it != index.end()) {
      groups[it->second].count++;
      add_call_site(groups[it->second], b);
      continue;
    }
    Group g;
    g.kind = b.kind;
    g.where = where;
    if (b.frames.size() > 1) g.callers.assign(b.frames.begin(), b.frames.end() - 1);
    g.count = 1;
    g.reason = core::reason_headline(b.reason);
    g.reason_full = b.reason;
    g.hint = b.hint;
    g.registry = b.registry;
    g.views = {"explain"};
    add_call_site(g, b);
    index[key] = groups.size();
    groups.push_back(std::move(g));
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    if (a.count != b.count) return a.count > b.count;
    if (a.where.file != b.where.file) return a.where.file < b.where.file;
    return a.where.line < b.where.line;
  });
  return groups;
}

std::vector<explain::Disagreement> compare_views(const ExplainModel& ex, const LoggedModel& lg) {
  std::vector<explain::Disagreement> out;
  if (!lg.ran) return out;
  auto add = [&](const std::string& kind, const std::string& message) { out.push_back({kind, message}); };
  if (!lg.error.empty())
    add("logged_run_failed",
        fmt::format("the compiled run (backend=eager) raised where explain did not: {}", lg.error));
  // Places, in the order each view met them: explain's break at its innermost user frame,
  // the run's where torch says it broke (a break that skipped a frame is a place too, but
  // not a graph break: explain cannot see past a skip).
  std::vector<std::pair<std::string, std::string>> explain_places, run_places;  // (key, kind)
  std::set<std::string> explain_keys, run_keys, run_break_keys;
  for (const auto& b : ex.breaks) {
    Frame where = b.frames.empty() ? Frame{"<unknown>", 0, "?", ""} : b.frames.back();
    std::string k = loc_key(where.file, where.line);
    if (explain_keys.insert(k).second) explain_places.emplace_back(k, to_string(b.kind));
  }
  for (const auto& b : lg.breaks) {
    if (!b.user_file) continue;
    std::string k = loc_key(b.file, b.line);
    run_keys.insert(k);
    if (!b.frame_skipped && run_break_keys.insert(k).second) run_places.emplace_back(k, to_string(b.brk.kind));
  }
  for (const auto& [k, kind] : explain_places)
    if (!run_keys.count(k) && lg.error.empty())
      add("only_in_explain", fmt::format("{} ({}) is a break in explain but not in the compiled run's log", k, kind));
  for (const auto& [k, kind] : run_places)
    if (!explain_keys.count(k))
      add("only_in_logged", fmt::format("{} ({}) breaks in the compiled run but explain did not report it", k, kind));
  int skipped = static_cast<int>(lg.skipped.size());
  if (lg.error.empty() && ex.graph_break_count != lg.graph_breaks)
    add("break_count", ex.graph_break_count < 0
                           ? fmt::format("torch._dynamo.explain alone gives up on the frame (graph_break_count -1); "
                                         "the compiled run counts {} graph break(s) and {} skipped frame(s)",
                                         lg.graph_breaks, skipped)
                           : fmt::format("torch._dynamo.explain alone says {} graph break(s); the compiled run counts "
                                         "{}, the count used here",
                                         ex.graph_break_count, lg.graph_breaks));
  if (ex.graph_count > 0 && ex.graph_break_count != static_cast<int>(ex.breaks.size()))
    add("count_mismatch", fmt::format("explain counts {} graph breaks but lists {} break reasons", ex.graph_break_count,
                                      ex.breaks.size()));
  if (run_places.size() != explain_places.size() && lg.error.empty())
    add("location_count", fmt::format("explain shows breaks at {} location(s), the compiled run at {}",
                                      explain_places.size(), run_places.size()));
  if (!lg.recompiles.empty()) {
    const RunRecompile& r = lg.recompiles.front();
    add("recompiles", fmt::format("the compiled run recompiled {} time(s) in {} call(s) (first: {} in {}:{}); one "
                                  "explain call cannot show recompiles",
                                  lg.recompiles.size(), lg.calls, r.function, r.file, r.line));
  }
  if (skipped > 0) {
    std::string names;
    for (const auto& f : lg.skipped) names += (names.empty() ? "" : ", ") + frame_title(f);
    add("frames_skipped", fmt::format("dynamo skipped {} of {} frame(s) in the compiled run (they ran eagerly): {}",
                                      skipped, lg.frames_total, names));
  }
  return out;
}

namespace {

// explain's ops of one graph, each name once with its count, most frequent first.
explain::GraphOps graph_ops(const std::vector<std::string>& ops) {
  explain::GraphOps out;
  out.op_count = static_cast<int>(ops.size());
  for (const auto& o : ops) {
    auto it = std::find_if(out.ops.begin(), out.ops.end(), [&](const auto& p) { return p.name == o; });
    if (it == out.ops.end()) out.ops.push_back({o, 1});
    else it->count++;
  }
  std::stable_sort(out.ops.begin(), out.ops.end(), [](const auto& a, const auto& b) { return a.count > b.count; });
  return out;
}

explain::CompiledRun compiled_run(const LoggedModel& lg) {
  explain::CompiledRun out;
  out.calls = lg.calls;
  for (const auto& b : lg.breaks)
    out.graph_breaks.push_back({b.file, b.line, b.brk.kind, core::reason_headline(b.brk.reason), b.brk.reason,
                                b.frame_skipped, b.skip_reason, b.duplicate, b.user_file, b.brk.frames});
  for (const auto& r : lg.recompiles)
    out.recompiles.push_back({r.function, r.file, r.line, r.kind, r.guard_failures, recompile_hint(r.guard_failures)});
  out.frames_total = lg.frames_total;
  out.frames_ok = lg.frames_ok;
  out.warnings = lg.warnings;
  if (!lg.error.empty()) out.error = lg.error;
  out.graph_share = lg.graph_share;
  return out;
}

}  // namespace

explain::ExplainResult build_explain(const reply::Run& facts, const reply::Registry& registry, const RankSummary* trace,
                                     const core::LoadedTarget& target, std::optional<int> max_graph_breaks) {
  const CodeDirs& dirs = facts.code_dirs;
  ExplainModel ex = parse_explain(facts.explain, registry, dirs);
  LoggedModel lg =
      trace ? logged_from_trace(facts.logged.value_or(reply::Logged{}), *trace, registry, dirs) : LoggedModel{};
  bool from_run = lg.ran && lg.error.empty();

  // The groups are what the counts count: the compiled run's graph breaks (each record
  // once, so the groups' counts add up to graph_break_count; a break that made dynamo skip
  // its frame is a skipped frame, not a group), marked "explain" where explain broke at the
  // same place too. Without the run (--no-logged, or it raised): explain's breaks.
  std::vector<Group> groups;
  if (from_run) {
    std::vector<Break> run_breaks;
    for (const auto& b : lg.breaks)
      if (!b.frame_skipped) run_breaks.push_back(b.brk);
    std::set<std::string> explain_keys;
    for (const auto& b : ex.breaks)
      if (!b.frames.empty()) explain_keys.insert(loc_key(b.frames.back().file, b.frames.back().line));
    groups = group_breaks(run_breaks);
    for (auto& g : groups) {
      g.views = explain_keys.count(loc_key(g.where.file, g.where.line)) ? std::vector<std::string>{"explain", "logged"}
                                                                        : std::vector<std::string>{"logged"};
      // The trace keeps one traceback per place; explain's breaks there name the other
      // lines the code was reached from.
      for (const auto& b : ex.breaks)
        if (!b.frames.empty() && b.kind == g.kind && b.frames.back().file == g.where.file &&
            b.frames.back().line == g.where.line)
          add_call_site(g, b);
    }
  } else {
    groups = group_breaks(ex.breaks);
  }

  // The headline counts and the gate come from what the compiled run did (explain can miss a
  // break before the first op, count one where the run breaks twice, and says -1 for a
  // skipped frame); explain's own figures are kept beside them (explain_view).
  explain::ExplainResult r;
  r.target = target;
  r.finished = true;
  r.torch_version = facts.torch_version;
  r.form = ex.form;
  r.counts_from = from_run ? explain::CountsFrom::CompiledRun : explain::CountsFrom::Explain;
  r.graph_count = from_run && lg.unique_graphs ? *lg.unique_graphs : std::max(0, ex.graph_count);
  r.graph_break_count = from_run ? lg.graph_breaks : std::max(0, ex.graph_break_count);
  r.op_count = ex.op_count;
  for (const auto& f : lg.skipped) r.skipped_frames.push_back(skipped_entry(f));
  if (trace && lg.ran) r.eager_parts = trace::eager_parts(*trace);
  r.explain_view = explain::ExplainView{
      ex.graph_count, ex.graph_break_count < 0 ? std::nullopt : std::optional<int>(ex.graph_break_count),
      ex.graph_break_count < 0, ex.op_count};
  for (const auto& ops : ex.ops_per_graph) r.ops_per_graph.push_back(graph_ops(ops));
  r.guard_count = ex.guard_count;
  for (const auto& b : ex.breaks) r.breaks.push_back({b.reason, b.kind, b.registry, b.frames, b.hint});
  // explain's view of a break Dynamo cannot resume from names no reason of torch's
  // ("step_unsupported"): it takes the fix the trace's own record of that break gives, so one
  // break has one fix (the LSTM's allow_rnn, with its cost).
  for (auto& b : r.breaks)
    for (const auto& p : r.eager_parts)
      if (!p.hint.fix.empty() && !b.frames.empty() && b.frames.back().file == p.file &&
          b.frames.back().line == p.from_line)
        b.hint = p.hint;

  std::map<BreakKind, int> by_kind;
  for (const auto& g : groups) {
    explain::BreakGroup out;
    out.kind = g.kind;
    out.where = g.where;
    out.callers = g.callers;
    out.call_sites = g.call_sites;
    out.count = g.count;
    out.reason = g.reason;
    out.reason_full = g.reason_full;
    out.registry_id = g.registry ? g.registry->id : "";
    out.hint = g.hint;
    out.seen_by_explain = std::find(g.views.begin(), g.views.end(), "explain") != g.views.end();
    out.seen_by_logged = std::find(g.views.begin(), g.views.end(), "logged") != g.views.end();
    r.groups.push_back(std::move(out));
    by_kind[g.kind] += g.count;
  }
  // Kinds most frequent first; a tie in the order of the kinds' names (as they were sorted
  // when the JSON name was the key).
  std::vector<std::pair<std::string, explain::KindCount>> kinds;
  for (const auto& [k, n] : by_kind) kinds.push_back({to_string(k), {k, n}});
  std::sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::stable_sort(kinds.begin(), kinds.end(),
                   [](const auto& a, const auto& b) { return a.second.count > b.second.count; });
  for (const auto& [name, k] : kinds) r.kinds.push_back(k);

  if (lg.ran) r.logged = compiled_run(lg);
  r.disagreements = compare_views(ex, lg);
  bool logged_only = std::any_of(r.groups.begin(), r.groups.end(), [](const auto& g) { return !g.seen_by_explain; });
  r.verdict = explain::decide(r.skipped_frames.size(), r.graph_break_count, ex.graph_break_count, ex.breaks.size(),
                              logged_only, r.rest_of_frame_parts() > 0);
  if (max_graph_breaks)
    // A skipped frame fails any limit: nothing of it was compiled, and breaks after the
    // skip point are not visible until it is fixed. So does a frame whose rest runs eagerly
    // after a break Dynamo could not resume from: torch counts no break there.
    r.gate = explain::Gate{*max_graph_breaks, r.skipped_frames.empty() && r.rest_of_frame_parts() == 0 &&
                                                  r.graph_break_count <= *max_graph_breaks};
  return r;
}

json build_explain_section(const reply::Run& facts, const reply::Registry& registry, const RankSummary* trace,
                           const json& target, std::optional<int> max_graph_breaks) {
  return explain::to_json(build_explain(facts, registry, trace, target, max_graph_breaks));
}

}  // namespace tct::explain
