#include "trace/summary.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/graph_breaks.hpp"

namespace tct::analysis {
namespace {

using simdjson::dom::element;
using simdjson::dom::object;

std::string str_of(element e, std::string_view key) {
  std::string_view v;
  if (e[key].get_string().get(v) == simdjson::SUCCESS) return std::string(v);
  return "";
}

std::optional<double> num_of(element e, std::string_view key) {
  double d = 0;
  if (e[key].get_double().get(d) == simdjson::SUCCESS) return d;
  int64_t i = 0;
  if (e[key].get_int64().get(i) == simdjson::SUCCESS) return static_cast<double>(i);
  return std::nullopt;
}

// "0/1" or "0/1_2" or "!3/0/1" (compilation_metrics' compile_id) -> CompileId.
trace::CompileId parse_compile_id(const std::string& s) {
  trace::CompileId id;
  std::string rest = s;
  if (!rest.empty() && rest[0] == '!') {
    auto slash = rest.find('/');
    if (slash == std::string::npos) return id;
    id.autograd = std::atoll(rest.substr(1, slash - 1).c_str());
    rest = rest.substr(slash + 1);
  }
  auto slash = rest.find('/');
  if (slash == std::string::npos) return id;
  id.frame = std::atoll(rest.substr(0, slash).c_str());
  std::string fc = rest.substr(slash + 1);
  auto us = fc.find('_');
  id.frame_compile = std::atoll(fc.substr(0, us).c_str());
  if (us != std::string::npos) id.attempt = std::atoll(fc.substr(us + 1).c_str());
  return id;
}

bool is_cache_event(const std::string& name) {
  for (const char* end : {"_cache_hit", "_cache_miss", "_cache_bypass"})
    if (name.size() > std::strlen(end) && name.compare(name.size() - std::strlen(end), std::string::npos, end) == 0)
      return true;
  return false;
}

std::string first_line(const std::string& s, size_t max = 240) {
  std::string h = s.substr(0, s.find('\n'));
  if (h.size() > max) h = h.substr(0, max - 3) + "...";
  return h;
}

// A recompile_reasons payload: a JSON list of strings, or one reason written as it is
// (torch writes a lone string payload unquoted).
std::vector<std::string> recompile_reasons(std::string_view payload) {
  std::vector<std::string> out;
  if (!payload.empty() && payload[0] == '[') {
    json j = json::parse(payload, nullptr, false);
    if (j.is_array()) {
      for (const auto& r : j)
        if (r.is_string()) out.push_back(r.get<std::string>());
      return out;
    }
  }
  if (!payload.empty()) out.emplace_back(payload);
  return out;
}

}  // namespace

TraceBreak parse_break_payload(std::string_view payload) {
  // Markers from torch/_dynamo/symbolic_convert.py (log_graph_break) and convert_frame.py.
  static const std::string at = "Graph break in user code at ", why = "Graph Break Reason: ",
                           user_tb = "User code traceback:", resume = "Graph break: torch.compile cannot properly resume",
                           resume_tb = "The graph break occurred in the following user code:",
                           py_tb = "Traceback (most recent call last):", exc = "\ntorch._dynamo.exc.";
  TraceBreak b;
  std::string text(payload);
  // The user-code traceback ends where Python's own traceback of the exception starts.
  auto frames_after = [&](const std::string& tag) {
    size_t start = text.find(tag);
    if (start == std::string::npos) return std::vector<Frame>{};
    size_t end = text.find(py_tb, start);
    return traceback_frames(std::string_view(text).substr(start, end == std::string::npos ? end : end - start));
  };
  std::string reason;
  if (text.rfind(resume, 0) == 0) {
    // Dynamo gave up on the frame outside the bytecode walk: the place is the innermost
    // frame, the reason the exception's message, the skip what torch said first.
    b.frames = frames_after(resume_tb);
    if (!b.frames.empty()) b.file = b.frames.back().file, b.line = b.frames.back().line;
    size_t e = text.rfind(exc);
    size_t colon = e == std::string::npos ? e : text.find(": ", e);
    reason = colon == std::string::npos ? text.substr(0, text.find('\n')) : text.substr(colon + 2);
    b.reason_full = reason;
    b.reason = reason_headline(reason);
    b.kind = classify_reason(reason);
    b.frame_skipped = true;
    size_t l2 = text.find('\n');
    b.skip_reason = l2 == std::string::npos ? "" : text.substr(l2 + 1, text.find('\n', l2 + 1) - l2 - 1);
    return b;
  }
  size_t a = text.find(at);
  if (a != std::string::npos) {
    size_t eol = text.find('\n', a);
    std::string loc = text.substr(a + at.size(), eol == std::string::npos ? std::string::npos : eol - a - at.size());
    size_t colon = loc.rfind(':');
    if (colon != std::string::npos) {
      b.file = loc.substr(0, colon);
      b.line = std::atoi(loc.c_str() + colon + 1);
    }
  }
  size_t r = text.find(why);
  reason = r == std::string::npos ? text : text.substr(r + why.size());
  // The reason ends where torch's source attribution or the traceback starts.
  for (const std::string& end : {std::string("\nStack variable source attribution:"), "\n" + user_tb})
    if (size_t t = reason.find(end); t != std::string::npos) reason = reason.substr(0, t);
  SkipSplit split = split_skip(reason);
  b.reason_full = split.cause;
  b.reason = reason_headline(split.cause);
  b.kind = classify_reason(split.cause);
  b.frame_skipped = split.skipped;
  b.skip_reason = split.skip_reason;
  b.frames = frames_after(user_tb);
  return b;
}

std::string rank_root(const RankSummary& rank) {
  std::vector<std::string> files;
  for (const auto& [id, c] : rank.compiles) files.push_back(c.file);
  for (const auto& b : rank.breaks) files.push_back(b.file);
  for (const auto& u : rank.unframed) files.push_back(u.file);
  return common_root(files);
}

// Attempts of one frame compile (dynamo restarting its analysis after a graph break) are
// one compile: keyed without the attempt, the highest attempt kept.
CompileSummary& RankCollector::entry(const trace::CompileId& id) {
  trace::CompileId key = id;
  key.attempt = 0;
  auto [it, fresh] = out_.compiles.try_emplace(key);
  if (fresh) it->second.id = key;
  it->second.attempts = std::max(it->second.attempts, static_cast<int>(id.attempt) + 1);
  return it->second;
}

trace::CompileId RankCollector::resolve(trace::CompileId id) const {
  id.resets = out_.resets - log_resets_;
  id.log = log_;
  return id;
}

namespace {

// The artifacts whose payloads the summary reads.
bool wanted_artifact(std::string_view name) {
  return name == "dynamo_graph_break_reason" || name == "recompile_reasons" || name == "inductor_collective_schedule" ||
         name == "graph_execution" || name == "inductor_runtime_and_tensor_meta";
}

// AOTAutograd's graph records: with no compile id, the start of a compile outside Dynamo.
// (aot_backward_graph follows aot_joint_graph in the same compile: not a start.)
bool aot_start(std::string_view kind) {
  return kind == "aot_inference_graph" || kind == "aot_joint_graph" || kind == "aot_forward_graph";
}

// Restarts that are not graph breaks (torch/_dynamo/exc.py RestartAnalysis subclasses
// raised without a reason write their type; output_graph.py's two autograd restarts).
bool restart_is_break(const std::string& reason) {
  return !reason.empty() && reason.rfind("<class '", 0) != 0 &&
         reason.find("autograd.grad consumed grad_fns") == std::string::npos &&
         reason.find("requires_grad_() intermediate leaked") == std::string::npos;
}

// Older torch names an explicit torch._dynamo.graph_break() by the function it skipped.
BreakKind restart_kind(const std::string& reason) {
  if (reason.find("skip function graph_break in file") != std::string::npos) return BreakKind::ExplicitGraphBreak;
  return classify_reason(reason);
}

// A JSON list of strings (an inductor_collective_schedule payload); null entries (a kernel
// without a Python name) read "?".
std::vector<std::string> string_list(std::string_view payload) {
  std::vector<std::string> out;
  json j = json::parse(payload, nullptr, false);
  if (!j.is_array()) return out;
  for (const auto& x : j) out.push_back(x.is_string() ? x.get<std::string>() : "?");
  return out;
}

std::string dims(const json& j) {
  if (!j.is_array()) return "?";
  std::string out = "[";
  for (size_t i = 0; i < j.size(); ++i) out += (i ? ", " : "") + (j[i].is_number() ? j[i].dump() : std::string("?"));
  return out + "]";
}

// inductor_runtime_and_tensor_meta {"ops": [{"name", "type", "estimated_runtime_ns",
// "outputs": [{"shape", "stride", "dtype"}]}]} -> "name: shape [4, 8] stride [8, 1] float32".
std::vector<std::string> tensor_meta(std::string_view payload) {
  std::vector<std::string> out;
  json j = json::parse(payload, nullptr, false);
  if (!j.is_object() || !j.contains("ops") || !j["ops"].is_array()) return out;
  for (const auto& op : j["ops"]) {
    if (!op.is_object()) continue;
    std::string s = op.value("name", json("?")).is_string() ? op.value("name", std::string("?")) : "?";
    const char* sep = ": ";
    for (const auto& o : op.value("outputs", json::array())) {
      if (!o.is_object()) continue;
      std::string dtype = o.contains("dtype") && o["dtype"].is_string() ? o["dtype"].get<std::string>() : "?";
      s += fmt::format("{}shape {} stride {} {}", sep, dims(o.value("shape", json())), dims(o.value("stride", json())), dtype);
      sep = "; ";
    }
    out.push_back(std::move(s));
  }
  return out;
}

// graph_execution {"graph_execution_order": [{"compile_id": "0/0"}, ...]} (older: strings).
std::vector<std::string> execution_order(std::string_view payload) {
  std::vector<std::string> out;
  json j = json::parse(payload, nullptr, false);
  if (!j.is_object() || !j.contains("graph_execution_order") || !j["graph_execution_order"].is_array()) return out;
  for (const auto& x : j["graph_execution_order"]) {
    if (x.is_string()) out.push_back(x.get<std::string>());
    else if (x.is_object()) out.push_back(x.contains("compile_id") && x["compile_id"].is_string() ? x["compile_id"].get<std::string>() : "?");
  }
  return out;
}

}  // namespace

bool RankCollector::wants_payload(const trace::Record& r) {
  if (r.kind != "artifact") return false;
  std::string_view name;
  return r.body["name"].get_string().get(name) == simdjson::SUCCESS && wanted_artifact(name);
}

void RankCollector::on_dynamo_start(const trace::Record& r, trace::CompileId id) {
  // torch._dynamo.reset() starts the ids over at 0/0: a compile id begun again, or begun
  // after its compilation_metrics, belongs to a new session of ids.
  trace::CompileId key = id;
  key.resets = 0;
  trace::CompileId whole = key;
  whole.attempt = 0;
  if (started_.count(key) || finished_.count(whole)) {
    ++out_.resets;
    started_.clear();
    finished_.clear();
  }
  started_.insert(key);
  CompileSummary& c = entry(resolve(id));
  simdjson::dom::array stack;
  if (r.body["stack"].get_array().get(stack) != simdjson::SUCCESS || stack.size() == 0) return;
  element last = stack.at(stack.size() - 1);  // the frame being compiled
  c.function = str_of(last, "name");
  int64_t fid = -1;
  if (last["filename"].get_int64().get(fid) == simdjson::SUCCESS && fid >= 0 && static_cast<size_t>(fid) < strings_.size())
    c.file = strings_[static_cast<size_t>(fid)];
  c.line = static_cast<int>(num_of(last, "line").value_or(0));
}

void RankCollector::on_metrics(const trace::Record& r) {
  trace::CompileId raw = r.id.known() ? r.id : parse_compile_id(str_of(r.body, "compile_id"));
  if (!raw.known()) return;
  trace::CompileId whole = raw;
  whole.attempt = 0;
  // A log without dynamo_start records (filtered, or cut before them): a compile id that
  // finishes twice started over too.
  if (finished_.count(whole)) {
    ++out_.resets;
    started_.clear();
    finished_.clear();
  }
  finished_.insert(whole);
  CompileSummary& c = entry(resolve(raw));
  if (c.function.empty()) c.function = str_of(r.body, "co_name");
  if (c.file.empty()) c.file = str_of(r.body, "co_filename");
  if (c.line == 0) c.line = static_cast<int>(num_of(r.body, "co_firstlineno").value_or(0));
  for (auto [key, phase] : {std::pair{"entire_frame_compile_time_s", "entire_frame"},
                            {"backend_compile_time_s", "backend"}, {"inductor_compile_time_s", "inductor"},
                            {"code_gen_time_s", "code_gen"}, {"dynamo_time_before_restart_s", "dynamo_before_restart"}})
    if (auto v = num_of(r.body, key); v && *v > 0) c.phase_s[phase] = *v;
  if (auto v = num_of(r.body, "graph_op_count")) c.op_count = static_cast<int>(*v);
  if (auto v = num_of(r.body, "guard_count")) c.guard_count = static_cast<int>(*v);
  c.fail_type = str_of(r.body, "fail_type");
  std::string fail = str_of(r.body, "fail_reason");
  if (!fail.empty()) {
    SkipSplit split = split_skip(fail);
    c.fail_reason = reason_headline(split.cause);
    c.skipped = c.skipped || split.skipped;
  }
  std::string rr = str_of(r.body, "recompile_reason");
  if (!rr.empty() && c.recompile_reasons.empty()) c.recompile_reasons.push_back(rr);
  simdjson::dom::array restarts;
  std::vector<std::string> break_restarts;
  if (r.body["restart_reasons"].get_array().get(restarts) == simdjson::SUCCESS)
    for (element e : restarts) {
      std::string_view s;
      if (e.get_string().get(s) != simdjson::SUCCESS) continue;
      std::string full(s), line = first_line(full);
      if (!line.empty() && std::find(c.restart_reasons.begin(), c.restart_reasons.end(), line) == c.restart_reasons.end())
        c.restart_reasons.push_back(line);
      if (restart_is_break(full)) break_restarts.push_back(full);
    }
  // A compile that logged no graph-break payload but restarted for graph breaks: older
  // torch's only record of them. (Newer torch logs both: the payloads are counted then.)
  if (c.breaks > 0) return;
  for (const std::string& reason : break_restarts) {
    TraceBreak b;
    b.kind = restart_kind(reason);
    b.file = c.file;
    b.line = c.line;
    b.compile_id = c.id.str();
    b.from_restart = true;
    SkipSplit split = split_skip(reason);
    b.frame_skipped = split.skipped;
    b.duplicate = !break_places_.emplace(static_cast<int>(b.kind), b.file, b.line).second;
    if (!b.duplicate) {
      b.reason_full = split.cause;
      b.reason = reason_headline(split.cause);
      b.skip_reason = split.skip_reason;
    }
    c.breaks++;
    c.breaks_from_restarts++;
    c.skipped = c.skipped || b.frame_skipped;
    out_.breaks.push_back(std::move(b));
  }
}

void RankCollector::on_artifact(const trace::Record& r, trace::CompileId id, std::string_view payload) {
  std::string name = str_of(r.body, "name");
  if (is_cache_event(name)) {
    out_.cache[name]++;
    if (!id.known()) return;
    entry(id).cache[name]++;
    auto it = std::find(out_.cache_names.begin(), out_.cache_names.end(), name);
    if (it == out_.cache_names.end() && out_.cache_names.size() < 255) {
      out_.cache_names.push_back(name);
      it = out_.cache_names.end() - 1;
    }
    if (it != out_.cache_names.end())
      out_.cache_sequence.push_back({id, static_cast<uint8_t>(it - out_.cache_names.begin())});
    return;
  }
  // A payload whose MD5 failed is not read: the reader counted it damaged.
  if (r.payload_damaged) return;
  if (name == "dynamo_graph_break_reason") {
    TraceBreak b = parse_break_payload(payload);
    b.compile_id = id.str();
    b.duplicate = !break_places_.emplace(static_cast<int>(b.kind), b.file, b.line).second;
    if (b.duplicate) {  // released, not cleared: clear() would keep the buffers
      std::string().swap(b.reason);
      std::string().swap(b.reason_full);
      std::string().swap(b.skip_reason);
      std::vector<Frame>().swap(b.frames);
    }
    if (id.known()) {
      CompileSummary& c = entry(id);
      c.breaks++;
      c.skipped = c.skipped || b.frame_skipped;
    }
    out_.breaks.push_back(std::move(b));
  } else if (name == "recompile_reasons" && id.known()) {
    entry(id).recompile_reasons = recompile_reasons(payload);
  } else if (name == "inductor_collective_schedule" && id.known()) {
    out_.collectives[id] = string_list(payload);
  } else if (name == "inductor_runtime_and_tensor_meta" && id.known()) {
    out_.tensor_meta[id] = tensor_meta(payload);
  } else if (name == "graph_execution") {
    // tlparse reads the last one a rank logged.
    out_.execution_order = execution_order(payload);
    out_.has_execution_order = true;
  }
}

void RankCollector::on_unframed(const trace::Record& r) {
  auto inductor_aot = [&] {
    std::string_view name;
    return r.kind == "graph_dump" && r.body["name"].get_string().get(name) == simdjson::SUCCESS &&
           name.rfind("inductor_aot", 0) == 0;
  };
  bool aoti = inductor_aot();
  if (!aot_start(r.kind) && !aoti) return;
  // AOT Inductor writes its wrapper code after the AOTAutograd graph of the same compile.
  if (aoti && !out_.unframed.empty() && out_.unframed.back().kind == "aot_autograd") {
    out_.unframed.back().kind = "aot_inductor";
    return;
  }
  if (aoti && !out_.unframed.empty() && out_.unframed.back().kind == "aot_inductor") return;
  UnframedCompile u;
  u.kind = aoti ? "aot_inductor" : "aot_autograd";
  u.graph = std::string(r.kind);
  u.record_line = r.line;
  // The innermost frame outside torch itself: the user's call that compiled.
  simdjson::dom::array stack;
  if (r.metadata["stack"].get_array().get(stack) == simdjson::SUCCESS)
    for (element f : stack) {
      int64_t fid = -1;
      if (f["filename"].get_int64().get(fid) != simdjson::SUCCESS || fid < 0 || static_cast<size_t>(fid) >= strings_.size())
        continue;
      const std::string& file = strings_[static_cast<size_t>(fid)];
      if (file.find("/torch/") != std::string::npos) continue;
      u.file = file;
      u.function = str_of(f, "name");
      u.line = static_cast<int>(num_of(f, "line").value_or(0));
    }
  out_.unframed.push_back(std::move(u));
}

void RankCollector::on_record(const trace::Record& r, std::string_view payload) {
  out_.kinds[std::string(r.kind)]++;
  if (!out_.rank && r.rank) out_.rank = r.rank;
  if (r.kind == "str") {
    // ["/path/file.py", 4]
    simdjson::dom::array a;
    std::string_view s;
    int64_t i = 0;
    if (r.body.get_array().get(a) == simdjson::SUCCESS && a.size() == 2 && a.at(0).get_string().get(s) == simdjson::SUCCESS &&
        a.at(1).get_int64().get(i) == simdjson::SUCCESS && i >= 0 && i < (1 << 24)) {
      if (strings_.size() <= static_cast<size_t>(i)) strings_.resize(static_cast<size_t>(i) + 1);
      strings_[static_cast<size_t>(i)] = std::string(s);
    }
    return;
  }
  if (r.kind == "dynamo_start") {
    if (r.id.known()) on_dynamo_start(r, r.id);
    return;
  }
  if (r.kind == "compilation_metrics") return on_metrics(r);
  if (r.kind == "dynamo_output_graph") {
    if (r.id.known()) entry(resolve(r.id)).graphs++;
    return;
  }
  if (r.kind == "artifact") return on_artifact(r, r.id.known() ? resolve(r.id) : r.id, payload);
  if (!r.id.known()) on_unframed(r);
}

namespace {

struct BreakGroup {
  BreakKind kind;
  std::string file, reason, skip_reason;
  int line = 0, count = 0;
  bool skipped = false;
  bool from_restart = false;  // every break of the group was known only from restart reasons
  std::vector<std::string> compile_ids;
};

// Groups by kind and place, the file named relative to the rank's root.
std::vector<BreakGroup> group(const std::vector<TraceBreak>& breaks, const std::string& root) {
  std::vector<BreakGroup> out;
  std::map<std::tuple<int, std::string, int>, size_t> at;
  for (const auto& b : breaks) {
    std::string file = portable_path(b.file, root);
    auto key = std::make_tuple(static_cast<int>(b.kind), file, b.line);
    auto it = at.find(key);
    if (it == at.end()) {
      at[key] = out.size();
      out.push_back({b.kind, file, b.reason, b.skip_reason.empty() ? "" : reason_headline(b.skip_reason), b.line, 0,
                     false, true, {}});
      it = at.find(key);
    }
    BreakGroup& g = out[it->second];
    g.count++;
    g.skipped = g.skipped || b.frame_skipped;
    g.from_restart = g.from_restart && b.from_restart;
    if (g.compile_ids.size() < 20 && std::find(g.compile_ids.begin(), g.compile_ids.end(), b.compile_id) == g.compile_ids.end())
      g.compile_ids.push_back(b.compile_id);
  }
  std::stable_sort(out.begin(), out.end(), [](const BreakGroup& a, const BreakGroup& b) { return a.count > b.count; });
  return out;
}

std::string rank_name(const RankSummary& r, size_t index) {
  return r.rank ? fmt::format("rank {}", *r.rank) : fmt::format("log {}", index);
}

// What divergence compares: the shape of compilation, not timings.
struct Signature {
  std::set<std::string> compile_ids;
  std::map<std::string, int> graphs;  // compile id -> graphs
  std::set<std::string> breaks;       // "kind file:line"
  int recompiles = 0;
  int skipped = 0;
  // tlparse's multi-rank checks, per graph (compile id).
  std::map<std::string, std::vector<std::string>> collectives, tensor_meta, cache;
  std::vector<std::string> execution_order;

