#pragma once
// Numbers in a JSON document, which has no NaN: one rule for reading and writing them, used
// by every runner, analysis and renderer (eight private copies of it used to drift).
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/units.hpp"

namespace tct::core {

// obj[key] as a double; NaN when obj is no object, or the key is missing, null or not a number.
inline double number_or_nan(const nlohmann::json& obj, const char* key) {
  if (!obj.is_object()) return NAN;
  auto it = obj.find(key);
  return it != obj.end() && it->is_number() ? it->get<double>() : NAN;
}

// x, or null when it is NaN or infinite: what a document stores for "not measured".
inline nlohmann::json number_or_null(double x) {
  return std::isfinite(x) ? nlohmann::json(x) : nlohmann::json(nullptr);
}

// A duration as a document holds it: ns under a key named _ns, null when not measured.
inline Nanoseconds duration_or_nan(const nlohmann::json& obj, const char* key) {
  return Nanoseconds(number_or_nan(obj, key));
}
inline nlohmann::json duration_or_null(Nanoseconds d) { return number_or_null(d.count()); }

}  // namespace tct::core
