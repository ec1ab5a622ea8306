#pragma once
// Each shape declared once: a struct lists its fields in one `json_fields(const T*)` function, found by
// argument-dependent lookup beside the struct, and its JSON writer and reader come from that
// list with the document's conventions:
//   - a double that is NaN or infinite is null, and null reads back as NaN (JSON has no NaN);
//   - a Nanoseconds is a number of ns (whole for an integer duration, or where the field says
//     kWholeNs), its key ends in _ns;
//   - an empty std::optional is null; a vector is an array; a described struct an object;
//   - an enum with a `names(E*)` table is its name;
//   - a string written as null when empty where the field says Empty::Null; an optional (a string,
//     a list) left out when empty where it says Empty::Absent (there a null reads back as the value's own null:
//     NaN for a number);
//   - a map from string is an object;
//   - reading never throws: a missing or mistyped field keeps the member's initializer, and a
//     field of a newer version is read past.
// A field that needs another spelling (an interval with a constant "confidence", a record read
// by another command's reader) names its writer and reader in its entry. Three more entries
// shape the object rather than one value: `flat(&T::m[, "prefix_"])` writes a described
// member's fields into the enclosing object (an optional one read back when any of its keys is
// there), `group(name, fields...)` gathers some of the struct's own fields under one key, and
// `custom<T>(name, writer[, reader])` spells a key from the whole struct (a figure derived from
// others, a reader that decides again, or only a reader: an older document's key); a writer
// (its own or a field's) returns a discarded json to leave the key out, and a custom reader is
// called with the key's value, a discarded json when missing.
//
// Why a field table of the project's own: nlohmann's NLOHMANN_DEFINE_TYPE_* macros throw on a
// missing field (the _WITH_DEFAULT variant still throws on a mistyped one), spell NaN as null
// only through a serializer per type, and cannot say "an empty string is null" per field;
// Boost.Describe with Boost.JSON would bring a second JSON library beside nlohmann's. The list
// is also what a test reads to hold schema/ and node/index.d.ts to the declarations
// (tests/unit/test_fields.cpp).
#include <chrono>
#include <cmath>
#include <cstdint>
#include <concepts>
#include <map>
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

// How an empty string is written: as "" (Keep) or as null (Null: "not known"); Absent: an
// empty optional, string or list is left out of the object.
enum class Empty { Keep, Null, Absent };

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
// A field whose key is the member's own name, a duration's with "_ns" after it (unless the name
// already ends so): `TCT_FIELDS(S, a, b)` spells `field("a", &S::a), field("b", &S::b)`, and
// `TCT_FIELDS_WITH(S, option, a, b)` gives each the same Empty option or spelling. A key that
// differs from its member keeps its `field(...)`. The name is the macro's one use: C++20 cannot
// name a member, and one spelling of it cannot drift from the key.
template <class M>
inline constexpr bool is_duration = std::is_same_v<M, Nanoseconds> || std::is_same_v<M, std::chrono::nanoseconds>;
template <class M>
inline constexpr bool is_duration<std::optional<M>> = is_duration<M>;
template <class M>
inline constexpr bool is_duration<std::vector<M>> = is_duration<M>;
// `plain` is the member's name and `ns` the same with "_ns" after it (the macro passes both).
template <class M>
constexpr const char* key_of(const char* plain, const char* ns) {
  return is_duration<M> && !std::string_view(plain).ends_with("_ns") ? ns : plain;
}
template <class T, class M>
constexpr Field<T, M> named(const char* plain, const char* ns, M T::*member, Empty empty = Empty::Keep) {
  return {key_of<M>(plain, ns), member, empty};
}
// One entry per member: __VA_OPT__ ends the list, and 4^4 rescans let it run to 256 members.
#define TCT_FIELD_KEEP(S, option, m) ::tct::core::fields::named(#m, #m "_ns", &S::m)
#define TCT_FIELD_WITH(S, option, m) ::tct::core::fields::named(#m, #m "_ns", &S::m, option)
#define TCT_FIELDS_RESCAN(...) \
  TCT_FIELDS_RESCAN3(TCT_FIELDS_RESCAN3(TCT_FIELDS_RESCAN3(TCT_FIELDS_RESCAN3(__VA_ARGS__))))
