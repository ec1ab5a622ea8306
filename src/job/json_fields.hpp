#pragma once
// The job section's JSON fields (core/fields.hpp): each struct of job/result.hpp listed once.
// What is not a plain field is spelled in job/json.cpp: a duration's interval ({mean_ns, low_ns,
// high_ns}), the call curve's pairs, the figures derived from others.
#include <string_view>

#include "core/fields.hpp"
#include "job/result.hpp"
#include "stats/fields.hpp"

namespace tct::job {

inline constexpr std::string_view kHowNames[] = {"eager", "cold", "warm", "shipped", "aoti"};  // How's order
constexpr const auto& names(const How*) { return kHowNames; }

nlohmann::json ns_interval_json(const stats::Interval& iv);
stats::Interval ns_interval_from(const nlohmann::json& j);
nlohmann::json ns_horizon_json(const std::optional<stats::Interval>& iv);
std::optional<stats::Interval> ns_horizon_from(const nlohmann::json& j);
nlohmann::json curve_json(const std::vector<std::pair<double, double>>& curve);
std::vector<std::pair<double, double>> curve_from(const nlohmann::json& j);
nlohmann::json ok_json(const RunFigures& f);
nlohmann::json label_json(const ModeSpec& s);
nlohmann::json eligible_json(const ModeResult& m);
nlohmann::json verdict_json(const Comparison& c);
void verdict_from(const nlohmann::json&, Comparison& c);
nlohmann::json clear_json(const Decision& d);
nlohmann::json fix_verdict_json(const ShapeFixResult& x);
void fix_verdict_from(const nlohmann::json&, ShapeFixResult& x);

using namespace core::fields::declare;

constexpr auto json_fields(const SiteRun*) {
  using S = SiteRun;
  return std::tuple{TCT_FIELDS(S, key, name, calls, first_output, steady, compile_time, recompiles, cache_hits,
                               cache_misses, cache_bypasses)};
}
constexpr auto json_fields(const RunFigures*) {
  using F = RunFigures;
  return std::tuple{TCT_FIELDS(F, round),
                    custom<F>("ok", ok_json),
                    TCT_FIELDS(F, exit_status, exit_text, timed_out, interrupted, wall, torch_threads, anchor,
                               anchor_calls, loop_per_call),
                    field("curve", &F::curve, curve_json, curve_from),
                    TCT_FIELDS(F, artifacts_load, artifacts_bytes, package_load, output_lines, dir, sites),
                    TCT_FIELDS_WITH(F, kNull, artifacts_error)};
}
constexpr auto json_fields(const SiteSummary*) {
  using S = SiteSummary;
  return std::tuple{TCT_FIELDS(S, key, name, calls),
                    field("first_output", &S::first_output, ns_interval_json, ns_interval_from),
                    field("steady", &S::steady, ns_interval_json, ns_interval_from),
                    TCT_FIELDS(S, compile_time, cache_hits, cache_misses, cache_bypasses, recompiles)};
}
constexpr auto json_fields(const OutputCheck*) {
  using C = OutputCheck;
  return std::tuple{TCT_FIELDS(C, compared, same, differing_lines, line, eager_line, mode_line)};
}
constexpr auto json_fields(const ModeSpec*) {  // in the mode
  return std::tuple{custom<ModeSpec>("mode", label_json), TCT_FIELDS(ModeSpec, how, threads, shape_fix)};
}
constexpr auto json_fields(const ModeResult*) {
  using M = ModeResult;
  return std::tuple{flat(&M::spec),
                    TCT_FIELDS_WITH(M, kNull, error),
                    field("total", &M::total, ns_interval_json, ns_interval_from),
                    field("loop_per_call", &M::loop_per_call, ns_interval_json, ns_interval_from),
                    field("at_horizon", &M::at_horizon, ns_horizon_json, ns_horizon_from),
                    TCT_FIELDS(M, failed),
                    custom<M>("eligible", eligible_json),
                    TCT_FIELDS(M, output, sites, runs)};
}
constexpr auto json_fields(const Comparison*) {
  // The verdict is decided again from the ratio, by the one rule.
  return std::tuple{TCT_FIELDS(Comparison, mode, ratio), custom<Comparison>("verdict", verdict_json, verdict_from)};
}
constexpr auto json_fields(const Decision*) {
  return std::tuple{TCT_FIELDS_WITH(Decision, kNull, best), custom<Decision>("clear", clear_json),
                    TCT_FIELDS(Decision, others)};
}
constexpr auto json_fields(const ShapeApi*) {
  using A = ShapeApi;
  return std::tuple{TCT_FIELDS(A, torch), TCT_FIELDS_WITH(A, kNull, mark_dynamic, mark_unbacked),
                    TCT_FIELDS(A, mark_dynamic_range, mark_unbacked_range),
                    TCT_FIELDS_WITH(A, kNull, spec_keyword, spec_module)};
}
constexpr auto json_fields(const FixSite*) { return std::tuple{TCT_FIELDS(FixSite, key, name, kind, file, line)}; }
constexpr auto json_fields(const VariedInput*) {
  return std::tuple{TCT_FIELDS(VariedInput, site, site_name, input, position, dim, rank, min, max, sizes, recompiles)};
}
constexpr auto json_fields(const FixCode*) { return std::tuple{TCT_FIELDS(FixCode, site, where, imports, code)}; }
constexpr auto json_fields(const ShapeFixResult*) {
  using X = ShapeFixResult;
  return std::tuple{TCT_FIELDS(X, fix, mode, baseline),
                    TCT_FIELDS_WITH(X, kNull, not_run),
                    TCT_FIELDS(X, applied, errors, recompiles, compile_time),
                    field("steady", &X::steady, ns_interval_json, ns_interval_from),
                    field("total", &X::total, ns_interval_json, ns_interval_from),
                    TCT_FIELDS(X, speedup),
                    custom<X>("verdict", fix_verdict_json, fix_verdict_from),
                    TCT_FIELDS(X, code, gives_up)};
}
constexpr auto json_fields(const ShapeFixes*) { return std::tuple{TCT_FIELDS(ShapeFixes, api, sites, varied, fixes)}; }
constexpr auto json_fields(const Crossing*) { return std::tuple{TCT_FIELDS(Crossing, calls, from, to)}; }
constexpr auto json_fields(const AotiAt*) {
  return std::tuple{TCT_FIELDS(AotiAt, label, arg), TCT_FIELDS_WITH(AotiAt, kNull, kwarg), TCT_FIELDS(AotiAt, dim)};
}
constexpr auto json_fields(const AotiDim*) {
  return std::tuple{TCT_FIELDS(AotiDim, name, at, min, max, sizes, exported_min, exported_max)};
}
constexpr auto json_fields(const AotiCheck*) {
  using C = AotiCheck;
  return std::tuple{TCT_FIELDS(C, sizes, count_equal, shape_equal, max_abs_diff, max_abs_expected, match),
                    TCT_FIELDS_WITH(C, kNull, error)};
}
constexpr auto json_fields(const AotiSite*) {
  using S = AotiSite;
  return std::tuple{TCT_FIELDS(S, key, name, kind, site_file, site_line, dims, status),
                    TCT_FIELDS_WITH(S, kNull, error),
                    TCT_FIELDS(S, export_sizes, export_time, package_time, package_bytes, package, checks,
                               outputs_match, extremes_checked),
                    TCT_FIELDS_WITH(S, kNull, cannot)};
}
constexpr auto json_fields(const AotiBuild*) {
  using B = AotiBuild;
  return std::tuple{TCT_FIELDS(B, wall, ok, exit_text, dir, sites), TCT_FIELDS_WITH(B, kNull, cannot)};
}
constexpr auto json_fields(const JobResult*) {
  using R = JobResult;
  return std::tuple{
      TCT_FIELDS(R, command, dir, rounds, horizon_calls, anchor, anchor_name, filling, aoti, modes, shape_fixes),
      group("decision", TCT_FIELDS(R, as_run, at_horizon)), TCT_FIELDS(R, crossings, notes)};
}

}  // namespace tct::job
