// tct bench: eager vs torch.compile, with warm-up, steady-state statistics, compile time
// (cold and warm), break-even, peak memory and an output check. The measurement itself is
// bench::run_bench (src/bench/run.hpp); this file is flags and exit codes.
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "cli/bench_options.hpp"
#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/usage.hpp"
#include "cli/target_options.hpp"
#include "errors.hpp"
#include "bench/plan.hpp"
#include "bench/run.hpp"

namespace tct::cli {
namespace {

class BenchCommand : public Command {
 public:
  const char* examples() const override {
    return "  tct bench builtin:mlp                      eager vs compiled, with a confidence interval\n"
           "  tct bench model.py:make_model --param batch=64 --mode max-autotune\n";
  }

  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("bench",
                                   "Eager vs torch.compile: speedup with a confidence interval, "
                                   "latencies, compile time, break-even, memory, output check");
    add_target_options(*cmd, options_.base.target);
    options_.add_to(*cmd);
    cmd->add_option("--trace", options_.base.trace_dir,
                    "Keep the TORCH_TRACE log of the measured compiles in DIR "
                    "(read it with `tct trace DIR`)")
        ->type_name("DIR");
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct bench builtin:mlp
  tct bench model.py:make_model --param batch=64 --device cuda --dtype bfloat16
  tct bench builtin:tiny_ops --backend inductor,aot_eager --mode default,max-autotune
  tct bench builtin:mlp --train --budget 30 -o bench.html
  tct bench builtin:mlp --backend inductor,aoti
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
--backend aoti: torch.export + AOTInductor's package (aoti_compile_and_package) of the model
eager ran, loaded and timed from C++ by tct-aoti (built once against this torch's libtorch;
timed from Python with aoti_load_package, and the row says so, where it cannot be built). Its
row: package compile time and size, load time, per-call time and speedup as every row, outputs
checked against eager. A model torch.export cannot take fails that row with the exporter's
reason and fix; the others still run.
Exit codes: 0 ok; 1 compiled outputs differ from eager (unless --no-check); 2 bad usage or
input (target, --param, backend, mode, device); 3 the target failed (raised, hung, crashed,
or a row failed to compile: the other rows are still measured and printed); 4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    bench::BenchConfig cfg = options_.config();
    locate_aoti_runner(ctx, cfg);
    const bench::BenchResult result =
        bench::run_bench(ctx.progress_sink(), ctx, cfg, checkpoints<bench::BenchResult>(ctx));
    write_section(ctx, result);
    if (auto err = bench::bench_outcome(result, cfg)) throw *err;
    return 0;
  }

 private:
  BenchOptions options_;
};

}  // namespace

std::unique_ptr<Command> make_bench_command() { return std::make_unique<BenchCommand>(); }

}  // namespace tct::cli
