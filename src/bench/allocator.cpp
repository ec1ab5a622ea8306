#include "bench/allocator.hpp"

#include <algorithm>
#include <memory>
#include <vector>

#include <fmt/format.h>

#include "bench/allocator_finding.hpp"
#include "core/json_number.hpp"
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
      s.skipped.push_back({{"state", core::to_string(other)},
                           {"description", core::describe(other)},
                           {"status", "skipped"},
                           {"library", nullptr},
                           {"reason", fmt::format("not installed (looked for {})",
                                                  core::allocator_library_candidates(other).front())}});
      continue;
    }
    s.others.push_back(other);
  }
  return s;
}

AllocatorSetup resolve_allocator(const BenchConfig& cfg) { return resolve_allocator(cfg, core::library_file_exists); }

core::Env state_env(AllocatorState s, const std::string& library) { return core::allocator_env(s, library); }

json detected_allocator(const json& facts) {
  if (!facts.is_object())
    return {{"kind", "unknown"}, {"library", nullptr}, {"settled", nullptr}, {"ld_preload", nullptr}};
  const json& mapped = facts.value("mapped", json::array());
  json kind = "glibc", library = nullptr;
  if (mapped.is_array() && !mapped.empty() && mapped[0].is_object()) {
    kind = mapped[0].value("kind", "unknown");
    library = mapped[0].value("path", json());
  } else if (!facts.value("maps_readable", false)) {
    kind = "unknown";
  }
  return {{"kind", kind},
          {"library", library},
          {"settled", facts.value("settled", json())},
          {"ld_preload", facts.value("ld_preload", json())}};
}

json allocator_section(const AllocatorSetup& setup, const json& facts, bool compare, const std::string& compare_reason,
                       double compare_budget_s) {
  json states = json::array();
  for (const auto& s : setup.skipped) states.push_back(s);
  return {{"state", core::to_string(setup.state)},
          {"description", core::describe(setup.state)},
          {"library", setup.library.empty() ? json(nullptr) : json(setup.library)},
          {"ld_preload", setup.library.empty() ? json(nullptr) : json(setup.library)},
          {"settled", setup.state == AllocatorState::Settled},
          {"detected", detected_allocator(facts)},
          {"compare",
           {{"enabled", compare},
            {"skipped_reason", compare_reason.empty() ? json(nullptr) : json(compare_reason)},
            {"budget_s", compare ? json(compare_budget_s) : json(nullptr)},
            {"row", nullptr}}},
          {"states", states},
          {"differs", nullptr},
          {"processes_disagree", nullptr},
          {"best_state", nullptr}};
}

namespace {

// A state's figures from a row sampled in its process.
void put_figures(json& entry, const BenchRow& row) {
  entry["eager_ns"] = row.latency ? core::number_or_null(row.latency->eager_ns.median) : json(nullptr);
  entry["compiled_ns"] = row.latency ? core::number_or_null(row.latency->compiled_ns.median) : json(nullptr);
  if (row.speedup) {
    const stats::Interval& iv = row.speedup->interval;
    entry["speedup"] = {{"estimate", core::number_or_null(iv.estimate)},
                        {"low", core::number_or_null(iv.low)},
                        {"high", core::number_or_null(iv.high)},
                        {"confidence", row.speedup->confidence ? json(*row.speedup->confidence) : json(nullptr)}};
  } else {
    entry["speedup"] = nullptr;
  }
  entry["blocks"] = row.blocks;
  entry["sampling_s"] = row.sampling ? core::number_or_null(row.sampling->seconds) : json(nullptr);
}

}  // namespace

void add_headline_state(json& allocator, const BenchRow& row) {
  const AllocatorState s = core::parse_allocator(allocator.value("state", "system"));
  json entry = {{"state", core::to_string(s)}, {"description", core::describe(s)},
                {"status", "headline"},        {"library", allocator.value("library", json())},
                {"reason", nullptr},           {"detected", allocator.value("detected", json()).value("kind", json())}};
  put_figures(entry, row);
  allocator["compare"]["row"] = row.label;
  allocator["states"].insert(allocator["states"].begin(), entry);
}

void compare_allocator_states(const core::Progress& progress, core::Executor& exec, const BenchConfig& cfg,
                              const BenchRowSpec& spec, const AllocatorSetup& setup, const core::Env& shared_env,
                              const BenchRow& row, double clock_res, double eager_est, int cpus, double budget_s,
                              json& allocator) {
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
    json entry = {{"state", core::to_string(p.state)},
                  {"description", core::describe(p.state)},
                  {"status", "measured"},
                  {"library", p.library.empty() ? json(nullptr) : json(p.library)},
                  {"reason", nullptr},
                  {"detected", nullptr},
                  {"eager_ns", nullptr},
                  {"compiled_ns", nullptr},
                  {"speedup", nullptr},
                  {"blocks", 0},
                  {"sampling_s", nullptr}};
    try {
      progress(fmt::format("{}: allocator {} (warm compile, then {:.1f} s of timing)", spec.label(),
                           core::to_string(p.state), budget_s));
      BenchRow r;  // the state's own figures: the headline row's warm-up curve, nothing else
      r.steady_state = row.steady_state;
      prepare_peer(progress, *p.agent, sc, spec, false, r);
      sample_paired(progress, {p.agent->caller()}, sc, spec, clock_res, eager_est, cpus, r);
      entry["detected"] = detected_allocator(p.agent->call("bench.allocator", json::object())).value("kind", json());
      put_figures(entry, r);
      if (r.recompiles_during_measurement.value_or(0) > 0) entry["reason"] = "recompiled during measurement";
      p.agent->close();
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      entry["status"] = "failed";
      entry["reason"] = e.what();
    }
    p.agent.reset();
    allocator["states"].push_back(entry);
  }
}

std::optional<report::Warning> conclude_allocator(json& allocator, const BenchRow* headline) {
  const json headline_speedup = headline && headline->speedup ? to_json(*headline->speedup) : json();
  // The headline first, then the measured states, then those left out.
  auto rank = [](const json& s) {
    const std::string st = s.value("status", "");
    return st == "headline" ? 0 : st == "skipped" ? 2 : 1;
  };
  std::vector<json> states(allocator["states"].begin(), allocator["states"].end());
  std::stable_sort(states.begin(), states.end(), [&](const json& a, const json& b) { return rank(a) < rank(b); });
  allocator["states"] = states;
  const auto f = find_allocator_effect(allocator, headline_speedup);
  allocator["differs"] = f.differs;
  allocator["processes_disagree"] = f.processes_disagree;
  allocator["best_state"] = f.best_state.empty() ? json(nullptr) : json(f.best_state);
  return f.warning;
}

}  // namespace tct::bench
