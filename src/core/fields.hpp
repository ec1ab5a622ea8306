#pragma once
// Each shape declared once: a struct lists its fields in one `json_fields(const T*)` function, found by
// argument-dependent lookup beside the struct, and its JSON writer and reader come from that
// list with the document's conventions:
//   - a double that is NaN or infinite is null, and null reads back as NaN (JSON has no NaN);
//   - a Nanoseconds is a number of ns, its key ends in _ns (a test holds every list to it);
//   - an empty std::optional is null; a vector is an array; a described struct an object;
//   - an enum with a `names(E*)` table is its name;
//   - a string written as null when empty where the field says Empty::Null;
//   - reading never throws: a missing or mistyped field keeps the member's initializer, and a
//     field of a newer version is read past.
// A field that needs another spelling (an interval with a constant "confidence", a record read
// by another command's reader) names its writer and reader in its entry.
//
// Why a field table of the project's own: nlohmann's NLOHMANN_DEFINE_TYPE_* macros throw on a
// missing field (the _WITH_DEFAULT variant still throws on a mistyped one), spell NaN as null
// only through a serializer per type, and cannot say "an empty string is null" per field;
// Boost.Describe with Boost.JSON would bring a second JSON library beside nlohmann's. The list
// is also what a test reads to hold schema/ and node/index.d.ts to the declarations
// (tests/unit/test_fields.cpp).
#include <cmath>
#include <concepts>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/units.hpp"

namespace tct::core::fields {

using json = nlohmann::json;

// How an empty string is written: as "" (Keep) or as null (Null: "not known").
enum class Empty { Keep, Null };

template <class T, class M>
struct Field {
  const char* name;
  M T::*member;
  Empty empty = Empty::Keep;
};
template <class T, class M>
constexpr Field<T, M> field(const char* name, M T::*member, Empty empty = Empty::Keep) {
  return {name, member, empty};
}
// A field spelled by its own writer and reader.
template <class T, class M>
struct CustomField {
  const char* name;
  M T::*member;
  json (*write)(const M&);
  M (*read)(const json&);
};
template <class T, class M>
constexpr CustomField<T, M> field(const char* name, M T::*member, json (*write)(const M&), M (*read)(const json&)) {
  return {name, member, write, read};
}

// A struct with a field list: `constexpr auto json_fields(const S*) { return std::tuple{field(...), ...}; }`.
template <class T>
concept Described = requires(const T* p) {
  json_fields(p);
};
// An enum with a name table: `constexpr auto names(const E*)` returns its JSON names in the
// enum's order (an array of string_view).
template <class E>
concept Named = std::is_enum_v<E> && requires(const E* p) {
  names(p);
};

template <Described T>
json write(const T& value);
template <Described T>
void read(const json& j, T& out);

// --- one value, written -------------------------------------------------------------------
inline json encode(const std::string& s, Empty e) { return e == Empty::Null && s.empty() ? json(nullptr) : json(s); }
inline json encode(bool b, Empty) { return b; }
template <std::integral I>
requires(!std::same_as<I, bool>) json encode(I i, Empty) { return i; }
inline json encode(double x, Empty) { return std::isfinite(x) ? json(x) : json(nullptr); }
inline json encode(Nanoseconds d, Empty e) { return encode(d.count(), e); }
// A member kept as the JSON it is: a part of an agent's reply passed on as written.
inline json encode(const json& j, Empty) { return j; }
template <Named E>
json encode(E value, Empty) {
  return std::string(names(static_cast<const E*>(nullptr))[static_cast<std::size_t>(value)]);
}
template <Described T>
json encode(const T& value, Empty) {
  return write(value);
}
template <class T>
json encode(const std::optional<T>& value, Empty e) {
  return value ? encode(*value, e) : json(nullptr);
}
template <class T>
json encode(const std::vector<T>& values, Empty e) {
  json out = json::array();
  for (const auto& v : values) out.push_back(encode(v, e));
  return out;
}

// --- one value, read (a mistyped value leaves `out` as it was) -----------------------------
inline void decode(const json& j, std::string& out) {
  if (j.is_string()) out = j.get<std::string>();
}
inline void decode(const json& j, bool& out) {
  if (j.is_boolean()) out = j.get<bool>();
}
template <std::integral I>
requires(!std::same_as<I, bool>) void decode(const json& j, I& out) {
  if (j.is_number_integer()) out = j.get<I>();
}
inline void decode(const json& j, double& out) {
  if (j.is_number()) out = j.get<double>();
  if (j.is_null()) out = NAN;
}
inline void decode(const json& j, Nanoseconds& out) {
  double ns = out.count();
  decode(j, ns);
  out = Nanoseconds(ns);
}
inline void decode(const json& j, json& out) { out = j; }
template <Named E>
void decode(const json& j, E& out) {
  if (!j.is_string()) return;
  const auto& table = names(static_cast<const E*>(nullptr));
  for (std::size_t k = 0; k < std::size(table); ++k)
    if (table[k] == j.get<std::string>()) out = static_cast<E>(k);
}
template <Described T>
void decode(const json& j, T& out) {
  read(j, out);
}
template <class T>
void decode(const json& j, std::optional<T>& out) {
  if (j.is_null()) {
    out.reset();
    return;
  }
  T value{};
  decode(j, value);
  out = std::move(value);
}
template <class T>
void decode(const json& j, std::vector<T>& out) {
  if (!j.is_array()) return;
  out.clear();
  for (const auto& item : j) {
    T value{};
    decode(item, value);
    out.push_back(std::move(value));
  }
}

// --- a described struct ---------------------------------------------------------------------
template <class T, class M>
json encode_field(const T& value, const Field<T, M>& f) {
  return encode(value.*(f.member), f.empty);
}
template <class T, class M>
json encode_field(const T& value, const CustomField<T, M>& f) {
  return f.write(value.*(f.member));
}
template <class T, class M>
void decode_field(const json& j, T& out, const Field<T, M>& f) {
  decode(j, out.*(f.member));
}
template <class T, class M>
void decode_field(const json& j, T& out, const CustomField<T, M>& f) {
  out.*(f.member) = f.read(j);
}

template <Described T>
json write(const T& value) {
  json out = json::object();
  std::apply([&](const auto&... f) { ((out[f.name] = encode_field(value, f)), ...); },
             json_fields(static_cast<const T*>(nullptr)));
  return out;
}
template <Described T>
void read(const json& j, T& out) {
  if (!j.is_object()) return;
  std::apply([&](const auto&... f) { ((j.contains(f.name) ? decode_field(j[f.name], out, f) : void()), ...); },
             json_fields(static_cast<const T*>(nullptr)));
}
template <Described T>
T read_as(const json& j) {
  T out{};
  read(j, out);
  return out;
}

// The JSON names a described struct writes, in its list's order (for the schema test).
template <Described T>
std::vector<std::string_view> names_of() {
  std::vector<std::string_view> out;
  std::apply([&](const auto&... f) { (out.push_back(f.name), ...); }, json_fields(static_cast<const T*>(nullptr)));
  return out;
}

}  // namespace tct::core::fields
