#include "bench/reply.hpp"

namespace tct::bench::reply {

namespace {
// An object of numbers by name; null (and anything not a number) is NaN.
json number_map_json(const std::map<std::string, double>& m) {
  json out = json::object();
  for (const auto& [name, v] : m) out[name] = std::isfinite(v) ? json(v) : json(nullptr);
  return out;
}
std::map<std::string, double> number_map_from(const json& j, bool keep_other) {
  std::map<std::string, double> out;
  if (!j.is_object()) return out;
  for (const auto& [name, v] : j.items())
    if (v.is_number() || v.is_null() || keep_other) out[name] = v.is_number() ? v.get<double>() : NAN;
  return out;
}
}  // namespace

json timers_json(const Timers& t) { return number_map_json(t); }
Timers timers_from(const json& j) { return number_map_from(j, false); }
json marks_json(const std::map<std::string, double>& m) { return number_map_json(m); }
std::map<std::string, double> marks_from(const json& j) { return number_map_from(j, true); }

std::optional<LeafFacts> leaf_facts_from(const json& j) {
  if (!j.is_array()) return std::nullopt;
  LeafFacts out;
  for (const auto& item : j) {
    LeafFact f = core::fields::read_as<LeafFact>(item);
    f.object = item.is_object();
    out.push_back(std::move(f));
  }
  return out;
}
json leaf_facts_json(const std::optional<LeafFacts>& facts) {
  if (!facts) return nullptr;
  json out = json::array();
  for (const auto& f : *facts) out.push_back(f.object ? core::fields::write(f) : json("?"));
  return out;
}

json flags_json(const Flags& f) {
  json out = json::object();
  for (const auto& [name, v] : f) out[name] = v;
  return out;
}
Flags flags_from(const json& j) {
  Flags out;
  if (!j.is_object()) return out;
  for (const auto& [name, v] : j.items())
    if (v.is_boolean()) out[name] = v.get<bool>();
  return out;
}

}  // namespace tct::bench::reply
