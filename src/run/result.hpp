#pragma once
// tct run's result: per process (rank) and per torch.compile call site, what the job's calls
// cost, what the trace says compile did there, whether the site fell back to eager, and,
// with --compare-eager, eager against compiled. Every statistic and decision is made once,
// in run/analysis.cpp (a saved document's verdicts are decided again from their intervals by the
// same stats::decide, in run/json.cpp's from_json); run/json.cpp writes it and reads it back.
#include <chrono>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "bench/breakdown.hpp"
#include "core/eager_part.hpp"
#include "stats/verdict.hpp"
#include "trace/result.hpp"
#include "core/fix_table.hpp"
#include "trace/summary.hpp"
#include "core/units.hpp"
#include "stats/bootstrap.hpp"

namespace tct::run {

using Ns = tct::Nanoseconds;

struct CallTimes {
  size_t calls = 0;
  Ns median{0}, p90{0}, total{0};
};

// One compile of the site's frames, from TORCH_TRACE.
struct FrameCompile {
  std::string compile_id, frame, function;  // frame: Dynamo's frame id ("1"), shared by its recompiles
  int line = 0;
  std::map<std::string, Ns> phases;            // entire_frame, backend, inductor...
  std::vector<std::string> recompile_reasons;  // the guard(s) that failed
  std::map<std::string, int> cache;
  int graph_breaks = 0;
  bool skipped = false;
  bool finished = true;            // its compilation_metrics was logged: false when the process ended in it
  std::optional<int> guard_count;  // compilation_metrics' guards of the entry it made
  std::string fail_type, fail_reason, file;