#define TCT_FIELDS_RESCAN3(...) \
  TCT_FIELDS_RESCAN2(TCT_FIELDS_RESCAN2(TCT_FIELDS_RESCAN2(TCT_FIELDS_RESCAN2(__VA_ARGS__))))
#define TCT_FIELDS_RESCAN2(...) \
  TCT_FIELDS_RESCAN1(TCT_FIELDS_RESCAN1(TCT_FIELDS_RESCAN1(TCT_FIELDS_RESCAN1(__VA_ARGS__))))
#define TCT_FIELDS_RESCAN1(...) __VA_ARGS__
#define TCT_FIELDS_EACH(entry, S, option, m, ...) \
  entry(S, option, m) __VA_OPT__(, TCT_FIELDS_AGAIN TCT_FIELDS_PARENS(entry, S, option, __VA_ARGS__))
#define TCT_FIELDS_PARENS ()
#define TCT_FIELDS_AGAIN() TCT_FIELDS_EACH
#define TCT_FIELDS(S, ...) TCT_FIELDS_RESCAN(TCT_FIELDS_EACH(TCT_FIELD_KEEP, S, , __VA_ARGS__))
#define TCT_FIELDS_WITH(S, option, ...) TCT_FIELDS_RESCAN(TCT_FIELDS_EACH(TCT_FIELD_WITH, S, option, __VA_ARGS__))

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
// A writer and its reader, for several members spelled alike (TCT_FIELDS_WITH).
template <class M>
struct Spelling {
  json (*write)(const M&);
  M (*read)(const json&);
};
template <class T, class M>
constexpr CustomField<T, M> field(const char* name, M T::*member, Spelling<M> s) {
  return {name, member, s.write, s.read};
}
template <class T, class M>
constexpr CustomField<T, M> named(const char* plain, const char* ns, M T::*member, Spelling<M> s) {
  return {key_of<M>(plain, ns), member, s.write, s.read};
}
// What a writer returns to leave its key out.
inline const json kLeftOut(json::value_t::discarded);
// A duration as a whole number of ns (null when not measured): run's documents, whose times
// come from whole-ns clocks.
inline json whole_ns_json(const Nanoseconds& d) {
  return std::isfinite(d.count()) ? json(static_cast<std::int64_t>(std::llround(d.count()))) : json(nullptr);
}
inline Nanoseconds ns_from(const json& j) { return j.is_number() ? Nanoseconds(j.get<double>()) : kNotMeasured; }
inline constexpr Spelling<Nanoseconds> kWholeNs{whole_ns_json, ns_from};

