#pragma once
// `tct bench` as a reusable function: eager vs torch.compile for one target, one row per
// backend/mode/dynamic/fullgraph combination. Used by `tct bench`, and by commands that
// need the same numbers (expect --sweep/--validate, audit).
//
// Phases, each followed by a partial result (on_partial) so a crash keeps what was measured:
//   load -> env (validate backends and modes) -> eager baseline (+ eager peak memory above
//   the post-load baseline, before anything compiled) -> per row: compile and warm-up
//   curve (row 0: the cold compile), correctness, the row's second process (its first call
//   is the warm compile, confirmed a cache hit from torch's counters; compiled memory in a
//   process that never ran eager), paired sampling split over both processes -> per row:
//   cold compiles in fresh processes (rows after the first, and --compile-repeats).
// Each row's second process starts before the main agent's compile of that row (row 0's
// with the main agent: both start-ups are unmeasured) and waits, idle, until its turn;
// nothing else runs alongside a timed call or a compile. Agents whose results are in exit
// without interpreter teardown. Two processes share the sampling budget (it is split, not
// doubled), so the second process costs its start-up and warm compile only.
// A failure inside one row (compile failed, the compiled call raised, the agent died or
// hung while serving that row) is recorded in the row (status "failed", error {stage,
// kind, message, hint}); the other rows still run. Failures before any row (bad target,
// bad parameters, the eager target raising) throw tct::Error.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "errors.hpp"
#include "bench/result.hpp"
#include "bench/sampling.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "core/target_options.hpp"

namespace tct::bench {

using json = nlohmann::json;

struct BenchConfig {
  core::TargetOptions target;
  // Each a list: the rows are their cartesian product (see plan.hpp).
  std::vector<std::string> backends{"inductor"};
  std::vector<std::string> modes{"default"};
  std::vector<std::string> dynamic{"auto"};  // auto | true | false
  std::vector<bool> fullgraph{false};

  double precision = kDefaultPrecision;  // stop when the speedup CI half-width <= precision * speedup
  double budget_s = 10.0;                // sampling seconds per row
  int warmup_calls = 20;                 // compiled calls timed one by one (the warm-up curve)
  int eager_warmup_calls = 10;
  int min_blocks = 5;          // fewest block pairs over the whole run
  int looks = 3;               // planned looks at the interval (bench/sampling.hpp)
  int compile_repeats = 1;     // cold and warm compiles, each in its own fresh process
  bool check = true;           // compare compiled outputs with eager
  std::optional<double> rtol;  // tolerance overrides for the check
  std::optional<double> atol;
  bool compile_time = true;  // cold/warm compile in fresh processes
  bool memory = true;
  bool raw = false;                    // keep raw samples in the rows
  std::string eager_via = "original";  // original | stance (torch.compiler.set_stance)
  std::uint64_t seed = 0x7c75eed2024ULL;
  std::string trace_dir;  // --trace DIR: TORCH_TRACE=DIR for the measuring agent ("" = none)
  // --allocator: the malloc state the headline is measured in (core/allocator.hpp). "settled"
  // is the default: every process of a row is then in one glibc state, so the headline is one
  // figure a plain loop in that state reproduces. "system" (the state a fresh process starts
  // in) depends on each process's history: a row's two processes disagreed by 1.6x on a
  // resnet18-like CNN (bench/allocator.py). The comparison (bench/allocator.hpp)
  // measures the other states, "system" included, and the finding says when they differ.
  std::string allocator = "settled";
  bool allocator_compare = true;  // --no-allocator-compare turns the comparison off
  bool breakdown = true;          // --no-breakdown: no profiled window, cache chain or fix trials
  // --backend aoti: tools/aoti_runner's sources and the cache folder its builds are kept in
  // (core/aoti_runner.hpp); empty: the package is timed from Python.
  std::string aoti_runner_source;
  std::string aoti_cache_root;
  // --aoti-package-dir DIR: keep the aoti row's package (DIR/model.pt2), its inputs (DIR/inputs)
  // and the C++ runner's first outputs (DIR/out-0) instead of a temporary folder's.
  std::string aoti_package_dir;
};

// Runs the benchmark in agents started through `exec` and returns what it measured. After
// each phase the result so far, its rows' flags and all_warnings decided, goes to on_partial
// (if set). Throws tct::Error (usage/target) for failures that leave no row to measure: the
// last partial result is then what was measured.
BenchResult run_bench(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg,
                      const core::OnPartial<BenchResult>& on_partial = {});

// The error `tct bench` ends with for a finished section, if any (exit codes in
// docs/ARCHITECTURE.md): a failed row -> 3 (target failed), else an output mismatch with
// `check` on -> 1. Everything measured is in the section either way.
std::optional<Error> bench_outcome(const BenchResult& result, const BenchConfig& cfg);

}  // namespace tct::bench
