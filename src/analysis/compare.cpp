#include "analysis/compare.hpp"
#include "core/json_number.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "analysis/log_interval.hpp"
#include "errors.hpp"
#include "suite/suite_summary.hpp"

namespace tct::analysis {
namespace {

json num_or_null(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }

Interval interval_of(const json& sp) { return {core::number_or_nan(sp, "estimate"), core::number_or_nan(sp, "low"), core::number_or_nan(sp, "high")}; }

json entry(const std::string& id, const std::string& status, const json& result, const json& error) {
  return {{"id", id},
          {"status", status},
          {"speedup", result.value("speedup", json())},
          {"verdict", result.value("verdict", "not_measured")},
          {"compile_ns", result.value("compile_ns", json())},
          {"break_even_calls", result.value("break_even_calls", json())},
          {"graph_breaks", result.value("graph_breaks", json())},
          {"check", result.value("check", json())},
          {"error_kind", error.is_object() ? error.value("kind", json()) : json(nullptr)}};
}

// A bench row's status as a suite entry's: ok, failed, mismatch, or not_run (pending/running).
std::string row_status(const json& row, const json& result) {
  std::string s = row.value("status", "");
  if (s == "failed") return "failed";
  if (s != "ok") return "not_run";
  return result.value("check", json()) == "mismatch" ? "mismatch" : "ok";
}

json side(const json& doc, const std::string& path) {
  const json& env = doc.value("environment", json::object());
  json target = nullptr;
  for (const char* s : {"bench", "audit"})
    if (doc.contains(s) && doc[s].is_object() && doc[s].contains("target")) {
      const json& t = doc[s]["target"];
      target = t.is_object() ? t.value("spec", json()) : t;
      break;
    }
  return {{"path", path}, {"command", doc.value("command", json())}, {"created", doc.value("created", json())},
          {"torch", env.contains("torch") && env["torch"].is_object() ? env["torch"].value("version", json()) : json(nullptr)},
          {"target", target}};
}

bool passed(const std::string& status) { return status == "ok" || status == "mismatch"; }

// Regressions first (most severe first), then other failures, improvements, the rest.
int rank(const std::string& change) {
  static const std::vector<std::string> order = {"broken", "new_mismatch", "regression", "still_failing",
                                                 "improvement", "fixed", "mismatch_fixed", "unchanged",
                                                 "no_interval", "only_baseline", "only_current"};
  return static_cast<int>(std::find(order.begin(), order.end(), change) - order.begin());
}

}  // namespace

json comparable_entries(const json& doc, const std::string& path, std::string& kind) {
  json out = json::array();
  if (doc.is_object() && doc.contains("suite") && doc["suite"].is_object()) {
    kind = "suite";
    for (const auto& e : doc["suite"].value("entries", json::array()))
      out.push_back(entry(e.value("id", ""), e.value("status", "failed"), e.value("result", json::object()),
                          e.value("error", json())));
    return out;
  }
  if (doc.is_object() && doc.contains("bench") && doc["bench"].is_object()) {
    kind = "bench";
    const json& bench = doc["bench"];
    const json& explain = doc.value("explain", json());
    for (const auto& row : bench.value("rows", json::array())) {
      json single = {{"rows", json::array({row})}, {"config", bench.value("config", json::object())}};
      json result = suite::entry_result(single, explain);
      out.push_back(entry(row.value("label", ""), row_status(row, result), result, row.value("error", json())));
    }
    return out;
  }
  throw usage_error(fmt::format("{} has no bench rows or suite entries to compare", path),
                    "compare documents written by tct bench, tct audit or tct suite (--json or -o FILE.json)");
}

json compare_documents(const json& baseline, const std::string& baseline_path, const json& current,
                       const std::string& current_path, double max_regression) {
  std::string base_kind, cur_kind;
  json base = comparable_entries(baseline, baseline_path, base_kind);
  json cur = comparable_entries(current, current_path, cur_kind);
  if (base_kind != cur_kind)
    throw usage_error(fmt::format("{} is a {} document and {} a {} document", baseline_path, base_kind, current_path, cur_kind),
                      "compare a suite with a suite, or a bench/audit with a bench/audit");

  std::map<std::string, const json*> cur_by_id;
  for (const auto& e : cur) cur_by_id.emplace(e["id"].get<std::string>(), &e);
  json items = json::array();
  auto add = [&](const std::string& id, const json* b, const json* c) {
    json item = {{"id", id}, {"change", ""}, {"gate_failed", false}, {"ratio", nullptr},
                 {"baseline", b ? *b : json(nullptr)}, {"current", c ? *c : json(nullptr)}};
    std::string change;
    if (!c) change = "only_baseline";
    else if (!b) change = "only_current";
    else {
      std::string bs = (*b)["status"], cs = (*c)["status"];
      Interval r = ratio(interval_of((*c)["speedup"]), interval_of((*b)["speedup"]));
      if (std::isfinite(r.estimate))
        item["ratio"] = {{"estimate", r.estimate}, {"low", num_or_null(r.low)}, {"high", num_or_null(r.high)},
                         {"confidence", 0.95}};
      if (passed(bs) && !passed(cs)) change = "broken";
      else if (!passed(bs) && passed(cs)) change = "fixed";
      else if (!passed(bs)) change = "still_failing";
      else if (bs == "ok" && cs == "mismatch") change = "new_mismatch";
      else if (bs == "mismatch" && cs == "ok") change = "mismatch_fixed";
      else if (!r.has_interval()) change = "no_interval";
      else if (r.high < 1) change = "regression";
      else if (r.low > 1) change = "improvement";
      else change = "unchanged";
      item["gate_failed"] = change == "broken" || change == "new_mismatch" ||
                            (change == "regression" && r.high < 1 - max_regression);
    }
    item["change"] = change;
    items.push_back(std::move(item));
  };
  for (const auto& b : base) {
    std::string id = b["id"];
    auto it = cur_by_id.find(id);
    add(id, &b, it == cur_by_id.end() ? nullptr : it->second);
    if (it != cur_by_id.end()) cur_by_id.erase(it);
  }
  for (const auto& c : cur)
    if (cur_by_id.count(c["id"].get<std::string>())) add(c["id"], nullptr, &c);

  std::stable_sort(items.begin(), items.end(), [](const json& a, const json& b) {
    int ra = rank(a["change"]), rb = rank(b["change"]);
    if (ra != rb) return ra < rb;
    // Within regressions, the worst (lowest upper bound) first.
    if (a["change"] == "regression") return core::number_or_nan(a["ratio"], "high") < core::number_or_nan(b["ratio"], "high");
    return false;
  });
  json counts = json::object();
  bool ok = true;
  for (const auto& i : items) {
    counts[i["change"].get<std::string>()] = counts.value(i["change"].get<std::string>(), 0) + 1;
    ok = ok && !i["gate_failed"].get<bool>();
  }
  json geomean = nullptr;
  if (base_kind == "suite")
    geomean = {{"baseline", baseline["suite"].value("summary", json::object()).value("geomean_speedup", json())},
               {"current", current["suite"].value("summary", json::object()).value("geomean_speedup", json())}};
  return {{"kind", base_kind},
          {"baseline", side(baseline, baseline_path)},
          {"current", side(current, current_path)},
          {"max_regression", max_regression},
          {"items", items},
          {"counts", counts},
          {"passed", ok},
          {"geomean", geomean},
          {"method", "ratio current/baseline of the speedups, its 95% interval from both intervals combined on the "
                     "log scale; a regression or improvement only when that interval excludes 1"}};
}

}  // namespace tct::analysis
