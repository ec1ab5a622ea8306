#pragma once
// What `tct job` found, as a value: the user's command run unchanged in fresh processes, once
// per mode and round (eager, torch.compile with empty caches, with an earlier run's caches,
// with shipped cache artifacts, each at the thread counts asked for), interleaved; per run the
// job's own wall time, each call site's first output and steady calls, compile time and cache
// lookups; per mode their intervals; one decision (decide.cpp), as the job ran and at the
// horizon the user gave. job/json.cpp is the one place it becomes doc["job"]
// (schema/job.schema.json) and is read back; the renderings print its fields.
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/units.hpp"
#include "job/aoti_result.hpp"
#include "job/shape_fix.hpp"
#include "stats/bootstrap.hpp"
#include "stats/verdict.hpp"

namespace tct::job {

// How a run of the job reaches its compiled code.
enum class How {
  Eager,    // every call site bypassed, as tct run --compare-eager's eager runs
  Cold,     // torch.compile, empty cache folders
  Warm,     // torch.compile, a copy of the cache folders an earlier run filled
  Shipped,  // torch.compile, empty cache folders after load_cache_artifacts of an earlier run's save
  Aoti,     // each site's AOTInductor package, built once before the rounds (job/aoti_result.hpp)
};
inline constexpr How kAllHows[] = {How::Eager, How::Cold, How::Warm, How::Shipped, How::Aoti};
// What tct job runs unless told: the AOTInductor mode builds a package per site, asked for by name.
inline constexpr How kDefaultHows[] = {How::Eager, How::Cold, How::Warm, How::Shipped};
std::string_view to_string(How h);  // "eager", "cold", "warm", "shipped", "aoti"
std::optional<How> parse_how(std::string_view s);
std::string_view describe(How h);  // "eager", "compiled, empty caches", ...
// Its runs call torch.compile (compile time, recompiles and cache lookups mean something).
inline bool compiles(How h) { return h != How::Eager && h != How::Aoti; }

// A mode: how, at which intra-op thread count (none: torch's default).
struct ModeSpec {
  How how = How::Eager;
  std::optional<int> threads;
  std::optional<ShapeFix> shape_fix = std::nullopt;  // --shape-fixes: the fix the bootstrap applies (cold only)
  std::string label() const;  // "eager", "warm, 1 thread", "cold, 2 threads", "cold, mark_dynamic"
};

// A call site in one run.
struct SiteRun {
  std::string key, name;
  size_t calls = 0;
  Nanoseconds first_output = kNotMeasured;  // from the job's launch to the end of its first call
  Nanoseconds steady = kNotMeasured;        // median of the steady calls (tct run's definition)
  Nanoseconds compile_time = kNotMeasured;  // the trace's entire_frame over the site's frames
  int recompiles = 0;
  int cache_hits = 0, cache_misses = 0, cache_bypasses = 0;  // the trace's FX graph and AOTAutograd lookups
};

// One fresh process of the job (and what it started).
struct RunFigures {
  int round = 0;  // 1-based; 0: the run that filled the caches warm and shipped start from
  int exit_status = 0;
  std::string exit_text;
  bool timed_out = false, interrupted = false;
  Nanoseconds wall = kNotMeasured;  // launch to exit
  std::vector<SiteRun> sites;
  std::optional<int> torch_threads;  // torch.get_num_threads() in the job
  // The site called most (the anchor of the horizon): its calls, each call's end since launch,
  // thinned to at most kCurvePoints (call number, ns), the first and last kept.
  std::string anchor;
  size_t anchor_calls = 0;
  std::vector<std::pair<double, double>> curve;
  Nanoseconds loop_per_call = kNotMeasured;   // mean time between the anchor's calls, second half
  Nanoseconds artifacts_load = kNotMeasured;  // shipped: load_cache_artifacts
  std::optional<double> artifacts_bytes;      // shipped: loaded; the filling run: saved
  std::string artifacts_error;
  Nanoseconds package_load = kNotMeasured;  // aoti: aoti_load_package, over the run's sites
  // The job's stdout lines (the first kMaxOutputLines), for the output check of a live run;
  // not in the document, which keeps their count.
  std::vector<std::string> output;
  size_t output_lines = 0;
  std::string dir;  // its records, trace, caches, stdout and stderr
  bool ok() const { return exit_status == 0 && !timed_out && !interrupted; }
};
inline constexpr size_t kCurvePoints = 64;
inline constexpr size_t kMaxOutputLines = 2000;

struct SiteSummary {
  std::string key, name;
  size_t calls = 0;                                          // the median run's
  stats::Interval first_output, steady;                      // ns, mean and 95% t interval across runs
  Nanoseconds compile_time = kNotMeasured;                   // median across runs
  int cache_hits = 0, cache_misses = 0, cache_bypasses = 0;  // summed over the mode's runs
  int recompiles = 0;                                        // the most of any run
};

// The job's stdout against eager's: lines that differ between eager's own runs (timings,
// dates) are left out; numbers match within 1e-3 relative.
struct OutputCheck {
  bool compared = false;  // an eager run's output and one of this mode's were there to compare
  bool same = true;
  int differing_lines = 0;
  std::string eager_line, mode_line;  // the first that differ ("" for a missing line)
  int line = 0;                       // 1-based
};

struct ModeResult {
  ModeSpec spec;
  std::vector<RunFigures> runs;
  std::string error;  // why the mode could not run at all ("" when it ran)
  // Decided in decide.cpp:
  stats::Interval total;                      // ns, wall time to exit: mean and 95% t interval across runs
  stats::Interval loop_per_call;              // ns between the anchor's calls
  std::optional<stats::Interval> at_horizon;  // ns for the horizon's calls
  std::vector<SiteSummary> sites;
  OutputCheck output;
  int failed = 0;  // runs that failed or timed out
  bool ok() const { return error.empty() && failed < static_cast<int>(runs.size()); }
  bool eligible() const { return ok() && failed == 0 && output.same; }  // may be recommended
};

// A mode against the best: how many times the best's total this mode's is (paired by round).
struct Comparison {
  std::string mode;
  stats::Interval ratio;  // this mode's total / the best's
  // stats::decide of the ratio: faster means the best is faster than this mode.
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;
};

struct Decision {
  std::string best;  // the mode's label; "" when no mode may be recommended
  std::vector<Comparison> others;
  bool clear() const;  // the best is faster than every other mode, by the interval rule
  const Comparison* find(const std::string& mode) const;  // none for the best itself
};

// Where the fastest mode changes as the job runs longer (the means' curves cross).
struct Crossing {
  double calls = 0;
  std::string from, to;
};

struct JobResult {
  std::vector<std::string> command;
  std::string dir;
  int rounds = 0;  // asked for
  std::optional<double> horizon_calls;
  std::string anchor, anchor_name;    // the site the horizon counts calls of
  std::optional<RunFigures> filling;  // the run whose caches warm and shipped start from
  std::optional<AotiBuild> aoti;      // the AOTInductor mode's packages, built from the filling run's shapes
  std::vector<ModeResult> modes;
  std::optional<ShapeFixes> shape_fixes;  // --shape-fixes (job/shape_fixes.cpp)
  // Decided in decide.cpp:
  Decision as_run;
  std::optional<Decision> at_horizon;
  std::vector<Crossing> crossings;
  std::vector<std::string> notes;

  const ModeResult* find(const std::string& label) const;
};

// The job's total for `calls` calls of the anchor in one run: measured up to the calls it made
// (the call's end plus what followed the last call), beyond them extrapolated with the run's
// loop_per_call. NaN for a failed run or one without the anchor's curve.
double total_at(const RunFigures& run, double calls);

}  // namespace tct::job