  bool recompiled() const { return trace::is_recompile(recompile_reasons, fail_type); }
};

struct SiteBreak {
  std::string file, kind, reason, fix;
  int line = 0;
  int count = 0;
  core::FixTerms fix_terms;  // the fix's cost and conditions (core::break_fix, as explain's)
};

// What a frame of the site is to the user: the compiled function itself, the code after one of
// its graph breaks (a resume function Dynamo made), or a function it calls that Dynamo compiled
// as a frame of its own.
struct FrameRole {
  std::string frame, function, file;
  int line = 0;
  std::string role;    // "site", "after_break", "nested"
  int break_line = 0;  // after_break: the line of the break it resumes after
};

// A frame of the site that runs eagerly from some call on, silently: it hit a recompile limit
// (then every call whose guards no compiled entry passes runs that frame eagerly), or Dynamo
// failed on it and fell back.
struct Fallback {
  FrameRole frame;
  std::string cause;  // recompile_limit / accumulated_recompile_limit / compile_failed
  std::optional<int> limit_value;
  std::optional<size_t> at_call;  // the call that hit it (index), where the bootstrap saw it
  std::string guard;              // the guard that kept failing, parsed from torch's text
  std::string reason;             // torch's own reason (headline), from the trace
  std::string kind, fix;          // the recompile cause's name and fix
  core::FixTerms fix_terms;       // that fix's cost and conditions
  size_t calls_after = 0;         // calls from the hit on
  // Of those, the calls that ran no compiled graph at all: known for the site's own frame only
  // (a frame after a break leaves the frames before it compiled).
  std::optional<size_t> eager_after;
};

// The recompiles of one frame for one cause, said once: "recompiled 7x (limit 8): `banned[0]
// == ...` failed for values 0, 5, 10".
struct RecompileGroup {
  FrameRole frame;
  std::string pattern;              // the guard with its value left out
  std::vector<std::string> values;  // the values the compiled entries were specialized on, in order
  std::string code, code_file;      // the user's line the guard comes from
  int code_line = 0;
  bool code_file_truncated = false;   // code_file is as torch shortened it: no file of the job ends with it
  int count = 0;                      // recompiles (compiles after the first) with this cause
  std::optional<int> limit;           // the frame's recompile limit in the job
  std::string cause, why, fix, cost;  // cost: fix_terms.cost, kept for older readers
  core::FixTerms fix_terms;           // the fix's cost and conditions (core::recompile_fix)
  Ns compile_time{0};                 // what those recompiles cost (entire_frame)
};

struct EagerComparison {
  CallTimes compiled, eager;  // steady calls, pooled over runs
  stats::Interval speedup{};  // eager / compiled per-call median, 95% bootstrap
  int runs_each = 1;
  std::string covers;                      // what the interval covers, in words
  Ns compile_cost{0};                      // compiling calls' time beyond the steady compiled time
  std::optional<double> break_even_calls;  // only on a "faster" verdict: none is built on an interval holding 1
  bool paid_back = false;                  // this job made at least break_even_calls calls
  // The one speedup verdict rule (stats::decide): it follows the interval, not its width.
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;
  std::string clock = "host";  // "cuda_events" when both runs timed the site's calls on the device
};

// A fix tct tried at a site (--try-fixes): the job run once more with the fix applied by the
// bootstrap, against the job as written. One run each way: the interval covers call-to-call
// variation within each run, not run-to-run.
struct FixTrial {
  std::string fix;  // the fix's id in core/fix_table.cpp ("ddp_wrap_order")
  // Graph breaks at the site as torch counts them (SiteResult::graph_breaks' rule), each way.
  int breaks_before = 0, breaks_after = 0;
  CallTimes before, after;    // steady calls: the job as written, and with the fix
  stats::Interval speedup{};  // before / after per-call median, 95% bootstrap: above 1, the fix is faster
  // The one speedup verdict rule (stats::decide), on that interval.
  stats::SpeedupVerdict verdict = stats::SpeedupVerdict::NotMeasured;
};

// What a compiled run of the job paid to compile at a site, with its cache state: with
// --repeat the first run is usually cold and the others find its caches.
struct RunCompile {
  int run = 1;
  // From the trace's cache records at the site, never from the run's order (a cache folder
  // filled before the job makes its first run warm): "cold" (misses, no hit), "warm" (hits, no
  // miss), "partly warm" (both), "bypassed" (bypasses only), "no cache" (none counted).
  std::string cache_state;
  std::map<std::string, int> cache;
  Ns compile_time{0};                      // the trace's entire_frame over the site's frames
  Ns compile_cost{0};                      // the compiling calls' time beyond steady compiled calls
  std::optional<double> break_even_calls;  // compile_cost / (eager - compiled), on a "faster" verdict
};

// Calls that stalled: a p90 far above the median (a thread waiting for a core, a page fault,
// a collective), with the machine's load: the figure and the fix.
struct Stall {
  double compiled_ratio = 0, eager_ratio = 0;  // p90 / median of steady calls
  // The load explains it: more runnable threads than cores (load, or torch's threads times the
  // job's processes) while the calls ran; --threads 1 is the thing to try.
  bool with_load = false;
};

// The shapes a site's calls used: each dimension of an input that took more than one size,
// with the calls at each size and the recompiles whose failed guard was that size.
struct SizeCalls {
  int64_t size = 0, calls = 0;
};
struct VariedDim {
  std::string input;  // the parameter's name (a keyword argument's), or "arg N" past the named ones
  int dim = 0;
  std::vector<SizeCalls> sizes;  // ascending
  int recompiles = 0;            // recompiles whose failed guard was this dimension's size
};
struct ShapeUse {
  int64_t calls = 0;        // calls counted
  int shapes = 0;           // distinct shapes of the tensor arguments
  int64_t other_calls = 0;  // calls past the bootstrap's cap on distinct shapes, not broken down
  // Which calls were counted: every call up to the all_calls-th, then 1 in one_in
  // on average, at random gaps (reading shapes costs about 2 us a tensor); 0: every call.
  int64_t all_calls = 0, one_in = 0;
  std::vector<VariedDim> varied;
};

// Where the site's compiled calls' time goes, from the calls the bootstrap ran under torch's
// profiler in short windows (python/tct_run_bootstrap/tct_run_sampler.py), cut into parts as
// bench cuts its window (bench::breakdown_of); those calls, and the few after each window that
// still pay for it, are left out of every other figure.
struct SampledBreakdown {
  // bare: the site's steady unsampled calls; profiled: the sampled ones; frames: the site's own
  // frame's cache chain, with the position the sampled calls hit (their median) and each
  // entry's guard count from the trace.
  bench::CallBreakdown call;
  int windows = 0;
  int compiling = 0;    // sampled calls left out: they compiled, or came right after a compile
  int settling = 0;     // calls right after a window, left out of the steady calls (SampledCalls::kSettling each)
  int chain_calls = 0;  // sampled calls that read the cache chain (each window's last), not cut into parts
  // What sampling cost the job: the sampler's own work (profiler starts, stops, reading the
  // events) and the time beyond a bare call's median of the sampled calls and of the calls
  // settling after each window; as a share of the job's wall time.
  Ns sampler{0}, cost{0};
  double job_share = 0;
  int skipped = 0;    // windows not opened: the job's own profiler was on
  std::string error;  // why sampling stopped early
};

struct SiteResult {
  std::string key, kind, name, site_file, code_name, code_file;
  std::string wrapper;  // "ddp": torch.compile was given a DistributedDataParallel (its forward is the site's code)
  int site_line = 0, code_line = 0;
  size_t calls = 0;
  size_t compiling_calls = 0;              // calls during which Dynamo compiled (first + recompiles)
  size_t eager_calls = 0;                  // calls that ran no compiled graph
  std::optional<size_t> first_eager_call;  // the first of those after the first call
  bool eager_known = false;                // the bootstrap could count compiled graphs here
  CallTimes all, steady;
  std::optional<CallTimes> device_steady;  // CUDA event time of the steady calls
  Ns compiling_time{0};                    // the compiling calls' total time
  double job_share = 0;                    // all.total / the job's wall time
  // From the trace.
  std::vector<FrameCompile> compiles;
  Ns compile_time{0};    // entire_frame, summed over compiles
  int recompiles = 0;    // FrameCompile::recompiled: the one count
  int refused = 0;       // compiles the recompile limit refused (a failure, no recompile)
  int unfinished = 0;    // compiles begun and never finished: the process ended in them
  int graph_breaks = 0;  // as torch counts them: not the records of code that runs eagerly instead
  std::vector<SiteBreak> breaks;
  // What of the site's code runs eagerly on every call (trace::eager_parts of its compiles).
  std::vector<core::EagerPart> eager_parts;
  std::map<std::string, int> cache;
  std::vector<RecompileGroup> recompile_groups;
  std::vector<Fallback> fallbacks;  // the site's own frame first
  // The site's outputs need grad: its backward runs in loss.backward(), outside the timed call,
  // so the per-call figures cover the forward alone (compile time counts both).
  bool backward_outside = false;
  std::optional<EagerComparison> eager;
  std::vector<RunCompile> runs;  // --compare-eager: each compiled run's compile, cold and warm
  std::vector<FixTrial> trials;  // --try-fixes: each fix measured here (its breaks' fix_terms then say tried)
  std::optional<Stall> stall;
  std::optional<ShapeUse> shape_use;          // none where the bootstrap counted no shapes (older records)
  std::optional<SampledBreakdown> breakdown;  // none where no call was sampled (--no-breakdown, few calls)
};

struct ProcessResult {
  std::optional<int> rank;
  int64_t pid = 0;
  bool final = true;     // false: its records are those of its last periodic flush
  bool running = false;  // a live report: the process was still running
  // The signal that ended it, from its records (it wrote them in its SIGTERM handler) or its
  // launcher ("SIGTERM": a launcher stopping its workers; "SIGKILL").
  std::string ended_by;
  // No record of its own (it ended before its first flush, or before torch.compile): what its
  // TORCH_TRACE log says it compiled.
  bool records_missing = false;
  int trace_compiles = 0, trace_recompiles = 0;
  std::vector<SiteResult> sites;

