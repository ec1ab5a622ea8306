#include "cli/bench_options.hpp"

#include <cstdlib>
#include <vector>

#include <fmt/format.h>

#include "bench/plan.hpp"
#include "core/aoti_runner.hpp"
#include "core/fraction.hpp"
#include "cli/usage.hpp"
#include "errors.hpp"

namespace tct::cli {
namespace {

std::vector<bool> parse_fullgraph(const std::string& text) {
  std::vector<bool> out;
  for (const auto& item : bench::split_list(text)) {
    auto n = bench::normalize_dynamic(item);  // same spellings: true/false/on/off/1/0
    if (n == "auto") throw usage_error(fmt::format("--fullgraph '{}' is not true or false", item));
    out.push_back(n == "true");
  }
  return out.empty() ? std::vector<bool>{true} : out;
}

}  // namespace

void BenchOptions::add_to(CLI::App& cmd) {
  cmd.add_option("--backend", backend,
                 "Backend(s), comma-separated for a matrix (see `tct probe`); aoti: torch.export + an AOTInductor "
                 "package, timed from C++")
      ->capture_default_str();
  cmd.add_option("--mode", mode,
                 "Inductor mode(s): default, reduce-overhead, max-autotune, "
                 "max-autotune-no-cudagraphs; comma-separated for a matrix")
      ->capture_default_str();
  cmd.add_option("--dynamic", dynamic, "auto, true or false (comma-separated for a matrix)")->capture_default_str();
  cmd.add_flag("--fullgraph{true}", fullgraph,
               "Compile with fullgraph=True (a graph break is then an error); "
               "--fullgraph=true,false compares both");
  cmd.add_option("--precision", precision,
                 "Stop sampling when the speedup's 95% interval is within "
                 "± this (0.05 or 5%; the interval keeps room for what a re-run meets, so "
                 "it seldom gets below ±4%)")
      ->capture_default_str();
  cmd.add_option("--budget", base.budget_s, "Seconds of paired sampling per row, split over the row's two processes")
      ->capture_default_str()
      ->check(kPositive);
  cmd.add_option("--compile-repeats", base.compile_repeats,
                 "Cold and warm compiles per row, each in its own "
                 "fresh process; > 1 reports their spread")
      ->capture_default_str()
      ->check(CLI::Range(1, 100));
  cmd.add_option("--warmup", base.warmup_calls, "Compiled calls timed one by one (the warm-up curve)")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--eager-warmup", base.eager_warmup_calls, "Eager calls timed one by one before sampling")
      ->capture_default_str()
      ->check(CLI::Range(1, 100000));
  cmd.add_option("--min-blocks", base.min_blocks, "Fewest eager/compiled block pairs in all")
      ->capture_default_str()
      ->check(CLI::Range(1, 1000));
  cmd.add_flag("--no-check", no_check, "Do not compare compiled outputs with eager");
  cmd.add_option("--rtol", rtol, "Relative tolerance of the output check (default: by dtype)");
  cmd.add_option("--atol", atol, "Absolute tolerance of the output check (default: by dtype)");
  cmd.add_flag("--no-compile-time", no_compile_time,
               "Skip cold/warm compile time in fresh processes "
               "(faster; break-even then uses the in-process first call)");
  cmd.add_flag("--no-memory", no_memory, "Skip peak memory");
  cmd.add_flag("--raw", base.raw, "Keep the raw samples in the JSON document (the HTML report then draws them)");
  cmd.add_option("--eager-via", base.eager_via,
                 "Time eager on the original callable (original) or on the "
                 "compiled object under set_stance('force_eager') (stance)")
      ->capture_default_str()
      ->check(CLI::IsMember({"original", "stance"}));
  cmd.add_option("--seed", base.seed, "Seed of the bootstrap (intervals are reproducible)");
  cmd.add_option("--allocator", base.allocator,
                 "The malloc state the headline speedup is measured in (CPU): settled (glibc after one 30 MiB "
                 "block is freed: one state in every process; MALLOC_MMAP_THRESHOLD_ puts a program there), "
                 "system (as a fresh process starts: its history decides), tcmalloc or jemalloc (LD_PRELOAD of "
                 "the installed library)")
      ->capture_default_str()
      ->check(CLI::IsMember({"system", "settled", "tcmalloc", "jemalloc"}));
  cmd.add_flag_callback(
      "--no-allocator-compare", [this] { base.allocator_compare = false; },
      "Skip timing the other allocator states (a share of the first row's --budget, plus their "
      "processes' start-up)");
  cmd.add_flag_callback(
      "--no-breakdown", [this] { base.breakdown = false; },
      "Skip taking a compiled call apart (a window of calls under torch's profiler after the timed ones, the "
      "cache chain, and where overhead is material each guard fix A/B against the default)");
  cmd.add_option(
         "--aoti-package-dir", base.aoti_package_dir,
         "--backend aoti: keep the package (DIR/model.pt2), its inputs and the C++ runner's first outputs in DIR")
      ->type_name("DIR");
}

bench::BenchConfig BenchOptions::config() const {
  bench::BenchConfig cfg = base;
  cfg.backends = bench::split_list(backend);
  cfg.modes = bench::split_list(mode);
  cfg.dynamic = bench::split_list(dynamic);
  if (cfg.backends.empty()) throw usage_error("--backend is empty", "e.g. --backend inductor");
  if (cfg.modes.empty()) cfg.modes = {"default"};
  cfg.fullgraph = fullgraph.empty() ? std::vector<bool>{false} : parse_fullgraph(fullgraph);
  cfg.precision = core::parse_precision(precision);
  cfg.check = !no_check;
  cfg.compile_time = !no_compile_time;
  cfg.memory = !no_memory;
  if (rtol >= 0) cfg.rtol = rtol;
  if (atol >= 0) cfg.atol = atol;
  return cfg;
}

void locate_aoti_runner(const RunContext& ctx, bench::BenchConfig& cfg) {
  cfg.aoti_runner_source = core::runner_source_beside(ctx.agent_options().agent_dir);
  cfg.aoti_cache_root = core::default_cache_root(std::getenv("XDG_CACHE_HOME"), std::getenv("HOME"));
}

}  // namespace tct::cli
