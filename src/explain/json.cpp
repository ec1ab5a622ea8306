#include "explain/json.hpp"

#include "core/json_number.hpp"
#include "core/json_read.hpp"

#include <algorithm>

namespace tct::explain {
namespace {

using json = nlohmann::json;

// Readers that never throw (core/json_read.hpp).
using namespace core::json_read;
using core::number_or_nan;
using core::number_or_null;

BreakKind kind_of(const json& j, const char* key = "kind") {
  return core::break_kind_from_string(str(j, key, "other")).value_or(BreakKind::Other);
}

json hint_json(const Hint& h) { return core::to_json(h); }
Hint hint_of(const json& j) { return core::hint_from_json(j); }

json frames_json(const std::vector<Frame>& frames) {
  json out = json::array();
  for (const auto& f : frames) out.push_back(to_json(f));
  return out;
}
std::vector<Frame> frames_of(const json& j, const char* key) {
  std::vector<Frame> out;
  for (const auto& f : list(j, key)) out.push_back(frame_from_json(f));
  return out;
}

json registry_json(const std::optional<Registry>& r) {
  if (!r) return nullptr;
  return {{"id", r->id}, {"type", r->type}, {"explanation", r->explanation}, {"hints", r->hints}, {"url", r->url}};
}
std::optional<Registry> registry_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return Registry{str(j, "id"), str(j, "type"), str(j, "explanation"), strings(j, "hints"), str(j, "url")};
}

json skipped_json(const SkippedFrame& f) {
  return {{"function", f.function},
          {"qualname", f.qualname},
          {"title", f.title},
          {"file", f.file},
          {"line", f.line},
          {"break_file", f.break_file},
          {"break_line", f.break_line},
          {"kind", core::to_string(f.kind)},
          {"registry_id", f.registry_id},
          {"reason", f.reason},
          {"skip_reason", f.skip_reason},
          {"skip_reason_full", f.skip_reason_full},
          {"hint", hint_json(f.hint)}};
}
SkippedFrame skipped_of(const json& j) {
  SkippedFrame f;
  f.function = str(j, "function", "?");
  f.qualname = str(j, "qualname", f.function);  // before co_qualname was read: the name
  f.file = str(j, "file");
  f.line = num(j, "line");
  f.title = str(j, "title");
  if (f.title.empty()) {  // an older document: "forward at model.py:12" from its fields
    f.title = f.function + " at " + core::base_name(f.file) + ":" + std::to_string(f.line);
  }
  f.break_file = str(j, "break_file");
  f.break_line = num(j, "break_line");
  f.kind = kind_of(j);
  f.registry_id = str(j, "registry_id");
  f.reason = str(j, "reason");
  f.skip_reason = str(j, "skip_reason");
  f.skip_reason_full = str(j, "skip_reason_full");
  f.hint = hint_of(at(j, "hint"));
  return f;
}

json group_json(const BreakGroup& g) {
  json views = json::array();
  if (g.seen_by_explain) views.push_back("explain");
  if (g.seen_by_logged) views.push_back("logged");
  return {{"kind", core::to_string(g.kind)},
          {"file", g.where.file},
          {"line", g.where.line},
          {"function", g.where.function},
          {"source", g.where.source},
          {"callers", frames_json(g.callers)},
          {"call_sites", frames_json(g.call_sites)},
          {"count", g.count},
          {"reason", g.reason},
          {"reason_full", g.reason_full},
          {"registry_id", g.registry_id},
          {"hint", hint_json(g.hint)},
          {"views", views}};
}
BreakGroup group_of(const json& j) {
  BreakGroup g;
  g.kind = kind_of(j);
  g.where = frame_from_json(j);
  g.callers = frames_of(j, "callers");
  g.call_sites = frames_of(j, "call_sites");
  g.count = num(j, "count", 1);
  g.reason = str(j, "reason");
  g.reason_full = str(j, "reason_full");
  g.registry_id = str(j, "registry_id");
  g.hint = hint_of(at(j, "hint"));
  for (const auto& v : strings(j, "views")) {
    if (v == "explain") g.seen_by_explain = true;
    if (v == "logged") g.seen_by_logged = true;
  }
  return g;
}

json logged_json(const CompiledRun& lg, std::size_t frames_skipped) {
  json breaks = json::array(), recompiles = json::array();
  for (const auto& b : lg.graph_breaks)
    breaks.push_back({{"file", b.file},
                      {"line", b.line},
                      {"kind", core::to_string(b.kind)},
                      {"reason", b.reason},
                      {"reason_full", b.reason_full},
                      {"frame_skipped", b.frame_skipped},
                      {"skip_reason", b.skip_reason},
                      {"duplicate", b.duplicate},
                      {"user_code", b.user_code},
                      {"frames", frames_json(b.frames)}});
  for (const auto& r : lg.recompiles) recompiles.push_back(to_json(r));
  json out = {{"backend", lg.backend},
              {"calls", lg.calls},
              {"graph_breaks", breaks},
              {"recompiles", recompiles},
              {"frames_total", lg.frames_total},
              {"frames_ok", lg.frames_ok},
              {"frames_skipped", frames_skipped},
              {"warnings", lg.warnings},
              {"error", lg.error ? json(*lg.error) : json(nullptr)}};
  // Written when timed: a document of an earlier version reads back byte for byte.
  if (lg.graph_share)
    out["graph_share"] = {{"pairs", lg.graph_share->pairs},
                          {"covered", number_or_null(lg.graph_share->covered)},
                          {"eager_fastest_ns", number_or_null(lg.graph_share->eager_fastest_ns)},
                          {"in_graph_fastest_ns", number_or_null(lg.graph_share->in_graph_fastest_ns)}};
  if (lg.graph_share && std::isfinite(lg.graph_share->overhead))  // an older document has none
    out["graph_share"]["overhead"] = lg.graph_share->overhead;
  return out;
}
CompiledRun logged_of(const json& j) {
  CompiledRun lg;
  lg.backend = str(j, "backend", "eager");
  lg.calls = num(j, "calls");
  for (const auto& b : list(j, "graph_breaks"))
    lg.graph_breaks.push_back({str(b, "file"), num(b, "line"), kind_of(b), str(b, "reason"), str(b, "reason_full"),
                               flag(b, "frame_skipped"), str(b, "skip_reason"), flag(b, "duplicate"),
                               flag(b, "user_code", true), frames_of(b, "frames")});
  for (const auto& r : list(j, "recompiles"))
    lg.recompiles.push_back({str(r, "function"), str(r, "file"), num(r, "line"), kind_of(r),
                             strings(r, "guard_failures"), hint_of(at(r, "hint"))});
  lg.frames_total = num(j, "frames_total");
  lg.frames_ok = num(j, "frames_ok");
  lg.warnings = strings(j, "warnings");
  const json& error = at(j, "error");
  if (error.is_string()) lg.error = error.get<std::string>();
  else if (error.is_object()) lg.error = str(error, "message", error.dump());  // the schema allows an object
  if (const json& g = at(j, "graph_share"); g.is_object())
    lg.graph_share = GraphShare{num(g, "pairs"), number_or_nan(g, "covered"), number_or_nan(g, "eager_fastest_ns"),
                                number_or_nan(g, "in_graph_fastest_ns"), number_or_nan(g, "overhead")};
  return lg;
}

}  // namespace

