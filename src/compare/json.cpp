// The compare section: its fields are listed once (compare/json_fields.hpp); here are the
// spellings that are not a plain field, and the section's entry points.
#include <cmath>

#include "compare/compare.hpp"
#include "compare/json_fields.hpp"
#include "core/json_number.hpp"
#include "core/json_read.hpp"
#include "suite/json.hpp"

namespace tct::compare {

constexpr std::string_view kStatus[] = {"ok", "failed", "mismatch", "not_run"};  // EntryStatus's order

using core::json_read::str;

json interval_json(const stats::Interval& i) {
  if (!std::isfinite(i.estimate)) return nullptr;
  return {{"estimate", i.estimate},
          {"low", core::number_or_null(i.low)},
          {"high", core::number_or_null(i.high)},
          {"confidence", 0.95}};
}
stats::Interval interval_from(const json& o) {
  return {core::number_or_nan(o, "estimate"), core::number_or_nan(o, "low"), core::number_or_nan(o, "high")};
}

json entry_json(const std::optional<Entry>& e) {
  if (!e) return nullptr;
  // The headline numbers as a suite entry's "result" writes them, with the entry's id and status.
  json out = suite::to_json(static_cast<const suite::EntryResult&>(*e));
  out["id"] = e->id;
  out["status"] = kStatus[static_cast<int>(e->status)];
  out["error_kind"] = core::fields::encode(e->error_kind, core::fields::Empty::Null);
  return out;
}
std::optional<Entry> entry_from(const json& o) {
  if (!o.is_object()) return std::nullopt;
  Entry e;
  e.id = str(o, "id");
  const std::string status = str(o, "status");
  e.status = EntryStatus::Failed;
  for (int k = 0; k < 4; ++k)
    if (kStatus[k] == status) e.status = static_cast<EntryStatus>(k);
  // The headline numbers' keys are a suite entry result's: its one reader.
  static_cast<suite::EntryResult&>(e) = suite::entry_result_from_json(o);
  e.error_kind = str(o, "error_kind");
  return e;
}

json geomean_side_json(const stats::Interval& g, const std::optional<int>& n) {
  json out = interval_json(g);
  if (out.is_object() && n) out["n"] = *n;
  return out;
}
void geomean_side_from(const json& o, stats::Interval& g, std::optional<int>& n) {
  g = interval_from(o);
  if (o.is_object() && o.value("n", json()).is_number_integer()) n = o["n"].get<int>();
}
json counts_json(const CompareResult& r) {
  json counts = json::object();
  for (const auto& i : r.items) {
    const std::string c(to_string(i.change));
    counts[c] = counts.value(c, 0) + 1;
  }
  return counts;
}

json to_json(const CompareResult& r) { return core::fields::write(r); }
CompareResult compare_from_json(const json& s) { return core::fields::read_as<CompareResult>(s); }

}  // namespace tct::compare
