#pragma once
// The statistics and decisions of `bench`, as pure functions over samples and typed rows
// (bench/result.hpp): the warm-up curve's level, break-even, sampling sizes, torch's cache
// counters, the machine's load and the warnings/flags of a row. No agent, no clock, no I/O.
// Unit-tested in tests/unit/test_bench_analysis.cpp.
#include <cstddef>
#include <cmath>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "bench/correctness.hpp"
#include "bench/result.hpp"
#include "bench/sampling.hpp"
#include "report/warning.hpp"
#include "stats/bootstrap.hpp"
#include "stats/steady_state.hpp"
#include "stats/summary.hpp"

namespace tct::bench {

using json = nlohmann::json;

// A double as JSON: null when not finite (JSON has no NaN).
json num(double x);

// {n, non_finite, min, max, mean, median, p05, p25, p75, p95, mad, robust_cv}; nulls for NaN.
json summary_json(const stats::Summary& s);

std::string steady_reason_name(stats::SteadyStateReason r);

// What a steady compiled call costs, judged from the warm-up curve alone (before sampling):
// the steady level when found, else the median of the last half of the curve (the part
// least affected by warm-up), else NaN for an empty curve.
double warmup_level_ns(std::span<const double> curve, const stats::SteadyState& ss);

// The one-off extra cost of compiling, for break-even: sum over the warm-up calls (before
// the steady start; at least the first call) of (call - steady per-call). `first_call_ns`,
// when given, replaces curve[0] (e.g. the cold-cache first call measured in a fresh
// process). NaN for an empty curve or a non-finite level.
double first_call_extra_ns(std::span<const double> curve, std::size_t steady_start, double steady_ns,
                           std::optional<double> first_call_ns = std::nullopt);

// Samples per block so that min_blocks pairs fit in the budget with room to converge:
// budget / (4 * min_blocks * sample_ns), clamped to [min_samples, max_samples]. With a
// non-positive or non-finite sample estimate, max_samples.
int samples_per_block(double budget_s, int min_blocks, double sample_ns, int min_samples = 3, int max_samples = 10);

// Was a compile served from torch's caches? From the counters torch keeps (the agent's
// bench counters): inductor's FX graph cache and AOTAutograd's cache. The four counts and
// hit: none when no lookup was counted (backends that use neither cache, such as
// aot_eager), true when every lookup hit, false otherwise.
CacheCounters cache_counters(const reply::Counters& counters);

// torch's compile timers from the agent's {name: ns} (compile_times_ns), or a document's
// breakdown: numbers as they are, null as NaN; anything else is skipped.
CompileTimers compile_timers(const reply::Timers& times_ns);
// A document's timers (bench/json.cpp): the same, from the section's object.
CompileTimers compile_timers(const json& times_ns);

// How busy the machine was while the rows sampled (their sampling.load: load average, CPUs,
// involuntary context switches of the timing thread) and whether torch's `threads` intra-op
// threads outnumbered the cores other processes left free.
struct MachineLoad {
  double load = NAN;      // the highest 1-minute load average seen
  double switches = NAN;  // the highest involuntary context switches per second of timing
  int cpus = 0;
  int threads = 0;              // torch.get_num_threads() in the target's process; 0 unknown
  bool loaded = false;          // other processes kept at least half the CPUs busy
  bool preempted = false;       // the timing thread was switched out as on a shared core
  double others = NAN;          // CPUs other processes kept busy (load minus the sampler's one)
  bool oversubscribed = false;  // more torch threads than free cores: threads wait for a core
  int suggested_threads = 0;    // the --threads that fits the free cores
  bool busy() const { return loaded || preempted; }
};
MachineLoad machine_load(const std::vector<BenchRow>& rows, int threads);

// One warning for the section when the machine was busy: oversubscribed (with the --threads
// that fits) or loaded; nullopt on a quiet machine.
std::optional<report::Warning> load_warning(const MachineLoad& m);

// The warnings a finished row deserves (their words: report/warning_wording.cpp), each with
// the number it spoils ("speedup", "latency", "correctness", "compile"), where the row's flag
// goes. `label` names the row in each warning when the run has several ("" when it has one).
struct RowWarningInput {
  double precision = kDefaultPrecision;
  bool check = true;
  double noisy_outlier_fraction = 0.05;  // our threshold: above 5% outliers on a side is noisy
  bool busy_machine = false;             // other processes loaded the CPU: a longer --budget cannot help
};
struct RowWarning {
  report::Warning warning;
  std::string applies_to;
};
std::vector<RowWarning> row_warnings(const BenchRow& row, const std::string& label, const RowWarningInput& in);

}  // namespace tct::bench