json to_json(const Frame& f) {
  return {{"file", f.file}, {"line", f.line}, {"function", f.function}, {"source", f.source}};
}

json to_json(const Recompile& r) {
  return {{"function", r.function},
          {"file", r.file},
          {"line", r.line},
          {"kind", core::to_string(r.kind)},
          {"guard_failures", r.guard_failures},
          {"hint", hint_json(r.hint)}};
}

json to_json(const Disagreement& d) { return {{"kind", d.kind}, {"message", d.message}}; }

Frame frame_from_json(const json& j) { return {str(j, "file"), num(j, "line"), str(j, "function"), str(j, "source")}; }

json to_json(const ExplainResult& r) {
  json s;
  s["target"] = r.target;
  if (!r.finished) return s;  // a checkpoint: the target is loaded, nothing else is known yet
  s["torch_version"] = r.torch_version;
  s["form"] = r.form;
  if (r.counts_from) s["counts_from"] = *r.counts_from == CountsFrom::CompiledRun ? "compiled_run" : "explain";
  s["graph_count"] = r.graph_count;
  s["graph_break_count"] = r.graph_break_count;
  s["op_count"] = r.op_count;
  json skipped = json::array();
  for (const auto& f : r.skipped_frames) skipped.push_back(skipped_json(f));
  s["skipped_frames"] = skipped;
  // Written when there is one: a document without code that runs eagerly reads as before the field.
  if (!r.eager_parts.empty()) s["eager_parts"] = core::to_json(r.eager_parts);
  if (r.explain_view) {
    const ExplainView& v = *r.explain_view;
    s["explain_view"] = {{"graph_count", v.graph_count},
                         {"graph_break_count", v.graph_break_count ? json(*v.graph_break_count) : json(nullptr)},
                         {"frame_skipped", v.frame_skipped},
                         {"op_count", v.op_count}};
  }
  json opg = json::array();
  for (const auto& g : r.ops_per_graph) {
    json ops = json::array();
    for (const auto& o : g.ops) ops.push_back({{"name", o.name}, {"count", o.count}});
    opg.push_back({{"op_count", g.op_count}, {"ops", ops}});
  }
  s["ops_per_graph"] = opg;
  s["guard_count"] = r.guard_count ? json(*r.guard_count) : json(nullptr);
  json breaks = json::array();
  for (const auto& b : r.breaks)
    breaks.push_back({{"reason", b.reason},
                      {"kind", core::to_string(b.kind)},
                      {"registry", registry_json(b.registry)},
                      {"frames", frames_json(b.frames)},
                      {"hint", hint_json(b.hint)}});
  s["breaks"] = breaks;
  json groups = json::array();
  for (const auto& g : r.groups) groups.push_back(group_json(g));
  s["groups"] = groups;
  json kinds = json::array();
  for (const auto& k : r.kinds)
    kinds.push_back({{"kind", core::to_string(k.kind)}, {"label", core::kind_label(k.kind)}, {"count", k.count}});
  s["kinds"] = kinds;
  s["logged"] = r.logged ? logged_json(*r.logged, r.skipped_frames.size()) : json(nullptr);
  json dis = json::array();
  for (const auto& d : r.disagreements) dis.push_back(to_json(d));
  s["disagreements"] = dis;
  s["capturable"] = r.capturable();
  s["verdict"] = std::string(to_string(r.verdict));
  if (r.gate)
    s["gate"] = {{"max_graph_breaks", r.gate->max_graph_breaks},
                 {"graph_break_count", r.graph_break_count},
                 {"frames_skipped", r.skipped_frames.size()},
                 {"passed", r.gate->passed}};
  else s["gate"] = nullptr;
  return s;
}

