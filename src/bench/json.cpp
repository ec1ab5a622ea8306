// The bench section: its fields are listed once (bench/json_fields.hpp); here are the spellings
// that are not a plain field, and the section's entry points.
#include "bench/json.hpp"

#include <algorithm>
#include <cmath>

#include "bench/breakdown_json.hpp"
#include "bench/json_fields.hpp"
#include "core/json_read.hpp"

namespace tct::bench {

using json = nlohmann::json;
using core::json_read::opt_num;

json both_sides_json(const int& calls) { return {{"eager", calls}, {"compiled", calls}}; }
int both_sides_from(const json& j) {
  return std::max(opt_num<int>(j, "eager").value_or(1), opt_num<int>(j, "compiled").value_or(1));
}

json element_json(const std::optional<ElementValue>& v) {
  if (!v) return nullptr;
  if (v->im) return json::array({core::fields::encode(v->re, {}), core::fields::encode(*v->im, {})});
  return core::fields::encode(v->re, {});
}
std::optional<ElementValue> element_from(const json& v) {
  auto part = [](const json& x) { return x.is_number() ? x.get<double>() : NAN; };
  if (v.is_array() && v.size() == 2) return ElementValue{part(v[0]), part(v[1])};
  if (v.is_number()) return ElementValue{v.get<double>(), std::nullopt};
  return std::nullopt;
}

json speedup_verdict_json(const Speedup& s) { return std::string(to_string(s.verdict)); }
void speedup_verdict_from(const json&, Speedup& s) { s.verdict = stats::decide(s.interval); }
json inconclusive_json(const Speedup& s) { return s.verdict == SpeedupVerdict::Inconclusive; }

// The aoti row's two timers are the agent's whole-ns integers (a monotonic_ns difference each:
// python/tct_agent/ops/startup.py) and are written as such; torch's own are floats.
json row_compile_json(const BenchRow& r) {
  json out = core::fields::write(r.compile);
  if (r.aoti)
    for (const auto& [name, ns] : r.compile.breakdown)
      if (measured(ns)) out["breakdown"][name] = std::llround(ns.count());
  return out;
}
void row_compile_from(const json& j, BenchRow& r) { core::fields::read(j, r.compile); }

json row_breakdown_json(const BenchRow& r) {
  return r.breakdown ? to_json(*r.breakdown) : json(json::value_t::discarded);
}
void row_breakdown_from(const json& j, BenchRow& r) {
  if (j.is_object()) r.breakdown = breakdown_from_json(j);
}

json samples_calls_json(const BenchRow::RawSamples& s) {
  return s.calls_per_sample ? both_sides_json(*s.calls_per_sample) : json(json::value_t::discarded);
}
void samples_calls_from(const json& j, BenchRow::RawSamples& s) {
  if (j.is_object()) s.calls_per_sample = both_sides_from(j);
}

json package_compile_json(const Aoti& a) { return core::fields::encode(a.package_compile(), {}); }

json state_status_json(const AllocatorStateEntry& s) { return std::string(to_string(s.status)); }
// A status this version does not know: measured when a process ran, else left out.
void state_status_from(const json& j, AllocatorStateEntry& s) {
  s.status = parse_allocator_state_status(j.is_string() ? j.get<std::string>() : "")
                 .value_or(s.figures ? AllocatorStateStatus::Measured : AllocatorStateStatus::Skipped);
}

json warnings_json(const std::vector<report::Warning>& ws) { return report::to_json(ws); }
std::vector<report::Warning> warnings_from(const json& j) {
  std::vector<report::Warning> out;
  if (j.is_array())
    for (const auto& one : j) out.push_back(report::warning_from_json(one));
  return out;
}

Correctness correctness_from_json(const json& report) { return core::fields::read_as<Correctness>(report); }
std::optional<MemoryReading> memory_reading_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return core::fields::read_as<MemoryReading>(j);
}
json to_json(const Correctness& c) { return core::fields::write(c); }
json to_json(const Speedup& s) { return core::fields::write(s); }
json to_json(const RowError& e) { return core::fields::write(e); }
json to_json(const AllocatorComparison& a) { return core::fields::write(a); }
AllocatorComparison allocator_from_json(const json& section) {
  return core::fields::read_as<AllocatorComparison>(section);
}
json to_json(const BenchRow& r) { return core::fields::write(r); }
BenchRow row_from_json(const json& j) { return core::fields::read_as<BenchRow>(j); }
json to_json(const BenchResult& b) { return core::fields::write(b); }
BenchResult from_json(const json& j) { return core::fields::read_as<BenchResult>(j); }

}  // namespace tct::bench
