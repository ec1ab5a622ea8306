#pragma once
// What `tct bench` measured, as a value: one BenchRow per backend/mode/dynamic/fullgraph
// configuration. Every rendering (terminal, Markdown, HTML) reads it; each verdict is a field,
// decided where the fact is made (the speedup's by stats::decide, the break-even's in
// bench/run.cpp, the flags in bench/analysis.cpp) and never again by a renderer.
// bench/json.cpp is the one place this becomes doc["bench"] (schema/bench.schema.json) and
// reads it back from a saved document.
//
// Durations are Nanoseconds (core/units.hpp: the unit in the type); the sample vectors that
// feed stats:: are doubles in ns, named _ns, and other units are in the names (_s, _bytes).
// NaN is a number not measured (null in the document). A field older documents lack is a
// std::optional, absent when they lack it, so a section of this version reads back to the same bytes.
#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/allocator_comparison.hpp"
#include "bench/breakdown.hpp"
#include "bench/correctness.hpp"
#include "core/reply.hpp"
#include "core/units.hpp"
#include "report/warning.hpp"
#include "stats/log_interval.hpp"
#include "stats/summary.hpp"
#include "stats/verdict.hpp"

namespace tct::bench {

// The one speedup verdict rule is stats' (stats/verdict.hpp); bench names it unqualified.
using stats::SpeedupVerdict;

// A row's place in the run: waiting for its turn, being measured, measured, or failed inside
// (the other rows still run).
enum class RowStatus { Pending, Running, Ok, Failed };
std::string_view to_string(RowStatus s);

// Why a row failed: the stage it failed at and tct::Error's fields.
struct RowError {
  std::string kind;   // compile_failed, agent_died, timeout, ...
  std::string stage;  // compile, correctness, measurement, compile_time, ...
  std::string message;
  std::string hint;
  std::optional<int> exit_code;
};

// One process's speedup over its blocks, and each of its segments' (one per look, in time
// order): how much the speedup moves between processes and over time.
struct ProcessSpeedup {
  long long blocks = 0;
  double speedup = NAN;                  // NaN: no finite block
  std::vector<double> segment_speedups;  // NaN: an empty segment
};

// The speedup of compiled over eager (eager latency / compiled latency), its 95% interval
// across fresh processes, and its verdict (stats::decide over the interval, stored once).
// How the interval was made (bench/phases.cpp, sample_paired) follows it; each is none in
// documents from before it was recorded.
struct Speedup {
  stats::Interval interval;  // NaN bounds: no interval
  SpeedupVerdict verdict = SpeedupVerdict::NotMeasured;
  std::optional<int> processes;                         // the processes the interval pools
  std::optional<double> confidence;                     // the interval's, over every look
  std::optional<double> look_confidence;                // each look's, Bonferroni over the planned looks
  std::optional<int> looks;                             // the looks taken
  std::optional<int> segments;                          // with a finite block each
  std::optional<double> between_segment_sd, within_sd;  // NaN: not estimated
  std::optional<std::string> method;                    // the interval's method, in words
  std::optional<std::vector<ProcessSpeedup>> per_process;
};

// Per-call latency of the interleaved samples, each side's stats::Summary in ns.
struct Latency {
  stats::Summary eager_ns{};
  stats::Summary compiled_ns{};
};

// The warm-up curve's steady state (stats::detect_steady_state), as written.
struct SteadyState {
  bool found = false;
  std::optional<int> start_index;  // 0-based call the steady part starts at
  Nanoseconds level = kNotMeasured;
  std::string reason;
  Nanoseconds estimate = kNotMeasured;  // what a steady compiled call costs, judged from the curve
};

// Repeated compile times of one kind (cold or warm), each in its own fresh process.
struct CompileSpread {
  Nanoseconds median = kNotMeasured, min = kNotMeasured, max = kNotMeasured;
  std::vector<double> samples_ns;
  int n = 0;
};

// torch's cache counters over one compile (bench::cache_counters): hit is none when no
// lookup was counted (backends that use neither cache), true when every lookup hit.
struct CacheCounters {
  std::optional<bool> hit;
  int fxgraph_cache_hit = 0, fxgraph_cache_miss = 0, autograd_cache_hit = 0, autograd_cache_miss = 0;
};

// torch's own compile timers by torch's names (torch._dynamo.utils.compile_times), each a
// total; NaN: a figure the agent did not give.
using CompileTimers = std::map<std::string, Nanoseconds>;

// Where the cold compile figure comes from: the main process's first compiled call (row 0,
// fresh caches), or a fresh process with fresh caches.
enum class ColdSource { MainAgentFirstCall, FreshProcess, Other };

// Compile time: the first compiled call in the main process, the cold compile (empty
// caches) and the warm one (caches filled), and their repeats.
struct Compile {
  Nanoseconds first_call = kNotMeasured;
  Nanoseconds cold = kNotMeasured;  // the cold repeats' median
  Nanoseconds warm = kNotMeasured;  // the warm repeats' median (before them: the row's second process's first call)
  std::optional<std::string> cold_source;  // as written; null until the compile-time phase
  // The cold compile's timers (the aoti row: torch.export and aoti_compile_and_package).
  CompileTimers breakdown;
  // The compile-time phase's figures (absent before it ran, or with --no-compile-time).
  struct Repeats {
    std::optional<CompileSpread> cold, warm;  // none: no finite measurement
    int repeats = 1;
    bool single_measurement = true;
    std::optional<bool> warm_cache_hit;  // every warm compile a cache hit; none: no lookup counted
  };
  std::optional<Repeats> repeated;
  // The second process's warm compile: whether torch's caches served it.
  std::optional<CacheCounters> warm_cache;
  std::optional<RowError> error;                // the compile-time measurement failed (the row stands)
  std::optional<CompileTimers> warm_breakdown;  // the second process's warm compile's timers

