// tct audit: probe, explain, expect and bench of one target in one go, written as one
// document (one report: -o report.html -o report.md).
//
// Sharing: probe, explain and expect need no isolation and run in ONE agent process (probe's
// facts, then target.load and explain.run, then expect through expect::run_expect, which
// loads the target afresh in that agent: the same code as `tct expect`, so audit says
// exactly what it says). The agent is closed before bench, which needs fresh processes for
// honest timings and cold compile times and runs through bench::run_bench as `tct bench`
// does. After bench, expect's predicted range is checked against the measured speedup
// (expect.validation), as `tct expect --validate` would.
//
// A step that fails is recorded in audit.steps (with its error) and the other steps still
// run; the audit then ends with the first failure's exit code. A probe verdict of
// not_usable skips the other steps (exit 1).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "agent/agent.hpp"
#include "audit/json.hpp"
#include "audit/result.hpp"
#include "expect/json.hpp"
#include "cli/bench_options.hpp"
#include "cli/command.hpp"
#include "cli/sections.hpp"
#include "cli/usage.hpp"
#include "cli/target_options.hpp"
#include "errors.hpp"
#include "report/document.hpp"
#include "report/warning.hpp"
#include "bench/plan.hpp"
#include "bench/json.hpp"
#include "bench/run.hpp"
#include "probe/run.hpp"
#include "expect/run.hpp"
#include "explain/json.hpp"
#include "explain/run.hpp"
#include "expect/sweep.hpp"

namespace tct::cli {
namespace {

using Clock = std::chrono::steady_clock;

class AuditCommand : public Command {
 public:
  CLI::App* define(CLI::App& app) override {
    auto* cmd = app.add_subcommand("audit", "Everything at once: probe, graph breaks, expectation and benchmark "
                                            "of one target, in one report (-o report.html)");
    add_target_options(*cmd, bench_.base.target);
    bench_.add_to(*cmd);  // bench's flags, for its step; expect takes the first backend and mode
    cmd->add_option("--sweep", sweep_, "NAME=V1,V2,...: expect's sweep of a factory parameter (speedup against it)");
    cmd->add_option("--trace", trace_dir_, "Keep the TORCH_TRACE logs in DIR: explain's compiled run in DIR/explain, "
                                           "bench's measured compiles in DIR/bench (read each with `tct trace`)")
        ->type_name("DIR");
    cmd->add_option("--skip", skip_, "Steps to leave out: explain, expect, bench (comma-separated)")
        ->delimiter(',')
        ->check(CLI::IsMember({"explain", "expect", "bench"}));
    add_common_options(*cmd, common);
    cmd->footer(R"(Examples:
  tct audit builtin:transformer_block -o report.html -o report.md
  tct audit model.py:make_model --param batch=64 --device cuda --json > audit.json
  tct audit builtin:tiny_ops --backend aot_eager --budget 2 --no-compile-time --sweep batch=1,8,64
  tct audit model.py:make_model --trace traces && tct trace traces/explain
Steps: probe, explain and expect share one agent process; bench then runs as `tct bench`
does (in fresh processes). Re-render a saved document with `tct report audit.json`.
Exit codes: 0 ok; 1 torch.compile not usable here (the rest is skipped) or compiled outputs
differ; 2 bad usage or input; 3 the target failed in a step (the other steps still run and
are reported); 4 internal error.)");
    return cmd;
  }

  int run(RunContext& ctx) override {
    result_.target = bench_.base.target.target;
    ctx.write("audit", audit::to_json(result_));
    std::optional<Error> first_failure;
    std::optional<Error> mismatch;  // outputs differ: reported after every step ran (exit 1)

    // 1+2+3. probe, explain and expect in one agent.
    {
      std::unique_ptr<core::Session> agent;
      bool unusable = false;  // the probe finished with a not_usable verdict
      step(ctx, "probe", first_failure, [&] {
        agent = ctx.start_for_probe();
        probe::ProbeConfig cfg;
        cfg.python_path = ctx.environment()["interpreter"].value("path", "");
        result_.probe = probe::run_probe(ctx.progress_sink(), *agent, cfg, keep(ctx, result_.probe));
        write_section(ctx, *result_.probe);
        unusable = !result_.probe->usable();
      });
      if (unusable) {
        for (const char* s : {"explain", "expect", "bench"}) skip(ctx, s, "torch.compile is not usable here (see probe)");
        if (agent) agent->close();
        throw probe::not_usable_error(*result_.probe);
      }
      if (first_failure) {
        // No agent could start (bad --python, broken environment): every step would fail alike.
        for (const char* s : {"explain", "expect", "bench"}) skip(ctx, s, "the probe step failed");
        throw *first_failure;
      }
      if (wants("explain"))
        step(ctx, "explain", first_failure, [&] {
          if (!agent) agent = ctx.start({});
          try {
            result_.explain =
                explain::run_explain(ctx.progress_sink(), *agent,
                                     {bench_.base.target, true, 2, std::nullopt, trace_subdir("explain")},
                                     keep(ctx, result_.explain));
            write_section(ctx, *result_.explain);
          } catch (const Error& e) {
            if (agent_lost(e)) agent.reset();  // expect then starts an agent of its own
            throw;
          }
        });
      else
        skip(ctx, "explain", "--skip");

      // expect, as `tct expect` runs it, in the same agent (null: it starts its own).
      if (wants("expect")) step(ctx, "expect", first_failure, [&] { run_expect(ctx, agent.get()); });
      else skip(ctx, "expect", "--skip");
      if (agent) agent->close();
    }

    // 4. bench, in fresh processes.
    if (wants("bench")) {
      step(ctx, "bench", first_failure, [&] {
        bench::BenchConfig cfg = bench_config();
        locate_aoti_runner(ctx, cfg);  // --backend aoti
        result_.bench = bench::run_bench(ctx.progress_sink(), ctx, cfg, keep(ctx, result_.bench));
        write_section(ctx, *result_.bench);
        validate_expectation(ctx, *result_.bench);
        if (auto err = bench::bench_outcome(*result_.bench, cfg)) {
          if (err->code() == ExitCode::CheckFailed) mismatch = err;
          else throw *err;
        }
      });
    } else {
      skip(ctx, "bench", "--skip");
    }
    if (first_failure) throw *first_failure;
    if (mismatch) throw *mismatch;
    return 0;
  }

