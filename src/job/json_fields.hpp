#pragma once
// The job section's JSON fields (core/fields.hpp): each struct of job/result.hpp listed once.
// What is not a plain field is spelled in job/json.cpp: a duration's interval ({mean_ns, low_ns,
// high_ns}), the call curve's pairs, the figures derived from others.
#include <string_view>

#include "core/fields.hpp"
#include "job/result.hpp"
#include "stats/fields.hpp"

namespace tct::job {

inline constexpr std::string_view kHowNames[] = {"eager", "cold", "warm", "shipped"};  // How's order
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

using core::fields::custom;
using core::fields::field;
using core::fields::flat;
using core::fields::group;
inline constexpr auto kNull = core::fields::Empty::Null;

constexpr auto json_fields(const SiteRun*) {
  using S = SiteRun;
  return std::tuple{field("key", &S::key),
                    field("name", &S::name),
                    field("calls", &S::calls),
                    field("first_output_ns", &S::first_output),
                    field("steady_ns", &S::steady),
                    field("compile_time_ns", &S::compile_time),
                    field("recompiles", &S::recompiles),
                    field("cache_hits", &S::cache_hits),
                    field("cache_misses", &S::cache_misses),
                    field("cache_bypasses", &S::cache_bypasses)};
}
constexpr auto json_fields(const RunFigures*) {
  using F = RunFigures;
  return std::tuple{field("round", &F::round),
                    custom<F>("ok", ok_json),
                    field("exit_status", &F::exit_status),
                    field("exit_text", &F::exit_text),
                    field("timed_out", &F::timed_out),
                    field("interrupted", &F::interrupted),
                    field("wall_ns", &F::wall),
                    field("torch_threads", &F::torch_threads),
                    field("anchor", &F::anchor),
                    field("anchor_calls", &F::anchor_calls),
                    field("loop_per_call_ns", &F::loop_per_call),
                    field("curve", &F::curve, curve_json, curve_from),
                    field("artifacts_load_ns", &F::artifacts_load),
                    field("artifacts_bytes", &F::artifacts_bytes),
                    field("artifacts_error", &F::artifacts_error, kNull),
                    field("output_lines", &F::output_lines),
                    field("dir", &F::dir),
                    field("sites", &F::sites)};
}
constexpr auto json_fields(const SiteSummary*) {
  using S = SiteSummary;
  return std::tuple{field("key", &S::key),
                    field("name", &S::name),
                    field("calls", &S::calls),
                    field("first_output", &S::first_output, ns_interval_json, ns_interval_from),
                    field("steady", &S::steady, ns_interval_json, ns_interval_from),
                    field("compile_time_ns", &S::compile_time),
                    field("cache_hits", &S::cache_hits),
                    field("cache_misses", &S::cache_misses),
                    field("cache_bypasses", &S::cache_bypasses),
                    field("recompiles", &S::recompiles)};
}
constexpr auto json_fields(const OutputCheck*) {
  using C = OutputCheck;
  return std::tuple{field("compared", &C::compared),
                    field("same", &C::same),
                    field("differing_lines", &C::differing_lines),
                    field("line", &C::line),
                    field("eager_line", &C::eager_line),
                    field("mode_line", &C::mode_line)};
}
constexpr auto json_fields(const ModeSpec*) {  // in the mode
  return std::tuple{custom<ModeSpec>("mode", label_json), field("how", &ModeSpec::how),
                    field("threads", &ModeSpec::threads)};
}
constexpr auto json_fields(const ModeResult*) {
  using M = ModeResult;
  return std::tuple{flat(&M::spec),
                    field("error", &M::error, kNull),
                    field("total", &M::total, ns_interval_json, ns_interval_from),
                    field("loop_per_call", &M::loop_per_call, ns_interval_json, ns_interval_from),
                    field("at_horizon", &M::at_horizon, ns_horizon_json, ns_horizon_from),
                    field("failed", &M::failed),
                    custom<M>("eligible", eligible_json),
                    field("output", &M::output),
                    field("sites", &M::sites),
                    field("runs", &M::runs)};
}
constexpr auto json_fields(const Comparison*) {
  // The verdict is decided again from the ratio, by the one rule.
  return std::tuple{field("mode", &Comparison::mode), field("ratio", &Comparison::ratio),
                    custom<Comparison>("verdict", verdict_json, verdict_from)};
}
constexpr auto json_fields(const Decision*) {
  return std::tuple{field("best", &Decision::best, kNull), custom<Decision>("clear", clear_json),
                    field("others", &Decision::others)};
}
constexpr auto json_fields(const Crossing*) {
  return std::tuple{field("calls", &Crossing::calls), field("from", &Crossing::from), field("to", &Crossing::to)};
}
constexpr auto json_fields(const JobResult*) {
  using R = JobResult;
  return std::tuple{field("command", &R::command),
                    field("dir", &R::dir),
                    field("rounds", &R::rounds),
                    field("horizon_calls", &R::horizon_calls),
                    field("anchor", &R::anchor),
                    field("anchor_name", &R::anchor_name),
                    field("filling", &R::filling),
                    field("modes", &R::modes),
                    group("decision", field("as_run", &R::as_run), field("at_horizon", &R::at_horizon)),
                    field("crossings", &R::crossings),
                    field("notes", &R::notes)};
}

}  // namespace tct::job
