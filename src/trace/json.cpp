#include "trace/json.hpp"

#include "core/json_read.hpp"

namespace tct::trace {
namespace {

using json = nlohmann::json;

// Readers that never throw (core/json_read.hpp).
using namespace core::json_read;

template <class Int>
std::map<std::string, Int> counts(const json& j, const char* key) {
  std::map<std::string, Int> out;
  const json& v = at(j, key);
  if (v.is_object())
    for (const auto& [k, n] : v.items())
      if (n.is_number()) out[k] = n.template get<Int>();
  return out;
}

template <class T>
std::vector<T> list_of(const json& j, const char* key, T (*of)(const json&)) {
  std::vector<T> out;
  for (const auto& x : list(j, key)) out.push_back(of(x));
  return out;
}

json null_if_empty(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }
json opt_json(const std::optional<int>& v) { return v ? json(*v) : json(nullptr); }

BreakKind kind_of(const json& j) { return core::break_kind_from_string(str(j, "kind")).value_or(BreakKind::Other); }
Hint hint_of(const json& j) { return core::hint_from_json(j); }

json phases_json(const std::map<std::string, Nanoseconds>& phases) {
  json out = json::object();
  for (const auto& [p, ns] : phases) out[p] = ns.count();
  return out;
}
std::map<std::string, Nanoseconds> phases_of(const json& j, const char* key) {
  std::map<std::string, Nanoseconds> out;
  for (const auto& [p, ns] : counts<int64_t>(j, key)) out[p] = Nanoseconds(ns);
  return out;
}

Compile compile_of(const json& j) {
  Compile c;
  c.compile_id = str(j, "compile_id");
  c.torch_compile_id = str(j, "torch_compile_id");
  c.dynamo_resets = num<int64_t>(j, "dynamo_resets");
  c.log = num<int64_t>(j, "log");
  c.function = str(j, "function");
  c.file = str(j, "file");
  c.line = num(j, "line");
  c.graphs = num(j, "graphs");
  c.graph_breaks = num(j, "graph_breaks");
  c.graph_breaks_from_restarts = num(j, "graph_breaks_from_restarts");
  c.op_count = opt_num(j, "op_count");
  c.guard_count = opt_num(j, "guard_count");
  c.attempts = num(j, "attempts", 1);
  c.phases = phases_of(j, "phase_ns");
  c.cache = counts<int>(j, "cache");
  c.recompile_reasons = strings(j, "recompile_reasons");
  c.restart_reasons = strings(j, "restart_reasons");
  c.fail_type = str(j, "fail_type");
  c.fail_reason = str(j, "fail_reason");
  c.skipped = flag(j, "skipped");
  return c;
}

BreakGroup group_of(const json& j) {
  BreakGroup g;
  g.kind = kind_of(j);
  g.file = str(j, "file");
  g.line = num(j, "line");
  g.count = num(j, "count");
  g.reason = str(j, "reason");
  g.frame_skipped = flag(j, "frame_skipped");
  g.rest_only = flag(j, "rest_only");
  g.skip_reason = str(j, "skip_reason");
  g.compile_ids = strings(j, "compile_ids");
  g.from_restart = flag(j, "from_restart");
  g.hint = hint_of(at(j, "hint"));
  return g;
}

Recompile recompile_of(const json& j) {
  return {str(j, "compile_id"),         str(j, "function"), str(j, "file"),        num(j, "line"),
          strings(j, "guard_failures"), kind_of(j),         hint_of(at(j, "hint"))};
}
SkippedFrame skipped_of(const json& j) {
  return {str(j, "compile_id"), str(j, "function"), str(j, "file"), num(j, "line"), str(j, "reason")};
}
Failure failure_of(const json& j) {
  return {str(j, "compile_id"), str(j, "function"), str(j, "fail_type"), str(j, "fail_reason")};
}
Restart restart_of(const json& j) {
  return {str(j, "compile_id"), str(j, "function"), num(j, "attempts", 1), strings(j, "restart_reasons")};
}
CompileWithoutId without_id_of(const json& j) {
  return {str(j, "kind"),
          str(j, "what"),
          str(j, "graph"),
          str(j, "function"),
          str(j, "file"),
          num(j, "line"),
          num<uint64_t>(j, "log_line")};
}
Spot spot_of(const json& j) { return {str(j, "log"), num<uint64_t>(j, "line"), str(j, "record"), str(j, "what")}; }

ReadStats read_of(const json& j) {
  ReadStats s;
  s.bytes = num<uint64_t>(j, "bytes");
  s.lines = num<uint64_t>(j, "lines");
  s.records = num<uint64_t>(j, "records");
  s.garbled = num<uint64_t>(j, "garbled");
  s.stray = num<uint64_t>(j, "stray_lines");
  s.truncated = num<uint64_t>(j, "truncated");
  s.bad_payload = num<uint64_t>(j, "bad_payloads");
  s.edited = num<uint64_t>(j, "edited_payloads");
  s.verified_payloads = num<uint64_t>(j, "verified_payloads");
  s.oversized = num<uint64_t>(j, "oversized_payloads");
  s.damaged_at = list_of(j, "damaged_at", spot_of);
  s.edited_at = list_of(j, "edited_at", spot_of);
  return s;
}

json rank_json(const Rank& r) {
  json out = {{"rank", opt_json(r.rank)},
              {"files", r.files},
              {"root", r.root},
              {"compile_count", r.compiles.size()},
              {"dynamo_resets", r.dynamo_resets},
              {"compiles_without_id", to_json_list(r.compiles_without_id)},
              {"graph_count", r.graph_count},
              {"graph_break_count", r.graph_break_count},
              {"compiles", to_json_list(r.compiles)},
              {"graph_breaks", to_json_list(r.graph_breaks)},
              {"recompiles", to_json_list(r.recompiles)},
              {"skipped_frames", to_json_list(r.skipped_frames)},
              {"failures", to_json_list(r.failures)},
              {"restarts", to_json_list(r.restarts)},
              {"cache", r.cache},
              {"compile_time_ns", phases_json(r.compile_time)},
              {"record_kinds", r.record_kinds},
              {"read", to_json(r.read)}};
  // Written when there is one: a log without code that runs eagerly reads as before the field.
  if (!r.eager_parts.empty()) out["eager_parts"] = core::to_json(r.eager_parts);
  return out;
}
Rank rank_of(const json& j) {
  Rank r;
  r.rank = opt_num(j, "rank");
  r.files = strings(j, "files");
  r.root = str(j, "root");
  r.dynamo_resets = num(j, "dynamo_resets");
  r.compiles_without_id = list_of(j, "compiles_without_id", without_id_of);
  r.graph_count = num(j, "graph_count");
  r.graph_break_count = num<uint64_t>(j, "graph_break_count");
  r.compiles = list_of(j, "compiles", compile_of);
  r.graph_breaks = list_of(j, "graph_breaks", group_of);
  r.recompiles = list_of(j, "recompiles", recompile_of);
  r.skipped_frames = list_of(j, "skipped_frames", skipped_of);
  r.eager_parts = core::eager_parts_from_json(at(j, "eager_parts"));
  r.failures = list_of(j, "failures", failure_of);
  r.restarts = list_of(j, "restarts", restart_of);
  r.cache = counts<uint64_t>(j, "cache");
  r.compile_time = phases_of(j, "compile_time_ns");
  r.record_kinds = counts<uint64_t>(j, "record_kinds");
  r.read = read_of(at(j, "read"));
  return r;
}

json difference_json(const std::optional<FirstDifference>& d) {
  if (!d) return nullptr;
  return {{"position", d->position}, {"op", null_if_empty(d->op)}, {"reference_op", null_if_empty(d->reference_op)}};
}
std::optional<FirstDifference> difference_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return FirstDifference{num<size_t>(j, "position"), str(j, "op"), str(j, "reference_op")};
}

json divergence_json(const Divergence& d) {
  return {{"rank", opt_json(d.rank)},
          {"log", d.log},
          {"what", d.what},
          {"compile_id", null_if_empty(d.compile_id)},
          {"compared_with", d.compared_with},
          {"first_difference", difference_json(d.first_difference)},
          {"message", d.message}};
}
Divergence divergence_of(const json& j) {
  return {opt_num(j, "rank"),
          str(j, "log"),
          str(j, "what"),
          str(j, "compile_id"),
          strings(j, "compared_with"),
          str(j, "message"),
          difference_of(at(j, "first_difference"))};
}

}  // namespace