// A described member written into the enclosing object, its keys prefixed.
template <class T, class M>
struct Flat {
  M T::*member;
  const char* prefix;
};
template <class T, class M>
constexpr Flat<T, M> flat(M T::*member, const char* prefix = "") {
  return {member, prefix};
}
// Some of the struct's own fields under one key.
template <class... F>
struct Group {
  const char* name;
  std::tuple<F...> fields;
};
template <class... F>
constexpr Group<F...> group(const char* name, F... fields) {
  return {name, std::tuple<F...>{fields...}};
}
// A key spelled from the whole struct.
template <class T>
struct Whole {
  const char* name;
  json (*write)(const T&);
  void (*read)(const json&, T&);
};
template <class T>
constexpr Whole<T> custom(const char* name, json (*write)(const T&), void (*read)(const json&, T&) = nullptr) {
  return {name, write, read};
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

// The containers' overloads, declared before any of them calls another.
template <class T>
json encode(const std::optional<T>& value, Empty e);
template <class T>
json encode(const std::vector<T>& values, Empty e);
template <class T>
json encode(const std::map<std::string, T>& values, Empty e);
template <class T>
void decode(const json& j, std::optional<T>& out);
template <class T>
void decode(const json& j, std::vector<T>& out);
template <class T>
void decode(const json& j, std::map<std::string, T>& out);

// --- one value, written -------------------------------------------------------------------
inline json encode(const std::string& s, Empty e) { return e == Empty::Null && s.empty() ? json(nullptr) : json(s); }
inline json encode(bool b, Empty) { return b; }
inline json encode(const json& j, Empty) { return j; }  // a value tct hands on whole
template <std::integral I>
requires(!std::same_as<I, bool>) json encode(I i, Empty) { return i; }
inline json encode(double x, Empty) { return std::isfinite(x) ? json(x) : json(nullptr); }
inline json encode(Nanoseconds d, Empty e) { return encode(d.count(), e); }
inline json encode(std::chrono::duration<std::int64_t, std::nano> d, Empty) { return d.count(); }  // whole ns
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
template <class T>
json encode(const std::map<std::string, T>& values, Empty e) {
  json out = json::object();
  for (const auto& [k, v] : values) out[k] = encode(v, e);
  return out;
}

// --- one value, read (a mistyped value leaves `out` as it was) -----------------------------
inline void decode(const json& j, std::string& out) {
  if (j.is_string()) out = j.get<std::string>();
}
inline void decode(const json& j, json& out) { out = j; }
inline void decode(const json& j, bool& out) {
  if (j.is_boolean()) out = j.get<bool>();
}
template <std::integral I>
requires(!std::same_as<I, bool>) void decode(const json& j, I& out) {
  if (j.is_number()) out = j.get<I>();
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
inline void decode(const json& j, std::chrono::duration<std::int64_t, std::nano>& out) {
  if (j.is_number()) out = std::chrono::duration<std::int64_t, std::nano>(j.get<std::int64_t>());
}
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
template <class T>
void decode(const json& j, std::map<std::string, T>& out) {
  if (!j.is_object()) return;
  out.clear();
  for (const auto& [k, item] : j.items()) decode(item, out[k]);
}

// --- a described struct ---------------------------------------------------------------------
template <class T>
inline constexpr bool is_optional = false;
template <class T>
inline constexpr bool is_optional<std::optional<T>> = true;

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
  M& m = out.*(f.member);
  if constexpr (is_optional<M>) {
    using V = typename M::value_type;
    if (f.empty == Empty::Absent && j.is_null()) {
      if constexpr (std::is_floating_point_v<V> || std::is_same_v<V, Nanoseconds>) m = V(NAN);
      else m.reset();
      return;
    }
  }
  decode(j, m);
}
template <class T, class M>
void decode_field(const json& j, T& out, const CustomField<T, M>& f) {
  out.*(f.member) = f.read(j);
}

// Each entry puts its keys into `out` and takes them back from `j` (an object).
template <class T, class M>
void put(json& out, const T& value, const Field<T, M>& f) {
  if (f.empty == Empty::Absent) {
    const M& m = value.*(f.member);
    if constexpr (is_optional<M>) {
      if (!m) return;
    } else if constexpr (requires { m.empty(); }) {
      if (m.empty()) return;  // a string or a list: left out when empty
    }
  }
  out[f.name] = encode_field(value, f);
}
template <class T, class M>
void put(json& out, const T& value, const CustomField<T, M>& f) {
  json v = encode_field(value, f);
  if (!v.is_discarded()) out[f.name] = std::move(v);
}
template <class T, class M>
void take(const json& j, T& out, const Field<T, M>& f) {
  if (j.contains(f.name)) decode_field(j[f.name], out, f);
}
template <class T, class M>
void take(const json& j, T& out, const CustomField<T, M>& f) {
  if (j.contains(f.name)) decode_field(j[f.name], out, f);
}
template <class T>
void put(json& out, const T& value, const Whole<T>& f) {
  if (!f.write) return;  // a key only read: an older document's spelling
  json v = f.write(value);
  if (!v.is_discarded()) out[f.name] = std::move(v);
}
template <class T>
void take(const json& j, T& out, const Whole<T>& f) {
  static const json missing(json::value_t::discarded);
  if (f.read) f.read(j.contains(f.name) ? j[f.name] : missing, out);
}
template <class T, class... F>
void put(json& out, const T& value, const Group<F...>& g) {
  json inner = json::object();
  std::apply([&](const auto&... f) { (put(inner, value, f), ...); }, g.fields);
  out[g.name] = std::move(inner);
}
template <class T, class... F>
void take(const json& j, T& out, const Group<F...>& g) {
  if (j.contains(g.name) && j[g.name].is_object())
    std::apply([&](const auto&... f) { (take(j[g.name], out, f), ...); }, g.fields);
}
template <Described T>
std::vector<std::string> names_of();
template <class T, class M>
void put(json& out, const T& value, const Flat<T, M>& f) {
  const M& m = value.*(f.member);
  json inner;
  if constexpr (is_optional<M>) {
    if (!m) return;
    inner = write(*m);
  } else {
    inner = write(m);
  }
  for (auto& [k, v] : inner.items()) out[f.prefix + k] = v;
}
template <class M>
struct value_of {
  using type = M;
};
template <class M>
struct value_of<std::optional<M>> {
  using type = M;
};
template <class T, class M>
void take(const json& j, T& out, const Flat<T, M>& f) {
  using S = typename value_of<M>::type;
  json inner = json::object();
  for (const auto& n : names_of<S>())
    if (const std::string key = f.prefix + n; j.contains(key)) inner[n] = j[key];
  M& m = out.*(f.member);
  if constexpr (is_optional<M>) {
    if (inner.empty()) return;
    S value{};
    read(inner, value);
    m = std::move(value);
  } else {
    read(inner, m);
  }
}

template <Described T>
json write(const T& value) {
  json out = json::object();
  std::apply([&](const auto&... f) { (put(out, value, f), ...); }, json_fields(static_cast<const T*>(nullptr)));
  return out;
}
template <Described T>
void read(const json& j, T& out) {
  if (!j.is_object()) return;
  std::apply([&](const auto&... f) { (take(j, out, f), ...); }, json_fields(static_cast<const T*>(nullptr)));
}
template <Described T>
T read_as(const json& j) {
  T out{};
  read(j, out);
  return out;
}

// The JSON names a described struct writes at its own level, in its list's order (for the
// schema test): a flat member's keys with its prefix, a group's one key.
template <class F>
void name_into(std::vector<std::string>& out, const F& f) {
  out.emplace_back(f.name);
}
template <class T, class M>
void name_into(std::vector<std::string>& out, const Flat<T, M>& f) {
  for (const auto& n : names_of<typename value_of<M>::type>()) out.push_back(f.prefix + n);
}
template <Described T>
std::vector<std::string> names_of() {
  std::vector<std::string> out;
  std::apply([&](const auto&... f) { (name_into(out, f), ...); }, json_fields(static_cast<const T*>(nullptr)));
  return out;
}

// The words a json_fields.hpp declares with, brought in by one `using namespace
// core::fields::declare;` (each file had written out the same using-declarations and constants).
namespace declare {
using fields::custom;
using fields::field;
using fields::flat;
using fields::group;
using fields::kLeftOut;
using fields::kWholeNs;
using fields::read_as;
inline constexpr auto kNull = Empty::Null;
inline constexpr auto kAbsent = Empty::Absent;
inline constexpr auto kKeep = Empty::Keep;
}  // namespace declare

}  // namespace tct::core::fields
