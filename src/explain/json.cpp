// The explain section: its fields are listed once (explain/json_fields.hpp); here are the
// spellings that take more than a line, and the section's entry points.
#include "explain/json.hpp"

#include "core/json_read.hpp"
#include "explain/json_fields.hpp"

namespace tct::explain {

using core::fields::write;

BreakKind kind_from(const json& j) {
  return core::break_kind_from_string(j.is_string() ? j.get<std::string>() : "other").value_or(BreakKind::Other);
}
void name_from(const json& j, SkippedFrame& f) { f.function = j.is_string() ? j.get<std::string>() : "?"; }
void qualname_from(const json& j, SkippedFrame& f) {
  f.qualname = j.is_string() ? j.get<std::string>() : f.function;  // before co_qualname was read: the name
}
void title_from(const json& j, SkippedFrame& f) {
  f.title = j.is_string() ? j.get<std::string>() : "";
  if (f.title.empty())  // an older document: "forward at model.py:12" from its fields
    f.title = f.function + " at " + core::base_name(f.file) + ":" + std::to_string(f.line);
}
void count_from(const json& j, BreakGroup& g) { g.count = j.is_number() ? j.get<int>() : 1; }
json views_json(const BreakGroup& g) {
  json views = json::array();
  if (g.seen_by_explain) views.push_back("explain");
  if (g.seen_by_logged) views.push_back("logged");
  return views;
}
void views_from(const json& j, BreakGroup& g) {
  for (const auto& v : j.is_array() ? j : json::array()) {
    if (v == "explain") g.seen_by_explain = true;
    if (v == "logged") g.seen_by_logged = true;
  }
}
std::optional<std::string> error_from(const json& j) {
  if (j.is_string()) return j.get<std::string>();
  if (j.is_object()) return core::json_read::str(j, "message", j.dump());  // the schema allows an object
  return std::nullopt;
}
void overhead_from(const json& j, GraphShare& g) { g.overhead = j.is_number() ? j.get<double>() : NAN; }
// Older documents said -1 when explain gave up on a frame: a skipped frame, not a count.
void break_count_from(const json& j, ExplainResult& r) {
  const int breaks = j.is_number() ? j.get<int>() : 0;
  r.graph_break_count = std::max(0, breaks);
  r.unnamed_skip = breaks < 0 && r.skipped_frames.empty();
}
std::vector<GraphOps> ops_from(const json& j) {
  std::vector<GraphOps> out;
  for (const auto& g : j.is_array() ? j : json::array())
    out.push_back(g.is_number() ? GraphOps{g.get<int>(), {}} : read_as<GraphOps>(g));  // older: the counts alone
  return out;
}
json logged_json(const ExplainResult& r) {
  if (!r.logged) return nullptr;
  json out = write(*r.logged);
  out["frames_skipped"] = r.skipped_frames.size();
  return out;
}
// The verdict as written; a document older than the field: from the fields it had, by the same
// precedence (a skipped frame, then one graph, then breaks).
void capturable_from(const json& j, ExplainResult& r) {
  r.verdict = j.is_boolean() && j.get<bool>() ? Verdict::Capturable : Verdict::GraphBreaks;
}
void verdict_from(const json& j, ExplainResult& r) {
  if (auto v = parse_verdict(j.is_string() ? j.get<std::string>() : "")) r.verdict = *v;
  else if (r.frames_skipped() > 0) r.verdict = Verdict::FrameSkipped;
}
json gate_json(const ExplainResult& r) {
  if (!r.gate) return nullptr;
  json out = write(*r.gate);
  out["graph_break_count"] = r.graph_break_count;
  out["frames_skipped"] = r.skipped_frames.size();
  return out;
}

// A checkpoint: the target is loaded, nothing else is known yet.
json to_json(const ExplainResult& r) { return r.finished ? write(r) : json{{"target", r.target}}; }
ExplainResult from_json(const json& s) {
  ExplainResult r;
  r.finished = s.is_object() && s.contains("graph_count");
  if (r.finished) core::fields::read(s, r);
  else r.target = core::json_read::at(s, "target");
  return r;
}

json to_json(const Frame& f) { return write(f); }
json to_json(const Recompile& r) { return write(r); }
json to_json(const Disagreement& d) { return write(d); }
Frame frame_from_json(const json& j) { return read_as<Frame>(j); }
json to_json(const SkippedFrame& frame) { return write(frame); }
SkippedFrame skipped_frame_from_json(const json& frame) { return read_as<SkippedFrame>(frame); }

}  // namespace tct::explain
