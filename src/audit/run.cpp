#include "audit/run.hpp"

// Sharing: probe, explain and expect need no isolation and run in ONE agent process (probe's
// facts, then target.load and explain.run, then expect through expect::run_expect, which
// loads the target afresh in that agent: the same code as `tct expect`, so audit says
// exactly what it says). The agent is closed before bench, which needs fresh processes for
// honest timings and cold compile times and runs through bench::run_bench as `tct bench`
// does. After bench, expect's predicted range is checked against the measured speedup
// (expect.validation), as `tct expect --validate` would.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <utility>

#include "agent/agent.hpp"
#include "expect/run.hpp"
#include "expect/sweep.hpp"
#include "explain/run.hpp"
#include "probe/run.hpp"

namespace tct::audit {
namespace {

using AuditClock = std::chrono::steady_clock;

// One audit as it runs: the result so far, the first failure, and the steps.
class AuditStepRunner {
 public:
  AuditStepRunner(const core::Progress& progress, core::Executor& exec, const AuditConfig& cfg,
                  const core::OnPartial<AuditResult>& on_partial)
      : progress_(progress), exec_(exec), cfg_(cfg), on_partial_(on_partial) {
    run_.result.target = cfg.target.target;
  }

  AuditRun run() {
    // 1+2+3. probe, explain and expect in one agent.
    {
      std::unique_ptr<core::Session> agent;
      bool unusable = false;  // the probe finished with a not_usable verdict
      step("probe", [&] {
        ProbeAgent started = cfg_.start_probe_agent();
        agent = std::move(started.session);
        probe::ProbeConfig probe_cfg;
        probe_cfg.python_path = started.python_path;
        result().probe = probe::run_probe(progress_, *agent, probe_cfg, keep(result().probe));
        partial();
        unusable = !result().probe->usable();
      });
      if (unusable) {
        for (const char* s : {"explain", "expect", "bench"}) skip(s, "torch.compile is not usable here (see probe)");
        if (agent) agent->close();
        return std::move(run_);
      }
      if (run_.first_failure) {
        // No agent could start (bad --python, broken environment): every step would fail alike.
        for (const char* s : {"explain", "expect", "bench"}) skip(s, "the probe step failed");
        return std::move(run_);
      }
      if (wants("explain"))
        step("explain", [&] {
          if (!agent) agent = exec_.start({});
          try {
            result().explain =
                explain::run_explain(progress_, *agent, {cfg_.target, true, 2, std::nullopt, trace_subdir("explain")},
                                     keep(result().explain));
            partial();
          } catch (const Error& e) {
            if (agent_lost(e)) agent.reset();  // expect then starts an agent of its own
            throw;
          }
        });
      else skip("explain", "--skip");

      // expect, as `tct expect` runs it, in the same agent (null: it starts its own).
      if (wants("expect")) step("expect", [&] { run_expect(agent.get()); });
      else skip("expect", "--skip");
      if (agent) agent->close();
    }

    // 4. bench, in fresh processes.
    if (wants("bench")) {
      step("bench", [&] {
        tct::bench::BenchConfig bench_cfg = cfg_.bench_config();
        bench_cfg.trace_dir = trace_subdir("bench");
        result().bench = tct::bench::run_bench(progress_, exec_, bench_cfg, keep(result().bench));
        partial();
        validate_expectation(*result().bench);
        // Outputs that differ are the caller's exit after every step (bench_outcome again);
        // any other outcome (a row that failed) fails this step.
        if (auto err = tct::bench::bench_outcome(*result().bench, bench_cfg))
          if (err->code() != ExitCode::CheckFailed) throw *err;
      });
    } else {
      skip("bench", "--skip");
    }
    return std::move(run_);
  }

 private:
  AuditResult& result() { return run_.result; }
  void partial() {
    if (on_partial_) on_partial_(run_.result);
  }

  // A step's partial results: kept in the audit's result (what a failure part way leaves,
  // e.g. explain's loaded target for expect) and handed on.
  template <class Result>
  core::OnPartial<Result> keep(std::optional<Result>& slot) {
    return [this, &slot](const Result& so_far) {
      slot = so_far;
      partial();
    };
  }

  // One folder per step: `tct trace` reads a folder as the ranks of one job, and explain's
  // run and bench's are not ranks of each other.
  std::string trace_subdir(const std::string& step) const {
    return cfg_.trace_dir.empty() ? "" : (std::filesystem::path(cfg_.trace_dir) / step).string();
  }

  bool wants(const std::string& s) const { return std::find(cfg_.skip.begin(), cfg_.skip.end(), s) == cfg_.skip.end(); }

  // Runs one step, recording it in the result's steps; a tct::Error is recorded and kept (the
  // first one ends the audit after the other steps), except Ctrl-C, which ends it now.
  template <class F>
  void step(const std::string& name, F&& body) {
    if (progress_) progress_(name);
    auto t0 = AuditClock::now();
    Step entry;
    entry.name = name;
    try {
      body();
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      entry.status = StepStatus::Failed;
      entry.error = StepError{e.kind(), e.what(), e.hint(), e.stage};
      if (!run_.first_failure) {
        run_.first_failure = e;
        run_.first_failure->stage = e.stage.empty() ? name : name + ": " + e.stage;
      }
    }
    entry.wall = AuditClock::now() - t0;
    result().steps.push_back(std::move(entry));
    partial();
  }

  void skip(const std::string& name, const std::string& why) {
    Step entry;
    entry.name = name;
    entry.status = StepStatus::Skipped;
    entry.reason = why;
    result().steps.push_back(std::move(entry));
    partial();
  }

  // As `tct expect` with the audit's target, first backend and mode, budget and --sweep
  // (expect's defaults otherwise; no --validate: audit's bench validates, see
  // validate_expectation), in the probe/explain agent when it is still alive. What the explain
  // step found (finished or not) is folded in rather than a compiled run of expect's own.
  void run_expect(core::Session* agent) {
    expect::ExpectConfig expect_cfg;
    expect_cfg.target = cfg_.target;
    if (!cfg_.expect_backend.empty()) expect_cfg.backend = cfg_.expect_backend;
    if (!cfg_.expect_mode.empty()) expect_cfg.mode = cfg_.expect_mode;
    expect_cfg.budget_s = cfg_.budget_s;
    if (cfg_.sweep) expect_cfg.sweep = expect::parse_sweep(*cfg_.sweep);
    result().expect = expect::run_expect(progress_, exec_, agent, expect_cfg,
                                         result().explain ? &*result().explain : nullptr, {keep(result().expect), {}});
    partial();
  }

  // expect's predicted range against bench's first row, as `tct expect --validate` does: the
  // validation joins expect's result.
  void validate_expectation(const tct::bench::BenchResult& bench) {
    if (!result().expect || !result().expect->analysis) return;
    if (bench.rows.empty() || !bench.rows[0].ok() || !bench.rows[0].speedup) return;
    if (auto v = expect::validate(*result().expect->analysis, *bench.rows[0].speedup)) {
      result().expect->validation = v;
      partial();
    }
  }

  const core::Progress& progress_;
  core::Executor& exec_;
  const AuditConfig& cfg_;
  const core::OnPartial<AuditResult>& on_partial_;
  AuditRun run_;
};

}  // namespace

AuditRun run_audit(const core::Progress& progress, core::Executor& exec, const AuditConfig& cfg,
                   const core::OnPartial<AuditResult>& on_partial) {
  return AuditStepRunner(progress, exec, cfg, on_partial).run();
}

}  // namespace tct::audit
