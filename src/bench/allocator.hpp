#pragma once
// The allocator as a measured fact (CPU). The headline row runs in the state --allocator
// names (core/allocator.hpp); after the rows, a short comparison times eager and compiled
// calls of the first row in each other state that is available, each in a fresh process
// (LD_PRELOAD for tcmalloc and jemalloc, with or without the settling block), on a fixed
// share of the first row's sampling budget (kCompareShare: the comparison costs those
// processes' start-up and warm compile, not more sampling). bench/allocator_finding.hpp
// decides whether the states differ; this file measures and records, into the
// AllocatorComparison of bench/allocator_comparison.hpp (bench/json.cpp writes it as
// section["allocator"]).
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "bench/allocator_comparison.hpp"
#include "core/allocator.hpp"
#include "bench/plan.hpp"
#include "bench/reply.hpp"
#include "bench/result.hpp"
#include "bench/run.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "report/warning.hpp"

namespace tct::bench {

using json = nlohmann::json;

// The share of the first row's sampling budget the comparison takes (split over the states
// it measures). 30%: each of three states then gets a tenth of --budget, enough for a
// resnet18-sized call (10 ms) to give dozens of paired blocks.
inline constexpr double kCompareShare = 0.3;

struct AllocatorSetup {
  core::AllocatorState state = core::AllocatorState::System;
  std::string library;                       // the preloaded library ("" for system, settled)
  std::vector<core::AllocatorState> others;  // states the comparison may measure (library found)
  std::vector<AllocatorStateEntry> skipped;  // states left out (status skipped), with why
};

// The headline's state and library, and which other states exist on this machine. Throws
// tct::Error (usage, exit 2) when --allocator names a library that is not installed.
AllocatorSetup resolve_allocator(const BenchConfig& cfg, const core::FileExists& exists);
AllocatorSetup resolve_allocator(const BenchConfig& cfg);

// The child's environment for a state (core::allocator_env).
core::Env state_env(core::AllocatorState s, const std::string& library);

// "tcmalloc", "jemalloc" or "glibc" (no allocator library mapped), "unknown" (maps unreadable),
// with its library, from the agent's raw allocator facts (the bench.allocator reply).
DetectedAllocator detected_allocator(const std::optional<reply::Allocator>& facts);

// The section before the comparison: the headline state, what the agent detected, and the
// compare plan. `compare_reason`: why the comparison does not run ("" when it does).
AllocatorComparison allocator_section(const AllocatorSetup& setup, const std::optional<reply::Allocator>& facts,
                                      bool compare, const std::string& compare_reason, double compare_budget_s);

// After the first row is measured: the headline's own entry in states (its medians and speedup).
void add_headline_state(AllocatorComparison& allocator, const BenchRow& row);

// The comparison: each of setup.others in a fresh process, `budget_s` of sampling each; appends
// to allocator.states. A state that fails is recorded (status failed, reason), not thrown,
// unless the run was interrupted.
void compare_allocator_states(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg,
                              const BenchRowSpec& spec, const AllocatorSetup& setup, const core::Env& shared_env,
                              const BenchRow& row, double clock_res, double eager_est, int cpus, double budget_s,
                              AllocatorComparison& allocator);

// Decides (bench/allocator_finding.hpp) and records differs/best_state; the warning, if any.
// `headline`: the row the headline state measured (null when there is none).
std::optional<report::Warning> conclude_allocator(AllocatorComparison& allocator, const BenchRow* headline);

}  // namespace tct::bench