  bool operator==(const Signature&) const = default;
};

Signature signature(const RankSummary& r) {
  Signature s;
  std::string root = rank_root(r);
  for (const auto& [id, c] : r.compiles) {
    s.compile_ids.insert(id.str());
    s.graphs[id.str()] = c.graphs;
    if (!c.recompile_reasons.empty()) s.recompiles++;
    if (c.skipped) s.skipped++;
  }
  for (const auto& b : r.breaks)
    s.breaks.insert(fmt::format("{} at {}:{}", to_string(b.kind), portable_path(b.file, root), b.line));
  for (const auto& [id, ops] : r.collectives) s.collectives[id.str()] = ops;
  for (const auto& [id, ops] : r.tensor_meta) s.tensor_meta[id.str()] = ops;
  for (const auto& e : r.cache_sequence) s.cache[e.id.str()].push_back(r.cache_names[e.name]);
  s.execution_order = r.execution_order;
  return s;
}

std::string join(const std::vector<std::string>& v, size_t max = 5) {
  std::string out;
  for (size_t i = 0; i < v.size() && i < max; ++i) out += (i ? ", " : "") + v[i];
  if (v.size() > max) out += fmt::format(" and {} more", v.size() - max);
  return out;
}

template <class Set>
std::vector<std::string> minus(const Set& a, const Set& b) {
  std::vector<std::string> out;
  for (const auto& x : a)
    if (!b.count(x)) out.push_back(x);
  return out;
}

// The first index where two lists differ (the shorter one's length when one is a prefix).
size_t first_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  return i;
}

// Collectives in a schedule; the wait_tensor entries inductor lists after each are not.
size_t collective_count(const std::vector<std::string>& schedule) {
  return std::count_if(schedule.begin(), schedule.end(),
                       [](const std::string& op) { return op.find("wait_tensor") == std::string::npos; });
}

// Graph execution orders: a call whose compile id torch did not know (null: the graph came
// from the cache, inductor's GRAPH_COMPILE_IDS has no entry) matches any; lengths must agree.
bool order_match(const std::string& a, const std::string& b) { return a == b || a == "?" || b == "?"; }
size_t first_order_difference(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  size_t i = 0;
  while (i < a.size() && i < b.size() && order_match(a[i], b[i])) ++i;
  return i;
}
bool same_order(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  return a.size() == b.size() && first_order_difference(a, b) == a.size();
}

std::string item(const std::vector<std::string>& v, size_t i) { return i < v.size() ? v[i] : "nothing"; }

// Per graph, a rank's lists against the reference's: (compile id, rank's, reference's) for
// each graph where they differ. both_only: graphs only one of them logged are left out
// (inductor logs a graph's schedule and tensor metadata only when it compiles it, not on
// a cache hit: their absence is the cache check's to report, not a difference).
using ListDiff = std::tuple<std::string, std::vector<std::string>, std::vector<std::string>>;
std::vector<ListDiff> per_graph(const std::map<std::string, std::vector<std::string>>& mine,
                                const std::map<std::string, std::vector<std::string>>& ref, bool both_only) {
  std::vector<ListDiff> out;
  std::set<std::string> ids;
  for (const auto& [id, v] : mine) ids.insert(id);
  for (const auto& [id, v] : ref) ids.insert(id);
  static const std::vector<std::string> none;
  for (const auto& id : ids) {
    auto m = mine.find(id);
    auto r = ref.find(id);
    if (both_only && (m == mine.end() || r == ref.end())) continue;
    const auto& a = m == mine.end() ? none : m->second;
    const auto& b = r == ref.end() ? none : r->second;
    if (a != b) out.emplace_back(id, a, b);
  }
  return out;
}

}  // namespace

