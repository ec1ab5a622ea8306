#include "suite/settings.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include <fmt/format.h>

#include "core/fraction.hpp"
#include "errors.hpp"
#include "bench/plan.hpp"

namespace tct::suite {
namespace {

enum class Kind { Identity, Measurement };

struct Spec {
  const char* name;
  Kind kind;
  // Checks and normalises a scalar; throws a message (the caller adds where) on a bad one.
  std::function<json(const json&)> check;
};

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument(what); }

json a_string(const json& v) {
  if (!v.is_string() || v.get<std::string>().empty()) bad("a non-empty string");
  // One value per entry: a matrix is a TOML list, not bench's comma-separated spelling.
  if (v.get<std::string>().find(',') != std::string::npos) bad("one name (for several, write a list: [\"a\", \"b\"])");
  return v;
}

json a_bool(const json& v) {
  if (!v.is_boolean()) bad("true or false");
  return v;
}

std::function<json(const json&)> a_number(double lo, bool lo_open, double hi = INFINITY) {
  return [=](const json& v) -> json {
    if (!v.is_number()) bad("a number");
    double d = v.get<double>();
    if (!std::isfinite(d) || d < lo || (lo_open && d == lo) || d > hi)
      bad(fmt::format("a number {} {}{}", lo_open ? ">" : ">=", lo,
                      std::isfinite(hi) ? fmt::format(" and <= {}", hi) : ""));
    return v;
  };
}

std::function<json(const json&)> an_int(long long lo, long long hi) {
  return [=](const json& v) -> json {
    if (!v.is_number_integer() || v.get<long long>() < lo || v.get<long long>() > hi)
      bad(fmt::format("an integer from {} to {}", lo, hi));
    return v;
  };
}

json dynamic_value(const json& v) {
  std::string text = v.is_boolean() ? (v.get<bool>() ? "true" : "false") : v.is_string() ? v.get<std::string>() : "";
  if (text.empty()) bad("auto, true or false");
  try {
    return bench::normalize_dynamic(text);
  } catch (const Error&) { bad("auto, true or false"); }
}

json precision_value(const json& v) {
  if (v.is_number()) return core::parse_precision(fmt::format("{}", v.get<double>()));
  if (v.is_string()) return core::parse_precision(v.get<std::string>());
  bad("a fraction (0.02) or a percentage (\"2%\")");
}

json allocator_value(const json& v) {
  if (v != "system" && v != "settled" && v != "tcmalloc" && v != "jemalloc")
    bad("\"system\", \"settled\", \"tcmalloc\" or \"jemalloc\"");
  return v;
}

json eager_via_value(const json& v) {
  if (v != "original" && v != "stance") bad("\"original\" or \"stance\"");
  return v;
}

const std::vector<Spec>& specs() {
  static const std::vector<Spec> all = {
      {"backend", Kind::Identity, a_string},
      {"mode", Kind::Identity, a_string},
      {"dynamic", Kind::Identity, dynamic_value},
      {"fullgraph", Kind::Identity, a_bool},
      {"device", Kind::Identity, a_string},
      {"dtype", Kind::Identity, a_string},
      {"train", Kind::Identity, a_bool},
      {"budget", Kind::Measurement, a_number(0, true)},
      {"precision", Kind::Measurement, precision_value},
      {"warmup", Kind::Measurement, an_int(1, 100000)},
      {"eager-warmup", Kind::Measurement, an_int(1, 100000)},
      {"min-blocks", Kind::Measurement, an_int(1, 1000)},
      {"no-check", Kind::Measurement, a_bool},
      {"rtol", Kind::Measurement, a_number(0, false)},
      {"atol", Kind::Measurement, a_number(0, false)},
      {"no-compile-time", Kind::Measurement, a_bool},
      {"no-memory", Kind::Measurement, a_bool},
      {"raw", Kind::Measurement, a_bool},
      {"eager-via", Kind::Measurement, eager_via_value},
      {"seed", Kind::Measurement, an_int(0, INT64_MAX)},
      {"allocator", Kind::Measurement, allocator_value},
      {"no-allocator-compare", Kind::Measurement, a_bool},
      {"timeout", Kind::Measurement, a_number(0, true)},
      {"explain", Kind::Measurement, a_bool},
  };
  return all;
}

const Spec* find(const std::string& name) {
  for (const auto& s : specs())
    if (name == s.name) return &s;
  return nullptr;
}

}  // namespace

