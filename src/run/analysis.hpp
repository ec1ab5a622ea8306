#pragma once
// The run's facts (bootstrap records, TORCH_TRACE summaries, the command's exit) -> RunResult.
// Pure: no I/O. Every statistic, join and verdict of `tct run` is made here, once.
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "trace/summary.hpp"
#include "run/launch.hpp"
#include "run/records.hpp"
#include "run/result.hpp"

namespace tct::run {

struct RunInputs {
  std::vector<std::string> command;
  Finished finished;
  std::string record_dir, trace_dir;
  std::string cwd;                                             // where the job ran: paths are shown relative to it
  RecordSet records;                                           // the (first) compiled run
  std::vector<trace::RankSummary> trace_ranks;                 // its TORCH_TRACE, per rank
  std::optional<trace::TraceResult> trace_summary;             // `tct trace` of the same logs
  std::vector<RecordSet> compiled_repeats;                     // --repeat: the other compiled runs
  std::vector<std::vector<trace::RankSummary>> repeat_traces;  // and their TORCH_TRACE, in the same order
  std::optional<int> threads;                                  // --threads N, given to the job and its eager runs
  Contention contention;                                       // the machine while the compiled run ran
  std::vector<RecordSet> eager_runs;                           // --compare-eager: the forced-eager runs
  std::vector<int> eager_exit_statuses;
  // --try-fixes: asked, and the runs made with a fix applied (the same command, once each).
  bool try_fixes = false;
  struct FixRun {
    std::string fix;  // what the bootstrap applied (TCT_RUN_TRY_FIX): "ddp_wrap_order"
    Finished finished;
    RecordSet records;
    std::vector<trace::RankSummary> trace_ranks;
  };
  std::vector<FixRun> fix_runs;
  // A live report, while the job runs: the pids still running then (a process whose records
  // are not final is "ended" only when it is not among them).
  bool live = false;
  std::set<int64_t> alive;
};

RunResult analyze(const RunInputs& in);

// What --try-fixes names in the report: the command that measures a fix tct can try.
inline constexpr std::string_view kTryFixes = "tct run --try-fixes";

// Whether --try-fixes can measure `fix` at a site: "ddp_wrap_order" where torch.compile was given
// a DistributedDataParallel (the bootstrap then compiles the module inside it instead) and a break
// of the site has that fix (core::break_fix: a break inside DDP's own code).
bool can_try(const SiteResult& s, std::string_view fix);
// The fixes --try-fixes measures for this result, each once, in the order first met: what one
// more run of the job applies (none: no run).
std::vector<std::string> fixes_to_try(const RunResult& r);
// A trial's figures from each way's steady calls (one run each way) and its verdict by the one
// rule (stats::decide on before / after: above 1, the fix is faster).
FixTrial fix_trial(std::string fix, int breaks_before, int breaks_after, const std::vector<double>& before,
                   const std::vector<double>& after);

// Steady calls: the calls with no compile in them, less the one right after each compile
// (it pays lazy work: the backward's compile, allocator warm-up), and less the calls sampled
// under torch's profiler. Eager runs: all but the
// first two calls (lazy initialisation), the same count the examples exclude.
// device: the CUDA event times of those calls (the calls without one are left out).
std::vector<double> steady_durations(const SiteRecord& s, bool eager_run, bool device = false);
// Per call of a compiled run: it paid for a compile (it compiled, it came right after one, or
// it is the first call). The one rule steady_durations and the sampled breakdown leave out by.
std::vector<bool> compiling_or_after(const SiteRecord& s);

// Per-call timing summary; NaN-free (zeros) when there is no call.
CallTimes call_times(const std::vector<double>& ns);

// A run's cache state from the trace's cache records at a site (RunCompile::cache_state):
// keys end in _hit, _miss or _bypass (fx_graph_cache_hit, aotautograd_cache_bypass...).
std::string cache_state(const std::map<std::string, int>& cache);

// The stall rule: p90 / median of a site's steady calls (compiled, eager) against the machine's
// load while they ran.
std::optional<Stall> stall_of(double compiled_ratio, double eager_ratio, const Contention& c, int processes);

// eager / compiled ratio of medians with a 95% percentile bootstrap: one run each resamples
// calls within each run; several runs resample runs, then calls within them.
stats::Interval speedup_interval(const std::vector<std::vector<double>>& eager_runs,
                                 const std::vector<std::vector<double>>& compiled_runs);

}  // namespace tct::run
