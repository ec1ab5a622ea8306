// The compare section of a document, made from a CompareResult in one place, and read back
// (for `tct report` of a saved document) into the same value.
#include <cmath>

#include "compare/compare.hpp"
#include "core/json_number.hpp"
#include "core/json_read.hpp"
#include "suite/json.hpp"

namespace tct::compare {
namespace {

using json = nlohmann::json;

constexpr std::string_view kStatus[] = {"ok", "failed", "mismatch", "not_run"};  // EntryStatus's order

using core::json_read::str;

json null_if_empty(const std::string& s) { return s.empty() ? json(nullptr) : json(s); }

json geomean_json(const stats::Interval& g, const std::optional<int>& n) {
  json out = interval_json(g);
  if (out.is_object() && n) out["n"] = *n;
  return out;
}

}  // namespace

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
  out["error_kind"] = null_if_empty(e->error_kind);
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

json to_json(const CompareResult& r) {
  json items = json::array();
  json counts = json::object();
  for (const auto& i : r.items) {
    items.push_back(core::fields::write(i));
    const std::string c(to_string(i.change));
    counts[c] = counts.value(c, 0) + 1;
  }
  return {{"kind", r.kind},
          {"baseline", core::fields::write(r.baseline)},
          {"current", core::fields::write(r.current)},
          {"max_regression", r.max_regression},
          {"items", items},
          {"counts", counts},
          {"passed", r.passed},
          {"geomean", r.geomean ? json{{"baseline", geomean_json(r.geomean->baseline, r.geomean->baseline_n)},
                                       {"current", geomean_json(r.geomean->current, r.geomean->current_n)}}
                                : json(nullptr)},
          {"method",
           "ratio current/baseline of the speedups, its 95% interval from both intervals combined on the "
           "log scale; a regression or improvement only when that interval excludes 1"}};
}

CompareResult compare_from_json(const json& s) {
  CompareResult r;
  if (!s.is_object()) return r;
  r.kind = str(s, "kind");
  core::fields::read(core::json_read::at(s, "baseline"), r.baseline);
  core::fields::read(core::json_read::at(s, "current"), r.current);
  r.max_regression = core::number_or_nan(s, "max_regression");
  core::fields::decode(core::json_read::at(s, "items"), r.items);
  r.passed = s.value("passed", false);
  if (const json& g = s.value("geomean", json()); g.is_object()) {
    CompareResult::Geomean out;
    auto side = [](const json& o, stats::Interval& i, std::optional<int>& n) {
      i = interval_from(o);
      if (o.is_object() && o.value("n", json()).is_number_integer()) n = o["n"].get<int>();
    };
    side(g.value("baseline", json()), out.baseline, out.baseline_n);
    side(g.value("current", json()), out.current, out.current_n);
    r.geomean = out;
  }
  return r;
}

}  // namespace tct::compare