json to_json(const Compile& c) {
  return {{"compile_id", c.compile_id},
          {"torch_compile_id", c.torch_compile_id},
          {"dynamo_resets", c.dynamo_resets},
          {"log", c.log},
          {"function", c.function},
          {"file", c.file},
          {"line", c.line},
          {"graphs", c.graphs},
          {"graph_breaks", c.graph_breaks},
          {"graph_breaks_from_restarts", c.graph_breaks_from_restarts},
          {"op_count", opt_json(c.op_count)},
          {"guard_count", opt_json(c.guard_count)},
          {"attempts", c.attempts},
          {"phase_ns", phases_json(c.phases)},
          {"cache", c.cache},
          {"recompile_reasons", c.recompile_reasons},
          {"restart_reasons", c.restart_reasons},
          {"fail_type", null_if_empty(c.fail_type)},
          {"fail_reason", null_if_empty(c.fail_reason)},
          {"skipped", c.skipped}};
}

json to_json(const BreakGroup& g) {
  json out = {{"kind", core::to_string(g.kind)},
              {"label", core::kind_label(g.kind)},
              {"file", g.file},
              {"line", g.line},
              {"count", g.count},
              {"reason", g.reason},
              {"frame_skipped", g.frame_skipped},
              {"skip_reason", g.skip_reason},
              {"compile_ids", g.compile_ids},
              {"from_restart", g.from_restart},
              {"hint", core::to_json(g.hint)}};
  if (g.rest_only) out["rest_only"] = true;  // written when true: older sections read back byte for byte
  return out;
}

