#include "bench/json.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>

#include "bench/analysis.hpp"
#include "bench/breakdown_json.hpp"
#include "core/json_number.hpp"
#include "core/json_read.hpp"
#include "report/warning.hpp"

namespace tct::bench {
namespace {

using json = nlohmann::json;

// Readers that never throw (core/json_read.hpp): a saved document may be older, or edited by hand.
using namespace core::json_read;
double number(const json& j, const char* key) { return core::number_or_nan(j, key); }
std::optional<int> opt_int(const json& j, const char* key) { return opt_num<int>(j, key); }
std::optional<long long> opt_long(const json& j, const char* key) { return opt_num<long long>(j, key); }

json number_json(double x) { return core::number_or_null(x); }
using core::duration_or_nan;
using core::duration_or_null;
template <class T>
json optional_json(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

// ------------------------------------------------------------------------- errors

json error_json(const RowError& e) {
  json out = {{"kind", e.kind}, {"stage", e.stage}, {"message", e.message}, {"hint", e.hint}};
  if (e.exit_code) out["exit_code"] = *e.exit_code;
  return out;
}
std::optional<RowError> error_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return RowError{str(j, "kind"), str(j, "stage"), str(j, "message"), str(j, "hint"), opt_int(j, "exit_code")};
}

// ------------------------------------------------------------------------ speedup

json process_speedup_json(const ProcessSpeedup& p) {
  json segments = json::array();
  for (double x : p.segment_speedups) segments.push_back(number_json(x));
  return {{"blocks", p.blocks}, {"speedup", number_json(p.speedup)}, {"segment_speedups", segments}};
}
ProcessSpeedup process_speedup_of(const json& j) {
  ProcessSpeedup p;
  p.blocks = opt_long(j, "blocks").value_or(0);
  p.speedup = number(j, "speedup");
  for (const auto& x : list(j, "segment_speedups")) p.segment_speedups.push_back(x.is_number() ? x.get<double>() : NAN);
  return p;
}

json speedup_json(const Speedup& s) {
  json out = json::object();
  if (s.confidence) out["confidence"] = *s.confidence;
  if (s.look_confidence) out["look_confidence"] = *s.look_confidence;
  if (s.looks) out["looks"] = *s.looks;
  if (s.segments) out["segments"] = *s.segments;
  if (s.between_segment_sd) out["between_segment_sd"] = number_json(*s.between_segment_sd);
  if (s.within_sd) out["within_sd"] = number_json(*s.within_sd);
  if (s.method) out["method"] = *s.method;
  if (s.per_process) {
    json per_process = json::array();
    for (const auto& p : *s.per_process) per_process.push_back(process_speedup_json(p));
    out["per_process"] = per_process;
  }
  out["estimate"] = number_json(s.interval.estimate);
  out["low"] = number_json(s.interval.low);
  out["high"] = number_json(s.interval.high);
  out["verdict"] = std::string(to_string(s.verdict));
  out["inconclusive"] = s.verdict == SpeedupVerdict::Inconclusive;  // the field documents before "verdict" had
  if (s.processes) out["processes"] = *s.processes;
  return out;
}
Speedup speedup_of(const json& j) {
  Speedup s;
  s.interval = {number(j, "estimate"), number(j, "low"), number(j, "high")};
  // Decided again from the numbers, by the one rule: a document written under an older rule
  // (which called [1.69, 2.84] inconclusive) loads with the verdict its interval supports.
  s.verdict = stats::decide(s.interval);
  s.processes = opt_int(j, "processes");
  s.confidence = opt_num<double>(j, "confidence");
  s.look_confidence = opt_num<double>(j, "look_confidence");
  s.looks = opt_int(j, "looks");
  s.segments = opt_int(j, "segments");
  if (has(j, "between_segment_sd")) s.between_segment_sd = number(j, "between_segment_sd");
  if (has(j, "within_sd")) s.within_sd = number(j, "within_sd");
  s.method = opt_str(j, "method");
  if (const json& p = at(j, "per_process"); p.is_array()) {
    s.per_process.emplace();
    for (const auto& one : p) s.per_process->push_back(process_speedup_of(one));
  }
  return s;
}

stats::Summary summary_of(const json& j) {
  stats::Summary s{};
  s.n = static_cast<std::size_t>(opt_long(j, "n").value_or(0));
  s.non_finite = static_cast<std::size_t>(opt_long(j, "non_finite").value_or(0));
  s.min = number(j, "min");
  s.max = number(j, "max");
  s.mean = number(j, "mean");
  s.median = number(j, "median");
  s.p05 = number(j, "p05");
  s.p25 = number(j, "p25");
  s.p75 = number(j, "p75");
  s.p95 = number(j, "p95");
  s.mad = number(j, "mad");
  s.robust_cv = number(j, "robust_cv");
  return s;
}

// ------------------------------------------------------------------------ compile

json counters_json(const CacheCounters& c) {
  return {{"hit", optional_json(c.hit)},
          {"fxgraph_cache_hit", c.fxgraph_cache_hit},
          {"fxgraph_cache_miss", c.fxgraph_cache_miss},
          {"autograd_cache_hit", c.autograd_cache_hit},
          {"autograd_cache_miss", c.autograd_cache_miss}};
}
std::optional<CacheCounters> counters_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return CacheCounters{opt_bool(j, "hit"), opt_int(j, "fxgraph_cache_hit").value_or(0),
                       opt_int(j, "fxgraph_cache_miss").value_or(0), opt_int(j, "autograd_cache_hit").value_or(0),
                       opt_int(j, "autograd_cache_miss").value_or(0)};
}

json spread_json(const std::optional<CompileSpread>& s) {
  if (!s) return nullptr;
  return {{"median_ns", s->median.count()},
          {"min_ns", s->min.count()},
          {"max_ns", s->max.count()},
          {"samples_ns", s->samples_ns},
          {"n", s->n}};
}
std::optional<CompileSpread> spread_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return CompileSpread{duration_or_nan(j, "median_ns"), duration_or_nan(j, "min_ns"), duration_or_nan(j, "max_ns"),
                       doubles(j, "samples_ns"), opt_int(j, "n").value_or(1)};
}

