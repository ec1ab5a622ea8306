#pragma once
// bench's flags, declared once for `tct bench` and `tct audit` (suite reads the same names from
// its settings, suite/settings.cpp). What they mean: bench/run.hpp's BenchConfig.
#include <string>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "bench/run.hpp"
#include "cli/context.hpp"

namespace tct::cli {

struct BenchOptions {
  bench::BenchConfig base;  // what flags set directly: the budget, the warm-up calls, --raw, ...
  std::string backend = "inductor", mode = "default", dynamic = "auto", fullgraph,
              precision = fmt::format("{:g}", bench::kDefaultPrecision);  // parsed by core::parse_precision
  double rtol = -1, atol = -1;                                            // negative: the tolerance by dtype
  bool no_check = false, no_compile_time = false, no_memory = false;

  // Every flag of the measurement but the target's (add_target_options) and --trace (bench
  // keeps one log, audit one per step).
  void add_to(CLI::App& cmd);
  // The flags resolved: lists split and checked. Throws tct::Error (usage) for a bad one.
  bench::BenchConfig config() const;
};

// Where `--backend aoti` finds tools/aoti_runner's sources (beside the agent's folder) and the
// cache its builds are kept in ($XDG_CACHE_HOME/tct), as `tct startup` finds them.
void locate_aoti_runner(const RunContext& ctx, bench::BenchConfig& cfg);

}  // namespace tct::cli
