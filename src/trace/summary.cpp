// RankCollector: TORCH_TRACE records of one rank into its RankSummary, in constant memory
// per repeated break (the reader streams; only what the summary needs is kept).
#include "trace/summary.hpp"

#include <algorithm>
#include <cstring>
#include <set>

#include <fmt/format.h>

#include "core/graph_breaks.hpp"

namespace tct::trace {
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
CompileId parse_compile_id(const std::string& s) {
  CompileId id;
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

std::string rank_root(const RankSummary& rank) {
  std::vector<std::string> files;
  for (const auto& [id, c] : rank.compiles) files.push_back(c.file);
  for (const auto& b : rank.breaks) files.push_back(b.file);
  for (const auto& u : rank.unframed) files.push_back(u.file);
  return core::common_root(files);
}

// Attempts of one frame compile (dynamo restarting its analysis after a graph break) are
// one compile: keyed without the attempt, the highest attempt kept.
CompileSummary& RankCollector::entry(const CompileId& id) {
  CompileId key = id;
  key.attempt = 0;
  auto [it, fresh] = out_.compiles.try_emplace(key);
  if (fresh) it->second.id = key;
  it->second.attempts = std::max(it->second.attempts, static_cast<int>(id.attempt) + 1);
  return it->second;
}

CompileId RankCollector::resolve(CompileId id) const {
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
core::BreakKind restart_kind(const std::string& reason) {
  if (reason.find("skip function graph_break in file") != std::string::npos) return core::BreakKind::ExplicitGraphBreak;
  return core::classify_reason(reason);
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
      s += fmt::format("{}shape {} stride {} {}", sep, dims(o.value("shape", json())), dims(o.value("stride", json())),
                       dtype);
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
    else if (x.is_object())
      out.push_back(x.contains("compile_id") && x["compile_id"].is_string() ? x["compile_id"].get<std::string>() : "?");
  }
  return out;
}

}  // namespace

bool RankCollector::wants_payload(const Record& r) {
  if (r.kind != "artifact") return false;
  std::string_view name;
  return r.body["name"].get_string().get(name) == simdjson::SUCCESS && wanted_artifact(name);
}

void RankCollector::on_dynamo_start(const Record& r, CompileId id) {
  // torch._dynamo.reset() starts the ids over at 0/0: a compile id begun again, or begun
  // after its compilation_metrics, belongs to a new session of ids.
  CompileId key = id;
  key.resets = 0;
  CompileId whole = key;
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
  if (last["filename"].get_int64().get(fid) == simdjson::SUCCESS && fid >= 0 &&
      static_cast<size_t>(fid) < strings_.size())
    c.file = strings_[static_cast<size_t>(fid)];
  c.line = static_cast<int>(num_of(last, "line").value_or(0));
}

void RankCollector::on_metrics(const Record& r) {
  CompileId raw = r.id.known() ? r.id : parse_compile_id(str_of(r.body, "compile_id"));
  if (!raw.known()) return;
  CompileId whole = raw;
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
                            {"backend_compile_time_s", "backend"},
                            {"inductor_compile_time_s", "inductor"},
                            {"code_gen_time_s", "code_gen"},
                            {"dynamo_time_before_restart_s", "dynamo_before_restart"}})
    if (auto v = num_of(r.body, key); v && *v > 0) c.phase_s[phase] = *v;
  if (auto v = num_of(r.body, "graph_op_count")) c.op_count = static_cast<int>(*v);
  if (auto v = num_of(r.body, "guard_count")) c.guard_count = static_cast<int>(*v);
  c.fail_type = str_of(r.body, "fail_type");
  std::string fail = str_of(r.body, "fail_reason");
  if (!fail.empty()) {
    core::SkipSplit split = core::split_skip(fail);
    c.fail_reason = core::reason_headline(split.cause);
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
      if (!line.empty() &&
          std::find(c.restart_reasons.begin(), c.restart_reasons.end(), line) == c.restart_reasons.end())
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
    core::SkipSplit split = core::split_skip(reason);
    b.frame_skipped = split.skipped;
    b.rest_only = split.rest_only;
    b.reason_full = split.cause;
    b.skip_reason = split.skip_reason;
    b.text_hash = break_text_hash(b);
    b.duplicate = !break_places_.emplace(static_cast<int>(b.kind), b.file, b.line, b.text_hash).second;
    if (b.duplicate) {
      std::string().swap(b.reason_full);
      std::string().swap(b.skip_reason);
    } else {
      b.reason = core::reason_headline(split.cause);
    }
    c.breaks++;
    c.breaks_from_restarts++;
    c.skipped = c.skipped || (b.frame_skipped && !b.rest_only);
    out_.breaks.push_back(std::move(b));
  }
}

void RankCollector::on_artifact(const Record& r, CompileId id, std::string_view payload) {
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
  // A payload that cannot be read is not used: the reader counted it damaged. One that
  // reads is used even when its MD5 differs (edited after it was written: a note).
  if (r.payload_damaged) return;
  if (name == "dynamo_graph_break_reason") {
    TraceBreak b = parse_break_payload(payload);
    b.compile_id = id.str();
    b.duplicate = !break_places_.emplace(static_cast<int>(b.kind), b.file, b.line, b.text_hash).second;
    if (b.duplicate) {  // released, not cleared: clear() would keep the buffers
      std::string().swap(b.reason);
      std::string().swap(b.reason_full);
      std::string().swap(b.skip_reason);
      std::vector<core::Frame>().swap(b.frames);
    }
    if (id.known()) {
      CompileSummary& c = entry(id);
      c.breaks++;
      // A frame compiled up to an unresumable break is not a skipped frame: its first part compiles.
      c.skipped = c.skipped || (b.frame_skipped && !b.rest_only);
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

void RankCollector::on_unframed(const Record& r) {
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
      if (f["filename"].get_int64().get(fid) != simdjson::SUCCESS || fid < 0 ||
          static_cast<size_t>(fid) >= strings_.size())
        continue;
      const std::string& file = strings_[static_cast<size_t>(fid)];
      if (file.find("/torch/") != std::string::npos) continue;
      u.file = file;
      u.function = str_of(f, "name");
      u.line = static_cast<int>(num_of(f, "line").value_or(0));
    }
  out_.unframed.push_back(std::move(u));
}

void RankCollector::on_record(const Record& r, std::string_view payload) {
  out_.kinds[std::string(r.kind)]++;
  if (!out_.rank && r.rank) out_.rank = r.rank;
  if (r.kind == "str") {
    // ["/path/file.py", 4]
    simdjson::dom::array a;
    std::string_view s;
    int64_t i = 0;
    if (r.body.get_array().get(a) == simdjson::SUCCESS && a.size() == 2 &&
        a.at(0).get_string().get(s) == simdjson::SUCCESS && a.at(1).get_int64().get(i) == simdjson::SUCCESS && i >= 0 &&
        i < (1 << 24)) {
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

}  // namespace tct::trace