// The aoti row's two timers are the agent's whole-ns integers (a monotonic_ns difference each:
// python/tct_agent/ops/startup.py) and are written as such; torch's own are floats.
json timers_json(const CompileTimers& t, bool integral) {
  json out = json::object();
  for (const auto& [name, ns] : t)
    out[name] = integral && measured(ns) ? json(std::llround(ns.count())) : duration_or_null(ns);
  return out;
}

json compile_json(const Compile& c, bool aoti) {
  json out = json::object();
  out["first_call_ns"] = duration_or_null(c.first_call);
  out["cold_ns"] = duration_or_null(c.cold);
  out["warm_ns"] = duration_or_null(c.warm);
  out["cold_source"] = optional_json(c.cold_source);
  out["breakdown"] = timers_json(c.breakdown, aoti);
  if (c.warm_breakdown) out["warm_breakdown"] = timers_json(*c.warm_breakdown, false);
  if (c.repeated) {
    out["cold"] = spread_json(c.repeated->cold);
    out["warm"] = spread_json(c.repeated->warm);
    out["repeats"] = c.repeated->repeats;
    out["single_measurement"] = c.repeated->single_measurement;
    out["warm_cache_hit"] = optional_json(c.repeated->warm_cache_hit);
  }
  if (c.warm_cache) out["warm_cache"] = counters_json(*c.warm_cache);
  if (c.error) out["error"] = error_json(*c.error);
  return out;
}
Compile compile_of(const json& j) {
  Compile c;
  c.first_call = duration_or_nan(j, "first_call_ns");
  c.cold = duration_or_nan(j, "cold_ns");
  c.warm = duration_or_nan(j, "warm_ns");
  c.cold_source = opt_str(j, "cold_source");
  c.breakdown = compile_timers(at(j, "breakdown"));
  if (has(j, "warm_breakdown")) c.warm_breakdown = compile_timers(at(j, "warm_breakdown"));
  if (has(j, "repeats") || has(j, "cold") || has(j, "warm_cache_hit"))
    c.repeated = Compile::Repeats{spread_from_json(at(j, "cold")), spread_from_json(at(j, "warm")),
                                  opt_int(j, "repeats").value_or(1), flag(j, "single_measurement"),
                                  opt_bool(j, "warm_cache_hit")};
  c.warm_cache = counters_of(at(j, "warm_cache"));
  c.error = error_of(at(j, "error"));
  return c;
}

// --------------------------------------------------------------------- break-even

json range_json(const std::optional<CallRange>& r) {
  if (!r) return nullptr;
  return {{"estimate", optional_json(r->estimate)}, {"low", optional_json(r->low)}, {"high", optional_json(r->high)}};
}
std::optional<CallRange> range_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return CallRange{opt_long(j, "estimate"), opt_long(j, "low"), opt_long(j, "high")};
}

json break_even_json(const BreakEven& b) {
  return {{"verdict", std::string(to_string(b.verdict))}, {"cold", range_json(b.cold)}, {"warm", range_json(b.warm)}};
}
std::optional<BreakEven> break_even_of(const json& j) {
  if (!j.is_object()) return std::nullopt;
  BreakEven b;
  b.verdict = parse_break_even_verdict(str(j, "verdict")).value_or(BreakEvenVerdict::Inconclusive);
  b.cold = range_of(at(j, "cold"));
  b.warm = range_of(at(j, "warm"));
  return b;
}

// ----------------------------------------------------------------------- memory

// A side's peak as {side}_peak_bytes and {side}_method beside the row's other memory figures.
void write_peak(const std::optional<MemoryPeak>& p, const std::string& side, json& out) {
  if (!p) return;
  out[side + "_peak_bytes"] = optional_json(p->bytes);
  out[side + "_method"] = p->method;
}
std::optional<MemoryPeak> peak_of(const json& j, const std::string& side) {
  const std::string bytes = side + "_peak_bytes", method = side + "_method";
  if (!has(j, bytes.c_str()) && !has(j, method.c_str())) return std::nullopt;
  return MemoryPeak{opt_long(j, bytes.c_str()), str(j, method.c_str())};
}

