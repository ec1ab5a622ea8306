// The trace section: its fields are listed once (trace/json_fields.hpp); here are the spellings
// that are not a plain field, and the section's entry points.
#include "trace/json.hpp"

#include "trace/json_fields.hpp"

namespace tct::trace {

using json = nlohmann::json;
using core::fields::write;

json kind_json(const BreakKind& k) { return core::to_string(k); }
BreakKind kind_from(const json& j) {
  return core::break_kind_from_string(j.is_string() ? j.get<std::string>() : "").value_or(BreakKind::Other);
}
json hint_json(const Hint& h) { return core::to_json(h); }
Hint hint_from(const json& j) { return core::hint_from_json(j); }
json label_json(const BreakGroup& g) { return core::kind_label(g.kind); }
json rest_only_json(const BreakGroup& g) { return g.rest_only ? json(true) : json(json::value_t::discarded); }
void rest_only_from(const json& j, BreakGroup& g) { g.rest_only = j.is_boolean() && j.get<bool>(); }
json compile_count_json(const Rank& r) { return r.compiles.size(); }
json eager_parts_json(const Rank& r) {
  return r.eager_parts.empty() ? json(json::value_t::discarded) : core::to_json(r.eager_parts);
}
void eager_parts_from(const json& j, Rank& r) {
  r.eager_parts = core::eager_parts_from_json(j.is_discarded() ? json() : j);
}
json damaged_json(const ReadStats& s) { return s.damaged(); }

json to_json(const Compile& c) { return write(c); }
json to_json(const BreakGroup& g) { return write(g); }
json to_json(const Restart& r) { return write(r); }
json to_json(const Recompile& r) { return write(r); }
json to_json(const SkippedFrame& f) { return write(f); }
json to_json(const CompileWithoutId& u) { return write(u); }
json to_json(const Failure& f) { return write(f); }
json to_json(const Spot& s) { return write(s); }
json to_json(const ReadStats& s) { return write(s); }
json to_json(const TraceResult& t) { return write(t); }
TraceResult from_json(const json& section) { return core::fields::read_as<TraceResult>(section); }

}  // namespace tct::trace
