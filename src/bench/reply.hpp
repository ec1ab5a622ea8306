#pragma once
// The replies of the agent's bench.* and breakdown.* ops (python/tct_agent/ops/bench.py and
// breakdown.py), each declared once: a reply is read into its struct where it arrives
// (core::fields::read_as), and the code past that point reads members. Their field names are
// python/tct_agent/replies.json's, the list the agent writes them from; tests/unit/test_replies.cpp
// holds the two to each other. A missing or mistyped field keeps the member's initializer (an
// older agent); NaN stands for a number not given.
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/fields.hpp"

namespace tct::bench::reply {

using nlohmann::json;

// torch's compile timers by torch's names (torch._dynamo.utils.compile_times), each a total in
// ns; null is NaN. Read by bench::compile_timers (analysis.hpp).
using Timers = std::map<std::string, double>;
json timers_json(const Timers& t);
Timers timers_from(const json& j);
// Fixes by name -> whether this torch has them (breakdown.fix_available).
using Flags = std::map<std::string, bool>;
json flags_json(const Flags& f);
Flags flags_from(const json& j);

// bench.env's "clock": timing.clock_resolution_ns().
struct Clock {
  double resolution_ns = NAN;
  std::optional<double> declared_resolution_ns;
  std::optional<std::string> implementation;
};
constexpr auto json_fields(const Clock*) {
  using core::fields::field;
  return std::tuple{field("resolution_ns", &Clock::resolution_ns),
                    field("declared_resolution_ns", &Clock::declared_resolution_ns),
                    field("implementation", &Clock::implementation)};
}

// bench.allocator, and bench.env's "allocator": timing.allocator_facts().
struct MappedAllocator {
  std::string kind = "unknown";
  std::optional<std::string> path;
};
constexpr auto json_fields(const MappedAllocator*) {
  using core::fields::field;
  return std::tuple{field("kind", &MappedAllocator::kind), field("path", &MappedAllocator::path)};
}
struct Allocator {
  std::vector<MappedAllocator> mapped;
  bool maps_readable = false;
  std::optional<std::string> ld_preload;
  std::optional<bool> settled;
};
constexpr auto json_fields(const Allocator*) {
  using core::fields::field;
  return std::tuple{field("mapped", &Allocator::mapped), field("maps_readable", &Allocator::maps_readable),
                    field("ld_preload", &Allocator::ld_preload), field("settled", &Allocator::settled)};
}

// bench.env.
struct Env {
  std::optional<Clock> clock;
  std::vector<std::string> backends, modes;
  bool set_stance = false;
  json device;
  std::string device_type = "cpu";
  std::string torch_version;
  int num_threads = 0;
  int cpus = 0;
  long long pid = 0;
  std::optional<Allocator> allocator;
};
constexpr auto json_fields(const Env*) {
  using core::fields::field;
  return std::tuple{field("clock", &Env::clock),
                    field("backends", &Env::backends),
                    field("modes", &Env::modes),
                    field("set_stance", &Env::set_stance),
                    field("device", &Env::device),
                    field("device_type", &Env::device_type),
                    field("torch_version", &Env::torch_version),
                    field("num_threads", &Env::num_threads),
                    field("cpus", &Env::cpus),
                    field("pid", &Env::pid),
                    field("allocator", &Env::allocator)};
}

// Dynamo's counters (bench.py's _dynamo_counters), in bench.first_calls and bench.counters.
struct BreakReason {
  std::string reason;
  long long count = 0;
};
constexpr auto json_fields(const BreakReason*) {
  using core::fields::field;
  return std::tuple{field("reason", &BreakReason::reason), field("count", &BreakReason::count)};
}
struct Counters {
  int frames_total = 0, frames_ok = 0, unique_graphs = 0, calls_captured = 0, graph_breaks = 0;
  std::vector<BreakReason> graph_break_reasons;
  std::optional<int> recompiles;
  std::vector<std::string> unimplemented_reasons;
  int fxgraph_cache_hit = 0, fxgraph_cache_miss = 0, autograd_cache_hit = 0, autograd_cache_miss = 0;
  int cudagraph_skips = 0;
};
constexpr auto json_fields(const Counters*) {
  using core::fields::field;
  return std::tuple{field("frames_total", &Counters::frames_total),
                    field("frames_ok", &Counters::frames_ok),
                    field("unique_graphs", &Counters::unique_graphs),
                    field("calls_captured", &Counters::calls_captured),
                    field("graph_breaks", &Counters::graph_breaks),
                    field("graph_break_reasons", &Counters::graph_break_reasons),
                    field("recompiles", &Counters::recompiles),
                    field("unimplemented_reasons", &Counters::unimplemented_reasons),
                    field("fxgraph_cache_hit", &Counters::fxgraph_cache_hit),
                    field("fxgraph_cache_miss", &Counters::fxgraph_cache_miss),
                    field("autograd_cache_hit", &Counters::autograd_cache_hit),
                    field("autograd_cache_miss", &Counters::autograd_cache_miss),
                    field("cudagraph_skips", &Counters::cudagraph_skips)};
}

// bench.eager_warmup and bench.first_calls: each call's ns (the first compiles); the warm-up's
// memory reading (with {"memory": true}) is bench.memory's shape.
struct Memory {
  std::string kind;
  std::optional<long long> peak_bytes, baseline_bytes, increase_bytes;
  std::string method;
};
constexpr auto json_fields(const Memory*) {
  using core::fields::field;
  return std::tuple{field("kind", &Memory::kind), field("peak_bytes", &Memory::peak_bytes),
                    field("baseline_bytes", &Memory::baseline_bytes), field("increase_bytes", &Memory::increase_bytes),
                    field("method", &Memory::method)};
}
struct EagerWarmup {
  std::vector<double> times_ns;
  std::optional<Memory> memory;  // none: not asked, or no resettable peak (null)
};
constexpr auto json_fields(const EagerWarmup*) {
  using core::fields::field;
  return std::tuple{field("times_ns", &EagerWarmup::times_ns), field("memory", &EagerWarmup::memory)};
}
struct FirstCalls {
  std::vector<double> times_ns;
  Counters counters;
  Timers compile_times_ns;
};
constexpr auto json_fields(const FirstCalls*) {
  using core::fields::field;
  return std::tuple{field("times_ns", &FirstCalls::times_ns), field("counters", &FirstCalls::counters),
                    field("compile_times_ns", &FirstCalls::compile_times_ns, timers_json, timers_from)};
}

// bench.memory_peak: bench.memory's reading and the memory held now.
struct MemoryNow {
  std::optional<long long> current_bytes;
};
constexpr auto json_fields(const MemoryNow*) {
  using core::fields::field;
  return std::tuple{field("current_bytes", &MemoryNow::current_bytes)};
}
struct MemoryPeak {
  Memory reading;
  MemoryNow now;
};
inline MemoryPeak memory_peak_from(const json& j) {
  return {core::fields::read_as<Memory>(j), core::fields::read_as<MemoryNow>(j)};
}

// bench.time_block (and the C++ runner's time_block: tools/aoti_runner/main.cpp).
struct TimeBlock {
  std::vector<double> samples_ns;
  double wall_ns = NAN;
  double involuntary_switches = 0;
  double loadavg_1m = NAN;
  int frames_compiled = 0, graph_breaks = 0, cudagraph_skips = 0;
};
constexpr auto json_fields(const TimeBlock*) {
  using core::fields::field;
  return std::tuple{field("samples_ns", &TimeBlock::samples_ns),
                    field("wall_ns", &TimeBlock::wall_ns),
                    field("involuntary_switches", &TimeBlock::involuntary_switches),
                    field("loadavg_1m", &TimeBlock::loadavg_1m),
                    field("frames_compiled", &TimeBlock::frames_compiled),
                    field("graph_breaks", &TimeBlock::graph_breaks),
                    field("cudagraph_skips", &TimeBlock::cudagraph_skips)};
}

// bench.aoti_load.
struct AotiLoad {
  double load_ns = NAN;
};
constexpr auto json_fields(const AotiLoad*) {
  using core::fields::field;
  return std::tuple{field("load_ns", &AotiLoad::load_ns)};
}

// breakdown.sample: the window's bare calls, the profiled calls timed from outside, and each
// profiled call's events ([name index, start, duration], ns from the call's start).
struct SampleCall {
  double ns = NAN;
  std::vector<std::vector<double>> events;
};
constexpr auto json_fields(const SampleCall*) {
  using core::fields::field;
  return std::tuple{field("ns", &SampleCall::ns), field("events", &SampleCall::events)};
}
struct Sample {
  std::vector<double> bare_ns, profiled_wall_ns;
  std::vector<std::string> names;
  std::vector<SampleCall> calls;
  std::string torch_version;
};
constexpr auto json_fields(const Sample*) {
  using core::fields::field;
  return std::tuple{field("bare_ns", &Sample::bare_ns), field("profiled_wall_ns", &Sample::profiled_wall_ns),
                    field("names", &Sample::names), field("calls", &Sample::calls),
                    field("torch_version", &Sample::torch_version)};
}

// breakdown.chain: each frame's cache entries with compilation_metrics' guard facts.
struct ChainEntry {
  std::string compile_id;
  std::optional<int> guard_count, shape_env_guard_count, cache_size, accumulated_cache_size;
  std::optional<double> guard_latency_us;
  std::optional<bool> passes;
  std::vector<double> check_batches_ns;  // one check's ns in each batch of back-to-back checks
  std::string check_error;
};
constexpr auto json_fields(const ChainEntry*) {
  using core::fields::field;
  return std::tuple{field("compile_id", &ChainEntry::compile_id),
                    field("guard_count", &ChainEntry::guard_count),
                    field("shape_env_guard_count", &ChainEntry::shape_env_guard_count),
                    field("guard_latency_us", &ChainEntry::guard_latency_us),
                    field("cache_size", &ChainEntry::cache_size),
                    field("accumulated_cache_size", &ChainEntry::accumulated_cache_size),
                    field("passes", &ChainEntry::passes),
                    field("check_batches_ns", &ChainEntry::check_batches_ns),
                    field("check_error", &ChainEntry::check_error)};
}
struct ChainFrame {
  std::string name, file;
  int line = 0;
  bool entry_frame = false, checked = false;
  std::vector<ChainEntry> entries;
};
constexpr auto json_fields(const ChainFrame*) {
  using core::fields::field;
  return std::tuple{field("name", &ChainFrame::name),       field("file", &ChainFrame::file),
                    field("line", &ChainFrame::line),       field("entry_frame", &ChainFrame::entry_frame),
                    field("checked", &ChainFrame::checked), field("entries", &ChainFrame::entries)};
}
struct Chain {
  std::vector<ChainFrame> frames;
  int checks = 0;
};
constexpr auto json_fields(const Chain*) {
  using core::fields::field;
  return std::tuple{field("frames", &Chain::frames), field("checks", &Chain::checks)};
}

// breakdown.fix_available, breakdown.fix_prepare, and breakdown.fix_block (a time_block, or the
// error a fix raised on these inputs).
struct FixAvailable {
  Flags available;
  bool isolate_recompiles = false;
};
constexpr auto json_fields(const FixAvailable*) {
  using core::fields::field;
  return std::tuple{field("available", &FixAvailable::available, flags_json, flags_from),
                    field("isolate_recompiles", &FixAvailable::isolate_recompiles)};
}
struct FixPrepare {
  bool ok = false;
  std::string error;
};
constexpr auto json_fields(const FixPrepare*) {
  using core::fields::field;
  return std::tuple{field("ok", &FixPrepare::ok), field("error", &FixPrepare::error)};
}
struct FixError {
  std::string error;
};
constexpr auto json_fields(const FixError*) {
  using core::fields::field;
  return std::tuple{field("error", &FixError::error)};
}
struct FixBlock {
  TimeBlock block;
  FixError failed;
};
inline FixBlock fix_block_from(const json& j) {
  return {core::fields::read_as<TimeBlock>(j), core::fields::read_as<FixError>(j)};
}

// bench.check (python/tct_agent/output_check.py run_check): the per-leaf difference facts of eager
// against itself and of the compiled object against eager, as the agent wrote them (judged by
// bench/correctness.hpp's rule, which also tells a malformed fact), and the facts around them.
struct Reference {
  std::optional<bool> computed;
  std::optional<std::string> dtype, reason;
};
constexpr auto json_fields(const Reference*) {
  using core::fields::field;
  return std::tuple{field("computed", &Reference::computed), field("dtype", &Reference::dtype),
                    field("reason", &Reference::reason)};
}
struct Costs {
  std::optional<long long> eager_ns, compiled_ns, compare_ns, reference_ns;
};
constexpr auto json_fields(const Costs*) {
  using core::fields::field;
  return std::tuple{field("eager_ns", &Costs::eager_ns), field("compiled_ns", &Costs::compiled_ns),
                    field("compare_ns", &Costs::compare_ns), field("reference_ns", &Costs::reference_ns)};
}
// One leaf's difference facts (python/tct_agent/compare.py difference_facts): which fields a
// leaf has depends on its kind (tensor, scalar, other, structure, not_compared); a field that may
// be absent where its absence means something is optional, and `object` is false for an
// element that is no object at all (a malformed fact, judged so).
struct LeafReferenceFacts {
  std::optional<double> eager_max_error, compiled_max_error, eager_rms_error, compiled_rms_error, multiplier;
  std::optional<double> out_of_tolerance;
  std::optional<json> worst_index;
  std::optional<double> reference_at_worst, expected_at_worst, actual_at_worst;
};
constexpr auto json_fields(const LeafReferenceFacts*) {
  using core::fields::field;
  using R = LeafReferenceFacts;
  return std::tuple{field("eager_max_error", &R::eager_max_error),
                    field("compiled_max_error", &R::compiled_max_error),
                    field("eager_rms_error", &R::eager_rms_error),
                    field("compiled_rms_error", &R::compiled_rms_error),
                    field("multiplier", &R::multiplier),
                    field("out_of_tolerance", &R::out_of_tolerance),
                    field("worst_index", &R::worst_index),
                    field("reference_at_worst", &R::reference_at_worst),
                    field("expected_at_worst", &R::expected_at_worst),
                    field("actual_at_worst", &R::actual_at_worst)};
}
struct LeafFact {
  bool object = true;
  std::string path, kind, dtype_expected, dtype_actual;
  std::optional<json> shape_expected, shape_actual;
  std::optional<std::string> error;
  long long numel = 0, nan_expected = 0, nan_actual = 0, inf_mismatch = 0;
  std::optional<long long> nan_mismatch;
  std::optional<double> max_abs_diff, max_rel_diff, max_abs_expected, out_of_tolerance;
  std::optional<json> worst_index, expected_at_worst, actual_at_worst;
  std::optional<LeafReferenceFacts> reference;
  json equal;  // a boolean, or malformed
  std::string description, type, repr_expected, repr_actual;
  // Written for a reader of the agent's facts, not read by tct.
  json device_expected, device_actual, tolerance, value_expected, value_actual;
  std::optional<double> mean_abs_diff;
  std::string type_expected, type_actual;
};
constexpr auto json_fields(const LeafFact*) {
  using core::fields::field;
  using L = LeafFact;
  return std::tuple{field("path", &L::path),
                    field("kind", &L::kind),
                    field("dtype_expected", &L::dtype_expected),
                    field("dtype_actual", &L::dtype_actual),
                    field("shape_expected", &L::shape_expected),
                    field("shape_actual", &L::shape_actual),
                    field("error", &L::error),
                    field("numel", &L::numel),
                    field("nan_expected", &L::nan_expected),
                    field("nan_actual", &L::nan_actual),
                    field("inf_mismatch", &L::inf_mismatch),
                    field("nan_mismatch", &L::nan_mismatch),
                    field("max_abs_diff", &L::max_abs_diff),
                    field("max_rel_diff", &L::max_rel_diff),
                    field("max_abs_expected", &L::max_abs_expected),
                    field("out_of_tolerance", &L::out_of_tolerance),
                    field("worst_index", &L::worst_index),
                    field("expected_at_worst", &L::expected_at_worst),
                    field("actual_at_worst", &L::actual_at_worst),
                    field("reference", &L::reference),
                    field("equal", &L::equal),
                    field("description", &L::description),
                    field("type", &L::type),
                    field("repr_expected", &L::repr_expected),
                    field("repr_actual", &L::repr_actual),
                    field("device_expected", &L::device_expected),
                    field("device_actual", &L::device_actual),
                    field("tolerance", &L::tolerance),
                    field("value_expected", &L::value_expected),
                    field("value_actual", &L::value_actual),
                    field("mean_abs_diff", &L::mean_abs_diff),
                    field("type_expected", &L::type_expected),
                    field("type_actual", &L::type_actual)};
}
using LeafFacts = std::vector<LeafFact>;
// A check's facts: each element read as a LeafFact (one that is no object marked so); null when
// the value is no array (judge_outputs refuses it).
std::optional<LeafFacts> leaf_facts_from(const json& j);
json leaf_facts_json(const std::optional<LeafFacts>& facts);

struct Check {
  std::optional<LeafFacts> eager_vs_eager = LeafFacts{}, compiled_vs_eager = LeafFacts{};
  bool eager_used_rng = false;
  std::optional<long long> seed;  // none: the check ran unseeded
  Reference reference;
  Costs cost_ns;
  bool fallback_random = false;
};
constexpr auto json_fields(const Check*) {
  using core::fields::field;
  return std::tuple{field("eager_vs_eager", &Check::eager_vs_eager, leaf_facts_json, leaf_facts_from),
                    field("compiled_vs_eager", &Check::compiled_vs_eager, leaf_facts_json, leaf_facts_from),
                    field("eager_used_rng", &Check::eager_used_rng),
                    field("seed", &Check::seed),
                    field("reference", &Check::reference),
                    field("cost_ns", &Check::cost_ns),
                    field("fallback_random", &Check::fallback_random)};
}

// The C++ runner's (tools/aoti_runner/main.cpp) first line: CLOCK_MONOTONIC marks by name; any
// line may be {"error": ...} instead.
struct RunnerFirst {
  std::map<std::string, double> marks_ns;
};
json marks_json(const std::map<std::string, double>& m);
std::map<std::string, double> marks_from(const json& j);
constexpr auto json_fields(const RunnerFirst*) {
  using core::fields::field;
  return std::tuple{field("marks_ns", &RunnerFirst::marks_ns, marks_json, marks_from)};
}
struct RunnerError {
  std::optional<json> error;
};
constexpr auto json_fields(const RunnerError*) {
  using core::fields::field;
  return std::tuple{field("error", &RunnerError::error)};
}
struct RunnerFirstCalls {
  std::vector<double> times_ns;
};
constexpr auto json_fields(const RunnerFirstCalls*) {
  using core::fields::field;
  return std::tuple{field("times_ns", &RunnerFirstCalls::times_ns)};
}

}  // namespace tct::bench::reply
