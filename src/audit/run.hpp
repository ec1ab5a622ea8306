#pragma once
// The audit's steps as a runner: probe, explain and expect in one agent, then bench in fresh
// processes, each step's status, error and duration recorded in the result, and what a
// failed step means for the next. Flags, exit codes and the document are the caller's
// (cli/cmd_audit.cpp).
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "audit/result.hpp"
#include "bench/run.hpp"
#include "core/executor.hpp"
#include "core/progress.hpp"
#include "core/target_options.hpp"
#include "errors.hpp"

namespace tct::audit {

// Probe's agent: one that starts even without torch (probe reports its absence as a
// verdict), and the interpreter it runs in (the key of probe's facts cache).
struct ProbeAgent {
  std::unique_ptr<core::Session> session;
  std::string python_path;
};

struct AuditConfig {
  core::TargetOptions target;
  // expect's bench settings: the first of bench's backends and modes, and its budget.
  std::string expect_backend;
  std::string expect_mode;
  double budget_s = 5.0;
  std::optional<std::string> sweep;  // expect's --sweep NAME=V1,V2,... (parsed in its step: a bad one fails that step)
  std::string trace_dir;             // --trace DIR: explain's log in DIR/explain, bench's in DIR/bench ("" = none)
  std::vector<std::string> skip;     // steps left out: explain, expect, bench
  // Starts probe's agent (the caller knows the interpreter and records the environment).
  std::function<ProbeAgent()> start_probe_agent;
  // bench's config, made when its step starts: bad bench flags fail that step, not the audit.
  std::function<tct::bench::BenchConfig()> bench_config;
};

struct AuditRun {
  AuditResult result;
  // The first failed step's error, its stage prefixed with the step's name: the audit's exit
  // (after a not_usable verdict, which skips the rest, and before outputs that differ).
  std::optional<Error> first_failure;
};

// Runs the steps in order. A step's tct::Error is recorded in result.steps and the other steps
// still run, except when the probe fails (no agent could start: every step would fail alike)
// or says torch.compile is not usable: the rest is skipped. Ctrl-C (ExitCode::Interrupted)
// propagates at once. on_partial gets the result after every step and every runner's phase.
AuditRun run_audit(const core::Progress& progress, core::Executor& exec, const AuditConfig& cfg,
                   const core::OnPartial<AuditResult>& on_partial);

}  // namespace tct::audit
