#include "startup/reply.hpp"

namespace tct::startup::reply {

nlohmann::json marks_json(const Marks& m) {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& [name, ns] : m) out[name] = std::isfinite(ns) ? nlohmann::json(ns) : nlohmann::json(nullptr);
  return out;
}

Marks marks_from(const nlohmann::json& j) {
  Marks out;
  if (!j.is_object()) return out;
  for (const auto& [name, v] : j.items()) out[name] = v.is_number() ? v.get<double>() : NAN;
  return out;
}

}  // namespace tct::startup::reply
