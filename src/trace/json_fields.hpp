#pragma once
// The trace section's JSON fields (core/fields.hpp): each struct of trace/result.hpp listed once.
// What is not a plain field is spelled in trace/json.cpp: a break's kind and its label, a hint,
// the figures derived from others.
#include "core/fields.hpp"
#include "trace/result.hpp"

namespace tct::trace {

nlohmann::json kind_json(const BreakKind& k);
BreakKind kind_from(const nlohmann::json& j);
nlohmann::json hint_json(const Hint& h);
Hint hint_from(const nlohmann::json& j);
nlohmann::json label_json(const BreakGroup& g);
nlohmann::json rest_only_json(const BreakGroup& g);
void rest_only_from(const nlohmann::json& j, BreakGroup& g);
nlohmann::json compile_count_json(const Rank& r);
nlohmann::json eager_parts_json(const Rank& r);
void eager_parts_from(const nlohmann::json& j, Rank& r);
nlohmann::json damaged_json(const ReadStats& s);

using core::fields::custom;
using core::fields::field;
inline constexpr auto kNull = core::fields::Empty::Null;

constexpr auto json_fields(const Compile*) {
  using C = Compile;
  return std::tuple{field("compile_id", &C::compile_id),
                    field("torch_compile_id", &C::torch_compile_id),
                    field("dynamo_resets", &C::dynamo_resets),
                    field("log", &C::log),
                    field("function", &C::function),
                    field("file", &C::file),
                    field("line", &C::line),
                    field("graphs", &C::graphs),
                    field("graph_breaks", &C::graph_breaks),
                    field("graph_breaks_from_restarts", &C::graph_breaks_from_restarts),
                    field("op_count", &C::op_count),
                    field("guard_count", &C::guard_count),
                    field("attempts", &C::attempts),
                    field("phase_ns", &C::phases),
                    field("cache", &C::cache),
                    field("recompile_reasons", &C::recompile_reasons),
                    field("restart_reasons", &C::restart_reasons),
                    field("fail_type", &C::fail_type, kNull),
                    field("fail_reason", &C::fail_reason, kNull),
                    field("skipped", &C::skipped)};
}
constexpr auto json_fields(const BreakGroup*) {
  using G = BreakGroup;
  return std::tuple{field("kind", &G::kind, kind_json, kind_from), custom<G>("label", label_json),
                    field("file", &G::file), field("line", &G::line), field("count", &G::count),
                    field("reason", &G::reason), field("frame_skipped", &G::frame_skipped),
                    // Written when true: older sections read back byte for byte.
                    custom<G>("rest_only", rest_only_json, rest_only_from), field("skip_reason", &G::skip_reason),
                    field("compile_ids", &G::compile_ids), field("from_restart", &G::from_restart),
                    field("hint", &G::hint, hint_json, hint_from)};
}
constexpr auto json_fields(const RecompileGroup*) {
  using G = RecompileGroup;
  return std::tuple{field("frame", &G::frame), field("function", &G::function), field("file", &G::file),
                    field("line", &G::line),   field("pattern", &G::pattern),   field("values", &G::values),
                    field("count", &G::count), field("refused", &G::refused),   field("cause", &G::cause),
                    field("fix", &G::fix)};
}
constexpr auto json_fields(const Recompile*) {
  using R = Recompile;
  return std::tuple{field("compile_id", &R::compile_id),
                    field("function", &R::function),
                    field("file", &R::file),
                    field("line", &R::line),
                    field("guard_failures", &R::guard_failures),
                    field("kind", &R::kind, kind_json, kind_from),
                    field("hint", &R::hint, hint_json, hint_from)};
}
constexpr auto json_fields(const SkippedFrame*) {
  using F = SkippedFrame;
  return std::tuple{field("compile_id", &F::compile_id), field("function", &F::function), field("file", &F::file),
                    field("line", &F::line), field("reason", &F::reason)};
}
constexpr auto json_fields(const Failure*) {
  using F = Failure;
  return std::tuple{field("compile_id", &F::compile_id), field("function", &F::function),
                    field("fail_type", &F::fail_type), field("fail_reason", &F::fail_reason)};
}
constexpr auto json_fields(const Restart*) {
  using R = Restart;
  return std::tuple{field("compile_id", &R::compile_id), field("function", &R::function),
                    field("attempts", &R::attempts), field("restart_reasons", &R::restart_reasons)};
}
constexpr auto json_fields(const CompileWithoutId*) {
  using C = CompileWithoutId;
  return std::tuple{field("kind", &C::kind),         field("what", &C::what), field("graph", &C::graph),
                    field("function", &C::function), field("file", &C::file), field("line", &C::line),
                    field("log_line", &C::log_line)};
}
constexpr auto json_fields(const Spot*) {
  return std::tuple{field("log", &Spot::log), field("line", &Spot::line), field("record", &Spot::record, kNull),
                    field("what", &Spot::what)};
}
constexpr auto json_fields(const ReadStats*) {
  using S = ReadStats;
  return std::tuple{field("bytes", &S::bytes),
                    field("lines", &S::lines),
                    field("records", &S::records),
                    field("garbled", &S::garbled),
                    field("stray_lines", &S::stray),
                    field("truncated", &S::truncated),
                    field("bad_payloads", &S::bad_payload),
                    field("edited_payloads", &S::edited),
                    field("verified_payloads", &S::verified_payloads),
                    custom<S>("damaged", damaged_json),
                    field("oversized_payloads", &S::oversized),
                    field("damaged_at", &S::damaged_at),
                    field("edited_at", &S::edited_at)};
}
constexpr auto json_fields(const Rank*) {
  using R = Rank;
  return std::tuple{field("rank", &R::rank), field("files", &R::files), field("root", &R::root),
                    custom<R>("compile_count", compile_count_json), field("dynamo_resets", &R::dynamo_resets),
                    field("compiles_without_id", &R::compiles_without_id), field("graph_count", &R::graph_count),
                    field("graph_break_count", &R::graph_break_count), field("compiles", &R::compiles),
                    field("graph_breaks", &R::graph_breaks), field("recompiles", &R::recompiles),
                    field("recompile_groups", &R::recompile_groups), field("skipped_frames", &R::skipped_frames),
                    // Written when there is one: a log without code that runs eagerly reads as before.
                    custom<R>("eager_parts", eager_parts_json, eager_parts_from), field("failures", &R::failures),
                    field("restarts", &R::restarts), field("cache", &R::cache),
                    field("compile_time_ns", &R::compile_time), field("record_kinds", &R::record_kinds),
                    field("read", &R::read)};
}
constexpr auto json_fields(const FirstDifference*) {
  using D = FirstDifference;
  return std::tuple{field("position", &D::position), field("op", &D::op, kNull),
                    field("reference_op", &D::reference_op, kNull)};
}
constexpr auto json_fields(const Divergence*) {
  using D = Divergence;
  return std::tuple{field("rank", &D::rank),
                    field("log", &D::log),
                    field("what", &D::what),
                    field("compile_id", &D::compile_id, kNull),
                    field("compared_with", &D::compared_with),
                    field("first_difference", &D::first_difference),
                    field("message", &D::message)};
}
constexpr auto json_fields(const TraceResult*) {
  using T = TraceResult;
  return std::tuple{field("path", &T::path), field("ranks", &T::ranks), field("divergence", &T::divergence),
                    field("cache_notes", &T::cache_notes)};
}

}  // namespace tct::trace
