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

using namespace core::fields::declare;

constexpr auto json_fields(const CacheLookup*) {
  return std::tuple{TCT_FIELDS(CacheLookup, cache, state, changed), TCT_FIELDS_WITH(CacheLookup, kNull, reason)};
}
constexpr auto json_fields(const CacheCounters*) {
  using C = CacheCounters;
  return std::tuple{field("fxgraph_cache_hit", &C::fx_hit),       field("fxgraph_cache_miss", &C::fx_miss),
                    field("fxgraph_cache_bypass", &C::fx_bypass), field("autograd_cache_hit", &C::aot_hit),
                    field("autograd_cache_miss", &C::aot_miss),   field("autograd_cache_bypass", &C::aot_bypass)};
}
constexpr auto json_fields(const OutputCheck*) {
  using C = OutputCheck;
  return std::tuple{TCT_FIELDS(C, shape_equal, max_abs_diff, max_abs_expected, match)};
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
  return std::tuple{TCT_FIELDS(S, first_output),
                    field("phases", &S::phases, phases_json, phases_from),
                    TCT_FIELDS(S, trace_read, steady_ns, sites),
                    field("cache", &S::lookups),
                    field("torch_counters", &S::counters),
                    field("error", &S::error, kNull)};
}
constexpr auto json_fields(const ModeResult*) {
  using M = ModeResult;
  return std::tuple{TCT_FIELDS(M, mode),
                    custom<M>("description", description_json),
                    TCT_FIELDS_WITH(M, kNull, skipped, error),
                    TCT_FIELDS(M, low, high, coverage),
                    field("first_output_ns", &M::median),
                    field("phases", &M::phases, phases_json, phases_from),
                    TCT_FIELDS(M, per_call, break_even_calls, shipped_bytes, package_compile, starts),
                    field("cache", &M::lookups),
                    field("output_check", &M::check),
                    TCT_FIELDS(M, sites)};
}
constexpr auto json_fields(const Verdict*) {
  using V = Verdict;
  return std::tuple{TCT_FIELDS(V, fastest, tied, fastest_compiled, compiled_tied)};
}
constexpr auto json_fields(const CacheFinding*) {  // a lookup with its mode
  return std::tuple{TCT_FIELDS(CacheFinding, mode), flat(&CacheFinding::lookup)};
}
constexpr auto json_fields(const CompileFinding*) {
  using F = CompileFinding;
  return std::tuple{TCT_FIELDS(F, mode, cpp_compiler, first_output)};
}
constexpr auto json_fields(const StartupResult*) {
  using R = StartupResult;
  return std::tuple{TCT_FIELDS(R, target, command, repeats, backend, deploy_env, modes, verdict, still_compiled),
                    field("cache_findings", &R::findings)};
}

}  // namespace tct::startup
