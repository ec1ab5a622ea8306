#pragma once
// Readers of a JSON document that never throw: a saved document may be older, written by
// another version or edited by hand, and an agent's record may come from an older agent. Each
// result's from_json and every renderer that shows a raw record read through these: the one
// JSON reading vocabulary of the project.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace tct::core::json_read {

using json = nlohmann::json;

// j[key], or null when j is no object or has no such key.
inline const json& at(const json& j, const char* key) {
  static const json null;
  return j.is_object() && j.contains(key) ? j[key] : null;
}
inline std::string str(const json& j, const char* key, const std::string& fallback = "") {
  const json& v = at(j, key);
  return v.is_string() ? v.get<std::string>() : fallback;
}
template <class Int = int>
Int num(const json& j, const char* key, Int fallback = 0) {
  const json& v = at(j, key);
  return v.is_number() ? v.template get<Int>() : fallback;
}
// j[key] as text: a string as it is, any other value as compact JSON; `fallback` when it is
// missing or null (a field a report shows whatever its type).
inline std::string text(const json& j, const char* key, const std::string& fallback = "") {
  const json& v = at(j, key);
  if (v.is_null()) return fallback;
  return v.is_string() ? v.get<std::string>() : v.dump();
}
inline bool has(const json& j, const char* key) { return j.is_object() && j.contains(key); }
// j[key] as a T when it is a number (a string, a boolean), else none.
template <class T = int>
std::optional<T> opt_num(const json& j, const char* key) {
  const json& v = at(j, key);
  return v.is_number() ? std::optional<T>(v.template get<T>()) : std::nullopt;
}
inline std::optional<std::string> opt_str(const json& j, const char* key) {
  const json& v = at(j, key);
  return v.is_string() ? std::optional<std::string>(v.get<std::string>()) : std::nullopt;
}
inline std::optional<bool> opt_bool(const json& j, const char* key) {
  const json& v = at(j, key);
  return v.is_boolean() ? std::optional<bool>(v.get<bool>()) : std::nullopt;
}
inline bool flag(const json& j, const char* key, bool fallback = false) { return opt_bool(j, key).value_or(fallback); }
// j[key] when it is an array, else an empty one.
inline const json& list(const json& j, const char* key) {
  static const json empty = json::array();
  const json& v = at(j, key);
  return v.is_array() ? v : empty;
}
inline std::vector<std::string> strings(const json& j, const char* key) {
  std::vector<std::string> out;
  for (const auto& s : list(j, key))
    if (s.is_string()) out.push_back(s.get<std::string>());
  return out;
}
// The numbers of j[key], skipping anything else.
inline std::vector<double> doubles(const json& j, const char* key) {
  std::vector<double> out;
  for (const auto& v : list(j, key))
    if (v.is_number()) out.push_back(v.get<double>());
  return out;
}
}  // namespace tct::core::json_read
