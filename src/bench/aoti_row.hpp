#pragma once
// The aoti row of `tct bench` (`--backend aoti`): the target the main agent loaded, exported
// with torch.export and packaged with AOTInductor in that agent (the very weights and inputs
// eager ran with; startup.package, the exporter `tct startup` uses), then loaded and timed by
// the C++ runner tct-aoti (tools/aoti_runner, built once per libtorch: core/aoti_runner.hpp)
// in its --serve mode, two runner processes, each paired with an agent for the eager blocks,
// through the same paired sampling, interval and verdict as every row (sample_paired). The
// runner's first outputs are checked against eager by the agent's output check with bench's
// tolerances. Where the runner cannot be built, the package is loaded with
// torch._inductor.aoti_load_package in the agents and timed as a compiled object is, and the
// row says so (Aoti::timed_from, runner_note).
#include <string>

#include "bench/phases.hpp"

namespace tct::bench {

// Fills `row` (aoti, compile, warm-up curve, correctness, speedup, latency); `stage` follows
// the step in progress (torch.export, aoti_compile_and_package, load_package, correctness,
// measurement) for the row's error. `peer`: the row's second process (eager blocks only).
// `threads`: torch's intra-op threads in the agent, given to the C++ runner (0: its default).
// Throws tct::Error as the phases do.
void measure_aoti_row(const core::Progress& progress, TargetAgent& agent, FreshAgent& peer, const BenchConfig& cfg,
                      const BenchRowSpec& spec, double clock_res, double eager_est, int cpus, int threads,
                      BenchRow& row, std::string& stage);

// One line for a runner that did not build, as the row prints it.
std::string python_timing_note(const std::string& why_not_cpp);

}  // namespace tct::bench