const std::vector<std::string>& setting_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> n;
    for (const auto& s : specs()) n.push_back(s.name);
    return n;
  }();
  return names;
}

bool is_setting(const std::string& name) { return find(name) != nullptr; }

std::string normalize_setting_name(const std::string& name) {
  std::string n = name;
  std::replace(n.begin(), n.end(), '_', '-');
  return n;
}

json check_setting(const std::string& name, const json& value, const std::string& where) {
  const Spec* s = find(name);
  if (!s) {
    std::string known;
    for (const auto& n : setting_names()) known += (known.empty() ? "" : ", ") + n;
    throw usage_error(fmt::format("{}: unknown setting '{}'", where, name),
                      "settings are tct bench's long options: " + known);
  }
  try {
    return s->check(value);
  } catch (const std::invalid_argument& e) {
    throw usage_error(fmt::format("{}: {} = {} is not {}", where, name, value.dump(), e.what()),
                      fmt::format("see 'tct bench --help' for --{}", name));
  } catch (const Error& e) {
    throw usage_error(fmt::format("{}: {} = {}: {}", where, name, value.dump(), e.what()), e.hint());
  }
}

bool is_identity_setting(const std::string& name) {
  const Spec* s = find(name);
  return s && s->kind == Kind::Identity;
}

json identity_default(const std::string& name) {
  static const bench::BenchConfig defaults;
  if (name == "backend") return defaults.backends.front();
  if (name == "mode") return defaults.modes.front();
  if (name == "dynamic") return defaults.dynamic.front();
  if (name == "fullgraph") return static_cast<bool>(defaults.fullgraph.front());
  if (name == "train") return defaults.target.train;
  return nullptr;  // device, dtype: the target's own
}

bench::BenchConfig bench_config(const std::string& target, const json& params, const json& settings) {
  bench::BenchConfig cfg;
  cfg.target.target = target;
  cfg.target.params = params.is_object() ? params : json::object();
  auto get = [&](const char* key) -> const json* {
    auto it = settings.find(key);
    return it != settings.end() && !it->is_null() ? &*it : nullptr;
  };
  if (auto v = get("backend")) cfg.backends = {v->get<std::string>()};
  if (auto v = get("mode")) cfg.modes = {v->get<std::string>()};
  if (auto v = get("dynamic")) cfg.dynamic = {v->get<std::string>()};
  if (auto v = get("fullgraph")) cfg.fullgraph = {v->get<bool>()};
  if (auto v = get("device")) cfg.target.device = v->get<std::string>();
  if (auto v = get("dtype")) cfg.target.dtype = v->get<std::string>();
  if (auto v = get("train")) cfg.target.train = v->get<bool>();
  if (auto v = get("budget")) cfg.budget_s = v->get<double>();
  if (auto v = get("precision")) cfg.precision = v->get<double>();
  if (auto v = get("warmup")) cfg.warmup_calls = v->get<int>();
  if (auto v = get("eager-warmup")) cfg.eager_warmup_calls = v->get<int>();
  if (auto v = get("min-blocks")) cfg.min_blocks = v->get<int>();
  if (auto v = get("no-check")) cfg.check = !v->get<bool>();
  if (auto v = get("rtol")) cfg.rtol = v->get<double>();
  if (auto v = get("atol")) cfg.atol = v->get<double>();
  if (auto v = get("no-compile-time")) cfg.compile_time = !v->get<bool>();
  if (auto v = get("no-memory")) cfg.memory = !v->get<bool>();
  if (auto v = get("raw")) cfg.raw = v->get<bool>();
  if (auto v = get("eager-via")) cfg.eager_via = v->get<std::string>();
  if (auto v = get("seed")) cfg.seed = v->get<std::uint64_t>();
  if (auto v = get("allocator")) cfg.allocator = v->get<std::string>();
  if (auto v = get("no-allocator-compare")) cfg.allocator_compare = !v->get<bool>();
  return cfg;
}

double entry_timeout_s(const json& settings, double fallback) {
  auto it = settings.find("timeout");
  return it != settings.end() && it->is_number() ? it->get<double>() : fallback;
}

bool entry_explains(const json& settings) {
  auto it = settings.find("explain");
  return it != settings.end() && it->is_boolean() && it->get<bool>();
}

}  // namespace tct::suite