json memory_json(const Memory& m) {
  json out = json::object();
  out["kind"] = m.kind;
  out["eager_increase_bytes"] = optional_json(m.eager_increase_bytes);
  write_peak(m.eager_peak, "eager", out);
  if (m.compiled) {
    out["compiled_increase_bytes"] = optional_json(m.compiled->increase_bytes);
    out["compile_peak_increase_bytes"] = optional_json(m.compiled->compile_peak_increase_bytes);
    out["compiler_kept_bytes"] = number_json(m.compiled->compiler_kept_bytes);
    write_peak(m.compiled->peak, "compiled", out);
  }
  return out;
}
Memory memory_of(const json& j) {
  Memory m;
  m.kind = str(j, "kind");
  m.eager_increase_bytes = opt_long(j, "eager_increase_bytes");
  m.eager_peak = peak_of(j, "eager");
  if (has(j, "compiled_increase_bytes"))
    m.compiled = Memory::Compiled{opt_long(j, "compiled_increase_bytes"), opt_long(j, "compile_peak_increase_bytes"),
                                  number(j, "compiler_kept_bytes"), peak_of(j, "compiled")};
  return m;
}

// ------------------------------------------------------------------ correctness

json mismatches_json(const std::vector<Mismatch>& ms) {
  json out = json::array();
  for (const auto& m : ms) out.push_back({{"path", m.path}, {"reason", m.reason}});
  return out;
}
std::vector<Mismatch> mismatches_of(const json& j) {
  std::vector<Mismatch> out;
  if (!j.is_array()) return out;
  for (const auto& m : j) out.push_back({str(m, "path"), str(m, "reason")});
  return out;
}

json element_json(const std::optional<ElementValue>& v) {
  if (!v) return nullptr;
  if (v->im) return json::array({number_json(v->re), number_json(*v->im)});
  return number_json(v->re);
}

json leaf_json(const LeafCheck& l) {
  const LeafMeasured& m = l.measured;
  json out = {{"path", l.path},
              {"dtype", l.dtype},
              {"numel", l.numel},
              {"match", l.match},
              {"basis", l.basis.empty() ? json(nullptr) : json(l.basis)},
              {"rtol", number_json(l.tolerance.rtol)},
              {"atol", number_json(l.tolerance.atol)},
              {"fraction_out_of_tolerance", optional_json(l.fraction_out_of_tolerance)},
              {"max_abs_diff", number_json(m.max_abs_diff)},
              {"max_rel_diff", number_json(m.max_rel_diff)},
              {"out_of_tolerance", optional_json(m.out_of_tolerance)},
              {"worst_index", optional_json(m.worst_index)},
              {"expected_at_worst", element_json(m.expected_at_worst)},
              {"actual_at_worst", element_json(m.actual_at_worst)}};
  if (const auto& r = m.reference)
    out["reference"] = {{"eager_max_error", number_json(r->eager_max_error)},
                        {"compiled_max_error", number_json(r->compiled_max_error)},
                        {"eager_rms_error", number_json(r->eager_rms_error)},
                        {"compiled_rms_error", number_json(r->compiled_rms_error)},
                        {"multiplier", number_json(r->multiplier)},
                        {"out_of_tolerance", optional_json(r->out_of_tolerance)},
                        {"worst_index", optional_json(r->worst_index)},
                        {"reference_at_worst", number_json(r->reference_at_worst)},
                        {"expected_at_worst", number_json(r->expected_at_worst)},
                        {"actual_at_worst", number_json(r->actual_at_worst)}};
  return out;
}
LeafCheck leaf_of(const json& j) {
  LeafCheck l;
  l.path = str(j, "path");
  l.dtype = str(j, "dtype");
  l.numel = opt_long(j, "numel").value_or(0);
  l.match = flag(j, "match");
  l.basis = str(j, "basis");
  l.tolerance.rtol = number(j, "rtol");
  l.tolerance.atol = number(j, "atol");
  l.fraction_out_of_tolerance = opt_num<double>(j, "fraction_out_of_tolerance");
  l.measured = leaf_measured_from_json(j);
  return l;
}

json reference_run_json(const ReferenceRun& r) {
  json out = json::object();
  if (r.computed) out["computed"] = *r.computed;
  if (r.dtype) out["dtype"] = *r.dtype;
  if (r.reason) out["reason"] = *r.reason;
  return out;
}

json check_costs_json(const CheckCosts& c) {
  json out = json::object();
  if (c.eager_ns) out["eager_ns"] = *c.eager_ns;
  if (c.compiled_ns) out["compiled_ns"] = *c.compiled_ns;
  if (c.compare_ns) out["compare_ns"] = *c.compare_ns;
  if (c.reference_ns) out["reference_ns"] = *c.reference_ns;
  return out;
}

