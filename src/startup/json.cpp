#include "startup/json.hpp"

#include "core/json_number.hpp"
#include "core/json_read.hpp"

namespace tct::startup {
namespace {

using json = nlohmann::json;
using namespace core::json_read;
using core::duration_or_nan;
using core::duration_or_null;

json phases_json(const std::map<Phase, Nanoseconds>& phases) {
  json out = json::object();
  for (const auto& [p, d] : phases) out[std::string(to_string(p)) + "_ns"] = duration_or_null(d);
  return out;
}
std::map<Phase, Nanoseconds> phases_of(const json& j) {
  std::map<Phase, Nanoseconds> out;
  for (Phase p : kAllPhases) {
    const std::string key = std::string(to_string(p)) + "_ns";
    if (has(j, key.c_str())) out[p] = duration_or_nan(j, key.c_str());
  }
  return out;
}

json lookup_json(const CacheLookup& l) {
  return {{"cache", l.cache},
          {"state", l.state},
          {"reason", l.reason.empty() ? json(nullptr) : json(l.reason)},
          {"changed", l.changed}};
}
CacheLookup lookup_of(const json& j) {
  return {str(j, "cache"), str(j, "state"), str(j, "reason"), strings(j, "changed")};
}

json lookups_json(const std::vector<CacheLookup>& ls) {
  json out = json::array();
  for (const auto& l : ls) out.push_back(lookup_json(l));
  return out;
}
std::vector<CacheLookup> lookups_of(const json& j) {
  std::vector<CacheLookup> out;
  for (const auto& l : j.is_array() ? j : json::array()) out.push_back(lookup_of(l));
  return out;
}

json counters_json(const CacheCounters& c) {
  return {{"fxgraph_cache_hit", c.fx_hit},       {"fxgraph_cache_miss", c.fx_miss},
          {"fxgraph_cache_bypass", c.fx_bypass}, {"autograd_cache_hit", c.aot_hit},
          {"autograd_cache_miss", c.aot_miss},   {"autograd_cache_bypass", c.aot_bypass}};
}

json start_json(const Start& s) {
  return {{"first_output_ns", duration_or_null(s.first_output)},
          {"phases", phases_json(s.phases)},
          {"cache", lookups_json(s.lookups)},
          {"torch_counters", s.counters ? counters_json(*s.counters) : json(nullptr)},
          {"trace_read", s.trace_read},
          {"steady_ns", s.steady_ns}};
}
Start start_of(const json& j) {
  Start s;
  s.first_output = duration_or_nan(j, "first_output_ns");
  s.phases = phases_of(at(j, "phases"));
  s.lookups = lookups_of(at(j, "cache"));
  if (const json& c = at(j, "torch_counters"); c.is_object()) s.counters = counters_from_json(c);
  s.trace_read = flag(j, "trace_read");
  s.steady_ns = doubles(j, "steady_ns");
  return s;
}

json opt(const std::optional<double>& x) { return x ? core::number_or_null(*x) : json(nullptr); }

json check_json(const OutputCheck& c) {
  return {{"shape_equal", c.shape_equal},
          {"max_abs_diff", core::number_or_null(c.max_abs_diff)},
          {"max_abs_expected", core::number_or_null(c.max_abs_expected)},
          {"match", c.match}};
}

json mode_json(const ModeResult& m) {
  json starts = json::array();
  for (const auto& s : m.starts) starts.push_back(start_json(s));
  return {{"mode", to_string(m.mode)},
          {"description", describe(m.mode)},
          {"skipped", m.skipped.empty() ? json(nullptr) : json(m.skipped)},
          {"error", m.error.empty() ? json(nullptr) : json(m.error)},
          {"first_output_ns", duration_or_null(m.median)},
          {"low_ns", duration_or_null(m.low)},
          {"high_ns", duration_or_null(m.high)},
          {"coverage", m.coverage},
          {"phases", phases_json(m.phases)},
          {"per_call_ns", duration_or_null(m.per_call)},
          {"break_even_calls", opt(m.break_even_calls)},
          {"shipped_bytes", opt(m.shipped_bytes)},
          {"package_compile_ns", duration_or_null(m.package_compile)},
          {"cache", lookups_json(m.lookups)},
          {"output_check", m.check ? check_json(*m.check) : json(nullptr)},
          {"starts", starts}};
}
ModeResult mode_of(const json& j) {
  ModeResult m;
  m.mode = parse_mode(str(j, "mode")).value_or(Mode::Eager);
  m.skipped = str(j, "skipped");
  m.error = str(j, "error");
  m.median = duration_or_nan(j, "first_output_ns");
  m.low = duration_or_nan(j, "low_ns");
  m.high = duration_or_nan(j, "high_ns");
  m.coverage = opt_num<double>(j, "coverage").value_or(0);
  m.phases = phases_of(at(j, "phases"));
  m.per_call = duration_or_nan(j, "per_call_ns");
  m.break_even_calls = opt_num<double>(j, "break_even_calls");
  m.shipped_bytes = opt_num<double>(j, "shipped_bytes");
  m.package_compile = duration_or_nan(j, "package_compile_ns");
  m.lookups = lookups_of(at(j, "cache"));
  if (const json& c = at(j, "output_check"); c.is_object())
    m.check = OutputCheck{flag(c, "shape_equal"), opt_num<double>(c, "max_abs_diff").value_or(NAN),
                          opt_num<double>(c, "max_abs_expected").value_or(NAN), flag(c, "match")};
  for (const auto& s : list(j, "starts")) m.starts.push_back(start_of(s));
  return m;
}

json modes_json(const std::vector<Mode>& ms) {
  json out = json::array();
  for (Mode m : ms) out.push_back(to_string(m));
  return out;
}
std::vector<Mode> modes_of(const json& j) {
  std::vector<Mode> out;
  for (const auto& s : j.is_array() ? j : json::array())
    if (s.is_string())
      if (auto m = parse_mode(s.get<std::string>())) out.push_back(*m);
  return out;
}
json mode_or_null(const std::optional<Mode>& m) { return m ? json(to_string(*m)) : json(nullptr); }
std::optional<Mode> opt_mode(const json& j, const char* key) {
  const json& v = at(j, key);
  return v.is_string() ? parse_mode(v.get<std::string>()) : std::nullopt;
}

}  // namespace

CacheCounters counters_from_json(const json& c) {
  return {num(c, "fxgraph_cache_hit"),  num(c, "fxgraph_cache_miss"),  num(c, "fxgraph_cache_bypass"),
          num(c, "autograd_cache_hit"), num(c, "autograd_cache_miss"), num(c, "autograd_cache_bypass")};
}

json to_json(const StartupResult& r) {
  json modes = json::array();
  for (const auto& m : r.modes) modes.push_back(mode_json(m));
  json findings = json::array();
  for (const auto& f : r.findings) {
    json item = lookup_json(f.lookup);
    item["mode"] = to_string(f.mode);
    findings.push_back(item);
  }
  json still = json::array();
  for (const auto& f : r.still_compiled)
    still.push_back({{"mode", to_string(f.mode)},
                     {"cpp_compiler_ns", duration_or_null(f.cpp_compiler)},
                     {"first_output_ns", duration_or_null(f.first_output)}});
  return {{"target", r.target},
          {"repeats", r.repeats},
          {"backend", r.backend},
          {"deploy_env", r.deploy_env},
          {"modes", modes},
          {"verdict",
           {{"fastest", mode_or_null(r.verdict.fastest)},
            {"tied", modes_json(r.verdict.tied)},
            {"fastest_compiled", mode_or_null(r.verdict.fastest_compiled)},
            {"compiled_tied", modes_json(r.verdict.compiled_tied)}}},
          {"cache_findings", findings},
          {"still_compiled", still}};
}

StartupResult from_json(const json& j) {
  StartupResult r;
  r.target = str(j, "target");
  r.repeats = num(j, "repeats");
  r.backend = str(j, "backend", "inductor");
  r.deploy_env = strings(j, "deploy_env");
  for (const auto& m : list(j, "modes")) r.modes.push_back(mode_of(m));
  const json& v = at(j, "verdict");
  r.verdict.fastest = opt_mode(v, "fastest");
  r.verdict.tied = modes_of(at(v, "tied"));
  r.verdict.fastest_compiled = opt_mode(v, "fastest_compiled");
  r.verdict.compiled_tied = modes_of(at(v, "compiled_tied"));
  for (const auto& f : list(j, "cache_findings"))
    r.findings.push_back({parse_mode(str(f, "mode")).value_or(Mode::Warm), lookup_of(f)});
  for (const auto& f : list(j, "still_compiled"))
    r.still_compiled.push_back({parse_mode(str(f, "mode")).value_or(Mode::Shipped),
                                duration_or_nan(f, "cpp_compiler_ns"), duration_or_nan(f, "first_output_ns")});
  return r;
}

}  // namespace tct::startup