  ColdSource cold_from() const;
  // Whether the warm compile hit torch's caches: the repeats' verdict, else the second process's.
  std::optional<bool> warm_cache_hit() const;
};

// Calls until compiling has paid for itself, from the speedup interval: the estimate, and
// the range its low and high ends give (the most calls at the low speedup).
struct CallRange {
  std::optional<long long> estimate, low, high;  // none: never (no finite figure)
};

enum class BreakEvenVerdict {
  BreaksEven,      // a gain: calls are given
  NoReliableGain,  // the interval includes 1, or is below it
  Inconclusive,    // the interval is too wide for a verdict
};
std::string_view to_string(BreakEvenVerdict v);
std::optional<BreakEvenVerdict> parse_break_even_verdict(std::string_view s);

struct BreakEven {
  BreakEvenVerdict verdict = BreakEvenVerdict::Inconclusive;
  std::optional<CallRange> cold;  // from the cold compile (else the first call)
  std::optional<CallRange> warm;  // from the warm compile
};

// One side's peak as the agent measured it (the whole process's, baseline included), and how.
struct MemoryPeak {
  std::optional<long long> bytes;  // none: unavailable
  std::string method;
};

// Peak memory above each process's post-load baseline (RSS on CPU, CUDA memory on a GPU),
// eager and compiled each in a process that ran nothing else. None: not measured.
struct Memory {
  std::string kind;  // "rss" or "cuda"
  std::optional<long long> eager_increase_bytes;
  std::optional<MemoryPeak> eager_peak;  // none in older documents
  // The compiled side, measured in the row's second process (absent until then).
  struct Compiled {
    std::optional<long long> increase_bytes;
    std::optional<long long> compile_peak_increase_bytes;  // the compiler's peak
    double compiler_kept_bytes = NAN;                      // what the compiler keeps afterwards
    std::optional<MemoryPeak> peak;                        // none in older documents
  };
  std::optional<Compiled> compiled;
};

// Compiled outputs against eager's: Correctness, with its leaves (bench/correctness.hpp, where
// correctness_report makes it).

// A warning on one number of the row, printed beside it (bench/analysis.cpp decides them).
struct Flag {
  std::string code;        // report::WarningCode's name
  std::string applies_to;  // speedup, latency, correctness, compile
  std::string text;        // "! noisy"
};

// A graph break's reason as torch's counters give it (cut to 500 characters by the agent), and
// how often it broke.
struct GraphBreakReason {
  std::string reason;
  long long count = 0;
};

// torch's counters over a row's warm-up calls (the main process's first compiled calls).
struct WarmupCounters {
  int graphs = 0;                                     // unique graphs compiled
  int frames = 0;                                     // frames Dynamo was handed
  std::vector<GraphBreakReason> graph_break_reasons;  // in torch's order
  std::vector<std::string> skip_reasons;              // why Dynamo skipped a frame
  // Frames ran and no graph came out: Dynamo skipped the target, so "compiled" timed eager code.
  bool nothing_compiled() const { return graphs == 0 && frames > 0; }
};

// stats::detect_outliers over one side's samples.
struct OutlierCount {
  long long count = 0, high = 0, low = 0;
  double fraction = 0;
  bool relative_fallback = false;
};

// How busy the machine was while a row sampled: the highest 1-minute load average, the
// CPUs, and the timing thread's involuntary context switches per second of timing.
struct Load {
  double loadavg_1m_max = NAN;
  std::optional<int> cpus;
  double involuntary_switches_per_s = NAN;
};

// How the paired sampling ran, beside what it measured: the sizes it chose, the outliers it
// saw, what happened during measurement and how busy the machine was.
struct Sampling {
  int calls_per_sample = 1;  // both sides of a pair alike
  int samples_per_block = 0;
  Nanoseconds block_warmup_eager = kNotMeasured, block_warmup_compiled = kNotMeasured;
  OutlierCount outliers_eager, outliers_compiled;
  double seconds = NAN;
  int graph_breaks = 0;  // in the compiled blocks
  Load load;
  double worst_outlier_fraction() const { return std::max(outliers_eager.fraction, outliers_compiled.fraction); }
};

// The aoti row's own facts (`--backend aoti`): the package torch.export and AOTInductor made,
// and who loaded and timed it. The C++ runner (tools/aoti_runner) when it builds here, else
// torch._inductor.aoti_load_package in the agent; runner_note says why not C++.
struct Aoti {
  Nanoseconds export_time = kNotMeasured;   // torch.export.export
  Nanoseconds package_time = kNotMeasured;  // torch._inductor.aoti_compile_and_package
  std::optional<long long> package_bytes;
  Nanoseconds load = kNotMeasured;  // loading the package, before its first call
  std::string timed_from;           // "cpp" or "python"; "" before it was loaded
  std::string runner_note;          // why the C++ runner did not time it ("" when it did)
  std::string package_path;         // where it was kept (--aoti-package-dir); "" when it was not
  // export + package: what a deployment pays once, at build time.
  Nanoseconds package_compile() const { return export_time + package_time; }
};

struct BenchRow {
  // The configuration.
  std::string backend, mode = "default", dynamic = "auto";
  bool fullgraph = false;
  std::string label;  // "inductor max-autotune dynamic=true"

