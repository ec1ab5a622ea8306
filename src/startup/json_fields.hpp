#pragma once
// The startup section's JSON fields (core/fields.hpp): each struct of startup/result.hpp listed
// once. What is not a plain field is spelled in startup/json.cpp: the phases ({phase}_ns), a
// mode's description.
#include <string_view>

#include "core/fields.hpp"
#include "startup/result.hpp"

namespace tct::startup {

inline constexpr std::string_view kModeNames[] = {"eager", "cold", "warm", "shipped", "aoti", "aoti-cpp"};
constexpr const auto& names(const Mode*) { return kModeNames; }

nlohmann::json phases_json(const std::map<Phase, Nanoseconds>& phases);
std::map<Phase, Nanoseconds> phases_from(const nlohmann::json& j);
nlohmann::json description_json(const ModeResult& m);

using core::fields::custom;
using core::fields::field;
using core::fields::flat;
inline constexpr auto kNull = core::fields::Empty::Null;

constexpr auto json_fields(const CacheLookup*) {
  return std::tuple{field("cache", &CacheLookup::cache), field("state", &CacheLookup::state),
                    field("reason", &CacheLookup::reason, kNull), field("changed", &CacheLookup::changed)};
}
constexpr auto json_fields(const CacheCounters*) {
  using C = CacheCounters;
  return std::tuple{field("fxgraph_cache_hit", &C::fx_hit),       field("fxgraph_cache_miss", &C::fx_miss),
                    field("fxgraph_cache_bypass", &C::fx_bypass), field("autograd_cache_hit", &C::aot_hit),
                    field("autograd_cache_miss", &C::aot_miss),   field("autograd_cache_bypass", &C::aot_bypass)};
}
constexpr auto json_fields(const OutputCheck*) {
  using C = OutputCheck;
  return std::tuple{field("shape_equal", &C::shape_equal), field("max_abs_diff", &C::max_abs_diff),
                    field("max_abs_expected", &C::max_abs_expected), field("match", &C::match)};
}
constexpr auto json_fields(const SiteStart*) {
  using S = SiteStart;
  return std::tuple{field("key", &S::key), field("name", &S::name), field("first_output_ns", &S::first_output),
                    field("per_call_ns", &S::per_call)};
}
constexpr auto json_fields(const SiteSummary*) {
  using S = SiteSummary;
  return std::tuple{field("key", &S::key),    field("name", &S::name),    field("first_output_ns", &S::median),
                    field("low_ns", &S::low), field("high_ns", &S::high), field("coverage", &S::coverage)};
}
constexpr auto json_fields(const Start*) {
  using S = Start;
  return std::tuple{field("first_output_ns", &S::first_output),
                    field("phases", &S::phases, phases_json, phases_from),
                    field("cache", &S::lookups),
                    field("torch_counters", &S::counters),
                    field("trace_read", &S::trace_read),
                    field("steady_ns", &S::steady_ns),
                    field("sites", &S::sites),
                    field("error", &S::error, kNull)};
}
constexpr auto json_fields(const ModeResult*) {
  using M = ModeResult;
  return std::tuple{field("mode", &M::mode),
                    custom<M>("description", description_json),
                    field("skipped", &M::skipped, kNull),
                    field("error", &M::error, kNull),
                    field("first_output_ns", &M::median),
                    field("low_ns", &M::low),
                    field("high_ns", &M::high),
                    field("coverage", &M::coverage),
                    field("phases", &M::phases, phases_json, phases_from),
                    field("per_call_ns", &M::per_call),
                    field("break_even_calls", &M::break_even_calls),
                    field("shipped_bytes", &M::shipped_bytes),
                    field("package_compile_ns", &M::package_compile),
                    field("cache", &M::lookups),
                    field("output_check", &M::check),
                    field("sites", &M::sites),
                    field("starts", &M::starts)};
}
constexpr auto json_fields(const Verdict*) {
  using V = Verdict;
  return std::tuple{field("fastest", &V::fastest), field("tied", &V::tied),
                    field("fastest_compiled", &V::fastest_compiled), field("compiled_tied", &V::compiled_tied)};
}
constexpr auto json_fields(const CacheFinding*) {  // a lookup with its mode
  return std::tuple{field("mode", &CacheFinding::mode), flat(&CacheFinding::lookup)};
}
constexpr auto json_fields(const CompileFinding*) {
  using F = CompileFinding;
  return std::tuple{field("mode", &F::mode), field("cpp_compiler_ns", &F::cpp_compiler),
                    field("first_output_ns", &F::first_output)};
}
constexpr auto json_fields(const StartupResult*) {
  using R = StartupResult;
  return std::tuple{field("target", &R::target),
                    field("command", &R::command),
                    field("repeats", &R::repeats),
                    field("backend", &R::backend),
                    field("deploy_env", &R::deploy_env),
                    field("modes", &R::modes),
                    field("verdict", &R::verdict),
                    field("cache_findings", &R::findings),
                    field("still_compiled", &R::still_compiled)};
}

}  // namespace tct::startup