json divergence(const std::vector<RankSummary>& ranks) {
  json out = json::array();
  if (ranks.size() < 2) return out;
  std::vector<Signature> sigs;
  for (const auto& r : ranks) sigs.push_back(signature(r));
  // The reference: the signature most ranks share (ties: the lowest rank).
  size_t ref = 0, best = 0;
  for (size_t i = 0; i < sigs.size(); ++i) {
    size_t n = std::count(sigs.begin(), sigs.end(), sigs[i]);
    if (n > best) best = n, ref = i;
  }
  std::vector<std::string> majority;
  for (size_t i = 0; i < sigs.size(); ++i)
    if (sigs[i] == sigs[ref]) majority.push_back(rank_name(ranks[i], i));
  std::string others = join(majority, 8);
  // "issue" / "issues": the reference is one rank or several.
  auto verb = [&](const char* one, const char* many) { return majority.size() == 1 ? one : many; };
  for (size_t i = 0; i < sigs.size(); ++i) {
    if (sigs[i] == sigs[ref]) continue;
    const Signature& s = sigs[i];
    const Signature& r = sigs[ref];
    std::string who = rank_name(ranks[i], i);
    auto add = [&](const char* what, const std::string& message, const std::string& compile_id = "") {
      out.push_back({{"rank", ranks[i].rank ? json(*ranks[i].rank) : json(nullptr)},
                     {"log", ranks[i].files.empty() ? "" : ranks[i].files[0]},
                     {"what", what},
                     {"compile_id", compile_id.empty() ? json(nullptr) : json(compile_id)},
                     {"compared_with", majority},
                     {"message", message}});
    };
    if (auto extra = minus(s.compile_ids, r.compile_ids); !extra.empty())
      add("compile_ids", fmt::format("{} compiled {} that {} did not", who, join(extra), others));
    if (auto missing = minus(r.compile_ids, s.compile_ids); !missing.empty())
      add("compile_ids", fmt::format("{} did not compile {} ({} did)", who, join(missing), others));
    std::vector<std::string> graph_diff;
    for (const auto& [id, n] : s.graphs)
      if (auto it = r.graphs.find(id); it != r.graphs.end() && it->second != n)
        graph_diff.push_back(fmt::format("{}: {} graph(s), not {}", id, n, it->second));
    if (!graph_diff.empty()) add("graphs", fmt::format("{} captured different graphs: {}", who, join(graph_diff)));
    if (auto extra = minus(s.breaks, r.breaks); !extra.empty())
      add("graph_breaks", fmt::format("{} broke the graph where {} did not: {}", who, others, join(extra, 3)));
    if (auto missing = minus(r.breaks, s.breaks); !missing.empty())
      add("graph_breaks", fmt::format("{} lacks graph breaks that {} had: {}", who, others, join(missing, 3)));
    if (s.recompiles != r.recompiles)
      add("recompiles", fmt::format("{} recompiled {} time(s), {} {} time(s)", who, s.recompiles, others, r.recompiles));
    if (s.skipped != r.skipped)
      add("skipped_frames", fmt::format("{} skipped {} frame(s), {} {}", who, s.skipped, others, r.skipped));
    // A rank that issues other collectives than its peers in a graph waits for a partner
    // that never comes: the classic distributed hang (tlparse: collective_schedules).
    for (const auto& [id, mine, theirs] : per_graph(s.collectives, r.collectives, true)) {
      size_t n_mine = collective_count(mine), n_theirs = collective_count(theirs);
      std::string msg =
          n_mine != n_theirs
              ? fmt::format("{} issues {} collective(s) in graph {} where {} {} {}", who, n_mine, id, others,
                            verb("issues", "issue"), n_theirs)
              : fmt::format("{} issues other collectives in graph {} than {}: #{} is {}, not {}", who, id, others,
                            first_difference(mine, theirs) + 1, item(mine, first_difference(mine, theirs)),
                            item(theirs, first_difference(mine, theirs)));
      add("collective_schedule", msg + " (a rank whose collectives differ hangs the job)", id);
    }
    // graph_execution: the order compiled graphs ran in (record_and_log_graph_execution_order).
    if (!same_order(s.execution_order, r.execution_order)) {
      size_t k = first_order_difference(s.execution_order, r.execution_order);
      std::string at = k < s.execution_order.size() ? s.execution_order[k] : "";
      std::string msg =
          k < s.execution_order.size() && k < r.execution_order.size()
              ? fmt::format("{} ran its compiled graphs in another order than {}: call #{} ran graph {}, not {}", who,
                            others, k + 1, s.execution_order[k], r.execution_order[k])
              : fmt::format("{} ran {} compiled graph call(s) where {} ran {} (the same order up to #{})", who,
                            s.execution_order.size(), others, r.execution_order.size(), k);
      add("graph_execution_order", msg, at);
    }
    // Cache hits and misses per graph: a rank that missed where its peers hit compiles
    // longer and arrives late at the first collective (tlparse: cache sequence).
    for (const auto& [id, mine, theirs] : per_graph(s.cache, r.cache, false)) {
      size_t k = first_difference(mine, theirs);
      add("cache", fmt::format("{} had other cache hits and misses in graph {} than {}: {}, not {}", who, id, others,
                               k < mine.size() ? join(mine, 4) : "no cache event", k < theirs.size() ? join(theirs, 4) : "no cache event"),
          id);
    }
    for (const auto& [id, mine, theirs] : per_graph(s.tensor_meta, r.tensor_meta, true)) {
      size_t k = first_difference(mine, theirs);
      std::string msg = fmt::format("{}'s tensor metadata differs in graph {} from {}'s", who, id, others);
      if (mine.size() != theirs.size())
        msg += fmt::format(": {} op(s), not {}; the first that differs is #{}: {}, not {}", mine.size(), theirs.size(), k + 1,
                           item(mine, k), item(theirs, k));
      else
        msg += fmt::format(" at op #{}: {} (not {})", k + 1, item(mine, k), item(theirs, k));
      add("tensor_meta", msg, id);
    }
  }
  return out;
}

