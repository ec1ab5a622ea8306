// tct bench: eager vs torch.compile, with warm-up, steady-state statistics, compile time
// (cold and warm), break-even, peak memory and an output check. The measurement itself is
// runner::run_bench (src/bench/run.hpp); this file is flags and exit codes.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "cli/allocator_option.hpp"
#include "cli/command.hpp"
#include "cli/precision.hpp"
#include "cli/usage.hpp"
#include "cli/target_options.hpp"
#include "errors.hpp"
#include "bench/plan.hpp"
#include "bench/run.hpp"

namespace tct::cli {
namespace {

std::vector<bool> parse_fullgraph(const std::string& text) {
  std::vector<bool> out;
  for (const auto& item : runner::split_list(text)) {
    auto n = runner::normalize_dynamic(item);  // same spellings: true/false/on/off/1/0
    if (n == "auto") throw usage_error(fmt::format("--fullgraph '{}' is not true or false", item));
    out.push_back(n == "true");
  }
  return out.empty() ? std::vector<bool>{true} : out;
}

class BenchCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("bench", "Eager vs torch.compile: speedup with a confidence interval, "
                                            "latencies, compile time, break-even, memory, output check");
    add_target_options(*cmd, cfg_.target);
    cmd->add_option("--backend", backend_, "Backend(s), comma-separated for a matrix (see `tct probe`)")
        ->capture_default_str();
    cmd->add_option("--mode", mode_, "Inductor mode(s): default, reduce-overhead, max-autotune, "
                                     "max-autotune-no-cudagraphs; comma-separated for a matrix")
        ->capture_default_str();
    cmd->add_option("--dynamic", dynamic_, "auto, true or false (comma-separated for a matrix)")->capture_default_str();
    cmd->add_flag("--fullgraph{true}", fullgraph_, "Compile with fullgraph=True (a graph break is then an error); "
                                                   "--fullgraph=true,false compares both");
    cmd->add_option("--precision", precision_, "Stop sampling when the speedup's 95% interval is within "
                                               "± this (0.05 or 5%; the interval keeps room for what a re-run meets, so it seldom gets below ±4%)")
        ->capture_default_str();
    cmd->add_option("--budget", cfg_.budget_s, "Seconds of paired sampling per row, split over the row's two "
                                               "processes")
        ->capture_default_str()->check(kPositive);
    cmd->add_option("--compile-repeats", cfg_.compile_repeats, "Cold and warm compiles per row, each in its own "
                                                               "fresh process; > 1 reports their spread")
        ->capture_default_str()->check(CLI::Range(1, 100));
    cmd->add_option("--warmup", cfg_.warmup_calls, "Compiled calls timed one by one (the warm-up curve)")
        ->capture_default_str()->check(CLI::Range(1, 100000));
    cmd->add_option("--eager-warmup", cfg_.eager_warmup_calls, "Eager calls timed one by one before sampling")
        ->capture_default_str()->check(CLI::Range(1, 100000));
    cmd->add_option("--min-blocks", cfg_.min_blocks, "Fewest eager/compiled block pairs in all")
        ->capture_default_str()->check(CLI::Range(1, 1000));
    cmd->add_flag("--no-check", no_check_, "Do not compare compiled outputs with eager");
    cmd->add_option("--rtol", rtol_, "Relative tolerance of the output check (default: by dtype)");
    cmd->add_option("--atol", atol_, "Absolute tolerance of the output check (default: by dtype)");
    cmd->add_flag("--no-compile-time", no_compile_time_, "Skip cold/warm compile time in fresh processes "
                                                         "(faster; break-even then uses the in-process first call)");
    cmd->add_flag("--no-memory", no_memory_, "Skip peak memory");
    cmd->add_flag("--raw", cfg_.raw, "Keep the raw samples in the JSON document");
    cmd->add_option("--trace", cfg_.trace_dir, "Keep the TORCH_TRACE log of the measured compiles in DIR (read it "
                                               "with `tct trace DIR`)")
        ->type_name("DIR");
    cmd->add_option("--eager-via", cfg_.eager_via, "Time eager on the original callable (original) or on the "
                                                   "compiled object under set_stance('force_eager') (stance)")
        ->capture_default_str()->check(CLI::IsMember({"original", "stance"}));
    cmd->add_option("--seed", cfg_.seed, "Seed of the bootstrap (intervals are reproducible)");
    add_allocator_options(*cmd, cfg_);
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct bench builtin:mlp
  tct bench model.py:make_model --param batch=64 --device cuda --dtype bfloat16
  tct bench builtin:tiny_ops --backend inductor,aot_eager --mode default,max-autotune
  tct bench builtin:mlp --train --budget 30 -o bench.html
The interval: 95% confidence for this target's speedup on this machine across fresh
processes: the typical (median) result of re-runs lies inside it 95% of the time. It comes from paired blocks
(eager and compiled back to back, in random order, the same calls per sample) sampled in
two fresh processes, resampled in runs of neighbouring blocks, with the drift between
processes and over time (what a re-run meets) included; it is looked at 3 planned times
at a corrected level, so stopping early keeps the 95%. Wider than 1.5x (high/low): "inconclusive", and no verdict or
break-even is built on it. Allocator (CPU): the headline runs in the --allocator state (settled
glibc by default: one state in every process); the other states (settled glibc, tcmalloc and
jemalloc where installed) are timed briefly in fresh processes on 30% of the first row's
budget, and a warning names the fastest, with the LD_PRELOAD or MALLOC_* line, when the
speedup moves outside the interval. Memory: peak above the post-load baseline, eager and compiled
each in a fresh process; the compiler's own memory on its own line.
Exit codes: 0 ok; 1 compiled outputs differ from eager (unless --no-check); 2 bad usage or
input (target, --param, backend, mode, device); 3 the target failed (raised, hung, crashed,
or a row failed to compile: the other rows are still measured and printed); 4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    cfg_.backends = runner::split_list(backend_);
    cfg_.modes = runner::split_list(mode_);
    cfg_.dynamic = runner::split_list(dynamic_);
    cfg_.fullgraph = fullgraph_.empty() ? std::vector<bool>{false} : parse_fullgraph(fullgraph_);
    cfg_.precision = parse_precision(precision_);
    cfg_.check = !no_check_;
    cfg_.compile_time = !no_compile_time_;
    cfg_.memory = !no_memory_;
    if (rtol_ >= 0) cfg_.rtol = rtol_;
    if (atol_ >= 0) cfg_.atol = atol_;
    if (cfg_.backends.empty()) throw usage_error("--backend is empty", "e.g. --backend inductor");
    if (auto err = runner::bench_outcome(runner::run_bench(ctx, ctx, cfg_), cfg_)) throw *err;
    return 0;
  }

 private:
  runner::BenchConfig cfg_;
  std::string backend_ = "inductor";
  std::string mode_ = "default";
  std::string dynamic_ = "auto";
  std::string fullgraph_;
  std::string precision_ = "0.05";
  double rtol_ = -1, atol_ = -1;
  bool no_check_ = false, no_compile_time_ = false, no_memory_ = false;
};

}  // namespace

std::unique_ptr<Command> make_bench_command() { return std::make_unique<BenchCommand>(); }

}  // namespace tct::cli
