#pragma once
// The explain section's JSON fields (core/fields.hpp): each struct of explain/result.hpp listed
// once. What is not a plain field is spelled in explain/json.cpp: a break's kind and its label, a
// hint, the counts the logged run and the gate show from the result, the verdict of an older
// document, and the older documents' spellings.
#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

#include "core/fields.hpp"
#include "explain/result.hpp"

namespace tct::core {
// A user frame: explain's groups, breaks and logged records list them.
constexpr auto json_fields(const Frame*) { return std::tuple{TCT_FIELDS(Frame, file, line, function, source)}; }
}  // namespace tct::core

namespace tct::explain {

using json = nlohmann::json;
BreakKind kind_from(const json& j);
inline constexpr core::fields::Spelling<BreakKind> kKind{[](const BreakKind& k) -> json { return core::to_string(k); },
                                                         kind_from};
inline constexpr core::fields::Spelling<Hint> kHint{[](const Hint& h) { return core::to_json(h); },
                                                    core::hint_from_json};
void name_from(const json& j, SkippedFrame& f);
void qualname_from(const json& j, SkippedFrame& f);
void title_from(const json& j, SkippedFrame& f);
void count_from(const json& j, BreakGroup& g);
json views_json(const BreakGroup& g);
void views_from(const json& j, BreakGroup& g);
std::optional<std::string> error_from(const json& j);
void overhead_from(const json& j, GraphShare& g);
void break_count_from(const json& j, ExplainResult& r);
std::vector<GraphOps> ops_from(const json& j);
json logged_json(const ExplainResult& r);
void capturable_from(const json& j, ExplainResult& r);
void verdict_from(const json& j, ExplainResult& r);
json gate_json(const ExplainResult& r);

using namespace core::fields::declare;

inline constexpr std::array<std::string_view, 2> kCountsFromNames{"compiled_run", "explain"};
constexpr const auto& names(const CountsFrom*) { return kCountsFromNames; }

constexpr auto json_fields(const Registry*) {
  return std::tuple{TCT_FIELDS(Registry, id, type, explanation, hints, url)};
}
constexpr auto json_fields(const ExplainBreak*) {
  using B = ExplainBreak;
  return std::tuple{TCT_FIELDS(B, reason, registry, frames), field("kind", &B::kind, kKind),
                    field("hint", &B::hint, kHint)};
}
constexpr auto json_fields(const BreakGroup*) {
  using G = BreakGroup;
  return std::tuple{flat(&G::where),
                    TCT_FIELDS(G, callers, call_sites, reason, reason_full, registry_id),
                    field("kind", &G::kind, kKind),
                    field("hint", &G::hint, kHint),
                    custom<G>(
                        "count", [](const G& g) -> json { return g.count; }, count_from),
                    custom<G>("views", views_json, views_from)};
}
constexpr auto json_fields(const KindCount*) {
  using K = KindCount;
  return std::tuple{field("kind", &K::kind, kKind), TCT_FIELDS(K, count),
                    custom<K>("label", [](const K& k) -> json { return core::kind_label(k.kind); })};
}
constexpr auto json_fields(const SkippedFrame*) {
  using F = SkippedFrame;
  return std::tuple{
      custom<F>(
          "function", [](const F& f) -> json { return f.function; }, name_from),
      TCT_FIELDS(F, file, line, break_file, break_line, registry_id, reason, skip_reason, skip_reason_full),
      field("kind", &F::kind, kKind), field("hint", &F::hint, kHint),
      // After the name and the place: an older document's are made from them.
      custom<F>(
          "qualname", [](const F& f) -> json { return f.qualname; }, qualname_from),
      custom<F>(
          "title", [](const F& f) -> json { return f.title; }, title_from)};
}
constexpr auto json_fields(const ExplainView*) {
  return std::tuple{TCT_FIELDS(ExplainView, graph_count, graph_break_count, frame_skipped, op_count)};
}
constexpr auto json_fields(const OpCount*) { return std::tuple{TCT_FIELDS(OpCount, name, count)}; }
constexpr auto json_fields(const GraphOps*) { return std::tuple{TCT_FIELDS(GraphOps, op_count, ops)}; }
constexpr auto json_fields(const LoggedBreak*) {
  using B = LoggedBreak;
  return std::tuple{
      TCT_FIELDS(B, file, line, reason, reason_full, frame_skipped, skip_reason, duplicate, user_code, frames),
      field("kind", &B::kind, kKind)};
}
constexpr auto json_fields(const Recompile*) {
  using R = Recompile;
  return std::tuple{TCT_FIELDS(R, function, file, line, guard_failures), field("kind", &R::kind, kKind),
                    field("hint", &R::hint, kHint)};
}
constexpr auto json_fields(const GraphShare*) {
  using G = GraphShare;
  return std::tuple{TCT_FIELDS(G, pairs, covered, eager_fastest_ns, in_graph_fastest_ns),
                    // Written when timed: an older document has none.
                    custom<G>(
                        "overhead", [](const G& g) { return std::isfinite(g.overhead) ? json(g.overhead) : kLeftOut; },
                        overhead_from)};
}
constexpr auto json_fields(const CompiledRun*) {
  using C = CompiledRun;
  return std::tuple{
      TCT_FIELDS(C, backend, calls, graph_breaks, recompiles, frames_total, frames_ok, warnings),
      field(
          "error", &C::error, +[](const std::optional<std::string>& e) { return core::fields::encode(e, kKeep); },
          error_from),
      // Written when timed: a document of an earlier version reads back byte for byte.
      TCT_FIELDS_WITH(C, kAbsent, graph_share),
      // The result's count, written beside these by the result's "logged" entry.
      custom<C>("frames_skipped", nullptr)};
}
constexpr auto json_fields(const Disagreement*) { return std::tuple{TCT_FIELDS(Disagreement, kind, message)}; }
constexpr auto json_fields(const Gate*) {
  // The gate's counts are the result's, written beside these by the result's "gate" entry.
  return std::tuple{TCT_FIELDS(Gate, max_graph_breaks, passed), custom<Gate>("graph_break_count", nullptr),
                    custom<Gate>("frames_skipped", nullptr)};
}
// A result that only loaded its target is written as {"target"} alone (explain/json.cpp).
constexpr auto json_fields(const ExplainResult*) {
  using R = ExplainResult;
  return std::tuple{TCT_FIELDS(R, target, torch_version, form), TCT_FIELDS_WITH(R, kAbsent, counts_from),
                    field(
                        "graph_count", &R::graph_count, +[](const int& n) -> json { return n; },
                        +[](const json& j) { return std::max(0, j.is_number() ? j.get<int>() : 0); }),
                    TCT_FIELDS(R, op_count, guard_count, skipped_frames),
                    // After skipped_frames: an older document's -1 is a skip it did not name when it names none.
                    custom<R>(
                        "graph_break_count", [](const R& r) -> json { return r.graph_break_count; }, break_count_from),
                    // Written when there is one: a document without code that runs eagerly reads as before the field.
                    field(
                        "eager_parts", &R::eager_parts,
                        +[](const std::vector<core::EagerPart>& p) { return p.empty() ? kLeftOut : core::to_json(p); },
                        core::eager_parts_from_json),
                    TCT_FIELDS_WITH(R, kAbsent, explain_view),
                    field(
                        "ops_per_graph", &R::ops_per_graph,
                        +[](const std::vector<GraphOps>& g) { return core::fields::encode(g, kKeep); }, ops_from),
                    TCT_FIELDS(R, breaks, groups, kinds, disagreements),
                    custom<R>("logged", logged_json,
                              [](const json& j, R& r) {
                                if (j.is_object()) r.logged = read_as<CompiledRun>(j);
                              }),
                    // "capturable" before "verdict": an older document's verdict is made from it.
                    custom<R>(
                        "capturable", [](const R& r) -> json { return r.capturable(); }, capturable_from),
                    custom<R>(
                        "verdict", [](const R& r) -> json { return std::string(to_string(r.verdict)); }, verdict_from),
                    custom<R>("gate", gate_json, [](const json& j, R& r) {
                      if (j.is_object()) r.gate = read_as<Gate>(j);
                    })};
}

}  // namespace tct::explain