json trace_section(const std::string& path, const std::vector<RankSummary>& ranks) {
  json rj = json::array();
  for (size_t i = 0; i < ranks.size(); ++i) {
    const RankSummary& r = ranks[i];
    std::string root = rank_root(r);
    auto name = [&](const std::string& file) { return portable_path(file, root); };
    json compiles = json::array(), recompiles = json::array(), failures = json::array(), skipped = json::array(),
         restarts = json::array();
    std::map<std::string, double> phases;
    int graphs = 0;
    for (const auto& [id, c] : r.compiles) {
      graphs += c.graphs;
      for (const auto& [p, s] : c.phase_s) phases[p] += s;
      json phase_ns = json::object();
      for (const auto& [p, s] : c.phase_s) phase_ns[p] = static_cast<int64_t>(s * 1e9);
      trace::CompileId torch_id = id;
      torch_id.resets = 0;
      torch_id.log = 0;
      compiles.push_back({{"compile_id", id.str()},
                          {"torch_compile_id", torch_id.str()},
                          {"dynamo_resets", id.resets},
                          {"log", id.log},
                          {"function", c.function},
                          {"file", name(c.file)},
                          {"line", c.line},
                          {"graphs", c.graphs},
                          {"graph_breaks", c.breaks},
                          {"graph_breaks_from_restarts", c.breaks_from_restarts},
                          {"op_count", c.op_count ? json(*c.op_count) : json(nullptr)},
                          {"guard_count", c.guard_count ? json(*c.guard_count) : json(nullptr)},
                          {"attempts", c.attempts},
                          {"phase_ns", phase_ns},
                          {"cache", c.cache},
                          {"recompile_reasons", c.recompile_reasons},
                          {"restart_reasons", c.restart_reasons},
                          {"fail_type", c.fail_type.empty() ? json(nullptr) : json(c.fail_type)},
                          {"fail_reason", c.fail_reason.empty() ? json(nullptr) : json(c.fail_reason)},
                          {"skipped", c.skipped}});
      if (!c.recompile_reasons.empty()) {
        std::vector<std::string> guards;
        for (const auto& g : c.recompile_reasons) guards.push_back(g);
        BreakKind kind = classify_recompile(guards);
        recompiles.push_back({{"compile_id", id.str()}, {"function", c.function}, {"file", name(c.file)}, {"line", c.line},
                              {"guard_failures", guards}, {"kind", to_string(kind)}, {"hint", to_json(catalog_hint(kind))}});
      }
      if (c.skipped)
        skipped.push_back({{"compile_id", id.str()}, {"function", c.function}, {"file", name(c.file)}, {"line", c.line},
                           {"reason", c.fail_reason}});
      else if (!c.fail_type.empty())
        failures.push_back({{"compile_id", id.str()}, {"function", c.function}, {"fail_type", c.fail_type},
                            {"fail_reason", c.fail_reason}});
      if (c.attempts > 1 || !c.restart_reasons.empty())
        restarts.push_back({{"compile_id", id.str()}, {"function", c.function}, {"attempts", c.attempts},
                            {"restart_reasons", c.restart_reasons}});
    }
    json groups = json::array();
    for (const auto& g : group(r.breaks, root)) {
      Hint h = catalog_hint(g.kind);
      groups.push_back({{"kind", to_string(g.kind)}, {"label", kind_label(g.kind)}, {"file", g.file}, {"line", g.line},
                        {"count", g.count}, {"reason", g.reason}, {"frame_skipped", g.skipped},
                        {"skip_reason", g.skip_reason}, {"compile_ids", g.compile_ids},
                        {"from_restart", g.from_restart}, {"hint", to_json(h)}});
    }
    json phase_ns = json::object();
    for (const auto& [p, s] : phases) phase_ns[p] = static_cast<int64_t>(s * 1e9);
    json unframed = json::array();
    for (const auto& u : r.unframed)
      unframed.push_back({{"kind", u.kind},
                          {"what", u.kind == "aot_inductor"
                                       ? "AOT Inductor (aoti_compile_and_package / aot_compile): a compiled library, "
                                         "no Dynamo frame"
                                       : "AOTAutograd outside Dynamo (torch.export's lowering, aot_function)"},
                          {"graph", u.graph}, {"function", u.function}, {"file", name(u.file)}, {"line", u.line},
                          {"log_line", u.record_line}});
    const auto& st = r.stats;
    rj.push_back({{"rank", r.rank ? json(*r.rank) : json(nullptr)},
                  {"files", r.files},
                  {"root", root},
                  {"compile_count", r.compiles.size()},
                  {"dynamo_resets", r.resets},
                  {"compiles_without_id", unframed},
                  {"graph_count", graphs},
                  {"graph_break_count", r.breaks.size()},
                  {"compiles", compiles},
                  {"graph_breaks", groups},
                  {"recompiles", recompiles},
                  {"skipped_frames", skipped},
                  {"failures", failures},
                  {"restarts", restarts},
                  {"cache", r.cache},
                  {"compile_time_ns", phase_ns},
                  {"record_kinds", r.kinds},
                  {"read", {{"bytes", st.bytes}, {"lines", st.lines}, {"records", st.records},
                            {"garbled", st.garbled}, {"stray_lines", st.stray}, {"truncated", st.truncated},
                            {"bad_payloads", st.bad_payload}, {"verified_payloads", st.verified_payloads},
                            {"damaged", st.damaged()}, {"oversized_payloads", st.oversized}}}});
  }
  return {{"path", path}, {"ranks", rj}, {"divergence", divergence(ranks)}};
}

}  // namespace tct::analysis