json correctness_json(const Correctness& c) {
  json out = {{"checked", c.checked},
              {"match", optional_json(c.match)},
              {"nondeterministic", optional_json(c.nondeterministic)},
              {"mismatches", mismatches_json(c.mismatches)}};
  if (c.leaves) out["leaves"] = *c.leaves;
  if (c.basis) out["basis"] = *c.basis;
  if (c.differing_parameters) out["differing_parameters"] = *c.differing_parameters;
  if (c.leaf_results) {
    json leaves = json::array();
    for (const auto& l : *c.leaf_results) leaves.push_back(leaf_json(l));
    out["leaf_results"] = leaves;
  }
  if (c.not_compared) {
    json nc = json::array();
    for (const auto& n : *c.not_compared) nc.push_back({{"path", n.path}, {"type", n.type}});
    out["not_compared"] = nc;
  }
  if (c.fallback_random) out["fallback_random"] = *c.fallback_random;
  if (c.eager_used_rng) out["eager_used_rng"] = *c.eager_used_rng;
  if (c.seeded) out["seeded"] = *c.seeded;
  if (c.eager_differing) out["eager_differing"] = mismatches_json(*c.eager_differing);
  if (c.eager_max_self_diff) out["eager_max_self_diff"] = *c.eager_max_self_diff;
  if (c.reference) out["reference"] = reference_run_json(*c.reference);
  if (c.agent_cost) out["agent_cost_ns"] = check_costs_json(*c.agent_cost);
  if (c.check_s) out["check_s"] = *c.check_s;
  return out;
}
Correctness correctness_of(const json& j) {
  Correctness c;
  c.checked = flag(j, "checked");
  c.match = opt_bool(j, "match");
  c.nondeterministic = opt_bool(j, "nondeterministic");
  c.mismatches = mismatches_of(at(j, "mismatches"));
  c.leaves = opt_int(j, "leaves");
  c.basis = opt_str(j, "basis");
  if (has(j, "differing_parameters")) c.differing_parameters = strings(j, "differing_parameters");
  if (const json& leaves = at(j, "leaf_results"); leaves.is_array()) {
    c.leaf_results.emplace();
    for (const auto& l : leaves) c.leaf_results->push_back(leaf_of(l));
  }
  if (const json& nc = at(j, "not_compared"); nc.is_array()) {
    c.not_compared.emplace();
    for (const auto& n : nc) c.not_compared->push_back({str(n, "path"), str(n, "type")});
  }
  c.fallback_random = opt_bool(j, "fallback_random");
  c.eager_used_rng = opt_bool(j, "eager_used_rng");
  c.seeded = opt_bool(j, "seeded");
  if (const json& e = at(j, "eager_differing"); e.is_array()) c.eager_differing = mismatches_of(e);
  c.eager_max_self_diff = opt_num<double>(j, "eager_max_self_diff");
  if (const json& r = at(j, "reference"); r.is_object()) c.reference = reference_run_from_json(r);
  if (const json& a = at(j, "agent_cost_ns"); a.is_object()) c.agent_cost = check_costs_from_json(a);
  c.check_s = opt_num<double>(j, "check_s");
  return c;
}

// -------------------------------------------------------------------- allocator

json allocator_state_json(const AllocatorStateEntry& s) {
  json out = {{"state", s.state},
              {"description", s.description},
              {"status", std::string(to_string(s.status))},
              {"library", optional_json(s.library)},
              {"reason", optional_json(s.reason)}};
  // A state left out ran no process: its entry has no figures' keys at all.
  if (const auto& f = s.figures) {
    out["detected"] = optional_json(f->detected);
    out["eager_ns"] = number_json(f->eager_ns);
    out["compiled_ns"] = number_json(f->compiled_ns);
    out["speedup"] = f->speedup ? json{{"estimate", number_json(f->speedup->estimate)},
                                       {"low", number_json(f->speedup->low)},
                                       {"high", number_json(f->speedup->high)},
                                       {"confidence", number_json(f->speedup->confidence)}}
                                : json(nullptr);
    out["blocks"] = f->blocks;
    out["sampling_s"] = number_json(f->sampling_s);
  }
  return out;
}
AllocatorStateEntry allocator_state_of(const json& j) {
  AllocatorStateEntry s;
  s.state = str(j, "state");
  s.description = str(j, "description");
  s.library = opt_str(j, "library");
  s.reason = opt_str(j, "reason");
  bool figures = false;
  for (const char* k : {"detected", "eager_ns", "compiled_ns", "speedup", "blocks", "sampling_s"})
    figures = figures || has(j, k);
  if (figures) {
    AllocatorFigures f;
    f.detected = opt_str(j, "detected");
    f.eager_ns = number(j, "eager_ns");
    f.compiled_ns = number(j, "compiled_ns");
    if (const json& sp = at(j, "speedup"); sp.is_object())
      f.speedup =
          AllocatorSpeedup{number(sp, "estimate"), number(sp, "low"), number(sp, "high"), number(sp, "confidence")};
    f.blocks = opt_int(j, "blocks").value_or(0);
    f.sampling_s = number(j, "sampling_s");
    s.figures = f;
  }
  // A status this version does not know: measured when a process ran, else left out.
  s.status = parse_allocator_state_status(str(j, "status"))
                 .value_or(figures ? AllocatorStateStatus::Measured : AllocatorStateStatus::Skipped);
  return s;
}

