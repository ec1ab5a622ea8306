#pragma once
// --allocator and --no-allocator-compare: one definition for bench and audit (suite reads the
// same names from its settings, suite/settings.cpp). What they mean: core/allocator.hpp
// and bench/allocator.hpp.
#include <CLI/CLI.hpp>

#include "bench/run.hpp"

namespace tct::cli {

void add_allocator_options(CLI::App& cmd, runner::BenchConfig& cfg);

}  // namespace tct::cli
