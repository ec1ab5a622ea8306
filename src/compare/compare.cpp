#include "compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "bench/json.hpp"
#include "core/json_number.hpp"
#include "errors.hpp"
#include "explain/json.hpp"
#include "report/error_record.hpp"
#include "suite/json.hpp"
#include "suite/summary.hpp"

namespace tct::compare {
namespace {

using json = nlohmann::json;

std::string string_or_empty(const json& v) { return v.is_string() ? v.get<std::string>() : std::string(); }

// A suite entry's result object (suite::entry_result's shape) as an Entry.
Entry entry(const std::string& id, EntryStatus status, const suite::EntryResult& result,
            const std::optional<report::ErrorRecord>& error) {
  Entry e;
  static_cast<suite::EntryResult&>(e) = result;
  e.id = id;
  e.status = status;
  if (error) e.error_kind = error->kind;
  return e;
}

EntryStatus status_of(suite::EntryStatus s) {
  switch (s) {
    case suite::EntryStatus::Ok: return EntryStatus::Ok;
    case suite::EntryStatus::Mismatch: return EntryStatus::Mismatch;
    case suite::EntryStatus::Failed: return EntryStatus::Failed;
  }
  return EntryStatus::Failed;
}

// A bench row's status as a suite entry's: ok, failed, mismatch, or not_run (pending/running).
EntryStatus row_status(const json& row, const suite::EntryResult& result) {
  std::string s = row.value("status", "");
  if (s == "failed") return EntryStatus::Failed;
  if (s != "ok") return EntryStatus::NotRun;
  return result.check == "mismatch" ? EntryStatus::Mismatch : EntryStatus::Ok;
}

Side side(const json& doc, const std::string& path) {
  const json& env = doc.value("environment", json::object());
  Side s;
  s.path = path;
  s.command = string_or_empty(doc.value("command", json()));
  s.created = string_or_empty(doc.value("created", json()));
  if (env.contains("torch") && env["torch"].is_object())
    s.torch = string_or_empty(env["torch"].value("version", json()));
  for (const char* section : {"bench", "audit"})
    if (doc.contains(section) && doc[section].is_object() && doc[section].contains("target")) {
      const json& t = doc[section]["target"];
      s.target = string_or_empty(t.is_object() ? t.value("spec", json()) : t);
      break;
    }
  return s;
}

bool passed(EntryStatus s) { return s == EntryStatus::Ok || s == EntryStatus::Mismatch; }

// The one rule: what changed from b to c, given the ratio of their speedups.
Change change_of(const Entry& b, const Entry& c, const stats::Interval& r) {
  if (passed(b.status) && !passed(c.status)) return Change::Broken;
  if (!passed(b.status) && passed(c.status)) return Change::Fixed;
  if (!passed(b.status)) return Change::StillFailing;
  if (b.status == EntryStatus::Ok && c.status == EntryStatus::Mismatch) return Change::NewMismatch;
  if (b.status == EntryStatus::Mismatch && c.status == EntryStatus::Ok) return Change::MismatchFixed;
  if (!r.has_interval()) return Change::NoInterval;
  if (r.high < 1) return Change::Regression;
  if (r.low > 1) return Change::Improvement;
  return Change::Unchanged;
}

Item item(const std::string& id, const Entry* b, const Entry* c, double max_regression) {
  Item i;
  i.id = id;
  if (b) i.baseline = *b;
  if (c) i.current = *c;
  if (!c) {
    i.change = Change::OnlyBaseline;
  } else if (!b) {
    i.change = Change::OnlyCurrent;
  } else {
    const stats::Interval r = stats::ratio(c->speedup, b->speedup);
    if (std::isfinite(r.estimate)) i.ratio = r;
    i.change = change_of(*b, *c, r);
    i.gate_failed = i.change == Change::Broken || i.change == Change::NewMismatch ||
                    (i.change == Change::Regression && r.high < 1 - max_regression);
  }
  return i;
}

}  // namespace

std::vector<Entry> comparable_entries(const json& doc, const std::string& path, std::string& kind) {
  std::vector<Entry> out;
  if (doc.is_object() && doc.contains("suite") && doc["suite"].is_object()) {
    kind = "suite";
    // Through the section's reader: what compare reads is what the suite wrote.
    for (const suite::EntryRecord& e : suite::suite_from_json(doc["suite"]).entries)
      out.push_back(entry(e.entry.id, status_of(e.status), e.result, e.error));
    return out;
  }
  if (doc.is_object() && doc.contains("bench") && doc["bench"].is_object()) {
    kind = "bench";
    const json& bench = doc["bench"];
    const json& explain_section = doc.value("explain", json());
    std::optional<explain::ExplainResult> explained;
    if (explain_section.is_object()) explained = explain::from_json(explain_section);
    for (const auto& row : bench.value("rows", json::array())) {
      json single = {{"rows", json::array({row})}, {"config", bench.value("config", json::object())}};
      const suite::EntryResult result =
          suite::entry_result(tct::bench::from_json(single), explained ? &*explained : nullptr);
      out.push_back(entry(row.value("label", ""), row_status(row, result), result,
                          report::error_record_from_json(row.value("error", json()))));
    }
    return out;
  }
  throw usage_error(fmt::format("{} has no bench rows or suite entries to compare", path),
                    "compare documents written by tct bench, tct audit or tct suite (--json or -o FILE.json)");
}

CompareResult compare_documents(const json& baseline, const std::string& baseline_path, const json& current,
                                const std::string& current_path, double max_regression) {
  CompareResult out;
  std::string cur_kind;
  const std::vector<Entry> base = comparable_entries(baseline, baseline_path, out.kind);
  const std::vector<Entry> cur = comparable_entries(current, current_path, cur_kind);
  if (out.kind != cur_kind)
    throw usage_error(
        fmt::format("{} is a {} document and {} a {} document", baseline_path, out.kind, current_path, cur_kind),
        "compare a suite with a suite, or a bench/audit with a bench/audit");
  out.baseline = side(baseline, baseline_path);
  out.current = side(current, current_path);
  out.max_regression = max_regression;

  std::map<std::string, const Entry*> cur_by_id;
  for (const auto& e : cur) cur_by_id.emplace(e.id, &e);
  for (const auto& b : base) {
    auto it = cur_by_id.find(b.id);
    out.items.push_back(item(b.id, &b, it == cur_by_id.end() ? nullptr : it->second, max_regression));
    if (it != cur_by_id.end()) cur_by_id.erase(it);
  }
  for (const auto& c : cur)
    if (cur_by_id.count(c.id)) out.items.push_back(item(c.id, nullptr, &c, max_regression));

  // Regressions first (most severe first), then other failures, improvements, the rest: the
  // enum's order. Within regressions, the worst (lowest upper bound) first.
  std::stable_sort(out.items.begin(), out.items.end(), [](const Item& a, const Item& b) {
    if (a.change != b.change) return a.change < b.change;
    return a.change == Change::Regression && a.ratio.high < b.ratio.high;
  });
  out.passed = std::none_of(out.items.begin(), out.items.end(), [](const Item& i) { return i.gate_failed; });
  if (out.kind == "suite") {
    auto geomean = [](const json& doc, stats::Interval& g, std::optional<int>& n) {
      const suite::SuiteSummary s = suite::summary_from_json(doc["suite"].value("summary", json::object()));
      g = s.geomean ? s.geomean->interval : stats::Interval{};
      if (s.geomean) n = s.geomean->n;
    };
    CompareResult::Geomean g;
    geomean(baseline, g.baseline, g.baseline_n);
    geomean(current, g.current, g.current_n);
    out.geomean = g;
  }
  return out;
}

int CompareResult::count(Change c) const {
  return static_cast<int>(std::count_if(items.begin(), items.end(), [c](const Item& i) { return i.change == c; }));
}

}  // namespace tct::compare