json allocator_json(const AllocatorComparison& a) {
  json states = json::array();
  for (const auto& s : a.states) states.push_back(allocator_state_json(s));
  return {{"state", a.state},
          {"description", a.description},
          {"library", optional_json(a.library)},
          {"ld_preload", optional_json(a.ld_preload)},
          {"settled", a.settled},
          {"detected",
           {{"kind", a.detected.kind},
            {"library", optional_json(a.detected.library)},
            {"settled", optional_json(a.detected.settled)},
            {"ld_preload", optional_json(a.detected.ld_preload)}}},
          {"compare",
           {{"enabled", a.compare.enabled},
            {"skipped_reason", optional_json(a.compare.skipped_reason)},
            {"budget_s", number_json(a.compare.budget_s)},
            {"row", optional_json(a.compare.row)}}},
          {"states", states},
          {"differs", optional_json(a.differs)},
          {"processes_disagree", optional_json(a.processes_disagree)},
          {"best_state", optional_json(a.best_state)}};
}
AllocatorComparison allocator_of(const json& j) {
  AllocatorComparison a;
  a.state = str(j, "state");
  a.description = str(j, "description");
  a.library = opt_str(j, "library");
  a.ld_preload = opt_str(j, "ld_preload");
  a.settled = flag(j, "settled");
  const json& d = at(j, "detected");
  a.detected = DetectedAllocator{str(d, "kind", "unknown"), opt_str(d, "library"), opt_bool(d, "settled"),
                                 opt_str(d, "ld_preload")};
  const json& c = at(j, "compare");
  a.compare =
      AllocatorComparePlan{flag(c, "enabled"), opt_str(c, "skipped_reason"), number(c, "budget_s"), opt_str(c, "row")};
  for (const auto& s : list(j, "states"))
    if (s.is_object()) a.states.push_back(allocator_state_of(s));
  a.differs = opt_bool(j, "differs");
  a.processes_disagree = opt_bool(j, "processes_disagree");
  a.best_state = opt_str(j, "best_state");
  return a;
}

// ------------------------------------------------------------ counters and sampling

json outliers_json(const OutlierCount& o) {
  return {{"count", o.count},
          {"fraction", o.fraction},
          {"high", o.high},
          {"low", o.low},
          {"relative_fallback", o.relative_fallback}};
}
OutlierCount outliers_from_json(const json& j) {
  return {opt_long(j, "count").value_or(0), opt_long(j, "high").value_or(0), opt_long(j, "low").value_or(0),
          std::isfinite(number(j, "fraction")) ? number(j, "fraction") : 0.0, flag(j, "relative_fallback")};
}

void write_warmup_counters(const WarmupCounters& c, json& out) {
  out["graphs"] = c.graphs;
  out["frames_compiled_in_warmup"] = c.frames;
  json reasons = json::array();
  for (const auto& r : c.graph_break_reasons) reasons.push_back({{"reason", r.reason}, {"count", r.count}});
  out["graph_break_reasons"] = reasons;
  out["skip_reasons"] = c.skip_reasons;
}
std::optional<WarmupCounters> warmup_counters_of(const json& j) {
  if (!has(j, "graphs")) return std::nullopt;
  std::vector<GraphBreakReason> reasons;
  for (const auto& r : list(j, "graph_break_reasons"))
    if (r.is_object()) reasons.push_back({str(r, "reason"), opt_long(r, "count").value_or(0)});
  return WarmupCounters{opt_int(j, "graphs").value_or(0), opt_int(j, "frames_compiled_in_warmup").value_or(0),
                        std::move(reasons), strings(j, "skip_reasons")};
}

void write_sampling(const Sampling& s, json& out) {
  out["calls_per_sample"] = {{"eager", s.calls_per_sample}, {"compiled", s.calls_per_sample}};
  out["samples_per_block"] = s.samples_per_block;
  out["block_warmup_ns"] = {{"eager", duration_or_null(s.block_warmup_eager)},
                            {"compiled", duration_or_null(s.block_warmup_compiled)}};
  out["outliers"] = {{"eager", outliers_json(s.outliers_eager)}, {"compiled", outliers_json(s.outliers_compiled)}};
  out["sampling_s"] = number_json(s.seconds);
  out["graph_breaks_during_measurement"] = s.graph_breaks;
  out["load"] = {{"loadavg_1m_max", number_json(s.load.loadavg_1m_max)},
                 {"cpus", optional_json(s.load.cpus)},
                 {"involuntary_switches_per_s", number_json(s.load.involuntary_switches_per_s)}};
}
std::optional<Sampling> sampling_of(const json& j) {
  if (!has(j, "calls_per_sample")) return std::nullopt;
  Sampling s;
  const json& cps = at(j, "calls_per_sample");
  s.calls_per_sample = std::max(opt_int(cps, "eager").value_or(1), opt_int(cps, "compiled").value_or(1));
  s.samples_per_block = opt_int(j, "samples_per_block").value_or(0);
  s.block_warmup_eager = duration_or_nan(at(j, "block_warmup_ns"), "eager");
  s.block_warmup_compiled = duration_or_nan(at(j, "block_warmup_ns"), "compiled");
  s.outliers_eager = outliers_from_json(at(at(j, "outliers"), "eager"));
  s.outliers_compiled = outliers_from_json(at(at(j, "outliers"), "compiled"));
  s.seconds = number(j, "sampling_s");
  s.graph_breaks = opt_int(j, "graph_breaks_during_measurement").value_or(0);
  const json& load = at(j, "load");
  s.load = Load{number(load, "loadavg_1m_max"), opt_int(load, "cpus"), number(load, "involuntary_switches_per_s")};
  return s;
}

