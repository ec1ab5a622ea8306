#include "explain/audit.hpp"

#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <tuple>

#include <fmt/format.h>

namespace tct::analysis {
namespace {

int int_or(const json& j, const char* key, int fallback) {
  if (!j.is_object() || !j.contains(key) || !j[key].is_number()) return fallback;
  return j[key].get<int>();
}

std::string str_or(const json& j, const char* key, const std::string& fallback = "") {
  if (!j.is_object() || !j.contains(key) || !j[key].is_string()) return fallback;
  return j[key].get<std::string>();
}

// The user's frames of a break's stack (the agent sends them all, outermost first).
std::vector<Frame> parse_frames(const json& frames, const CodeDirs& dirs) {
  std::vector<Frame> out;
  if (!frames.is_array()) return out;
  for (const auto& f : frames) {
    if (!f.is_object()) continue;
    Frame fr{str_or(f, "file"), int_or(f, "line", 0), str_or(f, "function", "?"), str_or(f, "source")};
    if (is_user_file(fr.file, dirs)) out.push_back(std::move(fr));
  }
  return out;
}

// {id, type, explanation, hints, url} for a break: the reason's own explanation and hints
// (specific: they name the function and argument types) first, the registry entry's
// templates ("{fn.__name__}") only where the reason has none. id: the reason's own (the
// registry id in its text), else the one the agent found.
json registry_for(const std::string& reason, const json& registry) {
  ReasonParts parts = split_reason(reason);
  std::string id = registry_id_of(reason), url = parts.url;
  if (id.empty()) return nullptr;
  json entry = registry.is_object() && registry.contains(id) ? registry[id] : json();
  json hints = json::array();
  for (const auto& h : parts.hints) hints.push_back(h);
  if (hints.empty() && entry.is_object() && entry.contains("hints") && entry["hints"].is_array()) {
    // Registry hints are sentence fragments of one or more hints; join them.
    std::string joined;
    for (const auto& h : entry["hints"])
      if (h.is_string()) joined += h.get<std::string>();
    if (!joined.empty()) hints.push_back(joined);
  }
  return {{"id", id},
          {"type", entry.is_object() && entry.contains("gb_type") && entry["gb_type"].is_string()
                       ? entry["gb_type"].get<std::string>()
                       : parts.headline},
          {"explanation", !parts.explanation.empty() ? parts.explanation : str_or(entry, "explanation")},
          {"hints", hints},
          {"url", url}};
}

// A break classified from its own text: for a skipped frame that is the break that started
// it (the print), not the loop message that followed.
Break make_break(const std::string& reason, std::vector<Frame> frames, const json& registry) {
  Break b;
  b.reason = reason;
  b.kind = classify_reason(reason);
  b.registry = registry_for(reason, registry);
  b.frames = std::move(frames);
  b.hint = hint_for(b.kind, b.registry);
  return b;
}

// One of explain's break_reasons (the agent's raw facts).
Break explain_break(const json& raw, const json& registry, const CodeDirs& dirs) {
  return make_break(str_or(raw, "reason"), parse_frames(raw.value("frames", json::array()), dirs), registry);
}

std::string trim_text(const std::string& s) {
  size_t b = s.find_first_not_of(" \t\n"), e = s.find_last_not_of(" \t\n");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
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
std::string frame_title(const SkippedFrame& f) {
  std::string file = f.file;
  if (auto slash = file.find_last_of('/'); slash != std::string::npos) file = file.substr(slash + 1);
  return fmt::format("{} at {}:{}", f.qualname, file, f.line);
}

json skipped_to_json(const std::vector<SkippedFrame>& frames) {
  json out = json::array();
  for (const auto& f : frames) {
    const LoggedBreak& c = f.cause;
    Hint hint = f.cause_known ? c.brk.hint : catalog_hint(BreakKind::Other);
    out.push_back({{"function", f.name},
                   {"qualname", f.qualname},
                   {"title", frame_title(f)},
                   {"file", f.file},
                   {"line", f.line},
                   {"break_file", c.file},
                   {"break_line", c.line},
                   {"kind", to_string(f.cause_known ? c.brk.kind : BreakKind::Other)},
                   {"registry_id", c.brk.registry.is_object() ? c.brk.registry.value("id", "") : ""},
                   {"reason", f.cause_known ? reason_headline(c.brk.reason) : std::string("(torch logged no break)")},
                   {"skip_reason", c.skip_reason.empty() ? std::string("dynamo could not resume after this break")
                                                         : reason_headline(c.skip_reason)},
                   {"skip_reason_full", c.skip_reason},
                   {"hint", to_json(hint)}});
  }
  return out;
}

// The compile id of a break without its attempt ("0/1_2" -> "0/1"): restarts of one
// frame's compile are one compile.
std::string compile_key(const std::string& id) {
  size_t slash = id.rfind('/'), under = id.rfind('_');
  return under != std::string::npos && (slash == std::string::npos || under > slash) ? id.substr(0, under) : id;
}

// (file, first line, co_name) -> co_qualname, from the agent's code_names.
std::map<std::tuple<std::string, int, std::string>, std::string> qualnames(const json& code_names) {
  std::map<std::tuple<std::string, int, std::string>, std::string> out;
  if (!code_names.is_array()) return out;
  for (const auto& c : code_names)
    if (c.is_object() && c.contains("qualname") && c["qualname"].is_string())
      out[{str_or(c, "file"), int_or(c, "line", 0), str_or(c, "name")}] = c["qualname"].get<std::string>();
  return out;
}

}  // namespace

SkipSplit split_skip(const std::string& reason) {
  // Markers from torch/_dynamo/symbolic_convert.py and exc.py (torch 2.6+).
  static const std::string encountered = "Graph break encountered:";
  static const std::string another = "*** While handling this graph break, another graph break occurred: ***";
  SkipSplit out;
  out.cause = reason;
  bool falls_back = reason.find("falling back to eager") != std::string::npos ||
                    reason.find("Skipping frame") != std::string::npos;
  size_t enc = reason.find(encountered);
  if (enc != std::string::npos) out.cause = reason.substr(enc + encountered.size());
  size_t second = out.cause.find(another);
  if (second != std::string::npos) {
    out.skip_reason = trim_text(out.cause.substr(second + another.size()));
    out.cause = out.cause.substr(0, second);
  }
  out.cause = trim_text(out.cause);
  if (out.cause.empty()) out.cause = trim_text(reason);
  out.skipped = falls_back || out.skip_reason.find("Skipping the frame") != std::string::npos ||
                out.skip_reason.find("falling back to eager") != std::string::npos;
  return out;
}

json frame_to_json(const Frame& f) {
  return {{"file", f.file}, {"line", f.line}, {"function", f.function}, {"source", f.source}};
}

std::string reason_headline(const std::string& reason) {
  ReasonParts p = split_reason(reason);
  std::string h = p.headline.empty() ? reason : p.headline;
  if (auto nl = h.find('\n'); nl != std::string::npos) h = h.substr(0, nl);
  if (h.size() > 240) h = h.substr(0, 237) + "...";
  return h;
}

ExplainModel parse_explain(const json& facts, const json& registry, const CodeDirs& dirs) {
  ExplainModel m;
  if (!facts.is_object()) return m;
  m.form = str_or(facts, "form", "object");
  for (const auto& ops : facts.value("ops_per_graph", json::array())) {
    std::vector<std::string> names;
    if (ops.is_array())
      for (const auto& o : ops) names.push_back(o.is_string() ? o.get<std::string>() : o.dump());
    m.ops_per_graph.push_back(std::move(names));
  }
  for (const auto& b : facts.value("break_reasons", json::array())) m.breaks.push_back(explain_break(b, registry, dirs));
  int ops_sum = 0;
  for (const auto& g : m.ops_per_graph) ops_sum += static_cast<int>(g.size());
  if (m.form == "tuple") {
    std::optional<int> graphs, breaks, ops;
    parse_explanation_counts(str_or(facts, "explanation"), graphs, breaks, ops);
    int listed_graphs = facts.contains("graphs") && facts["graphs"].is_array() ? static_cast<int>(facts["graphs"].size())
                                                                                : int_or(facts, "graphs", -1);
    m.graph_count = graphs.value_or(listed_graphs >= 0 ? listed_graphs : static_cast<int>(m.ops_per_graph.size()));
    // torch 2.0 reports graph_count - 1 as the break count; that is what it printed.
    m.graph_break_count = breaks.value_or(std::max(0, m.graph_count - 1));
    m.op_count = ops.value_or(ops_sum);
    if (facts.contains("out_guards") && facts["out_guards"].is_array())
      m.guard_count = static_cast<int>(facts["out_guards"].size());
  } else {
    m.graph_count = int_or(facts, "graph_count", static_cast<int>(m.ops_per_graph.size()));
    m.graph_break_count = int_or(facts, "graph_break_count", static_cast<int>(m.breaks.size()));
    m.op_count = int_or(facts, "op_count", ops_sum);
    if (facts.contains("guard_count") && facts["guard_count"].is_number()) m.guard_count = facts["guard_count"].get<int>();
  }
  return m;
}

LoggedModel logged_from_trace(const json& logged, const RankSummary& trace, const json& registry,
                              const CodeDirs& dirs) {
  LoggedModel m;
  m.ran = true;
  m.calls = int_or(logged, "calls", 0);
  m.error = str_or(logged, "error");
  // The trace keeps a break's text and traceback once per place: a repeat borrows them.
  std::map<std::tuple<int, std::string, int>, const TraceBreak*> first;
  for (const auto& tb : trace.breaks) {
    auto key = std::make_tuple(static_cast<int>(tb.kind), tb.file, tb.line);
    const TraceBreak& full = *first.try_emplace(key, &tb).first->second;
    LoggedBreak lb;
    std::vector<Frame> frames;
    for (const auto& f : full.frames)
      if (is_user_file(f.file, dirs)) frames.push_back(f);
    lb.brk = make_break(full.reason_full, std::move(frames), registry);
    lb.frame_skipped = tb.frame_skipped;
    lb.skip_reason = full.skip_reason;
    lb.file = tb.file;
    lb.line = tb.line;
    lb.duplicate = tb.duplicate;
    lb.compile_id = tb.compile_id;
    lb.user_file = is_user_file(tb.file, dirs);
    // The break is where torch says it is: make sure the innermost frame is that spot.
    if (lb.user_file && (lb.brk.frames.empty() || lb.brk.frames.back().file != lb.file ||
                         lb.brk.frames.back().line != lb.line))
      lb.brk.frames.push_back({lb.file, lb.line, "?", ""});
    if (!lb.frame_skipped) ++m.graph_breaks;
    m.breaks.push_back(std::move(lb));
  }
  // Skipped frames: one per compiled frame dynamo gave up on (not one per break record:
  // two frames skipped at the same break, as an inlined loop and its caller are, are two),
  // each named by its code's qualified name.
  auto names = qualnames(logged.value("code_names", json()));
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
      SkippedFrame f;
      f.name = c.function, f.file = c.file, f.line = c.line;
      auto q = names.find({c.file, c.line, c.function});
      f.qualname = q != names.end() ? q->second : c.function;
      std::string key = id.str();
      for (const auto& b : m.breaks)
        if (b.frame_skipped && compile_key(b.compile_id) == key) {
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
    Recompile r{c.function, c.file, c.line, {}, BreakKind::Other};
    // Each reason: the failed guard on its first line, then torch's source attribution.
    for (const auto& reason : c.recompile_reasons) r.guard_failures.push_back(reason.substr(0, reason.find('\n')));
    r.kind = classify_recompile(r.guard_failures);
    m.recompiles.push_back(std::move(r));
  }
  m.unique_graphs = graphs;
  for (const auto& w : logged.value("warnings", json::array()))
    if (w.is_string()) m.warnings.push_back(w);
  return m;
}

std::vector<std::string> registry_ids(const RankSummary* trace, const json& explain_facts) {
  std::set<std::string> ids;
  if (trace)
    for (const auto& b : trace->breaks)
      if (std::string id = registry_id_of(b.reason_full); !id.empty()) ids.insert(id);
  if (explain_facts.is_object())
    for (const auto& b : explain_facts.value("break_reasons", json::array()))
      if (std::string id = registry_id_of(str_or(b, "reason")); !id.empty()) ids.insert(id);
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
    g.reason = reason_headline(b.reason);
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

json compare_views(const ExplainModel& ex, const LoggedModel& lg, const std::vector<Group>&) {
  json out = json::array();
  if (!lg.ran) return out;
  auto add = [&](const std::string& kind, const std::string& message) {
    out.push_back({{"kind", kind}, {"message", message}});
  };
  if (!lg.error.empty())
    add("logged_run_failed", fmt::format("the compiled run (backend=eager) raised where explain did not: {}", lg.error));
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
                                         "{}, the count used here", ex.graph_break_count, lg.graph_breaks));
  if (ex.graph_count > 0 && ex.graph_break_count != static_cast<int>(ex.breaks.size()))
    add("count_mismatch", fmt::format("explain counts {} graph breaks but lists {} break reasons",
                                      ex.graph_break_count, ex.breaks.size()));
  if (run_places.size() != explain_places.size() && lg.error.empty())
    add("location_count", fmt::format("explain shows breaks at {} location(s), the compiled run at {}",
                                      explain_places.size(), run_places.size()));
  if (!lg.recompiles.empty()) {
    const Recompile& r = lg.recompiles.front();
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

json build_explain_section(const json& facts, const RankSummary* trace, const json& target,
                           std::optional<int> max_graph_breaks) {
  const json& registry = facts.value("registry", json::object());
  CodeDirs dirs = CodeDirs::from_json(facts.value("code_dirs", json()));
  ExplainModel ex = parse_explain(facts.value("explain", json::object()), registry, dirs);
  LoggedModel lg = trace ? logged_from_trace(facts.value("logged", json::object()), *trace, registry, dirs)
                         : LoggedModel{};
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
  json skipped = skipped_to_json(lg.skipped);
  json section;
  section["target"] = target;
  section["torch_version"] = facts.value("torch_version", "");
  section["form"] = ex.form;
  section["counts_from"] = from_run ? "compiled_run" : "explain";
  section["graph_count"] = from_run && lg.unique_graphs ? *lg.unique_graphs : std::max(0, ex.graph_count);
  section["graph_break_count"] = from_run ? lg.graph_breaks : std::max(0, ex.graph_break_count);
  section["op_count"] = ex.op_count;
  section["skipped_frames"] = skipped;
  section["explain_view"] = {{"graph_count", ex.graph_count},
                             {"graph_break_count", ex.graph_break_count < 0 ? json(nullptr) : json(ex.graph_break_count)},
                             {"frame_skipped", ex.graph_break_count < 0},
                             {"op_count", ex.op_count}};
  json opg = json::array();
  for (const auto& ops : ex.ops_per_graph) {
    std::vector<std::pair<std::string, int>> counts;
    for (const auto& o : ops) {
      auto it = std::find_if(counts.begin(), counts.end(), [&](const auto& p) { return p.first == o; });
      if (it == counts.end()) counts.emplace_back(o, 1);
      else it->second++;
    }
    std::stable_sort(counts.begin(), counts.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    json list = json::array();
    for (const auto& [name, n] : counts) list.push_back({{"name", name}, {"count", n}});
    opg.push_back({{"op_count", ops.size()}, {"ops", list}});
  }
  section["ops_per_graph"] = opg;
  section["guard_count"] = ex.guard_count ? json(*ex.guard_count) : json(nullptr);

  json breaks = json::array();
  for (const auto& b : ex.breaks) {
    json frames = json::array();
    for (const auto& f : b.frames) frames.push_back(frame_to_json(f));
    breaks.push_back({{"reason", b.reason}, {"kind", to_string(b.kind)}, {"registry", b.registry}, {"frames", frames},
                      {"hint", to_json(b.hint)}});
  }
  section["breaks"] = breaks;

  json gj = json::array();
  std::map<std::string, int> by_kind;
  for (const auto& g : groups) {
    json callers = json::array(), sites = json::array();
    for (const auto& f : g.callers) callers.push_back(frame_to_json(f));
    for (const auto& f : g.call_sites) sites.push_back(frame_to_json(f));
    gj.push_back({{"kind", to_string(g.kind)},
                  {"file", g.where.file},
                  {"line", g.where.line},
                  {"function", g.where.function},
                  {"source", g.where.source},
                  {"callers", callers},
                  {"call_sites", sites},
                  {"count", g.count},
                  {"reason", g.reason},
                  {"reason_full", g.reason_full},
                  {"registry_id", g.registry.is_object() ? g.registry.value("id", "") : ""},
                  {"hint", to_json(g.hint)},
                  {"views", g.views}});
    by_kind[to_string(g.kind)] += g.count;
  }
  section["groups"] = gj;
  std::vector<std::pair<std::string, int>> kinds(by_kind.begin(), by_kind.end());
  std::stable_sort(kinds.begin(), kinds.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  json kj = json::array();
  for (const auto& [k, n] : kinds) {
    auto kind = break_kind_from_string(k).value_or(BreakKind::Other);
    kj.push_back({{"kind", k}, {"label", kind_label(kind)}, {"count", n}});
  }
  section["kinds"] = kj;

  if (lg.ran) {
    json lb = json::array();
    for (const auto& b : lg.breaks) {
      json frames = json::array();
      for (const auto& f : b.brk.frames) frames.push_back(frame_to_json(f));
      lb.push_back({{"file", b.file}, {"line", b.line}, {"kind", to_string(b.brk.kind)},
                    {"reason", reason_headline(b.brk.reason)}, {"reason_full", b.brk.reason},
                    {"frame_skipped", b.frame_skipped}, {"skip_reason", b.skip_reason}, {"duplicate", b.duplicate},
                    {"user_code", b.user_file}, {"frames", frames}});
    }
    json rc = json::array();
    for (const auto& r : lg.recompiles)
      rc.push_back({{"function", r.function}, {"file", r.file}, {"line", r.line}, {"kind", to_string(r.kind)},
                    {"guard_failures", r.guard_failures}, {"hint", to_json(catalog_hint(r.kind))}});
    section["logged"] = {{"backend", "eager"},
                         {"calls", lg.calls},
                         {"graph_breaks", lb},
                         {"recompiles", rc},
                         {"frames_total", lg.frames_total},
                         {"frames_ok", lg.frames_ok},
                         {"frames_skipped", lg.skipped.size()},
                         {"warnings", lg.warnings},
                         {"error", lg.error.empty() ? json(nullptr) : json(lg.error)}};
  } else {
    section["logged"] = nullptr;
  }
  section["disagreements"] = compare_views(ex, lg, groups);
  bool logged_breaks = std::any_of(groups.begin(), groups.end(), [](const Group& g) {
    return std::find(g.views.begin(), g.views.end(), "explain") == g.views.end();
  });
  int counted = section["graph_break_count"].get<int>();
  bool capturable = counted == 0 && skipped.empty() && ex.graph_break_count == 0 && ex.breaks.empty() && !logged_breaks;
  section["capturable"] = capturable;
  section["verdict"] = !skipped.empty() ? "frame_skipped" : capturable ? "capturable" : "graph_breaks";
  if (max_graph_breaks) {
    // A skipped frame fails any limit: nothing of it was compiled, and breaks after the
    // skip point are not visible until it is fixed.
    bool passed = skipped.empty() && counted <= *max_graph_breaks;
    section["gate"] = {{"max_graph_breaks", *max_graph_breaks}, {"graph_break_count", counted},
                       {"frames_skipped", skipped.size()}, {"passed", passed}};
  } else {
    section["gate"] = nullptr;
  }
  return section;
}

}  // namespace tct::analysis
