#include "compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/json_number.hpp"
#include "errors.hpp"
#include "suite/summary.hpp"

namespace tct::compare {
namespace {

using json = nlohmann::json;

// A suite entry's result object (suite::entry_result's shape) as an Entry.
Entry entry(const std::string& id, EntryStatus status, const suite::EntryResult& result,
            const std::string& error_kind) {
  Entry e;
  static_cast<suite::EntryResult&>(e) = result;
  e.id = id;
  e.status = status;
  e.error_kind = error_kind;
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
EntryStatus row_status(const tct::bench::BenchRow& row, const suite::EntryResult& result) {
  if (row.failed()) return EntryStatus::Failed;
  if (!row.ok()) return EntryStatus::NotRun;
  return result.check == "mismatch" ? EntryStatus::Mismatch : EntryStatus::Ok;
}

Side side(const SavedDocument& doc) { return {doc.path, doc.command, doc.created, doc.torch, doc.target}; }

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

std::vector<Entry> comparable_entries(const SavedDocument& doc, std::string& kind) {
  std::vector<Entry> out;
  if (doc.suite) {
    kind = "suite";
    for (const suite::EntryRecord& e : doc.suite->entries)
      out.push_back(entry(e.entry.id, status_of(e.status), e.result, e.error ? e.error->kind : ""));
    return out;
  }
  if (doc.bench) {
    kind = "bench";
    for (const tct::bench::BenchRow& row : doc.bench->rows) {
      // Each row's headline numbers as a suite entry's: the result with this row alone (the
      // allocator states belong to the headline row's measurement, not to a compared row).
      tct::bench::BenchResult single = *doc.bench;
      single.rows = {row};
      single.allocator.reset();
      const suite::EntryResult result = suite::entry_result(single, doc.explain);
      out.push_back(entry(row.label, row_status(row, result), result, row.error ? row.error->kind : ""));
    }
    return out;
  }
  throw usage_error(fmt::format("{} has no bench rows or suite entries to compare", doc.path),
                    "compare documents written by tct bench, tct audit or tct suite (--json or -o FILE.json)");
}

CompareResult compare_documents(const SavedDocument& baseline, const SavedDocument& current, double max_regression) {
  CompareResult out;
  std::string cur_kind;
  const std::vector<Entry> base = comparable_entries(baseline, out.kind);
  const std::vector<Entry> cur = comparable_entries(current, cur_kind);
  if (out.kind != cur_kind)
    throw usage_error(
        fmt::format("{} is a {} document and {} a {} document", baseline.path, out.kind, current.path, cur_kind),
        "compare a suite with a suite, or a bench/audit with a bench/audit");
  out.baseline = side(baseline);
  out.current = side(current);
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
    auto geomean = [](const SavedDocument& doc, stats::Interval& g, std::optional<int>& n) {
      const suite::SuiteSummary& s = doc.suite->summary;
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