// ------------------------------------------------------------------------- rows

RowStatus status_of(const std::string& s) {
  if (s == "ok") return RowStatus::Ok;
  if (s == "failed") return RowStatus::Failed;
  if (s == "running") return RowStatus::Running;
  return RowStatus::Pending;
}

// ---------------------------------------------------------------------- section

json settings_json(const Settings& s) {
  json out = json::object();
  if (s.looks) out["looks"] = *s.looks;
  out["notes"] = s.notes;
  out["backends"] = s.backends;
  out["modes"] = s.modes;
  out["dynamic"] = s.dynamic;
  out["fullgraph"] = s.fullgraph;
  out["precision"] = number_json(s.precision);
  out["budget_s"] = number_json(s.budget_s);
  out["warmup_calls"] = s.warmup_calls;
  out["eager_warmup_calls"] = s.eager_warmup_calls;
  out["min_blocks"] = s.min_blocks;
  out["check"] = s.check;
  if (s.compile_repeats) out["compile_repeats"] = *s.compile_repeats;
  out["rtol"] = optional_json(s.rtol);
  out["atol"] = optional_json(s.atol);
  out["compile_time"] = s.compile_time;
  out["memory"] = s.memory;
  out["raw"] = s.raw;
  out["eager_via"] = s.eager_via;
  if (s.allocator) out["allocator"] = *s.allocator;
  if (s.allocator_compare) out["allocator_compare"] = *s.allocator_compare;
  if (s.breakdown) out["breakdown"] = *s.breakdown;
  out["train"] = s.train;
  out["params"] = s.params;
  out["device"] = optional_json(s.device);
  out["dtype"] = optional_json(s.dtype);
  return out;
}
Settings settings_from_json(const json& j) {
  Settings s;
  s.looks = opt_int(j, "looks");
  s.notes = strings(j, "notes");
  s.backends = strings(j, "backends");
  s.modes = strings(j, "modes");
  s.dynamic = strings(j, "dynamic");
  for (const auto& f : list(j, "fullgraph"))
    if (f.is_boolean()) s.fullgraph.push_back(f.get<bool>());
  s.precision = number(j, "precision");
  s.budget_s = number(j, "budget_s");
  s.warmup_calls = opt_int(j, "warmup_calls").value_or(0);
  s.eager_warmup_calls = opt_int(j, "eager_warmup_calls").value_or(0);
  s.min_blocks = opt_int(j, "min_blocks").value_or(0);
  s.check = flag(j, "check", true);
  s.compile_repeats = opt_int(j, "compile_repeats");
  s.rtol = opt_num<double>(j, "rtol");
  s.atol = opt_num<double>(j, "atol");
  s.compile_time = flag(j, "compile_time", true);
  s.memory = flag(j, "memory", true);
  s.raw = flag(j, "raw");
  s.eager_via = str(j, "eager_via");
  s.allocator = opt_str(j, "allocator");
  s.allocator_compare = opt_bool(j, "allocator_compare");
  s.breakdown = opt_bool(j, "breakdown");
  s.train = flag(j, "train");
  if (const json& p = at(j, "params"); p.is_object()) s.params = p;
  s.device = opt_str(j, "device");
  s.dtype = opt_str(j, "dtype");
  return s;
}

json memory_reading_json(const MemoryReading& m) {
  return {{"kind", m.kind},
          {"peak_bytes", optional_json(m.peak_bytes)},
          {"baseline_bytes", optional_json(m.baseline_bytes)},
          {"increase_bytes", optional_json(m.increase_bytes)},
          {"method", m.method}};
}

json eager_json(const EagerBaseline& e) {
  return {{"warmup_ns", e.warmup_ns},
          {"first_call_ns", duration_or_null(e.first_call)},
          {"steady_ns", duration_or_null(e.steady)},
          {"memory", e.memory ? memory_reading_json(*e.memory) : json(nullptr)}};
}

}  // namespace