  RowStatus status = RowStatus::Pending;
  std::optional<RowError> error;

  std::optional<Speedup> speedup;  // none until sampled
  std::optional<Latency> latency;
  std::vector<double> warmup_curve_ns;  // the first compiled calls, one by one
  std::optional<SteadyState> steady_state;
  Compile compile;
  std::optional<BreakEven> break_even;
  // As written: break_even's cold and warm estimates (older documents: the only figures).
  std::optional<long long> break_even_calls, break_even_calls_warm;
  Nanoseconds harness_floor = kNotMeasured;  // the empty callable through the same timing loop, per call
  int blocks_dropped_for_recompile = 0;
  std::optional<Correctness> correctness;
  std::optional<CallBreakdown> breakdown;  // where a compiled call's time goes (bench/breakdown.hpp)
  std::optional<Memory> memory;
  std::optional<int> recompiles_during_measurement;
  std::optional<int> graph_breaks;                // in the warm-up calls
  std::optional<WarmupCounters> warmup_counters;  // none until the row compiled
  std::optional<int> cudagraph_skips;             // torch's counter, warm-up and measurement
  std::optional<Sampling> sampling;               // none until sampled
  int blocks = 0;                                 // block pairs sampled
  std::optional<std::string> stop_reason;         // precision, budget
  Nanoseconds clock_resolution = kNotMeasured;
  std::vector<Flag> flags;
  struct RawSamples {
    std::vector<double> eager_ns, compiled_ns;  // each sample: the mean of calls_per_sample calls
    std::optional<int> calls_per_sample;        // both sides alike; none in older documents
  };
  std::optional<RawSamples> samples;  // --raw
  std::optional<Aoti> aoti;           // the aoti row only

