#pragma once
// The compare section's JSON fields (core/fields.hpp): each struct of compare/result.hpp listed
// once. An entry is written as a suite entry's result with its id and status, by the suite's one
// writer and reader (compare/json.cpp).
#include "compare/result.hpp"
#include "core/fields.hpp"

namespace tct::compare {

using json = nlohmann::json;
using namespace core::fields::declare;

// An interval with its confidence, null without an estimate.
json interval_json(const stats::Interval& i);
stats::Interval interval_from(const json& o);
json entry_json(const std::optional<Entry>& e);
std::optional<Entry> entry_from(const json& o);
json geomean_side_json(const stats::Interval& g, const std::optional<int>& n);
void geomean_side_from(const json& o, stats::Interval& g, std::optional<int>& n);
json counts_json(const CompareResult& r);

constexpr auto json_fields(const Item*) {
  return std::tuple{TCT_FIELDS(Item, id, change, gate_failed),
                    field("ratio", &Item::ratio, interval_json, interval_from),
                    field("baseline", &Item::baseline, entry_json, entry_from),
                    field("current", &Item::current, entry_json, entry_from)};
}
constexpr auto json_fields(const Side*) {
  return std::tuple{TCT_FIELDS(Side, path),
                    TCT_FIELDS_WITH(Side, core::fields::Empty::Null, command, created, torch, target)};
}
// Each side's interval with its entry count.
constexpr auto json_fields(const CompareResult::Geomean*) {
  using G = CompareResult::Geomean;
  return std::tuple{custom<G>(
                        "baseline", [](const G& g) { return geomean_side_json(g.baseline, g.baseline_n); },
                        [](const json& j, G& g) { geomean_side_from(j, g.baseline, g.baseline_n); }),
                    custom<G>(
                        "current", [](const G& g) { return geomean_side_json(g.current, g.current_n); },
                        [](const json& j, G& g) { geomean_side_from(j, g.current, g.current_n); })};
}
constexpr auto json_fields(const CompareResult*) {
  using R = CompareResult;
  return std::tuple{
      TCT_FIELDS(R, kind, baseline, current, max_regression, items, passed, geomean), custom<R>("counts", counts_json),
      custom<R>("method", [](const R&) -> json {
        return "ratio current/baseline of the speedups, its 95% interval from both intervals combined on the "
               "log scale; a regression or improvement only when that interval excludes 1";
      })};
}

}  // namespace tct::compare