ExplainResult from_json(const json& s) {
  ExplainResult r;
  r.target = at(s, "target");
  r.finished = s.is_object() && s.contains("graph_count");
  if (!r.finished) return r;
  r.torch_version = str(s, "torch_version");
  r.form = str(s, "form", "object");
  std::string from = str(s, "counts_from");
  if (from == "compiled_run") r.counts_from = CountsFrom::CompiledRun;
  else if (from == "explain") r.counts_from = CountsFrom::Explain;
  r.graph_count = std::max(0, num(s, "graph_count"));
  // Older documents said -1 when explain gave up on a frame: a skipped frame, not a count.
  int breaks = num(s, "graph_break_count");
  r.graph_break_count = std::max(0, breaks);
  r.op_count = num(s, "op_count");
  r.guard_count = opt_num(s, "guard_count");
  for (const auto& f : list(s, "skipped_frames")) r.skipped_frames.push_back(skipped_of(f));
  r.unnamed_skip = breaks < 0 && r.skipped_frames.empty();
  r.eager_parts = core::eager_parts_from_json(at(s, "eager_parts"));
  if (const json& v = at(s, "explain_view"); v.is_object())
    r.explain_view = ExplainView{num(v, "graph_count"), opt_num(v, "graph_break_count"), flag(v, "frame_skipped"),
                                 num(v, "op_count")};
  for (const auto& g : list(s, "ops_per_graph")) {
    GraphOps ops;
    ops.op_count = g.is_number() ? g.get<int>() : num(g, "op_count");
    for (const auto& o : list(g, "ops")) ops.ops.push_back({str(o, "name"), num(o, "count")});
    r.ops_per_graph.push_back(std::move(ops));
  }
  for (const auto& b : list(s, "breaks"))
    r.breaks.push_back(
        {str(b, "reason"), kind_of(b), registry_of(at(b, "registry")), frames_of(b, "frames"), hint_of(at(b, "hint"))});
  for (const auto& g : list(s, "groups")) r.groups.push_back(group_of(g));
  for (const auto& k : list(s, "kinds")) r.kinds.push_back({kind_of(k), num(k, "count")});
  if (const json& lg = at(s, "logged"); lg.is_object()) r.logged = logged_of(lg);
  for (const auto& d : list(s, "disagreements")) r.disagreements.push_back({str(d, "kind"), str(d, "message")});
  // The verdict as written; a document older than the field: from the fields it had, by
  // the same precedence (a skipped frame, then one graph, then breaks).
  if (auto v = parse_verdict(str(s, "verdict"))) r.verdict = *v;
  else if (r.frames_skipped() > 0) r.verdict = Verdict::FrameSkipped;
  else r.verdict = flag(s, "capturable") ? Verdict::Capturable : Verdict::GraphBreaks;
  if (const json& g = at(s, "gate"); g.is_object()) r.gate = Gate{num(g, "max_graph_breaks"), flag(g, "passed", true)};
  return r;
}

json to_json(const SkippedFrame& frame) { return skipped_json(frame); }
SkippedFrame skipped_frame_from_json(const json& frame) { return skipped_of(frame); }

}  // namespace tct::explain