  bool ok() const { return status == RowStatus::Ok; }
  // Finished with a speedup to show (older documents may lack the status).
  bool measured() const { return ok() || speedup.has_value(); }
  bool failed() const { return status == RowStatus::Failed; }
  // Whether the harness's own cost per call is worth saying: above kHarnessFloorShare of the
  // compiled latency.
  bool harness_floor_matters() const;
  // The break-even verdict: the row's; a document from before it had one: the speedup's
  // verdict says the same (none: a gain, or nothing to say).
  std::optional<BreakEvenVerdict> break_even_verdict() const;
};

// The harness's cost is shown when above 1% of the compiled latency (below, it is in the noise).
inline constexpr double kHarnessFloorShare = 0.01;

// The agent's memory figures over some calls (bench.memory, bench.eager_warmup's): the
// process's peak, the memory it held before them, the difference, and how it was measured.
struct MemoryReading {
  std::string kind;                                                     // "rss" or "cuda"
  std::optional<long long> peak_bytes, baseline_bytes, increase_bytes;  // none: unavailable
  std::string method;
};

// The eager warm-up before sampling, in the main process.
struct EagerBaseline {
  std::vector<double> warmup_ns;
  Nanoseconds first_call = kNotMeasured;
  Nanoseconds steady = kNotMeasured;
  std::optional<MemoryReading> memory;  // none with --no-memory
};

// What the run was asked for, flag by flag as BenchConfig holds it; the renderers read the
// planned looks and the plan's notes. The three optionals are none in older documents.
struct Settings {
  std::optional<int> looks;
  std::vector<std::string> notes;
  std::vector<std::string> backends, modes, dynamic;
  std::vector<bool> fullgraph;
  double precision = NAN, budget_s = NAN;
  int warmup_calls = 0, eager_warmup_calls = 0, min_blocks = 0;
  std::optional<int> compile_repeats;
  bool check = true;
  std::optional<double> rtol, atol;
  bool compile_time = true, memory = true, raw = false;
  std::string eager_via;
  std::optional<std::string> allocator;
  std::optional<bool> allocator_compare;
  std::optional<bool> breakdown;
  bool train = false;
  // The target's --param values as the user gave them, handed to the agent whole
  // (core::TargetOptions::params): tct reads none of them.
  nlohmann::json params = nlohmann::json::object();
  std::optional<std::string> device, dtype;
};

// The timer the agent measures with.
struct Clock {
  Nanoseconds resolution = kNotMeasured;           // the smallest step it was seen to take
  std::optional<std::string> implementation;       // what Python's time.get_clock_info says it is
  std::optional<Nanoseconds> declared_resolution;  // and the resolution it declares
};

// The target's process as the agent described it (bench.env).
struct TargetProcess {
  std::optional<int> num_threads;     // torch's intra-op threads; none: unknown
  std::string device_type;            // cpu, cuda, ...
  bool set_stance_available = false;  // torch.compiler.set_stance (--eager-via stance)
};

struct BenchResult {
  core::LoadedTarget target;  // the agent's description of the loaded target; null before it loaded
  std::optional<Settings> config;
  std::optional<Clock> clock;
  std::optional<EagerBaseline> eager;
  std::vector<BenchRow> rows;
  std::vector<report::Warning> warnings;         // the section's own
  std::string phase;                             // load, eager, rows, allocator, compile_time, done
  std::optional<AllocatorComparison> allocator;  // the allocator states (bench/allocator.hpp); none when absent
  std::optional<TargetProcess> process;          // none until the agent described it
  // Every warning of the run so far, for the document's list (not part of the section): each
  // finished row's (named by its row when there are several), then the section's own.
  std::vector<report::Warning> all_warnings;

  bool loaded() const { return target.given(); }
  // The row with the highest measured speedup (the HTML's headline card); null when none finished.
  const BenchRow* best_row() const;
};

}  // namespace tct::bench
