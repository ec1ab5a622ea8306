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

using namespace core::fields::declare;

constexpr auto json_fields(const Compile*) {
  using C = Compile;
  return std::tuple{TCT_FIELDS(C, compile_id, torch_compile_id, dynamo_resets, log, function, file, line, graphs,
                               graph_breaks, graph_breaks_from_restarts, op_count, guard_count, attempts, cache,
                               recompile_reasons, restart_reasons, skipped),
                    TCT_FIELDS_WITH(C, kNull, fail_type, fail_reason), field("phase_ns", &C::phases)};
}
constexpr auto json_fields(const BreakGroup*) {
  using G = BreakGroup;
  return std::tuple{field("kind", &G::kind, kind_json, kind_from), custom<G>("label", label_json),
                    TCT_FIELDS(G, file, line, count, reason, frame_skipped),
                    // Written when true: older sections read back byte for byte.
                    custom<G>("rest_only", rest_only_json, rest_only_from),
                    TCT_FIELDS(G, skip_reason, compile_ids, from_restart),
                    field("hint", &G::hint, hint_json, hint_from)};
}
constexpr auto json_fields(const RecompileGroup*) {
  using G = RecompileGroup;
  return std::tuple{TCT_FIELDS(G, frame, function, file, line, pattern, values, count, refused, cause, fix)};
}
constexpr auto json_fields(const Recompile*) {
  using R = Recompile;
  return std::tuple{TCT_FIELDS(R, compile_id, function, file, line, guard_failures),
                    field("kind", &R::kind, kind_json, kind_from), field("hint", &R::hint, hint_json, hint_from)};
}
constexpr auto json_fields(const SkippedFrame*) {
  using F = SkippedFrame;
  return std::tuple{TCT_FIELDS(F, compile_id, function, file, line, reason)};
}
constexpr auto json_fields(const Failure*) {
  using F = Failure;
  return std::tuple{TCT_FIELDS(F, compile_id, function, fail_type, fail_reason)};
}
constexpr auto json_fields(const Restart*) {
  using R = Restart;
  return std::tuple{TCT_FIELDS(R, compile_id, function, attempts, restart_reasons)};
}
constexpr auto json_fields(const CompileWithoutId*) {
  using C = CompileWithoutId;
  return std::tuple{TCT_FIELDS(C, kind, what, graph, function, file, line, log_line)};
}
constexpr auto json_fields(const Spot*) {
  return std::tuple{TCT_FIELDS(Spot, log, line, what), TCT_FIELDS_WITH(Spot, kNull, record)};
}
constexpr auto json_fields(const ReadStats*) {
  using S = ReadStats;
  return std::tuple{TCT_FIELDS(S, bytes, lines, records, garbled, truncated, verified_payloads),
                    field("stray_lines", &S::stray),
                    field("bad_payloads", &S::bad_payload),
                    field("edited_payloads", &S::edited),
                    custom<S>("damaged", damaged_json),
                    TCT_FIELDS(S, damaged_at, edited_at),
                    field("oversized_payloads", &S::oversized)};
}
constexpr auto json_fields(const Rank*) {
  using R = Rank;
  return std::tuple{TCT_FIELDS(R, rank, files, root), custom<R>("compile_count", compile_count_json),
                    TCT_FIELDS(R, dynamo_resets, compiles_without_id, graph_count, graph_break_count, compiles,
                               graph_breaks, recompiles, recompile_groups, skipped_frames),
                    // Written when there is one: a log without code that runs eagerly reads as before.
                    custom<R>("eager_parts", eager_parts_json, eager_parts_from),
                    TCT_FIELDS(R, failures, restarts, cache, record_kinds, read),
                    field("compile_time_ns", &R::compile_time)};  // a phase's ns each
}
constexpr auto json_fields(const FirstDifference*) {
  using D = FirstDifference;
  return std::tuple{TCT_FIELDS(D, position), TCT_FIELDS_WITH(D, kNull, op, reference_op)};
}
constexpr auto json_fields(const Divergence*) {
  using D = Divergence;
  return std::tuple{TCT_FIELDS(D, rank, log, what, compared_with, first_difference, message),
                    TCT_FIELDS_WITH(D, kNull, compile_id)};
}
constexpr auto json_fields(const TraceResult*) {
  using T = TraceResult;
  return std::tuple{TCT_FIELDS(T, path, ranks, divergence, cache_notes)};
}

}  // namespace tct::trace