json to_json(const Restart& r) {
  return {{"compile_id", r.compile_id},
          {"function", r.function},
          {"attempts", r.attempts},
          {"restart_reasons", r.restart_reasons}};
}

json to_json(const Recompile& r) {
  return {{"compile_id", r.compile_id},
          {"function", r.function},
          {"file", r.file},
          {"line", r.line},
          {"guard_failures", r.guard_failures},
          {"kind", core::to_string(r.kind)},
          {"hint", core::to_json(r.hint)}};
}

json to_json(const SkippedFrame& f) {
  return {
      {"compile_id", f.compile_id}, {"function", f.function}, {"file", f.file}, {"line", f.line}, {"reason", f.reason}};
}

json to_json(const CompileWithoutId& u) {
  return {{"kind", u.kind}, {"what", u.what}, {"graph", u.graph},      {"function", u.function},
          {"file", u.file}, {"line", u.line}, {"log_line", u.log_line}};
}

json to_json(const Failure& f) {
  return {{"compile_id", f.compile_id},
          {"function", f.function},
          {"fail_type", f.fail_type},
          {"fail_reason", f.fail_reason}};
}

json to_json(const Spot& s) {
  return {{"log", s.log}, {"line", s.line}, {"record", null_if_empty(s.record)}, {"what", s.what}};
}

json to_json(const ReadStats& s) {
  return {{"bytes", s.bytes},
          {"lines", s.lines},
          {"records", s.records},
          {"garbled", s.garbled},
          {"stray_lines", s.stray},
          {"truncated", s.truncated},
          {"bad_payloads", s.bad_payload},
          {"edited_payloads", s.edited},
          {"verified_payloads", s.verified_payloads},
          {"damaged", s.damaged()},
          {"oversized_payloads", s.oversized},
          {"damaged_at", to_json_list(s.damaged_at)},
          {"edited_at", to_json_list(s.edited_at)}};
}

json to_json(const TraceResult& t) {
  json divergence = json::array();
  for (const auto& d : t.divergence) divergence.push_back(divergence_json(d));
  json ranks = json::array();
  for (const auto& r : t.ranks) ranks.push_back(rank_json(r));
  return {{"path", t.path}, {"ranks", ranks}, {"divergence", divergence}};
}

TraceResult from_json(const json& section) {
  TraceResult t;
  t.path = str(section, "path");
  t.ranks = list_of(section, "ranks", rank_of);
  t.divergence = list_of(section, "divergence", divergence_of);
  return t;
}

}  // namespace tct::trace
