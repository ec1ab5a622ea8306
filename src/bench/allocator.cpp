#include "bench/allocator.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "bench/allocator_finding.hpp"
#include "core/json_number.hpp"
#include "core/json_read.hpp"
#include "errors.hpp"
#include "bench/analysis.hpp"
#include "bench/json.hpp"
#include "bench/phases.hpp"

namespace tct::bench {

using core::AllocatorState;

AllocatorSetup resolve_allocator(const BenchConfig& cfg, const core::FileExists& exists) {
  AllocatorSetup s;
  s.state = core::parse_allocator(cfg.allocator);
  if (core::needs_library(s.state)) {
    auto lib = core::find_allocator_library(s.state, exists);
    if (!lib)
      throw usage_error(fmt::format("--allocator {}: its library is not installed (looked for {})", cfg.allocator,
                                    core::allocator_library_candidates(s.state).front()),
                        s.state == AllocatorState::Tcmalloc ? "on Debian: apt-get install libtcmalloc-minimal4"
                                                            : "on Debian: apt-get install libjemalloc2");
    s.library = *lib;
  }
  for (auto other : core::all_allocator_states()) {
    if (other == s.state) continue;
    if (core::needs_library(other) && !core::find_allocator_library(other, exists)) {
      s.skipped.push_back(
          {core::to_string(other), core::describe(other), AllocatorStateStatus::Skipped, std::nullopt,
           fmt::format("not installed (looked for {})", core::allocator_library_candidates(other).front()),
           std::nullopt});
      continue;
    }
    s.others.push_back(other);
  }
  return s;
}

AllocatorSetup resolve_allocator(const BenchConfig& cfg) { return resolve_allocator(cfg, core::library_file_exists); }

core::Env state_env(AllocatorState s, const std::string& library) { return core::allocator_env(s, library); }

DetectedAllocator detected_allocator(const std::optional<reply::Allocator>& facts) {
  DetectedAllocator d;
  if (!facts) return d;
  if (!facts->mapped.empty()) {
    d.kind = facts->mapped[0].kind;
    d.library = facts->mapped[0].path;
  } else {
    d.kind = facts->maps_readable ? "glibc" : "unknown";
  }
  d.settled = facts->settled;
  d.ld_preload = facts->ld_preload;
  return d;
}

AllocatorComparison allocator_section(const AllocatorSetup& setup, const std::optional<reply::Allocator>& facts,
                                      bool compare, const std::string& compare_reason, double compare_budget_s) {
  AllocatorComparison a;
  a.state = core::to_string(setup.state);
  a.description = core::describe(setup.state);
  if (!setup.library.empty()) a.library = a.ld_preload = setup.library;
  a.settled = setup.state == AllocatorState::Settled;
  a.detected = detected_allocator(facts);
  a.compare.enabled = compare;
  if (!compare_reason.empty()) a.compare.skipped_reason = compare_reason;
  a.compare.budget_s = compare ? compare_budget_s : NAN;
  a.states = setup.skipped;
  return a;
}

namespace {

// A state's figures from a row sampled in its process.
AllocatorFigures figures_of(const BenchRow& row, std::optional<std::string> detected) {
  AllocatorFigures f;
  f.detected = std::move(detected);
  if (row.latency) {
    f.eager_ns = row.latency->eager_ns.median;
    f.compiled_ns = row.latency->compiled_ns.median;
  }
  if (row.speedup) {
    const stats::Interval& iv = row.speedup->interval;
    f.speedup = AllocatorSpeedup{iv.estimate, iv.low, iv.high, row.speedup->confidence.value_or(NAN)};
  }
  f.blocks = row.blocks;
  if (row.sampling) f.sampling_s = row.sampling->seconds;
  return f;
}

}  // namespace

void add_headline_state(AllocatorComparison& allocator, const BenchRow& row) {
  const AllocatorState s = core::parse_allocator(allocator.state.empty() ? "system" : allocator.state);
  allocator.states.insert(
      allocator.states.begin(),
      AllocatorStateEntry{core::to_string(s), core::describe(s), AllocatorStateStatus::Headline, allocator.library,
                          std::nullopt, figures_of(row, allocator.detected.kind)});
  allocator.compare.row = row.label;
}

void compare_allocator_states(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg,
                              const BenchRowSpec& spec, const AllocatorSetup& setup, const core::Env& shared_env,
                              const BenchRow& row, double clock_res, double eager_est, int cpus, double budget_s,
                              AllocatorComparison& allocator) {
  // Each state's process: no memory figures, no warm-compile record (those are the headline's),
  // one look over one process with a few blocks: a figure for the comparison, not a verdict.
  BenchConfig sc = cfg;
  sc.memory = false;
  sc.raw = false;
  sc.budget_s = budget_s;
  sc.looks = 1;
  sc.min_blocks = 3;
  // All start at once: interpreter start, torch import, target load and the queued compile
  // request overlap each other (all unmeasured); each then waits, idle, for its turn.
  struct Pending {
    AllocatorState state;
    std::string library;
    std::unique_ptr<FreshAgent> agent;
  };
  std::vector<Pending> pending;
  for (auto s : setup.others) {
    const std::string lib = core::needs_library(s) ? core::find_allocator_library(s).value_or("") : "";
    core::Env env = shared_env;
    for (auto& kv : state_env(s, lib)) env.push_back(kv);
    pending.push_back({s, lib, std::make_unique<FreshAgent>(exec, sc, spec, env, false)});
  }
  progress(fmt::format("{}: loading {} allocator states in fresh processes", spec.label(), pending.size()));
  for (auto& p : pending) p.agent->settle();
  for (auto& p : pending) {
    AllocatorStateEntry entry{core::to_string(p.state),
                              core::describe(p.state),
                              AllocatorStateStatus::Measured,
                              p.library.empty() ? std::nullopt : std::optional<std::string>(p.library),
                              std::nullopt,
                              AllocatorFigures{}};
    try {
      progress(fmt::format("{}: allocator {} (warm compile, then {:.1f} s of timing)", spec.label(),
                           core::to_string(p.state), budget_s));
      BenchRow r;  // the state's own figures: the headline row's warm-up curve, nothing else
      r.steady_state = row.steady_state;
      prepare_peer(progress, *p.agent, sc, spec, false, r);
      sample_paired(progress, {p.agent->caller()}, sc, spec, clock_res, eager_est, cpus, r);
      entry.figures = figures_of(
          r,
          detected_allocator(core::fields::read_as<reply::Allocator>(p.agent->call("bench.allocator", json::object())))
              .kind);
      if (r.recompiles_during_measurement.value_or(0) > 0) entry.reason = "recompiled during measurement";
      p.agent->close();
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      entry.status = AllocatorStateStatus::Failed;
      entry.reason = e.what();
    }
    p.agent.reset();
    allocator.states.push_back(std::move(entry));
  }
}

std::optional<report::Warning> conclude_allocator(AllocatorComparison& allocator, const BenchRow* headline) {
  // The headline first, then the measured states, then those left out.
  auto rank = [](const AllocatorStateEntry& s) {
    return s.status == AllocatorStateStatus::Headline ? 0 : s.status == AllocatorStateStatus::Skipped ? 2 : 1;
  };
  std::stable_sort(allocator.states.begin(), allocator.states.end(),
                   [&](const AllocatorStateEntry& a, const AllocatorStateEntry& b) { return rank(a) < rank(b); });
  const auto f = find_allocator_effect(allocator, headline && headline->speedup ? *headline->speedup : Speedup{});
  allocator.differs = f.differs;
  allocator.processes_disagree = f.processes_disagree;
  allocator.best_state = f.best_state.empty() ? std::nullopt : std::optional<std::string>(f.best_state);
  return f.warning;
}

}  // namespace tct::bench