Correctness correctness_from_json(const json& report) { return correctness_of(report); }
std::optional<MemoryReading> memory_reading_from_json(const json& j) {
  if (!j.is_object()) return std::nullopt;
  return MemoryReading{str(j, "kind"), opt_long(j, "peak_bytes"), opt_long(j, "baseline_bytes"),
                       opt_long(j, "increase_bytes"), str(j, "method")};
}
json to_json(const Correctness& c) { return correctness_json(c); }
json to_json(const Speedup& s) { return speedup_json(s); }
json to_json(const RowError& e) { return error_json(e); }
json to_json(const AllocatorComparison& a) { return allocator_json(a); }
AllocatorComparison allocator_from_json(const json& section) { return allocator_of(section); }

json to_json(const BenchRow& r) {
  json out = json::object();
  out["backend"] = r.backend;
  out["mode"] = r.mode;
  out["dynamic"] = r.dynamic;
  out["fullgraph"] = r.fullgraph;
  out["label"] = r.label;
  out["status"] = std::string(to_string(r.status));
  out["error"] = r.error ? error_json(*r.error) : json(nullptr);
  out["speedup"] = r.speedup ? speedup_json(*r.speedup) : json(nullptr);
  out["latency"] =
      r.latency ? json{{"eager", summary_json(r.latency->eager_ns)}, {"compiled", summary_json(r.latency->compiled_ns)}}
                : json(nullptr);
  out["warmup_curve_ns"] = r.warmup_curve_ns;
  if (r.steady_state) {
    const SteadyState& ss = *r.steady_state;
    out["steady_state"] = {{"found", ss.found},
                           {"start_index", optional_json(ss.start_index)},
                           {"level_ns", duration_or_null(ss.level)},
                           {"reason", ss.reason},
                           {"estimate_ns", duration_or_null(ss.estimate)}};
  } else {
    out["steady_state"] = nullptr;
  }
  out["compile"] = compile_json(r.compile, r.aoti.has_value());
  out["break_even"] = r.break_even ? break_even_json(*r.break_even) : json(nullptr);
  out["break_even_calls"] = optional_json(r.break_even_calls);
  out["break_even_calls_warm"] = optional_json(r.break_even_calls_warm);
  out["harness_floor_ns"] = duration_or_null(r.harness_floor);
  out["blocks_dropped_for_recompile"] = r.blocks_dropped_for_recompile;
  out["correctness"] = r.correctness ? correctness_json(*r.correctness) : json(nullptr);
  if (r.breakdown) out["breakdown"] = to_json(*r.breakdown);
  out["memory"] = r.memory ? memory_json(*r.memory) : json(nullptr);
  out["recompiles_during_measurement"] = optional_json(r.recompiles_during_measurement);
  out["graph_breaks"] = optional_json(r.graph_breaks);
  if (r.warmup_counters) write_warmup_counters(*r.warmup_counters, out);
  if (r.cudagraph_skips) out["cudagraph_skips"] = *r.cudagraph_skips;
  if (r.sampling) write_sampling(*r.sampling, out);
  out["blocks"] = r.blocks;
  out["stop_reason"] = optional_json(r.stop_reason);
  out["clock_resolution_ns"] = duration_or_null(r.clock_resolution);
  json flags = json::array();
  for (const auto& f : r.flags) flags.push_back({{"code", f.code}, {"applies_to", f.applies_to}, {"text", f.text}});
  out["flags"] = flags;
  if (r.samples) {
    json s = json::object();
    if (const auto cps = r.samples->calls_per_sample) s["calls_per_sample"] = {{"eager", *cps}, {"compiled", *cps}};
    s["eager"] = r.samples->eager_ns;
    s["compiled"] = r.samples->compiled_ns;
    out["samples"] = s;
  }
  if (r.aoti) {
    const Aoti& a = *r.aoti;
    out["aoti"] = {{"export_ns", duration_or_null(a.export_time)},
                   {"package_ns", duration_or_null(a.package_time)},
                   {"package_compile_ns", duration_or_null(a.package_compile())},
                   {"package_bytes", optional_json(a.package_bytes)},
                   {"load_ns", duration_or_null(a.load)},
                   {"timed_from", a.timed_from.empty() ? json(nullptr) : json(a.timed_from)},
                   {"runner_note", a.runner_note.empty() ? json(nullptr) : json(a.runner_note)},
                   {"package_path", a.package_path.empty() ? json(nullptr) : json(a.package_path)}};
  }
  return out;
}

