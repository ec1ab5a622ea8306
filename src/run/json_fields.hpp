#pragma once
// The run section's JSON fields (core/fields.hpp): each struct of run/result.hpp listed once.
// Durations are whole ns (kWholeNs). What is not a plain field is spelled in run/json.cpp: a
// fix's terms (left out when none), the intervals' verdicts decided again, the figures derived
// on writing, and the spellings of older documents.
#include "core/fields.hpp"
#include "run/result.hpp"
#include "stats/fields.hpp"
#include "trace/json_fields.hpp"

namespace tct::run {

nlohmann::json terms_json(const core::FixTerms& t);
nlohmann::json line_or_null(const int& line);  // 0: none
int line_from(const nlohmann::json& j);
nlohmann::json whole_ns_map_json(const std::map<std::string, Ns>& phases);
std::map<std::string, Ns> whole_ns_map_from(const nlohmann::json& j);
std::vector<std::string> texts_from(const nlohmann::json& j);  // a non-string item as its JSON
nlohmann::json texts_json(const std::vector<std::string>& texts);
nlohmann::json ceiling_json(const std::optional<double>& calls);  // whole calls
std::optional<double> calls_from(const nlohmann::json& j);
// An interval's confidence: 0.95 for each of run's intervals.
template <class T>
nlohmann::json confidence_json(const T&) {
  return 0.95;
}
nlohmann::json eager_parts_json(const std::vector<core::EagerPart>& parts);
std::vector<core::EagerPart> eager_parts_from(const nlohmann::json& j);
nlohmann::json cause_json(const Fallback& f);
void cause_from(const nlohmann::json& j, Fallback& f);
nlohmann::json group_terms_json(const RecompileGroup& g);
void group_terms_from(const nlohmann::json& j, RecompileGroup& g);
nlohmann::json eager_verdict_json(const EagerComparison& e);
void eager_verdict_from(const nlohmann::json&, EagerComparison& e);
nlohmann::json trial_verdict_json(const FixTrial& t);
void trial_verdict_from(const nlohmann::json&, FixTrial& t);
nlohmann::json eager_calls_json(const SiteResult& s);
void eager_calls_from(const nlohmann::json& j, SiteResult& s);
void old_fallback_from(const nlohmann::json& j, SiteResult& s);
nlohmann::json complete_json(const ProcessResult& p);
void complete_from(const nlohmann::json& j, ProcessResult& p);
nlohmann::json compare_eager_json(const RunResult& r);
void compare_eager_from(const nlohmann::json& j, RunResult& r);
nlohmann::json try_fixes_json(const RunResult& r);
void try_fixes_from(const nlohmann::json& j, RunResult& r);
nlohmann::json call_breakdown_json(const bench::CallBreakdown& b);  // bench's spelling (bench/breakdown_json.cpp)
bench::CallBreakdown call_breakdown_from(const nlohmann::json& j);

using namespace core::fields::declare;

constexpr auto json_fields(const CallTimes*) {
  return std::tuple{TCT_FIELDS(CallTimes, calls), TCT_FIELDS_WITH(CallTimes, kWholeNs, median, p90, total)};
}
constexpr auto json_fields(const FrameRole*) {
  return std::tuple{TCT_FIELDS(FrameRole, frame, function, file, line, role),
                    field("break_line", &FrameRole::break_line, line_or_null, line_from)};
}
constexpr auto json_fields(const FrameCompile*) {
  using C = FrameCompile;
  return std::tuple{TCT_FIELDS(C, compile_id, frame, function, line, cache, graph_breaks, skipped),
                    TCT_FIELDS_WITH(C, kNull, fail_type, fail_reason),
                    TCT_FIELDS_WITH(C, kAbsent, guard_count),  // none in documents before it
                    field("phase_ns", &C::phases, whole_ns_map_json, whole_ns_map_from),
                    field("recompile_reasons", &C::recompile_reasons, texts_json, texts_from)};
}
constexpr auto json_fields(const SiteBreak*) {
  return std::tuple{TCT_FIELDS(SiteBreak, file, line, kind, reason, fix, count),
                    field("fix_terms", &SiteBreak::fix_terms, terms_json, core::fix_terms_from_json)};
}
constexpr auto json_fields(const Fallback*) {
  using F = Fallback;
  return std::tuple{TCT_FIELDS(F, frame, limit_value, at_call, guard, reason, kind, fix, calls_after),
                    custom<F>("cause", cause_json, cause_from), field("eager_calls_after", &F::eager_after),
                    field("fix_terms", &F::fix_terms, terms_json, core::fix_terms_from_json)};
}
constexpr auto json_fields(const RecompileGroup*) {
  using G = RecompileGroup;
  return std::tuple{
      TCT_FIELDS(G, frame, count, limit, code, code_file, code_file_truncated, code_line, cause, why, fix, cost),
      TCT_FIELDS_WITH(G, kWholeNs, compile_time), field("guard", &G::pattern),
      field("values", &G::values, texts_json, texts_from),
      custom<G>("fix_terms", group_terms_json, group_terms_from)};  // after cost, its fallback
}
constexpr auto json_fields(const EagerComparison*) {
  using E = EagerComparison;
  return std::tuple{TCT_FIELDS(E, compiled, eager, paid_back, clock), TCT_FIELDS_WITH(E, kWholeNs, compile_cost),
                    field("break_even_calls", &E::break_even_calls, ceiling_json, calls_from),
                    group("speedup", flat(&E::speedup), TCT_FIELDS(E, covers, runs_each),
                          custom<E>("confidence", confidence_json<E>)),
                    custom<E>("verdict", eager_verdict_json, eager_verdict_from)};  // after the interval
}
constexpr auto json_fields(const RunCompile*) {
  using C = RunCompile;
  return std::tuple{TCT_FIELDS(C, run, cache_state, cache), TCT_FIELDS_WITH(C, kWholeNs, compile_time, compile_cost),
                    field("break_even_calls", &C::break_even_calls, ceiling_json, calls_from)};
}
constexpr auto json_fields(const FixTrial*) {
  using T = FixTrial;
  return std::tuple{TCT_FIELDS(T, fix, before, after), field("graph_breaks_before", &T::breaks_before),
                    field("graph_breaks_after", &T::breaks_after),
                    group("speedup", flat(&T::speedup), custom<T>("confidence", confidence_json<T>)),
                    custom<T>("verdict", trial_verdict_json, trial_verdict_from)};  // after the interval
}
constexpr auto json_fields(const Stall*) {
  return std::tuple{field("compiled_p90_over_median", &Stall::compiled_ratio),
                    field("eager_p90_over_median", &Stall::eager_ratio), TCT_FIELDS(Stall, with_load)};
}
constexpr auto json_fields(const SizeCalls*) { return std::tuple{TCT_FIELDS(SizeCalls, size, calls)}; }
constexpr auto json_fields(const VariedDim*) {
  return std::tuple{TCT_FIELDS(VariedDim, input, dim, sizes, recompiles)};
}
constexpr auto json_fields(const ShapeUse*) {
  return std::tuple{TCT_FIELDS(ShapeUse, calls, shapes, other_calls, all_calls, one_in, varied)};
}
constexpr auto json_fields(const SampledBreakdown*) {
  using B = SampledBreakdown;
  return std::tuple{TCT_FIELDS(B, windows, compiling, settling, chain_calls, job_share, skipped),
                    TCT_FIELDS_WITH(B, kWholeNs, sampler, cost), TCT_FIELDS_WITH(B, kNull, error),
                    field("call", &B::call, call_breakdown_json, call_breakdown_from)};
}
constexpr auto json_fields(const SiteResult*) {
  using S = SiteResult;
  return std::tuple{
      TCT_FIELDS(S, key, kind, name, calls, compiling_calls, first_eager_call, job_share, compiles, recompiles,
                 graph_breaks, breaks, cache, recompile_groups, fallbacks, backward_outside, eager, stall),
      TCT_FIELDS_WITH(S, kWholeNs, compile_time),
      TCT_FIELDS_WITH(S, kNull, wrapper),
      TCT_FIELDS_WITH(S, kAbsent, shape_use, breakdown),  // left out by older records, and with --no-breakdown
      group("site", field("file", &S::site_file), field("line", &S::site_line)),
      group("code", field("function", &S::code_name), field("file", &S::code_file), field("line", &S::code_line)),
      custom<S>("eager_calls", eager_calls_json, eager_calls_from),
      field("all_calls", &S::all),
      field("steady_calls", &S::steady),
      field("device_steady_calls", &S::device_steady),
      field("compiling_calls_ns", &S::compiling_time, kWholeNs),
      field("refused_compiles", &S::refused),
      field("unfinished_compiles", &S::unfinished),
      field("compiled_runs", &S::runs),
      field("fix_trials", &S::trials),
      field("eager_parts", &S::eager_parts, eager_parts_json, eager_parts_from),
      custom<S>("fallback", nullptr, old_fallback_from)};  // after "fallbacks" and "code"
}
constexpr auto json_fields(const ProcessResult*) {
  using P = ProcessResult;
  return std::tuple{TCT_FIELDS(P, rank, pid, running, records_missing, trace_compiles, trace_recompiles, sites),
                    TCT_FIELDS_WITH(P, kNull, ended_by), custom<P>("complete", complete_json, complete_from),
                    field("records_final", &P::final)};  // after "complete", what older documents had
}
constexpr auto json_fields(const FirstEnd*) {
  using F = FirstEnd;
  return std::tuple{TCT_FIELDS(F, rank, pid, exitcode, moment, calls, records, trace_compiles, stopped),
                    TCT_FIELDS_WITH(F, kNull, signal, compiling)};
}
constexpr auto json_fields(const Divergence*) { return std::tuple{TCT_FIELDS(Divergence, rank, what, message)}; }
constexpr auto json_fields(const Contention*) {
  return std::tuple{TCT_FIELDS(Contention, load_1m, cpus, involuntary_switches_per_s, torch_threads)};
}
constexpr auto json_fields(const RunResult::FixRun*) {
  using F = RunResult::FixRun;
  return std::tuple{TCT_FIELDS(F, fix, exit_status), field("exit", &F::exit_text)};
}
constexpr auto json_fields(const RunResult*) {
  using R = RunResult;
  return std::tuple{
      TCT_FIELDS(R, command, exit_status, interrupted, record_dir, trace_dir, cwd, torch, processes_with_torch,
                 processes, first_end, divergence, notes, threads, contention, trace),
      TCT_FIELDS_WITH(R, kWholeNs, wall), field("exit", &R::exit_text),
      custom<R>("compare_eager", compare_eager_json, compare_eager_from),
      custom<R>("try_fixes", try_fixes_json, try_fixes_from)};
}

}  // namespace tct::run