 private:
  // Audit's bench defaults: a shorter budget than `tct bench` (audit does four things).
  static BenchOptions default_bench() {
    BenchOptions options;
    options.base.budget_s = 5.0;
    return options;
  }

  // A step's partial results: kept in the audit's result (what a failure part way leaves,
  // e.g. explain's loaded target for expect) and written to its section and the --out files.
  template <class Result>
  static core::OnPartial<Result> keep(RunContext& ctx, std::optional<Result>& slot) {
    return [&ctx, &slot](const Result& so_far) {
      slot = so_far;
      write_section(ctx, so_far);
      ctx.checkpoint();
    };
  }

  // One folder per step: `tct trace` reads a folder as the ranks of one job, and explain's
  // run and bench's are not ranks of each other.
  std::string trace_subdir(const std::string& step) const {
    return trace_dir_.empty() ? "" : (std::filesystem::path(trace_dir_) / step).string();
  }

  bool wants(const std::string& s) const { return std::find(skip_.begin(), skip_.end(), s) == skip_.end(); }

  // Runs one step, recording it in the result's steps; a tct::Error is recorded and kept (the
  // first one ends the audit after the other steps), except Ctrl-C, which ends it now.
  template <class F>
  void step(RunContext& ctx, const std::string& name, std::optional<Error>& first_failure, F&& body) {
    ctx.progress(name);
    auto t0 = Clock::now();
    audit::Step entry;
    entry.name = name;
    try {
      body();
    } catch (const Error& e) {
      if (e.code() == ExitCode::Interrupted) throw;
      entry.status = audit::StepStatus::Failed;
      entry.error = audit::StepError{e.kind(), e.what(), e.hint(), e.stage};
      if (!first_failure) {
        first_failure = e;
        first_failure->stage = e.stage.empty() ? name : name + ": " + e.stage;
      }
      ctx.warn({report::kind::AuditStepFailed{name, e.what(), e.hint()}, ""});
    }
    entry.wall = Clock::now() - t0;
    result_.steps.push_back(std::move(entry));
    ctx.checkpoint("audit", audit::to_json(result_));
  }

  void skip(RunContext& ctx, const std::string& name, const std::string& why) {
    audit::Step entry;
    entry.name = name;
    entry.status = audit::StepStatus::Skipped;
    entry.reason = why;
    result_.steps.push_back(std::move(entry));
    ctx.write("audit", audit::to_json(result_));
  }

  // As `tct expect` with the audit's target, first backend and mode, budget and --sweep
  // (expect's defaults otherwise; no --validate: audit's bench validates, see
  // validate_expectation), in the probe/explain agent when it is still alive. What the explain
  // step found (finished or not) is folded in rather than a compiled run of expect's own.
  void run_expect(RunContext& ctx, core::Session* agent) {
    expect::ExpectConfig cfg;
    cfg.target = bench_.base.target;
    auto backends = bench::split_list(bench_.backend);
    auto modes = bench::split_list(bench_.mode);
    if (!backends.empty()) cfg.backend = backends[0];
    if (!modes.empty()) cfg.mode = modes[0];
    cfg.budget_s = bench_.base.budget_s;
    if (sweep_) cfg.sweep = expect::parse_sweep(*sweep_);
    result_.expect = expect::run_expect(ctx.progress_sink(), ctx, agent, cfg, result_.explain ? &*result_.explain : nullptr,
                                        {keep(ctx, result_.expect), {}});
    write_section(ctx, *result_.expect);
  }

  bench::BenchConfig bench_config() const {
    bench::BenchConfig cfg = bench_.config();
    cfg.trace_dir = trace_subdir("bench");
    return cfg;
  }

  // expect's predicted range against bench's first row, as `tct expect --validate` does: the
  // validation joins expect's result, and its section is written again from it.
  void validate_expectation(RunContext& ctx, const tct::bench::BenchResult& bench) {
    if (!result_.expect || !result_.expect->analysis) return;
    if (bench.rows.empty() || !bench.rows[0].ok() || !bench.rows[0].speedup) return;
    if (auto v = expect::validate(*result_.expect->analysis, *bench.rows[0].speedup)) {
      result_.expect->validation = v;
      write_section(ctx, *result_.expect);
      ctx.checkpoint();
    }
  }

  audit::AuditResult result_;  // the steps, and what each step's runner returned
  BenchOptions bench_ = default_bench();
  std::optional<std::string> sweep_;
  std::string trace_dir_;
  std::vector<std::string> skip_;
};

}  // namespace

std::unique_ptr<Command> make_audit_command() { return std::make_unique<AuditCommand>(); }

}  // namespace tct::cli