BenchRow row_from_json(const json& j) {
  BenchRow r;
  r.backend = str(j, "backend");
  r.mode = str(j, "mode", "default");
  r.dynamic = str(j, "dynamic", "auto");
  r.fullgraph = flag(j, "fullgraph");
  r.label = str(j, "label");
  r.status = status_of(str(j, "status"));
  r.error = error_of(at(j, "error"));
  if (const json& s = at(j, "speedup"); s.is_object()) r.speedup = speedup_of(s);
  if (const json& l = at(j, "latency"); l.is_object())
    r.latency = Latency{summary_of(at(l, "eager")), summary_of(at(l, "compiled"))};
  r.warmup_curve_ns = doubles(j, "warmup_curve_ns");
  if (const json& ss = at(j, "steady_state"); ss.is_object())
    r.steady_state = SteadyState{flag(ss, "found"), opt_int(ss, "start_index"), duration_or_nan(ss, "level_ns"),
                                 str(ss, "reason"), duration_or_nan(ss, "estimate_ns")};
  r.compile = compile_of(at(j, "compile"));
  r.break_even = break_even_of(at(j, "break_even"));
  r.break_even_calls = opt_long(j, "break_even_calls");
  r.break_even_calls_warm = opt_long(j, "break_even_calls_warm");
  r.harness_floor = duration_or_nan(j, "harness_floor_ns");
  r.blocks_dropped_for_recompile = opt_int(j, "blocks_dropped_for_recompile").value_or(0);
  if (const json& c = at(j, "correctness"); c.is_object()) r.correctness = correctness_of(c);
  if (const json& b = at(j, "breakdown"); b.is_object()) r.breakdown = breakdown_from_json(b);
  if (const json& m = at(j, "memory"); m.is_object()) r.memory = memory_of(m);
  r.recompiles_during_measurement = opt_int(j, "recompiles_during_measurement");
  r.graph_breaks = opt_int(j, "graph_breaks");
  r.warmup_counters = warmup_counters_of(j);
  r.cudagraph_skips = opt_int(j, "cudagraph_skips");
  r.sampling = sampling_of(j);
  r.blocks = opt_int(j, "blocks").value_or(0);
  r.stop_reason = opt_str(j, "stop_reason");
  r.clock_resolution = duration_or_nan(j, "clock_resolution_ns");
  for (const auto& f : at(j, "flags")) r.flags.push_back({str(f, "code"), str(f, "applies_to"), str(f, "text")});
  if (const json& s = at(j, "samples"); s.is_object()) {
    const json& cps = at(s, "calls_per_sample");
    r.samples = BenchRow::RawSamples{
        doubles(s, "eager"), doubles(s, "compiled"),
        cps.is_object()
            ? std::optional<int>(std::max(opt_int(cps, "eager").value_or(1), opt_int(cps, "compiled").value_or(1)))
            : std::nullopt};
  }
  if (const json& a = at(j, "aoti"); a.is_object())
    r.aoti = Aoti{duration_or_nan(a, "export_ns"),
                  duration_or_nan(a, "package_ns"),
                  opt_long(a, "package_bytes"),
                  duration_or_nan(a, "load_ns"),
                  str(a, "timed_from"),
                  str(a, "runner_note"),
                  str(a, "package_path")};
  return r;
}

json to_json(const BenchResult& b) {
  json out = json::object();
  if (b.process) {
    out["num_threads"] = optional_json(b.process->num_threads);
    out["device_type"] = b.process->device_type;
    out["set_stance_available"] = b.process->set_stance_available;
  }
  out["target"] = b.target;
  if (b.config) out["config"] = settings_json(*b.config);
  if (b.clock) {
    json c = json::object();
    c["resolution_ns"] = duration_or_null(b.clock->resolution);
    if (b.clock->implementation) c["implementation"] = *b.clock->implementation;
    if (b.clock->declared_resolution) c["declared_resolution_ns"] = duration_or_null(*b.clock->declared_resolution);
    out["clock"] = c;
  } else {
    out["clock"] = nullptr;
  }
  out["eager"] = b.eager ? eager_json(*b.eager) : json(nullptr);
  json rows = json::array();
  for (const auto& r : b.rows) rows.push_back(to_json(r));
  out["rows"] = rows;
  out["warnings"] = report::to_json(b.warnings);
  out["phase"] = b.phase;
  if (b.allocator) out["allocator"] = allocator_json(*b.allocator);
  return out;
}

BenchResult from_json(const json& j) {
  BenchResult b;
  b.target = at(j, "target");
  if (const json& c = at(j, "config"); c.is_object()) b.config = settings_from_json(c);
  if (const json& c = at(j, "clock"); c.is_object()) {
    b.clock = Clock{duration_or_nan(c, "resolution_ns"), opt_str(c, "implementation"), std::nullopt};
    if (has(c, "declared_resolution_ns")) b.clock->declared_resolution = duration_or_nan(c, "declared_resolution_ns");
  }
  if (const json& e = at(j, "eager"); e.is_object())
    b.eager = EagerBaseline{doubles(e, "warmup_ns"), duration_or_nan(e, "first_call_ns"),
                            duration_or_nan(e, "steady_ns"), memory_reading_from_json(at(e, "memory"))};
  for (const auto& r : at(j, "rows")) b.rows.push_back(row_from_json(r));
  if (const json& w = at(j, "warnings"); w.is_array())
    for (const auto& one : w) b.warnings.push_back(report::warning_from_json(one));
  b.phase = str(j, "phase");
  if (const json& a = at(j, "allocator"); a.is_object()) b.allocator = allocator_of(a);
  if (has(j, "device_type") || has(j, "num_threads") || has(j, "set_stance_available"))
    b.process = TargetProcess{opt_int(j, "num_threads"), str(j, "device_type"), flag(j, "set_stance_available")};
  return b;
}

}  // namespace tct::bench
