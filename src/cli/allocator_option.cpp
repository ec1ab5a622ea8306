#include "cli/allocator_option.hpp"

namespace tct::cli {

void add_allocator_options(CLI::App& cmd, runner::BenchConfig& cfg) {
  cmd.add_option("--allocator", cfg.allocator,
                 "The malloc state the headline speedup is measured in (CPU): system (as a process starts; "
                 "what a user's program meets), settled (glibc after one 30 MiB block is freed), tcmalloc or "
                 "jemalloc (LD_PRELOAD of the installed library)")
      ->capture_default_str()
      ->check(CLI::IsMember({"system", "settled", "tcmalloc", "jemalloc"}));
  cmd.add_flag_callback("--no-allocator-compare", [&cfg] { cfg.allocator_compare = false; },
                        "Skip timing the other allocator states (a share of the first row's --budget, plus their "
                        "processes' start-up)");
}

}  // namespace tct::cli
