#pragma once
// The run's facts (bootstrap records, TORCH_TRACE summaries, the command's exit) -> RunResult.
// Pure: no I/O. Every statistic, join and verdict of `tct run` is made here, once.
#include <set>
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
  // A live report, while the job runs: the pids still running then (a process whose records
  // are not final is "ended" only when it is not among them).
  bool live = false;
  std::set<int64_t> alive;
};

RunResult analyze(const RunInputs& in);

// Steady calls: the calls with no compile in them, less the one right after each compile
// (it pays lazy work: the backward's compile, allocator warm-up). Eager runs: all but the
// first two calls (lazy initialisation), the same count the examples exclude.
// device: the CUDA event times of those calls (the calls without one are left out).
std::vector<double> steady_durations(const SiteRecord& s, bool eager_run, bool device = false);

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
