#include "cli/allocator_option.hpp"

namespace tct::cli {

void add_allocator_options(CLI::App& cmd, runner::BenchConfig& cfg) {
  cmd.add_option("--allocator", cfg.allocator,
                 "The malloc state the headline speedup is measured in (CPU): settled (glibc after one 30 MiB "
                 "block is freed: one state in every process; MALLOC_MMAP_THRESHOLD_ puts a program there), "
                 "system (as a fresh process starts: its history decides), tcmalloc or jemalloc (LD_PRELOAD of "
                 "the installed library)")
      ->capture_default_str()
      ->check(CLI::IsMember({"system", "settled", "tcmalloc", "jemalloc"}));
  cmd.add_flag_callback("--no-allocator-compare", [&cfg] { cfg.allocator_compare = false; },
                        "Skip timing the other allocator states (a share of the first row's --budget, plus their "
                        "processes' start-up)");
}

}  // namespace tct::cli