  // Its records hold every call it made: written at a normal exit.
  bool complete() const { return final && ended_by.empty() && !records_missing; }
};

// The worker that ended first with an error, as its launcher (torchrun) saw it, and where it
// was then: said before anything else, since every other rank's end follows from it.
struct FirstEnd {
  std::optional<int> rank;  // from its records or its trace; else its local rank (one node)
  int64_t pid = 0;
  int exitcode = 0;          // torch's: negative for a signal
  std::string signal;        // "SIGKILL", "" when it exited with a code
  std::string moment;        // "before torch.compile", "while compiling", "in its loop"
  std::string compiling;     // while compiling: the function and compile id ("forward, compile 0/1")
  size_t calls = 0;          // calls it had made (as of its last flush)
  bool records = false;      // it wrote records (periodic flushes)
  int trace_compiles = 0;    // compiles its trace log holds
  std::vector<int> stopped;  // the ranks that then ended by the launcher's SIGTERM
};

struct Divergence {
  std::optional<int> rank;
  std::string what, message;
};

// The machine while the compiled run ran: load against cores, the job's involuntary context
// switches (its threads waited for a core), torch's threads in the job.
struct Contention {
  double load_1m = NAN;
  unsigned cpus = 0;
  double involuntary_switches_per_s = NAN;
  std::optional<int> torch_threads;  // as the processes that ran the call sites had it (not a launcher's)
};

struct RunResult {
  std::vector<std::string> command;
  int exit_status = 0;
  std::string exit_text;
  bool interrupted = false;
  Ns wall{0};
  std::string record_dir, trace_dir, torch, stance, cwd;
  std::vector<ProcessResult> processes;  // those that made at least one compiled object
  int processes_with_torch = 0;
  std::optional<FirstEnd> first_end;   // a launcher saw a worker fail
  std::vector<Divergence> divergence;  // ranks that compiled differently
  std::vector<std::string> notes;      // things the reader must know (skipped files...)
  bool compared = false;
  int repeat = 1;
  std::vector<int> eager_exit_statuses;
  // --try-fixes: the runs made with a fix applied (none when no site had a fix tct can try).
  struct FixRun {
    std::string fix;  // the fix's id: what the bootstrap applied in that run
    int exit_status = 0;
    std::string exit_text;
  };
  bool try_fixes = false;  // asked for
  std::vector<FixRun> fix_runs;
  std::optional<int> threads;  // --threads N (the job and its eager runs)
  Contention contention;
  std::optional<trace::TraceResult> trace;  // `tct trace` of the job's logs, for the details
};

// A silent fallback with the site and process it happened in.
struct SiteFallback {
  const ProcessResult* process;
  const SiteResult* site;
  const Fallback* fallback;
};

// Every silent fallback of the job, in the report's order (process, site, the site's own frame
// first): the report's first lines, the headline's count and --fail-on-fallback's gate all read
// this one list, so they cannot disagree.
inline std::vector<SiteFallback> silent_fallbacks(const RunResult& r) {
  std::vector<SiteFallback> out;
  for (const auto& p : r.processes)
    for (const auto& s : p.sites)
      for (const auto& f : s.fallbacks) out.push_back({&p, &s, &f});
  return out;
}

}  // namespace tct::run
