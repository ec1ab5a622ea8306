// The startup section: its fields are listed once (startup/json_fields.hpp); here are the
// spellings that are not a plain field, and the section's entry points.
#include "startup/json.hpp"

#include "startup/json_fields.hpp"

namespace tct::startup {

using json = nlohmann::json;

json phases_json(const std::map<Phase, Nanoseconds>& phases) {
  json out = json::object();
  for (const auto& [p, d] : phases) out[std::string(to_string(p)) + "_ns"] = core::fields::encode(d, {});
  return out;
}
std::map<Phase, Nanoseconds> phases_from(const json& j) {
  std::map<Phase, Nanoseconds> out;
  for (Phase p : kAllPhases)
    if (const std::string key = std::string(to_string(p)) + "_ns"; j.is_object() && j.contains(key))
      core::fields::decode(j[key], out[p] = kNotMeasured);
  return out;
}
json description_json(const ModeResult& m) { return describe(m.mode); }

CacheCounters counters_from_json(const json& c) { return core::fields::read_as<CacheCounters>(c); }
json to_json(const StartupResult& r) { return core::fields::write(r); }
StartupResult from_json(const json& j) { return core::fields::read_as<StartupResult>(j); }

}  // namespace tct::startup
